// The batched form of matvec-f16-overflow.mlir, untiled (the kernels' F16C /
// AVX-512 stores) and at the tile level (arith.truncf): f32 -> f16 results
// saturate to +-65504, infinities stay.

// RUN: %numpy_python -c "import numpy as np; w = np.zeros((32, 4), np.float32); w[:, 0] = [2, -2, 1, 0.5, np.inf, -np.inf, 2, -2] * 4; np.save('%t.w32.npy', w.view(np.uint8).reshape(-1)); np.save('%t.x.npy', np.full((3, 1), 40000, np.float32)); np.save('%t.y.npy', np.zeros((3, 32), np.float16))"
// RUN: coopvec-run %s -e batch_f16 --arg %t.x.npy --arg %t.w32.npy --arg %t.y.npy --print-args --no-print \
// RUN:   | FileCheck %s --check-prefix=BATCH
// RUN: env COOPVEC_KERNELS_ISA=avx2 coopvec-run %s -e batch_f16 --arg %t.x.npy --arg %t.w32.npy --arg %t.y.npy --print-args --no-print \
// RUN:   | FileCheck %s --check-prefix=BATCH
// RUN: coopvec-run %s -e batch_f16 --arg %t.x.npy --arg %t.w32.npy --arg %t.y.npy --print-args --no-print \
// RUN:   --pass-pipeline='builtin.module(coopvec-tile{tile-m=4 tile-n=2 tile-k=4},coopvec-cpu-pipeline)' \
// RUN:   | FileCheck %s --check-prefix=BATCH

// BATCH: arg 2: {{\[}}[65504, -65504, 40000, 20000, inf, -inf, 65504, -65504, {{.*}}], [65504, -65504, 40000, 20000, inf, -inf, 65504, -65504, {{.*}}], [65504, -65504, 40000, 20000, inf, -inf, 65504, -65504, {{.*}}]]
func.func @batch_f16(%x: memref<?x1xf32>, %w: memref<?xi8>, %y: memref<?x32xf16>) {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  coopvec.batch_matvec %x as F32, %w[%c0] matrix<F32, 32x1, RowMajor> stride %c16 into %y
      : memref<?x1xf32>, memref<?xi8> -> memref<?x32xf16>
  return
}
