// RUN: coopvec-opt %s --coopvec-batch-to-gpu | FileCheck %s
// A program that mixes host batches with batches already in GPU code: the
// pass launches the host one and leaves the others to the target lowering
// (test/Integration/Vulkan/batch-kernel.test runs such a program).

// CHECK-LABEL: gpu.module @kernels
// CHECK: gpu.func @in_kernel
// CHECK-NEXT: arith.constant 0 : index
// CHECK-NEXT: arith.constant 128 : index
// CHECK-NEXT: coopvec.batch_matvec
// CHECK-SAME: memref<8x64xf16>
module {
  gpu.module @kernels {
    gpu.func @in_kernel(%x: memref<8x64xf16>, %w: memref<?xi8>, %y: memref<8x16xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c128 = arith.constant 128 : index
      coopvec.batch_matvec %x as F16, %w[%c0] matrix<F16, 16x64, RowMajor> stride %c128
          into %y : memref<8x64xf16>, memref<?xi8> -> memref<8x16xf32>
      gpu.return
    }
  }

  // CHECK-LABEL: func.func @mixed(
  // The host batch: copies in, a launch whose thread runs a matvec.
  // CHECK: gpu.alloc
  // CHECK: gpu.launch
  // CHECK-NOT: coopvec.batch_matvec
  // CHECK: coopvec.matvec
  // CHECK: gpu.terminator
  // CHECK: gpu.dealloc
  // The launch that was there keeps its batch_matvec.
  // CHECK: gpu.launch
  // CHECK-NEXT: coopvec.batch_matvec %{{.*}} as F16
  // CHECK-SAME: memref<?x64xf16>, memref<?xi8> -> memref<?x16xf32>
  // CHECK-NEXT: gpu.terminator
  // CHECK-NOT: gpu.launch
  // CHECK: return
  func.func @mixed(%x: memref<?x64xf16>, %w: memref<?xi8>, %y: memref<?x16xf32>, %z: memref<?x16xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    coopvec.batch_matvec %x as F16, %w[%c0] matrix<F16, 16x64, RowMajor> stride %c128
        into %y : memref<?x64xf16>, memref<?xi8> -> memref<?x16xf32>
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
      coopvec.batch_matvec %x as F16, %w[%c0] matrix<F16, 16x64, RowMajor> stride %c128
          into %z : memref<?x64xf16>, memref<?xi8> -> memref<?x16xf32>
      gpu.terminator
    }
    return
  }
}
