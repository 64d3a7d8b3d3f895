// libcoopvec_cuda_runtime.so serves mlir-runner too (--shared-libs): the
// module that coopvec-run lowers for sm_80 runs there, and the runtime's
// errors end it the same way (here the fake driver of test/lib/Cuda, whose
// device loads no kernels; on a GPU, the kernel runs).
// REQUIRES: ptxas

// RUN: coopvec-run %s --gpu-chip=sm_80 --print-lowered > %t.lowered.mlir
// RUN: env COOPVEC_CUDA_DRIVER=%coopvec_libs/libcoopvec_fake_cuda.so COOPVEC_FAKE_CUDA=sm_80 not mlir-runner %t.lowered.mlir -e main --entry-point-result=void --shared-libs=%coopvec_libs/libcoopvec_cuda_runtime.so 2>&1 | FileCheck %s
// CHECK: coopvec-cuda: error: mgpuModuleLoad: cuModuleLoadData failed: CUDA_ERROR_NO_BINARY_FOR_GPU (no kernel image is available for execution on the device)
// RUN: env COOPVEC_CUDA_DRIVER=%t.missing/libcuda.so.1 not mlir-runner %t.lowered.mlir -e main --entry-point-result=void --shared-libs=%coopvec_libs/libcoopvec_cuda_runtime.so 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: coopvec-cuda: error: mgpuModuleLoad: no CUDA driver: cannot load {{.*}}missing/libcuda.so.1

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @fill(%buf: memref<4xf32>) kernel {
      %i = gpu.thread_id x
      %v = arith.constant 7.0 : f32
      memref.store %v, %buf[%i] : memref<4xf32>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %d = gpu.alloc () : memref<4xf32>
    gpu.launch_func @kernels::@fill blocks in (%c1, %c1, %c1)
        threads in (%c4, %c1, %c1) args(%d : memref<4xf32>)
    gpu.dealloc %d : memref<4xf32>
    return
  }
}
