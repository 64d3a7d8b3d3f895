//===- CudaRuntime.h - the CUDA driver runtime of GPU programs -*- C -*-===//
//
// libcoopvec_cuda_runtime.so: the `mgpu*` functions that MLIR's
// gpu-to-llvm lowering and the GPU dialect's LLVM IR translation
// (gpu.binary / gpu.launch_func) call, implemented on the CUDA driver API.
// Debian ships no MLIR CUDA runtime wrappers; this library takes their
// place for coopvec-run and for mlir-runner (--shared-libs).
//
// The library is not linked against CUDA: it loads the driver
// (libcuda.so.1, or the file named by the environment variable
// COOPVEC_CUDA_DRIVER) with dlopen on first use, so it loads and reports
// cleanly on machines without a driver or a GPU.
//
// Errors. A failed driver call (or a driver that cannot be loaded) prints
// one line
//   <prefix>error: <mgpu function>: <driver call> failed: <CUDA error name>
//   (<CUDA error string>)
// to stderr and then calls the handler installed with
// coopvecCudaSetErrorHandler; without one it exits with status 1. Lowered
// code never continues after an error.
//
//===----------------------------------------------------------------------===//

#ifndef LINALGCOOP_RUNTIME_CUDARUNTIME_H
#define LINALGCOOP_RUNTIME_CUDARUNTIME_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// 0 if the driver loads, initializes and reports at least one device;
/// otherwise non-zero, with the reason (one line, NUL-terminated, truncated
/// to `size` bytes) in `message`.
int coopvecCudaProbe(char *message, size_t size);

/// The compute capability of device `ordinal` in *major and *minor (9 and 0
/// on an H100): 0 on success, else non-zero with the reason in `message`.
int coopvecCudaComputeCapability(int ordinal, int *major, int *minor,
                                 char *message, size_t size);

/// Called with the error line (without its prefix and newline) after it
/// was printed; must not return (exit, longjmp or abort). NULL restores the
/// default (exit with status 1).
typedef void (*CoopVecCudaErrorHandler)(const char *message);
void coopvecCudaSetErrorHandler(CoopVecCudaErrorHandler handler);

/// The prefix of the error line (default "coopvec-cuda: "); `prefix` must
/// outlive the library's use. coopvec-run sets "coopvec-run: ".
void coopvecCudaSetErrorPrefix(const char *prefix);

#ifdef __cplusplus
}
#endif

#endif // LINALGCOOP_RUNTIME_CUDARUNTIME_H
