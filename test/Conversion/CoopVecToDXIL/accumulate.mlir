// Exact dx.op call text of the training operations (307, 308) and the
// compile-time matrix_size.
// RUN: coopvec-opt %s --coopvec-dxil-pipeline \
// RUN:   | mlir-translate --mlir-to-llvmir | FileCheck %s

// CHECK-DAG: declare void @dx.op.outerProductAccumulate.v8f16.v8f16(i32, <8 x half>, <8 x half>, %dx.types.Handle, i32, i32, i32, i32)
// CHECK-DAG: declare void @dx.op.vectorAccumulate.v16f16(i32, <16 x half>, %dx.types.Handle, i32)

// The errata's example: (opcode, a, b, handle, offset, interpretation,
// layout, stride).
// CHECK-LABEL: define void @errata_outer_product(
// CHECK: %[[H:[0-9]+]] = insertvalue %dx.types.Handle poison, ptr %{{[0-9]+}}, 0
// CHECK-NEXT: call void @dx.op.outerProductAccumulate.v8f16.v8f16(i32 307, <8 x half> %0, <8 x half> %1, %dx.types.Handle %[[H]], i32 0, i32 8, i32 3, i32 0)
func.func @errata_outer_product(%a: vector<8xf16>, %b: vector<8xf16>, %h: memref<?xi8>) {
  %c0 = arith.constant 0 : index
  coopvec.outer_product_accumulate %a, %b, %h[%c0] matrix<F16, 8x8, TrainingOptimal>
      : vector<8xf16>, vector<8xf16>, memref<?xi8>
  return
}

// F32 accumulation of F16 vectors of different lengths, explicit stride 0,
// a dynamic offset.
// CHECK-LABEL: define void @outer_product_f32(
// CHECK: %[[OK:[0-9]+]] = icmp ule i64 %[[IDX:[0-9]+]], 2147483647
// CHECK: %[[T:[0-9]+]] = trunc i64 %[[IDX]] to i32
// CHECK: %[[OFF:[0-9]+]] = select i1 %[[OK]], i32 %[[T]], i32 -1
// CHECK: call void @dx.op.outerProductAccumulate.v8f16.v4f16(i32 307, <8 x half> %0, <4 x half> %1, %dx.types.Handle %{{[0-9]+}}, i32 %[[OFF]], i32 9, i32 3, i32 0)
func.func @outer_product_f32(%a: vector<8xf16>, %b: vector<4xf16>, %h: memref<?xi8>, %off: index) {
  %c0 = arith.constant 0 : index
  coopvec.outer_product_accumulate %a, %b, %h[%off] matrix<F32, 8x4, TrainingOptimal> stride %c0
      : vector<8xf16>, vector<4xf16>, memref<?xi8>
  return
}

// CHECK-LABEL: define void @vector_accumulate(
// CHECK: call void @dx.op.vectorAccumulate.v16f16(i32 308, <16 x half> %0, %dx.types.Handle %{{[0-9]+}}, i32 64)
func.func @vector_accumulate(%v: vector<16xf16>, %h: memref<?xi8>) {
  %c64 = arith.constant 64 : index
  coopvec.vector_accumulate %v, %h[%c64] : vector<16xf16>, memref<?xi8>
  return
}

// A static size query is a constant: 8x16 F16 in row panels is 256 bytes,
// 8x16 F8_E4M3 in 8x8 tiles 128 bytes.
// CHECK-LABEL: define i64 @matrix_size(
// CHECK-NEXT: ret i64 384
func.func @matrix_size() -> index {
  %a = coopvec.matrix_size matrix<F16, 8x16, InferencingOptimal> : index
  %b = coopvec.matrix_size matrix<F8_E4M3, 8x16, TrainingOptimal> : index
  %s = arith.addi %a, %b : index
  return %s : index
}
