// What the target lowering does not take is reported there, at the
// batch_matvec's location: sm_90 lists no U32 results.
// RUN: not coopvec-opt %s --coopvec-batch-to-gpu --gpu-kernel-outlining --coopvec-nvvm-pipeline="chip=sm_90 format=isa" 2>&1 | FileCheck %s
// CHECK: batch-to-gpu-target.mlir:[[@LINE+5]]:3: error: 'coopvec.matvec' is not supported by profile 'sm_90': it does not list the matrix-vector combination input = PackedU8x32, input_interp = U8, matrix = U8, output = U32
// CHECK-NOT: error
func.func @unsigned(%x: memref<?x5xi32>, %w: memref<?xi8>, %y: memref<?x20xi32>) {
  %c0 = arith.constant 0 : index
  %stride = arith.constant 32 : index
  coopvec.batch_matvec %x as PackedU8x32, %w[%c0] matrix<U8, 20x20, ColumnMajor> stride %stride
      unsigned_result into %y
      : memref<?x5xi32>, memref<?xi8> -> memref<?x20xi32>
  return
}
