// coopvec-run against the fake driver of test/lib/Cuda (a stand-in for
// libcuda.so.1): a driver without a GPU, a failing cuInit, and a device
// whose chip picks the kernels' target and which then refuses to load
// them, each one error line and exit status 1; then a device that takes
// the whole run but for executing the kernel.

// RUN: env COOPVEC_CUDA_DRIVER=%coopvec_libs/libcoopvec_fake_cuda.so COOPVEC_FAKE_CUDA=no-device not coopvec-run %S/Inputs/axpy.mlir -e axpy --arg [1] --arg [2] --arg 2 --arg 1 2>&1 | FileCheck %s --check-prefix=NODEV
// NODEV: coopvec-run: error: '{{.*}}axpy.mlir' is a GPU program (gpu.container_module), but no NVIDIA GPU can run it: the CUDA driver reports no GPU

// RUN: env COOPVEC_CUDA_DRIVER=%coopvec_libs/libcoopvec_fake_cuda.so COOPVEC_FAKE_CUDA=init-error not coopvec-run %S/Inputs/axpy.mlir -e axpy --arg [1] --arg [2] --arg 2 --arg 1 2>&1 | FileCheck %s --check-prefix=INIT
// INIT: but no NVIDIA GPU can run it: the CUDA driver cannot be used: cuInit failed: CUDA_ERROR_NO_DEVICE (no CUDA-capable device is detected)

// The device's compute capability picks the coopvec profile whose cubin
// runs there (sm_86 runs sm_80 code); a device older than every profile
// has none. --gpu-chip overrides it.
// RUN: env COOPVEC_CUDA_DRIVER=%coopvec_libs/libcoopvec_fake_cuda.so COOPVEC_FAKE_CUDA=sm_86 coopvec-run --probe-gpu | FileCheck %s --check-prefix=PROBE
// PROBE: sm_80
// RUN: env COOPVEC_CUDA_DRIVER=%coopvec_libs/libcoopvec_fake_cuda.so COOPVEC_FAKE_CUDA=sm_75 not coopvec-run --probe-gpu 2>&1 | FileCheck %s --check-prefix=OLD
// OLD: device 0 is sm_75, which no coopvec NVIDIA profile (sm_80, sm_89, sm_90, sm_100a, sm_120a) targets; --gpu-chip names one

// RUN: env COOPVEC_CUDA_DRIVER=%coopvec_libs/libcoopvec_fake_cuda.so COOPVEC_FAKE_CUDA=sm_86 coopvec-run %S/Inputs/axpy.mlir -e axpy --arg [1] --arg [2] --arg 2 --arg 1 --print-lowered | FileCheck %s --check-prefix=CHIP
// CHIP: gpu.binary @kernels {{.*}}#gpu.object<#nvvm.target<O = 3, chip = "sm_80", features = "+ptx87">, {{.*}}bin = "
// The host code: one stream, buffers, the launch, waiting for it.
// CHIP: llvm.func @axpy(
// CHIP: llvm.call @mgpuStreamCreate()
// CHIP: llvm.call @mgpuMemAlloc(
// CHIP: llvm.call @mgpuMemcpy(
// CHIP: gpu.launch_func <%{{.*}} : !llvm.ptr> @kernels::@axpy
// CHIP: llvm.call @mgpuStreamSynchronize(
// CHIP: llvm.call @mgpuMemFree(
// RUN: env COOPVEC_CUDA_DRIVER=%coopvec_libs/libcoopvec_fake_cuda.so COOPVEC_FAKE_CUDA=sm_86 coopvec-run %S/Inputs/axpy.mlir -e axpy --arg [1] --arg [2] --arg 2 --arg 1 --gpu-chip=sm_89 --print-lowered | FileCheck %s --check-prefix=OVERRIDE
// OVERRIDE: gpu.binary @kernels {{.*}}#gpu.object<#nvvm.target<O = 3, chip = "sm_89", features = "+ptx87">, {{.*}}bin = "

// Loading the kernels (a global constructor of the JIT-compiled program)
// fails: the runtime names the mgpu function, the driver call and the CUDA
// error.
// RUN: env COOPVEC_CUDA_DRIVER=%coopvec_libs/libcoopvec_fake_cuda.so COOPVEC_FAKE_CUDA=sm_86 not coopvec-run %S/Inputs/axpy.mlir -e axpy --arg [1] --arg [2] --arg 2 --arg 1 2>&1 | FileCheck %s --check-prefix=LOAD
// LOAD: coopvec-run: error: mgpuModuleLoad: cuModuleLoadData failed: CUDA_ERROR_NO_BINARY_FOR_GPU (no kernel image is available for execution on the device)
// LOAD-NOT: {{.}}

// REQUIRES: ptxas

// A device that loads kernels and launches them without running them
// (sm_86:launch): the whole path but the kernel runs, from the probe to the
// module unloaded by the program's global destructor. The arguments make
// the round trip through the "device" buffers unchanged, and the launch
// gets the grid the host code computed (5 elements, 2 threads a block: 3
// blocks) and the kernel's buffer.
// RUN: env COOPVEC_CUDA_DRIVER=%coopvec_libs/libcoopvec_fake_cuda.so COOPVEC_FAKE_CUDA=sm_86:launch coopvec-run %S/Inputs/axpy.mlir -e axpy --arg [1,2,3,4,5] --arg [10,20,30,40,50] --arg 2 --arg 2 --print-args 2> %t.err | FileCheck %s --check-prefix=LAUNCHED
// RUN: FileCheck %s --check-prefix=LAUNCHED-ERR < %t.err
// LAUNCHED: [10, 20, 30, 40, 50]
// LAUNCHED-NEXT: arg 0: [1, 2, 3, 4, 5]
// LAUNCHED-NEXT: arg 1: [10, 20, 30, 40, 50]
// LAUNCHED-ERR: fake cuLaunchKernel: axpy grid 3x1x1 block 2x1x1 smem 0 param0 set
// LAUNCHED-ERR-NEXT: fake cuModuleUnload
// LAUNCHED-ERR-NOT: {{.}}
// A launch the driver refuses (more than 1024 threads a block).
// RUN: env COOPVEC_CUDA_DRIVER=%coopvec_libs/libcoopvec_fake_cuda.so COOPVEC_FAKE_CUDA=sm_86:launch not coopvec-run %S/Inputs/axpy.mlir -e axpy --arg [1] --arg [2] --arg 2 --arg 2048 2>&1 | FileCheck %s --check-prefix=REFUSED
// REFUSED: coopvec-run: error: mgpuLaunchKernel: cuLaunchKernel failed: CUDA_ERROR_INVALID_VALUE

// --gpu-chip with --print-lowered needs no driver at all.
// RUN: env COOPVEC_CUDA_DRIVER=%t.missing/libcuda.so.1 coopvec-run %S/Inputs/axpy.mlir -e axpy --arg [1] --arg [2] --arg 2 --arg 1 --gpu-chip=sm_90 --print-lowered | FileCheck %s --check-prefix=NODRIVER
// NODRIVER: gpu.binary @kernels {{.*}}#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx87">, {{.*}}bin = "
// RUN: not coopvec-run %S/Inputs/axpy.mlir -e axpy --arg [1] --arg [2] --arg 2 --arg 1 --gpu-chip=gfx90a --print-lowered 2>&1 | FileCheck %s --check-prefix=BADCHIP
// BADCHIP: coopvec-run: error: --gpu-chip=gfx90a is not an NVIDIA chip name like sm_80
