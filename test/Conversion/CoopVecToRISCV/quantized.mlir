// RUN: coopvec-opt %s --convert-coopvec-to-riscv | mlir-translate --mlir-to-cpp | FileCheck %s
// RUN: coopvec-opt %s --convert-coopvec-to-riscv=isa=rvv | mlir-translate --mlir-to-cpp | FileCheck %s --check-prefix=RVV

// The quantized form: the tiles multiply the stored values; zero points,
// reductions and scales are applied per block of K in int64_t, then f32.

// An i32 result with a per-tensor U8 weight zero point: one block (K), the
// block's input sums, P - zw * Sx, the I32 bias and saturation.
// CHECK-LABEL: void coopvec_int(
// CHECK-SAME: int8_t* [[X:v[0-9]+]], int64_t [[N:v[0-9]+]], int8_t* [[W:v[0-9]+]], int64_t {{v[0-9]+}}, int8_t* [[ZW:v[0-9]+]], int64_t [[ZWB:v[0-9]+]], int8_t* [[B:v[0-9]+]], int64_t {{v[0-9]+}}, int32_t* [[Y:v[0-9]+]], int64_t {{v[0-9]+}}) {
// CHECK: "weight zero points out of bounds"
// I8 inputs, U8 matrix: vqmaccus.
// CHECK: __riscv_xl_vqmaccus_4x4x4_i32m8(
// CHECK: [[SX:v[0-9]+]][{{[a-z][0-9]+}}] = {{v[0-9]+}};
// CHECK: int32_t [[P:v[0-9]+]] = {{v[0-9]+}}[{{v[0-9]+}}];
// CHECK-NEXT: int64_t [[P64:v[0-9]+]] = (int64_t) [[P]];
// CHECK: uint8_t* [[ZWP:v[0-9]+]] = (uint8_t*) {{v[0-9]+}};
// CHECK-NEXT: uint8_t [[ZWV:v[0-9]+]] = [[ZWP]][{{v[0-9]+}}];
// CHECK-NEXT: int64_t [[ZW64:v[0-9]+]] = (int64_t) [[ZWV]];
// CHECK-NEXT: int64_t [[S:v[0-9]+]] = [[SX]][{{[a-z][0-9]+}}];
// CHECK-NEXT: int64_t [[T:v[0-9]+]] = [[ZW64]] * [[S]];
// CHECK-NEXT: int64_t {{v[0-9]+}} = [[P64]] - [[T]];
// CHECK: int64_t [[SMIN:v[0-9]+]] = -2147483648;
// CHECK: ? [[SMIN]] :
// CHECK: int32_t {{v[0-9]+}} = (int32_t)
// CHECK: free(
// RVV-LABEL: void coopvec_int(
// RVV: __riscv_vwmacc_vx_i32m8(
// RVV-NOT: xl_vqmacc
func.func @int(%x: memref<?x20xi8>, %w: memref<?xi8>, %zw: memref<?xi8>, %b: memref<?xi8>, %y: memref<?x6xi32>) {
  %c0 = arith.constant 0 : index
  %cs = arith.constant 32 : index
  coopvec.batch_matvec %x as I8, %w[%c0] matrix<U8, 6x20, RowMajor> stride %cs
      weight_zero_points %zw[%c0] as U8 per_tensor : memref<?xi8>
      bias %b[%c0] as I32 into %y : memref<?x20xi8>, memref<?xi8>, memref<?xi8> -> memref<?x6xi32>
  return
}

// Every clause, groups 30/30/12/10/10 over K = 60: blocks of gcd 2, each
// padded to one 4-column K tile (30 blocks of one tile); the reduction
// group's first block subtracts zw * R; compute groups of 10 (the finer
// scale grouping) end every fifth block: f32(acc) * sx, then * sw, then
// added to y; the BF16 bias last.
// CHECK-LABEL: void coopvec_all(
// CHECK: "input zero points have fewer rows than the batch"
// CHECK: "input scales have fewer rows than the batch"
// CHECK: "reductions have fewer rows than the batch"
// CHECK: float [[ZERO:v[0-9]+]] = 0.0e+00f;
// CHECK: int64_t [[BLOCKS:v[0-9]+]] = 30;
// CHECK-NEXT: for (int64_t [[BLK:i[0-9]+]] = {{v[0-9]+}}; [[BLK]] < [[BLOCKS]];
// CHECK: __riscv_xl_vqmaccsu_4x4x4_i32m8(
// CHECK: int64_t [[RK:v[0-9]+]] = {{v[0-9]+}} % {{v[0-9]+}};
// CHECK-NEXT: bool [[FIRST:v[0-9]+]] = [[RK]] == {{v[0-9]+}};
// CHECK-NEXT: int64_t {{v[0-9]+}} = [[FIRST]] ? {{v[0-9]+}} : {{v[0-9]+}};
// CHECK: int64_t [[CK:v[0-9]+]] = {{v[0-9]+}} % {{v[0-9]+}};
// CHECK-NEXT: bool [[END:v[0-9]+]] = [[CK]] == {{v[0-9]+}};
// CHECK-NEXT: if ([[END]]) {
// CHECK: float [[A:v[0-9]+]] = (float) {{v[0-9]+}};
// CHECK: float [[SXV:v[0-9]+]] = {{v[0-9]+}}[{{v[0-9]+}}];
// CHECK-NEXT: float [[AX:v[0-9]+]] = [[A]] * [[SXV]];
// CHECK: float [[SWV:v[0-9]+]] = coopvec_rv_f16_to_f32(
// CHECK-NEXT: float [[AXW:v[0-9]+]] = [[AX]] * [[SWV]];
// CHECK-NEXT: float [[Y0:v[0-9]+]] = {{v[0-9]+}}[{{v[0-9]+}}];
// CHECK-NEXT: float [[Y1:v[0-9]+]] = [[Y0]] + [[AXW]];
// CHECK: coopvec_rv_bf16_to_f32(
func.func @all(%x: memref<?x60xi8>, %w: memref<?xi8>, %zw: memref<?xi8>, %sw: memref<?xi8>, %zx: memref<?x5xi8>, %sx: memref<?x6xf32>, %r: memref<?x6xi32>, %b: memref<?xi8>, %y: memref<?x13xf32>) {
  %c0 = arith.constant 0 : index
  %cs = arith.constant 64 : index
  coopvec.batch_matvec %x as U8, %w[%c0] matrix<I8, 13x60, RowMajor> stride %cs
      weight_zero_points %zw[%c0] as U8 group 30 : memref<?xi8>
      weight_scales %sw[%c0] as F16 group 30 : memref<?xi8>
      input_zero_points %zx as U8 group 12 : memref<?x5xi8>
      input_scales %sx as F32 group 10 : memref<?x6xf32>
      reductions %r as I32 group 10 : memref<?x6xi32>
      bias %b[%c0] as BF16 into %y : memref<?x60xi8>, memref<?xi8>, memref<?xi8> -> memref<?x13xf32>
  return
}

// An f16 result: the f32 sums in a buffer, each rounded once at the end by
// coopvec_rv_f32_to_f16 and stored as its bits.
// CHECK-LABEL: void coopvec_half(
// CHECK-SAME: _Float16* [[Y:v[0-9]+]], int64_t {{v[0-9]+}}) {
// CHECK: float* [[YF:v[0-9]+]] = (float*)
// CHECK: float [[A:v[0-9]+]] = [[YF]][[[AT:v[0-9]+]]];
// CHECK-NEXT: float [[SUM:v[0-9]+]] = [[A]] + {{v[0-9]+}};
// CHECK-NEXT: [[YF]][[[AT]]] = [[SUM]];
// CHECK: uint16_t [[BITS:v[0-9]+]] = coopvec_rv_f32_to_f16({{v[0-9]+}});
// CHECK-NEXT: uint16_t* [[YB:v[0-9]+]] = (uint16_t*) [[Y]];
// CHECK-NEXT: [[YB]][{{v[0-9]+}}] = [[BITS]];
func.func @half(%x: memref<?x16xi8>, %w: memref<?xi8>, %sw: memref<?xi8>, %y: memref<?x4xf16>) {
  %c0 = arith.constant 0 : index
  %cs = arith.constant 16 : index
  coopvec.batch_matvec %x as I8, %w[%c0] matrix<I8, 4x16, RowMajor> stride %cs
      weight_scales %sw[%c0] as F32 group 8 : memref<?xi8>
      into %y : memref<?x16xi8>, memref<?xi8> -> memref<?x4xf16>
  return
}

// An I4 matrix: two columns to a byte (the footprint counts 4 byte columns
// of the 8 nibble ones), nibble k % 2 shifted out, masked and sign-extended
// ((v ^ 8) - 8) into the int8 A tiles.
// CHECK-LABEL: void coopvec_nibbles(
// CHECK: int64_t [[FOOT:v[0-9]+]] = 52;
// CHECK-NEXT: bool {{v[0-9]+}} = [[FOOT]] > {{v[0-9]+}};
// CHECK: uint8_t [[BYTE:v[0-9]+]] = (uint8_t) {{v[0-9]+}};
// CHECK-NEXT: int64_t [[B64:v[0-9]+]] = (int64_t) [[BYTE]];
// CHECK: int64_t [[SH:v[0-9]+]] = [[B64]] >> {{v[0-9]+}};
// CHECK: int64_t [[NIB:v[0-9]+]] = [[SH]] & {{v[0-9]+}};
// CHECK: int64_t [[X:v[0-9]+]] = [[NIB]] ^ {{v[0-9]+}};
// CHECK: int64_t [[S:v[0-9]+]] = [[X]] - {{v[0-9]+}};
// CHECK-NEXT: int8_t {{v[0-9]+}} = (int8_t) [[S]];
// CHECK: __riscv_xl_vqmacc_4x4x4_i32m8(
func.func @nibbles(%x: memref<?x8xi8>, %w: memref<?xi8>, %zw: memref<?xi8>, %y: memref<?x4xi32>) {
  %c0 = arith.constant 0 : index
  %cs = arith.constant 16 : index
  coopvec.batch_matvec %x as I8, %w[%c0] matrix<I4, 4x8, RowMajor> stride %cs
      weight_zero_points %zw[%c0] as I8 per_tensor : memref<?xi8>
      into %y : memref<?x8xi8>, memref<?xi8> -> memref<?x4xi32>
  return
}
