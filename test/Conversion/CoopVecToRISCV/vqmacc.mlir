// RUN: coopvec-opt %s --convert-coopvec-to-riscv | mlir-translate --mlir-to-cpp | FileCheck %s
// RUN: coopvec-opt %s --convert-coopvec-to-riscv=lmul=2 | mlir-translate --mlir-to-cpp | FileCheck %s --check-prefix=LMUL2
// RUN: coopvec-opt %s --convert-coopvec-to-riscv=min-vlen=1024 | mlir-translate --mlir-to-cpp | FileCheck %s --check-prefix=V1024
// RUN: coopvec-opt %s --convert-coopvec-to-riscv=isa=rvv | mlir-translate --mlir-to-cpp | FileCheck %s --check-prefix=RVV

// The generic RVV path: int16 inputs, one vwmacc.vx per k, no vqmacc and no
// whole-tile check; a static batch of 8 rows at min-vlen 128 takes LMUL 2.
// RVV-LABEL: void coopvec_ss(
// RVV-NOT: VLEN too small
// RVV: int16_t* {{v[0-9]+}} = (int16_t*)
// RVV: vint16m4_t {{v[0-9]+}} = __riscv_vle16_v_i16m4(
// RVV: vint32m8_t {{v[0-9]+}} = __riscv_vwmacc_vx_i32m8(
// RVV-NOT: xl_vqmacc
// RVV-LABEL: void coopvec_uu(
// RVV: __riscv_vwmacc_vx_i32m2(

// The C that --convert-coopvec-to-riscv emits for one batch_matvec per
// signedness: its signature (memrefs as pointer + first dimension), the
// checks, the A tiles loaded 16 bytes at a time, the B tiles vl bytes at the
// LMUL/4 pairing, one vqmacc form per signedness, the stores at vl.

// CHECK: #include "coopvec_riscv.h"
// CHECK-LABEL: void coopvec_ss(
// CHECK-SAME: int32_t* [[X:v[0-9]+]], int64_t [[N:v[0-9]+]], int8_t* [[W:v[0-9]+]], int64_t [[WB:v[0-9]+]], int32_t* [[Y:v[0-9]+]], int64_t [[YN:v[0-9]+]]) {
// CHECK: [[NE:v[0-9]+]] = [[N]] != [[YN]];
// CHECK: coopvec_rv_error("coopvec.batch_matvec at {{.*}}vqmacc.mlir:{{[0-9]+}}:3", "input and output batches differ in rows");
// CHECK: coopvec_rv_error("coopvec.batch_matvec at {{.*}}", "matrix out of bounds");
// Dynamic batch: LMUL 8, B at i8m2.
// CHECK: __riscv_vsetvlmax_e32m8()
// CHECK: "VLEN too small for whole 4x4 tiles at LMUL 8"
// CHECK: __riscv_vsetvl_e32m8(
// CHECK: __riscv_vmv_v_x_i32m8(
// CHECK: vint8m1_t {{v[0-9]+}} = __riscv_vle8_v_i8m1({{v[0-9]+}}, {{v[0-9]+}});
// CHECK: vint8m2_t {{v[0-9]+}} = __riscv_vle8_v_i8m2(
// CHECK: __riscv_xl_vqmacc_4x4x4_i32m8(
// CHECK: __riscv_vse32_v_i32m8(
// CHECK: free(
func.func @ss(%x: memref<?x10xi32>, %w: memref<?xi8>, %y: memref<?x7xi32>) {
  %c0 = arith.constant 0 : index
  %s = arith.constant 16 : index
  coopvec.batch_matvec %x as I8, %w[%c0] matrix<I8, 7x10, RowMajor> stride %s into %y
      : memref<?x10xi32>, memref<?xi8> -> memref<?x7xi32>
  return
}

// A static batch of 8 (2 tiles): at min-vlen 128 both need LMUL 8; at
// 1024, LMUL 1 holds both.
// CHECK-LABEL: void coopvec_uu(
// CHECK: vuint8m1_t {{v[0-9]+}} = __riscv_vle8_v_u8m1(
// CHECK: vuint8m2_t {{v[0-9]+}} = __riscv_vle8_v_u8m2(
// CHECK: __riscv_xl_vqmaccu_4x4x4_i32m8(
// LMUL2-LABEL: void coopvec_uu(
// LMUL2: vuint8mf2_t {{v[0-9]+}} = __riscv_vle8_v_u8mf2(
// LMUL2: __riscv_xl_vqmaccu_4x4x4_i32m2(
// V1024-LABEL: void coopvec_uu(
// V1024: vuint8mf4_t {{v[0-9]+}} = __riscv_vle8_v_u8mf4(
// V1024: __riscv_xl_vqmaccu_4x4x4_i32m1(
func.func @uu(%x: memref<8x4xi32>, %w: memref<?xi8>, %y: memref<8x4xi32>) {
  %c0 = arith.constant 0 : index
  %s = arith.constant 16 : index
  coopvec.batch_matvec %x unsigned as U8, %w[%c0] matrix<U8, 4x4, ColumnMajor> stride %s into %y
      : memref<8x4xi32>, memref<?xi8> -> memref<8x4xi32>
  return
}

// U8 matrix x I8 input: vqmaccus; I8 matrix x U8 input: vqmaccsu; the bias
// read as int32 words at its offset.
// CHECK-LABEL: void coopvec_us(
// CHECK: "bias out of bounds"
// CHECK: __riscv_xl_vqmaccus_4x4x4_i32m8(
// CHECK: int32_t* {{v[0-9]+}} = (int32_t*) {{v[0-9]+}};
func.func @us(%x: memref<?x5xi32>, %w: memref<?xi8>, %b: memref<?xi8>, %y: memref<?x3xi32>) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %s = arith.constant 16 : index
  coopvec.batch_matvec %x as I8, %w[%c0] matrix<U8, 3x5, RowMajor> stride %s bias %b[%c64] as I32 into %y
      : memref<?x5xi32>, memref<?xi8>, memref<?xi8> -> memref<?x3xi32>
  return
}
// CHECK-LABEL: void coopvec_su(
// CHECK: __riscv_xl_vqmaccsu_4x4x4_i32m8(
func.func @su(%x: memref<?x5xi32>, %w: memref<?xi8>, %y: memref<?x3xi32>) {
  %c0 = arith.constant 0 : index
  %s = arith.constant 16 : index
  coopvec.batch_matvec %x as U8, %w[%c0] matrix<I8, 3x5, RowMajor> stride %s into %y
      : memref<?x5xi32>, memref<?xi8> -> memref<?x3xi32>
  return
}

// Packed inputs: byte k % 4 of word k / 4 (3 words a row for K = 10),
// shifted out unsigned, then read as uint8_t for PackedU8x32: vqmaccsu.
// CHECK-LABEL: void coopvec_packed(
// CHECK: [[WORD:v[0-9]+]] = (uint32_t) {{v[0-9]+}};
// CHECK: [[SH:v[0-9]+]] = (uint32_t) {{v[0-9]+}};
// CHECK: uint32_t [[BITS:v[0-9]+]] = [[WORD]] >> [[SH]];
// CHECK: uint8_t {{v[0-9]+}} = (uint8_t) [[BITS]];
// CHECK: __riscv_xl_vqmaccsu_4x4x4_i32m8(
func.func @packed(%x: memref<?x3xi32>, %w: memref<?xi8>, %y: memref<?x5xi32>) {
  %c0 = arith.constant 0 : index
  %s = arith.constant 16 : index
  coopvec.batch_matvec %x as PackedU8x32, %w[%c0] matrix<I8, 5x10, RowMajor> stride %s into %y
      : memref<?x3xi32>, memref<?xi8> -> memref<?x5xi32>
  return
}
