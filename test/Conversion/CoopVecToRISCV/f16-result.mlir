// RUN: coopvec-opt %s --convert-coopvec-to-riscv | FileCheck %s --check-prefix=C
// RUN: coopvec-opt %s --convert-coopvec-to-riscv=isa=xsfvqmacc-2x8x2 | FileCheck %s --check-prefix=SIFIVE

// f16 results of the plain product: the exact sum plus the bias, saturated
// to f16's finite range (+-65504, the CPU runtime's integer to f16 rule),
// then rounded once to nearest even. The C path calls coopvec_rv_f32_to_f16
// on the (exact) f32 of the saturated sum; the SiFive path, which has no C
// helpers and no Zfh, rounds the f32's bits to f16 in integer arithmetic
// (BitConversions::dxilToF16, shared with the SPIR-V lowering: rebias by
// 112 << 10, drop 13 fraction bits, round up past 0x1000 or on a tie to odd).
// Execution: test/Integration/RISCV/float-exec.test and matvec-exec.test.

// C-LABEL: emitc.func @coopvec_f16_result(
// C-SAME: !emitc.ptr<f16>
// C: "emitc.constant"() <{value = -65504 : i64}>
// C: "emitc.constant"() <{value = 65504 : i64}>
// C: call_opaque "coopvec_rv_f32_to_f16"(%{{.*}}) : (f32) -> ui16
// C-NOT: coopvec.batch_matvec

// SIFIVE-LABEL: func.func @coopvec_f16_result(
// SIFIVE: llvm.call_intrinsic "llvm.riscv.sf.vqmacc.2x8x2"
// SIFIVE: %[[LO:.*]] = arith.constant -65504 : i64
// SIFIVE: %[[HI:.*]] = arith.constant 65504 : i64
// SIFIVE: %[[A:.*]] = arith.maxsi %{{.*}}, %[[LO]] : i64
// SIFIVE: %[[S:.*]] = arith.minsi %[[A]], %[[HI]] : i64
// SIFIVE: %[[F:.*]] = arith.sitofp %[[S]] : i64 to f32
// SIFIVE: %[[BITS:.*]] = arith.bitcast %[[F]] : f32 to i32
// SIFIVE: arith.constant 112 : i32
// SIFIVE: arith.subi %{{.*}}, %{{.*}} : i32
// SIFIVE: arith.constant 8191 : i32
// SIFIVE: arith.constant 4096 : i32
// SIFIVE: %[[H:.*]] = arith.trunci %{{.*}} : i32 to i16
// SIFIVE: %[[HF:.*]] = arith.bitcast %[[H]] : i16 to f16
// SIFIVE: memref.store %[[HF]], %{{.*}} : memref<?x8xf16>
func.func @f16_result(%x: memref<?x8xi32>, %w: memref<?xi8>, %b: memref<?xi8>, %y: memref<?x8xf16>) {
  %c0 = arith.constant 0 : index
  %s = arith.constant 16 : index
  coopvec.batch_matvec %x as I8, %w[%c0] matrix<I8, 8x8, RowMajor> stride %s bias %b[%c0] as I32 into %y
      : memref<?x8xi32>, memref<?xi8>, memref<?xi8> -> memref<?x8xf16>
  return
}
