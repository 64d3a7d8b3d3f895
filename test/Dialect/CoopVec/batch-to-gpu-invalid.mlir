// RUN: coopvec-opt %s --coopvec-batch-to-gpu --split-input-file --verify-diagnostics
// RUN: not coopvec-opt %s --coopvec-batch-to-gpu=block-size=100 --split-input-file 2>&1 | FileCheck %s --check-prefix=BLOCK
// RUN: not coopvec-opt %s --coopvec-batch-to-gpu=block-size=2048 --split-input-file 2>&1 | FileCheck %s --check-prefix=BLOCK2K

// BLOCK: error: coopvec-batch-to-gpu: block-size must be a multiple of 32 from 32 to 1024, not 100
// BLOCK2K: error: coopvec-batch-to-gpu: block-size must be a multiple of 32 from 32 to 1024, not 2048

// A block-float input (its exponents a second batch) has no GPU form.
func.func @bfp_input(%x: memref<?x64xi8>, %e: memref<?x4xi8>, %w: memref<?xi8>,
                     %y: memref<?x32xf32>) {
  %c0 = arith.constant 0 : index
  %c128 = arith.constant 128 : index
  // expected-error @+1 {{'coopvec.batch_matvec' op cannot run on a GPU: a block-float input's exponents are not copied to the GPU (no GPU target here reads block-float inputs)}}
  coopvec.batch_matvec %x as BFP8 exponents %e : memref<?x4xi8>, %w[%c0] matrix<BF16, 32x64, RowMajor> stride %c128
      fidelity<hifi2, dst = f32> into %y : memref<?x64xi8>, memref<?xi8> -> memref<?x32xf32>
  return
}

// -----

// A batch with a row stride other than its row length.
func.func @strided(%x: memref<?x64xf16, strided<[128, 1]>>, %w: memref<?xi8>,
                   %y: memref<?x16xf32>) {
  %c0 = arith.constant 0 : index
  %c128 = arith.constant 128 : index
  // expected-error @+1 {{'coopvec.batch_matvec' op cannot run on a GPU: its buffers and batches must have the identity layout (they are copied to gpu.alloc buffers of the same type)}}
  coopvec.batch_matvec %x as F16, %w[%c0] matrix<F16, 16x64, RowMajor> stride %c128
      into %y : memref<?x64xf16, strided<[128, 1]>>, memref<?xi8> -> memref<?x16xf32>
  return
}

// -----

// In a nested module, where the outlined kernel would not be found.
module {
  module @inner {
    func.func @nested(%x: memref<?x64xf16>, %w: memref<?xi8>, %y: memref<?x16xf32>) {
      %c0 = arith.constant 0 : index
      %c128 = arith.constant 128 : index
      // expected-error @+1 {{'coopvec.batch_matvec' op cannot run on a GPU: it is in a nested module (gpu-kernel-outlining puts kernels in the top-level module, where a launch in a nested module does not find them)}}
      coopvec.batch_matvec %x as F16, %w[%c0] matrix<F16, 16x64, RowMajor> stride %c128
          into %y : memref<?x64xf16>, memref<?xi8> -> memref<?x16xf32>
      return
    }
  }
}

// -----

// An mlp with a batch of another layout (a strided view of rows).
func.func @mlp_strided(%x: memref<?x32xf32, strided<[64, 1]>>, %w: memref<?xi8>, %y: memref<?x16xf32>) {
  %c0 = arith.constant 0 : index
  %c128 = arith.constant 128 : index
  // expected-error @+1 {{'coopvec.mlp' op cannot run on a GPU: its buffers and batches must have the identity layout (they are copied to gpu.alloc buffers of the same type)}}
  coopvec.mlp %x layers [%w[%c0] matrix<F32, 16x32, RowMajor> stride %c128 relu]
    into %y : memref<?x32xf32, strided<[64, 1]>>, memref<?x16xf32>, memref<?xi8>
  return
}
