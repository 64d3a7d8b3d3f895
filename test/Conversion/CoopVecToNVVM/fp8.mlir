// 8-bit float matrices (sm_89 and later): the inputs converted by
// cvt.rn.satfinite (an E5M2 infinity put back), the weights and inputs
// decoded by cvt.rn.f16x2 on the per-lane path, and mma.sync e4m3 x e5m2
// through llvm.call_intrinsic (MLIR 22's nvvm.mma.sync has no fp8 forms).
// RUN: coopvec-opt %S/Inputs/fp8.mlir --convert-coopvec-to-nvvm=chip=sm_89 | FileCheck %s
// RUN: coopvec-opt %S/Inputs/fp8.mlir --coopvec-nvvm-pipeline="chip=sm_89 format=isa" \
// RUN:   | sed -e 's/\\0A/\n/g' -e 's/\\09/ /g' | FileCheck %s --check-prefix=PTX
// CHECK: llvm.call_intrinsic "llvm.nvvm.ff.to.e4m3x2.rn"
// CHECK: llvm.call_intrinsic "llvm.nvvm.mma.m16n8k32.row.col.f32.e4m3.e4m3.f32"({{.*}}) : (i32, i32, i32, i32, i32, i32, f32, f32, f32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK: llvm.call_intrinsic "llvm.nvvm.e4m3x2.to.f16x2.rn"
// PTX: .target sm_89
// PTX: cvt.rn.satfinite.e4m3x2.f32
// PTX: mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32
// PTX: cvt.rn.f16x2.e4m3x2
// REQUIRES: ptxas
// RUN: coopvec-opt %S/Inputs/fp8.mlir --coopvec-nvvm-pipeline="chip=sm_89 format=bin" | FileCheck %s --check-prefix=BIN
// RUN: coopvec-opt %S/Inputs/fp8.mlir --coopvec-nvvm-pipeline="chip=sm_120a format=bin" | FileCheck %s --check-prefix=BIN
// BIN: bin = "\7FELF
