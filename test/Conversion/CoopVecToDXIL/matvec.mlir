// Exact dx.op call text of coopvec.matvec: opcodes 305/306, overload names,
// argument order and immediate encodings of the shipped compiler (the seed's
// numbering and order as corrected by shared/seeds/README.md).
// RUN: coopvec-opt %s --coopvec-dxil-pipeline=emulate=true 2>/dev/null \
// RUN:   | mlir-translate --mlir-to-llvmir | FileCheck %s

// CHECK: %dx.types.Handle = type { ptr }

// One declaration per overload, with the SM 6.9 parameter lists.
// CHECK-DAG: declare <4 x float> @dx.op.matVecMul.v4f32.v4f32(i32, <4 x float>, i1, i32, %dx.types.Handle, i32, i32, i32, i32, i32, i1, i32, i1)
// CHECK-DAG: declare <8 x half> @dx.op.matVecMulAdd.v8f16.v16f16(i32, <16 x half>, i1, i32, %dx.types.Handle, i32, i32, i32, i32, i32, i1, i32, %dx.types.Handle, i32, i32, i1)

// The errata's example, verbatim.
// CHECK-LABEL: define <4 x float> @errata_example(
// CHECK: %[[H:[0-9]+]] = insertvalue %dx.types.Handle poison, ptr %{{[0-9]+}}, 0
// CHECK-NEXT: call <4 x float> @dx.op.matVecMul.v4f32.v4f32(i32 305, <4 x float> %0, i1 false, i32 9, %dx.types.Handle %[[H]], i32 0, i32 9, i32 4, i32 4, i32 0, i1 false, i32 64, i1 false)
func.func @errata_example(%x: vector<4xf32>, %m: memref<?xi8>) -> vector<4xf32> {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %y = coopvec.matvec %x as F32, %m[%c0] matrix<F32, 4x4, RowMajor> stride %c64
         : vector<4xf32>, memref<?xi8> -> vector<4xf32>
  return %y : vector<4xf32>
}

// The seed's packed example with its numbering corrected: PackedS8x32 is 17,
// I8 20, and the signed flag precedes the interpretation.
// CHECK-LABEL: define <32 x i32> @seed_packed_example(
// CHECK: call <32 x i32> @dx.op.matVecMul.v32i32.v8i32(i32 305, <8 x i32> %0, i1 false, i32 17, %dx.types.Handle %{{[0-9]+}}, i32 0, i32 20, i32 32, i32 32, i32 2, i1 false, i32 0, i1 false)
func.func @seed_packed_example(%x: vector<8xi32>, %m: memref<?xi8>) -> vector<32xi32> {
  %c0 = arith.constant 0 : index
  %y = coopvec.matvec %x as PackedS8x32, %m[%c0] matrix<I8, 32x32, InferencingOptimal>
         : vector<8xi32>, memref<?xi8> -> vector<32xi32>
  return %y : vector<32xi32>
}

// The seed's non-packed example: f32 values converted to I8 (20); its
// matrix interpretation "5" is the errata's I8 = 20.
// CHECK-LABEL: define <64 x i32> @seed_nonpacked_example(
// CHECK: call <64 x i32> @dx.op.matVecMul.v64i32.v32f32(i32 305, <32 x float> %0, i1 false, i32 20, %dx.types.Handle %{{[0-9]+}}, i32 0, i32 20, i32 64, i32 32, i32 2, i1 false, i32 0, i1 false)
func.func @seed_nonpacked_example(%x: vector<32xf32>, %m: memref<?xi8>) -> vector<64xi32> {
  %c0 = arith.constant 0 : index
  %y = coopvec.matvec %x as I8, %m[%c0] matrix<I8, 64x32, InferencingOptimal>
         : vector<32xf32>, memref<?xi8> -> vector<64xi32>
  return %y : vector<64xi32>
}

// MatVecMulAdd appends (bias handle, bias offset, bias interpretation) before
// the output-unsigned flag; a second buffer gets its own handle.
// CHECK-LABEL: define <8 x half> @with_bias(
// CHECK: %[[MH:[0-9]+]] = insertvalue %dx.types.Handle poison, ptr %{{[0-9]+}}, 0
// CHECK: %[[BH:[0-9]+]] = insertvalue %dx.types.Handle poison, ptr %{{[0-9]+}}, 0
// CHECK-NEXT: call <8 x half> @dx.op.matVecMulAdd.v8f16.v16f16(i32 306, <16 x half> %0, i1 false, i32 21, %dx.types.Handle %[[MH]], i32 256, i32 21, i32 8, i32 16, i32 2, i1 false, i32 0, %dx.types.Handle %[[BH]], i32 64, i32 8, i1 false)
func.func @with_bias(%x: vector<16xf16>, %m: memref<?xi8>, %b: memref<?xi8>) -> vector<8xf16> {
  %c256 = arith.constant 256 : index
  %c64 = arith.constant 64 : index
  %y = coopvec.matvec %x as F8_E4M3, %m[%c256] matrix<F8_E4M3, 8x16, InferencingOptimal>
         bias %b[%c64] as F16 : vector<16xf16>, memref<?xi8>, memref<?xi8> -> vector<8xf16>
  return %y : vector<8xf16>
}

// Without bias the same op is MatVecMul.
// CHECK-LABEL: define <8 x half> @without_bias(
// CHECK: call <8 x half> @dx.op.matVecMul.v8f16.v16f16(i32 305, <16 x half> %0, i1 false, i32 22, %dx.types.Handle %{{[0-9]+}}, i32 0, i32 22, i32 8, i32 16, i32 3, i1 false, i32 0, i1 false)
func.func @without_bias(%x: vector<16xf16>, %m: memref<?xi8>) -> vector<8xf16> {
  %c0 = arith.constant 0 : index
  %y = coopvec.matvec %x as F8_E5M2, %m[%c0] matrix<F8_E5M2, 8x16, TrainingOptimal>
         : vector<16xf16>, memref<?xi8> -> vector<8xf16>
  return %y : vector<8xf16>
}

// Every input interpretation by its DXIL number; physical f32 input.
// CHECK-LABEL: define void @every_input_interpretation(
// CHECK: call <4 x float> @dx.op.matVecMul.v4f32.v4f32(i32 305, <4 x float> %0, i1 false, i32 2, %dx.types.Handle %{{[0-9]+}}, i32 0, i32 2, i32 4, i32 4, i32 2, i1 false, i32 0, i1 false)
// CHECK: call <4 x float> @dx.op.matVecMul.v4f32.v4f32(i32 305, <4 x float> %0, i1 false, i32 3, %dx.types.Handle %{{[0-9]+}}, i32 0, i32 3, i32 4, i32 4, i32 2, i1 false, i32 0, i1 false)
// CHECK: call <4 x float> @dx.op.matVecMul.v4f32.v4f32(i32 305, <4 x float> %0, i1 false, i32 4, %dx.types.Handle %{{[0-9]+}}, i32 0, i32 4, i32 4, i32 4, i32 2, i1 false, i32 0, i1 false)
// CHECK: call <4 x float> @dx.op.matVecMul.v4f32.v4f32(i32 305, <4 x float> %0, i1 false, i32 5, %dx.types.Handle %{{[0-9]+}}, i32 0, i32 5, i32 4, i32 4, i32 2, i1 false, i32 0, i1 false)
// CHECK: call <4 x float> @dx.op.matVecMul.v4f32.v4f32(i32 305, <4 x float> %0, i1 false, i32 8, %dx.types.Handle %{{[0-9]+}}, i32 0, i32 8, i32 4, i32 4, i32 2, i1 false, i32 0, i1 false)
// CHECK: call <4 x float> @dx.op.matVecMul.v4f32.v4f32(i32 305, <4 x float> %0, i1 false, i32 9, %dx.types.Handle %{{[0-9]+}}, i32 0, i32 9, i32 4, i32 4, i32 2, i1 false, i32 0, i1 false)
// CHECK: call <4 x float> @dx.op.matVecMul.v4f32.v4f32(i32 305, <4 x float> %0, i1 false, i32 19, %dx.types.Handle %{{[0-9]+}}, i32 0, i32 19, i32 4, i32 4, i32 2, i1 false, i32 0, i1 false)
// CHECK: call <4 x float> @dx.op.matVecMul.v4f32.v4f32(i32 305, <4 x float> %0, i1 false, i32 20, %dx.types.Handle %{{[0-9]+}}, i32 0, i32 20, i32 4, i32 4, i32 2, i1 false, i32 0, i1 false)
// CHECK: call <4 x float> @dx.op.matVecMul.v4f32.v4f32(i32 305, <4 x float> %0, i1 false, i32 21, %dx.types.Handle %{{[0-9]+}}, i32 0, i32 21, i32 4, i32 4, i32 2, i1 false, i32 0, i1 false)
// CHECK: call <4 x float> @dx.op.matVecMul.v4f32.v4f32(i32 305, <4 x float> %0, i1 false, i32 22, %dx.types.Handle %{{[0-9]+}}, i32 0, i32 22, i32 4, i32 4, i32 2, i1 false, i32 0, i1 false)
func.func @every_input_interpretation(%x: vector<4xf32>, %w: memref<?xi8>) {
  %c0 = arith.constant 0 : index
  %0 = coopvec.matvec %x as I16, %w[%c0] matrix<I16, 4x4, InferencingOptimal> : vector<4xf32>, memref<?xi8> -> vector<4xf32>
  %1 = coopvec.matvec %x as U16, %w[%c0] matrix<U16, 4x4, InferencingOptimal> : vector<4xf32>, memref<?xi8> -> vector<4xf32>
  %2 = coopvec.matvec %x as I32, %w[%c0] matrix<I32, 4x4, InferencingOptimal> : vector<4xf32>, memref<?xi8> -> vector<4xf32>
  %3 = coopvec.matvec %x as U32, %w[%c0] matrix<U32, 4x4, InferencingOptimal> : vector<4xf32>, memref<?xi8> -> vector<4xf32>
  %4 = coopvec.matvec %x as F16, %w[%c0] matrix<F16, 4x4, InferencingOptimal> : vector<4xf32>, memref<?xi8> -> vector<4xf32>
  %5 = coopvec.matvec %x as F32, %w[%c0] matrix<F32, 4x4, InferencingOptimal> : vector<4xf32>, memref<?xi8> -> vector<4xf32>
  %6 = coopvec.matvec %x as U8, %w[%c0] matrix<U8, 4x4, InferencingOptimal> : vector<4xf32>, memref<?xi8> -> vector<4xf32>
  %7 = coopvec.matvec %x as I8, %w[%c0] matrix<I8, 4x4, InferencingOptimal> : vector<4xf32>, memref<?xi8> -> vector<4xf32>
  %8 = coopvec.matvec %x as F8_E4M3, %w[%c0] matrix<F8_E4M3, 4x4, InferencingOptimal> : vector<4xf32>, memref<?xi8> -> vector<4xf32>
  %9 = coopvec.matvec %x as F8_E5M2, %w[%c0] matrix<F8_E5M2, 4x4, InferencingOptimal> : vector<4xf32>, memref<?xi8> -> vector<4xf32>
  return
}

// Every bias interpretation, physical i16 and i32 vectors, and the unsigned
// flags (U16/U32 physical input, U32 result).
// CHECK-LABEL: define void @bias_interpretations_and_flags(
// CHECK: call <4 x i32> @dx.op.matVecMulAdd.v4i32.v4i16(i32 306, <4 x i16> %0, i1 true, i32 3, %dx.types.Handle %{{[0-9]+}}, i32 0, i32 3, i32 4, i32 4, i32 1, i1 false, i32 16, %dx.types.Handle %{{[0-9]+}}, i32 0, i32 3, i1 true)
// CHECK: call <4 x i32> @dx.op.matVecMulAdd.v4i32.v4i16(i32 306, <4 x i16> %0, i1 false, i32 2, %dx.types.Handle %{{[0-9]+}}, i32 0, i32 2, i32 4, i32 4, i32 1, i1 false, i32 16, %dx.types.Handle %{{[0-9]+}}, i32 0, i32 2, i1 false)
// CHECK: call <4 x i32> @dx.op.matVecMulAdd.v4i32.v4i32(i32 306, <4 x i32> %1, i1 true, i32 19, %dx.types.Handle %{{[0-9]+}}, i32 0, i32 19, i32 4, i32 4, i32 0, i1 false, i32 16, %dx.types.Handle %{{[0-9]+}}, i32 0, i32 5, i1 true)
// CHECK: call <4 x i32> @dx.op.matVecMulAdd.v4i32.v4i32(i32 306, <4 x i32> %1, i1 false, i32 4, %dx.types.Handle %{{[0-9]+}}, i32 0, i32 20, i32 4, i32 4, i32 0, i1 false, i32 16, %dx.types.Handle %{{[0-9]+}}, i32 0, i32 4, i1 false)
// CHECK: call <4 x float> @dx.op.matVecMulAdd.v4f32.v4i32(i32 306, <4 x i32> %1, i1 false, i32 9, %dx.types.Handle %{{[0-9]+}}, i32 0, i32 9, i32 4, i32 4, i32 0, i1 false, i32 16, %dx.types.Handle %{{[0-9]+}}, i32 0, i32 9, i1 false)
// CHECK: call <4 x float> @dx.op.matVecMulAdd.v4f32.v4i32(i32 306, <4 x i32> %1, i1 false, i32 20, %dx.types.Handle %{{[0-9]+}}, i32 0, i32 20, i32 4, i32 4, i32 0, i1 false, i32 16, %dx.types.Handle %{{[0-9]+}}, i32 0, i32 20, i1 false)
// CHECK: call <4 x float> @dx.op.matVecMulAdd.v4f32.v4i32(i32 306, <4 x i32> %1, i1 false, i32 20, %dx.types.Handle %{{[0-9]+}}, i32 0, i32 20, i32 4, i32 4, i32 0, i1 false, i32 16, %dx.types.Handle %{{[0-9]+}}, i32 0, i32 19, i1 false)
// CHECK: call <4 x float> @dx.op.matVecMulAdd.v4f32.v4i32(i32 306, <4 x i32> %1, i1 false, i32 20, %dx.types.Handle %{{[0-9]+}}, i32 0, i32 20, i32 4, i32 4, i32 0, i1 false, i32 16, %dx.types.Handle %{{[0-9]+}}, i32 0, i32 21, i1 false)
// CHECK: call <4 x float> @dx.op.matVecMulAdd.v4f32.v4i32(i32 306, <4 x i32> %1, i1 false, i32 20, %dx.types.Handle %{{[0-9]+}}, i32 0, i32 20, i32 4, i32 4, i32 0, i1 false, i32 16, %dx.types.Handle %{{[0-9]+}}, i32 0, i32 22, i1 false)
func.func @bias_interpretations_and_flags(%h: vector<4xi16>, %i: vector<4xi32>, %w: memref<?xi8>, %b: memref<?xi8>) {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %0 = coopvec.matvec %h unsigned as U16, %w[%c0] matrix<U16, 4x4, ColumnMajor> stride %c16 bias %b[%c0] as U16 unsigned_result : vector<4xi16>, memref<?xi8>, memref<?xi8> -> vector<4xi32>
  %1 = coopvec.matvec %h as I16, %w[%c0] matrix<I16, 4x4, ColumnMajor> stride %c16 bias %b[%c0] as I16 : vector<4xi16>, memref<?xi8>, memref<?xi8> -> vector<4xi32>
  %2 = coopvec.matvec %i unsigned as U8, %w[%c0] matrix<U8, 4x4, RowMajor> stride %c16 bias %b[%c0] as U32 unsigned_result : vector<4xi32>, memref<?xi8>, memref<?xi8> -> vector<4xi32>
  %3 = coopvec.matvec %i as I32, %w[%c0] matrix<I8, 4x4, RowMajor> stride %c16 bias %b[%c0] as I32 : vector<4xi32>, memref<?xi8>, memref<?xi8> -> vector<4xi32>
  %4 = coopvec.matvec %i as F32, %w[%c0] matrix<F32, 4x4, RowMajor> stride %c16 bias %b[%c0] as F32 : vector<4xi32>, memref<?xi8>, memref<?xi8> -> vector<4xf32>
  %5 = coopvec.matvec %i as I8, %w[%c0] matrix<I8, 4x4, RowMajor> stride %c16 bias %b[%c0] as I8 : vector<4xi32>, memref<?xi8>, memref<?xi8> -> vector<4xf32>
  %6 = coopvec.matvec %i as I8, %w[%c0] matrix<I8, 4x4, RowMajor> stride %c16 bias %b[%c0] as U8 : vector<4xi32>, memref<?xi8>, memref<?xi8> -> vector<4xf32>
  %7 = coopvec.matvec %i as I8, %w[%c0] matrix<I8, 4x4, RowMajor> stride %c16 bias %b[%c0] as F8_E4M3 : vector<4xi32>, memref<?xi8>, memref<?xi8> -> vector<4xf32>
  %8 = coopvec.matvec %i as I8, %w[%c0] matrix<I8, 4x4, RowMajor> stride %c16 bias %b[%c0] as F8_E5M2 : vector<4xi32>, memref<?xi8>, memref<?xi8> -> vector<4xf32>
  return
}

// The four layouts, transpose (optimal layouts only) and PackedU8x32.
// CHECK-LABEL: define void @layouts_and_transpose(
// CHECK: call <4 x i32> @dx.op.matVecMul.v4i32.v2i32(i32 305, <2 x i32> %0, i1 true, i32 18, %dx.types.Handle %{{[0-9]+}}, i32 0, i32 19, i32 4, i32 5, i32 0, i1 false, i32 16, i1 true)
// CHECK: call <4 x i32> @dx.op.matVecMul.v4i32.v2i32(i32 305, <2 x i32> %0, i1 true, i32 18, %dx.types.Handle %{{[0-9]+}}, i32 0, i32 19, i32 4, i32 5, i32 1, i1 false, i32 16, i1 true)
// CHECK: call <4 x i32> @dx.op.matVecMul.v4i32.v2i32(i32 305, <2 x i32> %0, i1 true, i32 18, %dx.types.Handle %{{[0-9]+}}, i32 0, i32 19, i32 4, i32 5, i32 2, i1 true, i32 0, i1 true)
// CHECK: call <4 x i32> @dx.op.matVecMul.v4i32.v2i32(i32 305, <2 x i32> %0, i1 true, i32 18, %dx.types.Handle %{{[0-9]+}}, i32 0, i32 19, i32 4, i32 5, i32 3, i1 true, i32 0, i1 true)
func.func @layouts_and_transpose(%q: vector<2xi32>, %w: memref<?xi8>) {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %0 = coopvec.matvec %q unsigned as PackedU8x32, %w[%c0] matrix<U8, 4x5, RowMajor> stride %c16 unsigned_result : vector<2xi32>, memref<?xi8> -> vector<4xi32>
  %1 = coopvec.matvec %q unsigned as PackedU8x32, %w[%c0] matrix<U8, 4x5, ColumnMajor> stride %c16 unsigned_result : vector<2xi32>, memref<?xi8> -> vector<4xi32>
  %2 = coopvec.matvec %q unsigned as PackedU8x32, %w[%c0] matrix<U8, 4x5, MulOptimal, transpose> unsigned_result : vector<2xi32>, memref<?xi8> -> vector<4xi32>
  %3 = coopvec.matvec %q unsigned as PackedU8x32, %w[%c0] matrix<U8, 4x5, OuterProductOptimal, transpose> unsigned_result : vector<2xi32>, memref<?xi8> -> vector<4xi32>
  return
}

// Dynamic offsets and strides are index values truncated to DXIL's i32
// when they are in [0, 2^31 - 1], else 0xFFFFFFFF (odd: no buffer accepts it).
// CHECK-LABEL: define <4 x float> @dynamic_offset_and_stride(
// CHECK-SAME: i64 %[[OFF:[0-9]+]], i64 %[[S:[0-9]+]])
// CHECK-DAG: %[[OFFOK:[0-9]+]] = icmp ule i64 %[[OFF]], 2147483647
// CHECK-DAG: %[[OFFT:[0-9]+]] = trunc i64 %[[OFF]] to i32
// CHECK-DAG: %[[OFF32:[0-9]+]] = select i1 %[[OFFOK]], i32 %[[OFFT]], i32 -1
// CHECK-DAG: %[[SOK:[0-9]+]] = icmp ule i64 %[[S]], 2147483647
// CHECK-DAG: %[[ST:[0-9]+]] = trunc i64 %[[S]] to i32
// CHECK-DAG: %[[S32:[0-9]+]] = select i1 %[[SOK]], i32 %[[ST]], i32 -1
// CHECK: call <4 x float> @dx.op.matVecMul.v4f32.v4f32(i32 305, <4 x float> %0, i1 false, i32 9, %dx.types.Handle %{{[0-9]+}}, i32 %[[OFF32]], i32 9, i32 4, i32 4, i32 0, i1 false, i32 %[[S32]], i1 false)
func.func @dynamic_offset_and_stride(%x: vector<4xf32>, %m: memref<?xi8>, %off: index, %s: index) -> vector<4xf32> {
  %y = coopvec.matvec %x as F32, %m[%off] matrix<F32, 4x4, RowMajor> stride %s
         : vector<4xf32>, memref<?xi8> -> vector<4xf32>
  return %y : vector<4xf32>
}
