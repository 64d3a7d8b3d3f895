// fp6/fp4 matrices and block-scaled ones (MX, NVFP4) read by 8-, 6- and 4-bit
// float inputs. On sm_120a the warp's step is mma.sync kind::f8f6f4 (fp6 in the low
// six bits of each 8-bit container, fp4 in bits 5..2) and, for UE8M0 scales
// per 32 elements, kind::mxf8f6f4 block_scale scale_vec::1X (this lane's A
// scale byte, B scales 0x7F = 1.0). The per-lane path decodes with
// cvt.rn.f16x2.{e2m1,e2m3,e3m2}x2 and multiplies each element by its scale
// (UE8M0 2^(s - 127), NaN for 0xFF; UE4M3 its E4M3 value). On sm_100a, whose
// mma.sync has no kind::f8f6f4 (llc cannot select it), only the per-lane path.
// RUN: coopvec-opt %S/Inputs/f8f6f4.mlir --convert-coopvec-to-nvvm=chip=sm_120a | FileCheck %s
// RUN: coopvec-opt %S/Inputs/f8f6f4.mlir --convert-coopvec-to-nvvm=chip=sm_100a | FileCheck %s --check-prefix=SM100A
// Before sm_120a a block-scaled fp8 matrix (the sm_89/sm_90 profiles list
// block_scale) is multiplied per lane: no mma in the kernel.
// RUN: coopvec-opt %S/Inputs/mxfp8.mlir --convert-coopvec-to-nvvm=chip=sm_90 | FileCheck %s --check-prefix=SM90
// RUN: coopvec-opt %S/Inputs/f8f6f4.mlir --coopvec-nvvm-pipeline="chip=sm_120a format=isa" \
// RUN:   | sed -e 's/\\0A/\n/g' -e 's/\\09/ /g' | FileCheck %s --check-prefix=PTX

// CHECK-LABEL: gpu.func @fp4
// The A fragments: each fp4 code (its byte >> 0 or 4, & 15) moved to bits 5..2.
// CHECK: %[[NIB:.*]] = arith.andi %{{.*}}, %c15_i32{{(_[0-9]+)?}} : i32
// CHECK: arith.shli %[[NIB]], %c2_i32{{(_[0-9]+)?}} : i32
// CHECK: llvm.call_intrinsic "llvm.nvvm.mma.m16n8k32.row.col.kind.f8f6f4.f32.e2m1.e4m3.f32"({{.*}}) : (i32, i32, i32, i32, i32, i32, f32, f32, f32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK: nvvm.convert.f4x2.to.f16x2 %{{.*}} : i8(f4E2M1FN) -> vector<2xf16>

// CHECK-LABEL: gpu.func @fp6_column_major
// CHECK: arith.andi %{{.*}}, %c63_i32{{(_[0-9]+)?}} : i32
// CHECK: llvm.call_intrinsic "llvm.nvvm.mma.m16n8k32.row.col.kind.f8f6f4.f32.e3m2.e5m2.f32"
// CHECK: nvvm.convert.f6x2.to.f16x2 %{{.*}} : vector<2xi8>(f6E3M2FN) -> vector<2xf16>

// CHECK-LABEL: gpu.func @mxfp6
// Row-major whole words: one load, the upper two bits of each byte cleared.
// CHECK: arith.andi %{{.*}}, %c1061109567_i32{{(_[0-9]+)?}} : i32
// CHECK: llvm.call_intrinsic "llvm.nvvm.mma.block.scale.m16n8k32.row.col.mxf8f6f4.scale.1x.f32.e2m3.e4m3.f32.ue8m0"({{.*}}, %c0_i16{{(_[0-9]+)?}}, %c0_i16{{(_[0-9]+)?}}, %c127_i32{{(_[0-9]+)?}}, %c0_i16{{(_[0-9]+)?}}, %c0_i16{{(_[0-9]+)?}}) : (i32, i32, i32, i32, i32, i32, f32, f32, f32, f32, i32, i16, i16, i32, i16, i16) -> !llvm.struct<(f32, f32, f32, f32)>
// The per-lane path: 2^(s - 127) from the scale byte, 2^-127 for 0, NaN for 0xFF.
// CHECK: arith.shli %{{.*}}, %c23_i32{{(_[0-9]+)?}} : i32
// CHECK: arith.constant 4194304 : i32
// CHECK: arith.constant 2143289344 : i32
// CHECK: nvvm.convert.f6x2.to.f16x2 %{{.*}} : vector<2xi8>(f6E2M3FN) -> vector<2xf16>
// CHECK: arith.mulf

// CHECK-LABEL: gpu.func @mxfp4
// CHECK: llvm.call_intrinsic "llvm.nvvm.mma.block.scale.m16n8k32.row.col.mxf8f6f4.scale.1x.f32.e2m1.e4m3.f32.ue8m0"
// CHECK-LABEL: gpu.func @mxfp8
// CHECK: llvm.call_intrinsic "llvm.nvvm.mma.block.scale.m16n8k32.row.col.mxf8f6f4.scale.1x.f32.e5m2.e4m3.f32.ue8m0"

// 16-element blocks read by fp8 inputs (NVFP4's UE4M3 scales, UE8M0 x 16):
// per lane only (no m16n8k32 form takes them; fp4 x fp4 below). A UE4M3
// scale is the E4M3 value of its low seven bits.
// CHECK-LABEL: gpu.func @nvfp4
// CHECK-NOT: mma
// CHECK: arith.andi %{{.*}}, %c127_i32{{(_[0-9]+)?}} : i32
// CHECK: llvm.call_intrinsic "llvm.nvvm.e4m3x2.to.f16x2.rn"
// CHECK-NOT: mma
// CHECK-LABEL: gpu.func @mxfp4_16
// CHECK-NOT: mma
// CHECK: arith.constant 2143289344 : i32
// CHECK-NOT: mma
// CHECK: gpu.return

// fp6/fp4 inputs: cvt.rn.satfinite.{e2m3,e3m2,e2m1}x2.f32 (+MAX_NORM for NaN,
// as the DXIL rule), fp6 codes in the low six bits of each B byte, fp4 codes
// in bits 5..2.
// CHECK-LABEL: gpu.func @fp6_inputs
// CHECK: nvvm.convert.f32x2.to.f6x2 %{{.*}} : i16(f6E2M3FN)
// CHECK: arith.andi %{{.*}}, %c63_i32{{(_[0-9]+)?}} : i32
// CHECK: llvm.call_intrinsic "llvm.nvvm.mma.m16n8k32.row.col.kind.f8f6f4.f32.e4m3.e2m3.f32"
// CHECK-LABEL: gpu.func @fp4_inputs_mxfp6
// CHECK: %[[IN:.*]] = arith.andi %{{.*}}, %c15_i32{{(_[0-9]+)?}} : i32
// CHECK: arith.shli %[[IN]], %c2_i32{{(_[0-9]+)?}} : i32
// CHECK: llvm.call_intrinsic "llvm.nvvm.mma.block.scale.m16n8k32.row.col.mxf8f6f4.scale.1x.f32.e3m2.e2m1.f32.ue8m0"

// fp4 x fp4 with MXFP4 or NVFP4 blocks: m16n8k64 kind::mxf4 scale_vec::2X /
// kind::mxf4nvf4 scale_vec::4X, eight packed nibbles per register. Each input
// byte is one cvt of two elements, the even one in the low nibble (the cvt's
// second operand); the row-major matrix is read as whole i32 words (no
// containers). The second k-tile's scale word of @mxfp4_fp4 (K = 80) holds
// block 2 in byte 0 and 1.0 (127) in byte 1, past the row's last block. B's
// scales are 1.0 in every byte: 0x7F7F7F7F, 0x38383838.
// CHECK-LABEL: gpu.func @mxfp4_fp4
// CHECK: %[[E0:.*]] = vector.extract %arg0[0] : f32 from vector<80xf32>
// CHECK: %[[E1:.*]] = vector.extract %arg0[1] : f32 from vector<80xf32>
// CHECK: nvvm.convert.f32x2.to.f4x2 %[[E1]], %[[E0]] : i8(f4E2M1FN)
// CHECK: memref.load %{{.*}} : memref<?xi32>
// CHECK-NOT: arith.shli %{{.*}}, %c2_i32
// CHECK: %[[UNIT:.*]] = arith.constant 127 : i32
// CHECK: arith.shli %[[UNIT]], %c8_i32{{(_[0-9]+)?}} : i32
// CHECK: llvm.call_intrinsic "llvm.nvvm.mma.block.scale.m16n8k64.row.col.mxf4.scale.2x.f32.e2m1.e2m1.f32.ue8m0"({{.*}}, %c2139062143_i32{{(_[0-9]+)?}}, %c0_i16{{(_[0-9]+)?}}, %c0_i16{{(_[0-9]+)?}}) : (i32, i32, i32, i32, i32, i32, f32, f32, f32, f32, i32, i16, i16, i32, i16, i16)
// CHECK-NOT: m16n8k32
// CHECK-LABEL: gpu.func @nvfp4_fp4
// The last input byte (K = 39): element 38 and a zero.
// CHECK: %[[LAST:.*]] = vector.extract %arg0[38] : f32 from vector<39xf32>
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: nvvm.convert.f32x2.to.f4x2 %[[ZERO]], %[[LAST]] : i8(f4E2M1FN)
// Column-major: A element by element, nibble 7 of a word at bits 28..31.
// CHECK: arith.shli %{{.*}}, %c28_i32{{(_[0-9]+)?}} : i32
// CHECK: llvm.call_intrinsic "llvm.nvvm.mma.block.scale.m16n8k64.row.col.mxf4nvf4.scale.4x.f32.e2m1.e2m1.f32.ue4m3"({{.*}}, %c943208504_i32{{(_[0-9]+)?}}, %c0_i16{{(_[0-9]+)?}}, %c0_i16{{(_[0-9]+)?}})
// CHECK-NOT: m16n8k32

// SM100A-NOT: mma
// SM100A: nvvm.convert.f4x2.to.f16x2
// SM100A-NOT: mma
// SM100A: nvvm.convert.f6x2.to.f16x2 %{{.*}} : vector<2xi8>(f6E3M2FN)
// SM100A-NOT: mma
// SM100A: nvvm.convert.f6x2.to.f16x2 %{{.*}} : vector<2xi8>(f6E2M3FN)
// SM100A-NOT: mma

// SM90-LABEL: gpu.func @mxfp8
// SM90-NOT: mma
// SM90: arith.constant 2143289344 : i32
// SM90: llvm.call_intrinsic "llvm.nvvm.e5m2x2.to.f16x2.rn"
// SM90-NOT: mma
// SM90: gpu.return

// PTX: .target sm_120a
// PTX: mma.sync.aligned.m16n8k32.row.col.kind::f8f6f4.f32.e2m1.e4m3.f32
// PTX: cvt.rn.f16x2.e2m1x2
// PTX: mma.sync.aligned.m16n8k32.row.col.kind::f8f6f4.f32.e3m2.e5m2.f32
// PTX: cvt.rn.f16x2.e3m2x2
// PTX: mma.sync.aligned.m16n8k32.row.col.kind::mxf8f6f4.block_scale.scale_vec::1X.f32.e2m3.e4m3.f32.ue8m0
// PTX: cvt.rn.f16x2.e2m3x2
// PTX: mma.sync.aligned.m16n8k32.row.col.kind::mxf8f6f4.block_scale.scale_vec::1X.f32.e2m1.e4m3.f32.ue8m0
// PTX: mma.sync.aligned.m16n8k32.row.col.kind::mxf8f6f4.block_scale.scale_vec::1X.f32.e5m2.e4m3.f32.ue8m0
// PTX: cvt.rn.satfinite.e2m3x2.f32
// PTX: mma.sync.aligned.m16n8k32.row.col.kind::f8f6f4.f32.e4m3.e2m3.f32
// PTX: cvt.rn.satfinite.e2m1x2.f32
// PTX: mma.sync.aligned.m16n8k32.row.col.kind::mxf8f6f4.block_scale.scale_vec::1X.f32.e3m2.e2m1.f32.ue8m0
// PTX: mma.sync.aligned.m16n8k64.row.col.kind::mxf4.block_scale.scale_vec::2X.f32.e2m1.e2m1.f32.ue8m0
// PTX: mma.sync.aligned.m16n8k64.row.col.kind::mxf4nvf4.block_scale.scale_vec::4X.f32.e2m1.e2m1.f32.ue4m3
