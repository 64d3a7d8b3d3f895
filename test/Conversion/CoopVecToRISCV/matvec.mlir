// RUN: coopvec-opt %s --convert-coopvec-to-riscv | mlir-translate --mlir-to-cpp | FileCheck %s
// RUN: coopvec-opt %s --convert-coopvec-to-riscv=isa=rvv | mlir-translate --mlir-to-cpp | FileCheck %s --check-prefix=RVV

// coopvec.matvec as a batch of one: the input vector is a pointer, the
// result a local array whose address stands for the vector, and func.return
// copies it into the result pointer after the other arguments. f32 inputs
// are rounded and saturated by coopvec_rv_f32_to_int; an f32 result is the
// exact int64 sum plus the I32 bias, converted once.
// CHECK-LABEL: void coopvec_f32_in_out(
// CHECK-SAME: float* [[X:v[0-9]+]], int8_t* [[W:v[0-9]+]], int64_t [[WB:v[0-9]+]], int8_t* [[B:v[0-9]+]], int64_t [[BB:v[0-9]+]], float* [[OUT:v[0-9]+]]) {
// CHECK-NEXT: float [[ARR:v[0-9]+]][7];
// CHECK: float* [[Y:v[0-9]+]] = &[[ARR]][{{v[0-9]+}}];
// CHECK-NOT: input and output batches differ
// CHECK: "coopvec.matvec at {{.*}}matvec.mlir:{{[0-9]+}}:8", "matrix out of bounds"
// A batch of one at min-vlen 128: LMUL 4 holds its one tile.
// CHECK: __riscv_vsetvlmax_e32m4()
// CHECK: float {{v[0-9]+}} = [[X]][{{v[0-9]+}}];
// CHECK: int64_t {{v[0-9]+}} = coopvec_rv_f32_to_int({{v[0-9]+}}, {{v[0-9]+}}, {{v[0-9]+}});
// CHECK: __riscv_xl_vqmaccus_4x4x4_i32m4(
// CHECK: int32_t* {{v[0-9]+}} = (int32_t*) {{v[0-9]+}};
// CHECK: int64_t [[S:v[0-9]+]] = {{v[0-9]+}} + {{v[0-9]+}};
// CHECK: float [[F:v[0-9]+]] = (float) [[S]];
// CHECK-NEXT: [[Y]][{{v[0-9]+}}] = [[F]];
// CHECK: free(
// CHECK: for (int64_t [[I:[a-z][0-9]+]] = {{v[0-9]+}}; [[I]] < {{v[0-9]+}}; [[I]] += {{v[0-9]+}}) {
// CHECK-NEXT: float [[E:v[0-9]+]] = [[Y]][[[I]]];
// CHECK-NEXT: [[OUT]][[[I]]] = [[E]];
// CHECK: return;
// RVV-LABEL: void coopvec_f32_in_out(
// RVV: __riscv_vwmacc_vx_i32m1(
func.func @f32_in_out(%x: vector<10xf32>, %w: memref<?xi8>, %b: memref<?xi8>) -> vector<7xf32> {
  %c0 = arith.constant 0 : index
  %s = arith.constant 16 : index
  %y = coopvec.matvec %x as I8, %w[%c0] matrix<U8, 7x10, RowMajor> stride %s bias %b[%c0] as I32
      : vector<10xf32>, memref<?xi8>, memref<?xi8> -> vector<7xf32>
  return %y : vector<7xf32>
}

// A matvec feeding another: the first result's array is the second's input;
// two results, two result pointers in order.
// CHECK-LABEL: void coopvec_chain(
// CHECK-SAME: int32_t* [[X:v[0-9]+]], int8_t* {{v[0-9]+}}, int64_t {{v[0-9]+}}, int32_t* [[R0:v[0-9]+]], int32_t* [[R1:v[0-9]+]]) {
// CHECK: int32_t [[A0:v[0-9]+]][8];
// CHECK: int32_t* [[H:v[0-9]+]] = &[[A0]][
// CHECK: __riscv_xl_vqmacc_4x4x4_i32m4(
// CHECK: int32_t [[A1:v[0-9]+]][4];
// CHECK: int32_t* [[Z:v[0-9]+]] = &[[A1]][
// CHECK: int32_t {{v[0-9]+}} = [[H]][
// CHECK: __riscv_xl_vqmaccsu_4x4x4_i32m4(
// CHECK: [[R0]][{{[a-z][0-9]+}}] =
// CHECK: [[R1]][{{[a-z][0-9]+}}] =
func.func @chain(%x: vector<4xi32>, %w: memref<?xi8>) -> (vector<8xi32>, vector<4xi32>) {
  %c0 = arith.constant 0 : index
  %c128 = arith.constant 128 : index
  %s = arith.constant 16 : index
  %h = coopvec.matvec %x as I8, %w[%c0] matrix<I8, 8x4, RowMajor> stride %s
      : vector<4xi32>, memref<?xi8> -> vector<8xi32>
  %z = coopvec.matvec %h as U8, %w[%c128] matrix<I8, 4x8, ColumnMajor> stride %s
      : vector<8xi32>, memref<?xi8> -> vector<4xi32>
  return %h, %z : vector<8xi32>, vector<4xi32>
}
