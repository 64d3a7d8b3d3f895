// Without a usable CUDA driver and GPU, coopvec-run refuses a GPU program
// before doing anything else: one error line and exit status 1, no crash.
// UNSUPPORTED: cuda-gpu

// RUN: not coopvec-run %S/Inputs/axpy.mlir -e axpy --arg [1] --arg [2] --arg 2 --arg 1 2>&1 | FileCheck %s
// CHECK: coopvec-run: error: '{{.*}}axpy.mlir' is a GPU program (gpu.container_module), but no NVIDIA GPU can run it: {{.+}}
// CHECK-NOT: {{.}}

// No driver at all (a driver library that does not exist), whatever the
// machine has:
// RUN: env COOPVEC_CUDA_DRIVER=%t.missing/libcuda.so.1 not coopvec-run %S/Inputs/axpy.mlir -e axpy --arg [1] --arg [2] --arg 2 --arg 1 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: coopvec-run: error: '{{.*}}axpy.mlir' is a GPU program (gpu.container_module), but no NVIDIA GPU can run it: no CUDA driver: cannot load {{.*}}missing/libcuda.so.1 ({{.+}})
// RUN: env COOPVEC_CUDA_DRIVER=%t.missing/libcuda.so.1 not coopvec-run --probe-gpu 2>&1 | FileCheck %s --check-prefix=PROBE
// PROBE: coopvec-run: error: no CUDA driver: cannot load {{.*}}missing/libcuda.so.1

// --print-lowered asks for the device's chip too, unless --gpu-chip names it
// (lower.mlir):
// RUN: env COOPVEC_CUDA_DRIVER=%t.missing/libcuda.so.1 not coopvec-run %S/Inputs/axpy.mlir -e axpy --arg [1] --arg [2] --arg 2 --arg 1 --print-lowered 2>&1 | FileCheck %s --check-prefix=LOWER
// LOWER: no CUDA driver: cannot load {{.*}}; --gpu-chip=sm_XY lowers it without one
