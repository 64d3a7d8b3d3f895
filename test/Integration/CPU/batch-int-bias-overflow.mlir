// The batched form of matvec-int-bias-overflow.mlir, untiled (the kernels)
// and tiled (the bias added in i64); row 1 has weight -1 and bias
// -2147483597: the exact sum -2147483697 saturates to -2147483648.
// DEFINE: %{w} = '[1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 255, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]'
// RUN: coopvec-run %s -e batch --arg '[[100, 0, 0, 0], [100, 0, 0, 0]]' --arg %{w} \
// RUN:   --arg '[205, 255, 255, 127, 51, 0, 0, 128, 205, 255, 255, 127, 205, 255, 255, 127, 205, 255, 255, 127, 205, 255, 255, 127, 205, 255, 255, 127, 205, 255, 255, 127]' \
// RUN:   --arg '[[0, 0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0, 0]]' --print-args --no-print | FileCheck %s --check-prefix=BATCH
// RUN: coopvec-run %s -e batch --arg '[[100, 0, 0, 0], [100, 0, 0, 0]]' --arg %{w} \
// RUN:   --arg '[205, 255, 255, 127, 51, 0, 0, 128, 205, 255, 255, 127, 205, 255, 255, 127, 205, 255, 255, 127, 205, 255, 255, 127, 205, 255, 255, 127, 205, 255, 255, 127]' \
// RUN:   --arg '[[0, 0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0, 0]]' --print-args --no-print \
// RUN:   --pass-pipeline='builtin.module(coopvec-tile{tile-m=4 tile-n=2 tile-k=4},coopvec-cpu-pipeline)' | FileCheck %s --check-prefix=BATCH
// BATCH: arg 3: {{\[}}[2147483647, -2147483648, 2147483647, 2147483647, 2147483647, 2147483647, 2147483647, 2147483647], [2147483647, -2147483648, 2147483647, 2147483647, 2147483647, 2147483647, 2147483647, 2147483647]]
// U8 x U8 over K = 33026: the 33026 products of 255 x 255 alone leave i32
// (2147515650), so the kernels leave the call to the reference, which
// saturates.
// REQUIRES: numpy
// RUN: %numpy_python -c "import numpy as np; np.save('%t.x.npy', np.full((1, 33026), 255, np.int32)); np.save('%t.w.npy', np.full(8 * 33040, 255, np.uint8)); np.save('%t.y.npy', np.zeros((1, 8), np.int32))"
// RUN: coopvec-run %s -e wide --arg %t.x.npy --arg %t.w.npy --arg %t.y.npy --print-args --no-print | FileCheck %s --check-prefix=WIDE
// RUN: env COOPVEC_KERNELS_ISA=avx2 coopvec-run %s -e wide --arg %t.x.npy --arg %t.w.npy --arg %t.y.npy --print-args --no-print | FileCheck %s --check-prefix=WIDE
// WIDE: arg 2: {{\[}}[2147483647, 2147483647, 2147483647, 2147483647, 2147483647, 2147483647, 2147483647, 2147483647]]
func.func @batch(%x: memref<2x4xf32>, %w: memref<?xi8>, %b: memref<?xi8>, %y: memref<2x8xi32>) {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  coopvec.batch_matvec %x as I8, %w[%c0] matrix<I8, 8x4, RowMajor> stride %c16 bias %b[%c0] as I32 into %y
      : memref<2x4xf32>, memref<?xi8>, memref<?xi8> -> memref<2x8xi32>
  return
}

func.func @wide(%x: memref<?x33026xi32>, %w: memref<?xi8>, %y: memref<?x8xi32>) {
  %c0 = arith.constant 0 : index
  %s = arith.constant 33040 : index
  coopvec.batch_matvec %x as U8, %w[%c0] matrix<U8, 8x33026, RowMajor> stride %s into %y
      : memref<?x33026xi32>, memref<?xi8> -> memref<?x8xi32>
  return
}
