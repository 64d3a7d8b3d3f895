//===- CudaRuntime.cpp - mgpu* on the CUDA driver, loaded with dlopen -----===//
//
// The functions that gpu.launch_func, gpu.alloc, gpu.memcpy, ... lower to
// (MLIR 22's GPUToLLVMConversion.cpp and SelectObjectAttr.cpp), with the
// signatures of upstream's CudaRuntimeWrappers.cpp, on the CUDA driver API.
// The driver's types and the few enumerators used are declared here: the
// library builds without the CUDA toolkit and loads libcuda.so.1 at run
// time (see CudaRuntime.h).
//
//===----------------------------------------------------------------------===//

#include "LinAlgCoop/Runtime/CudaRuntime.h"

#include <dlfcn.h>

#include <atomic>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

namespace {

//===----------------------------------------------------------------------===//
// The driver API subset (cuda.h, CUDA 12 and 13 ABI)
//===----------------------------------------------------------------------===//

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUcontext = struct CUctx_st *;
using CUmodule = struct CUmod_st *;
using CUfunction = struct CUfunc_st *;
using CUstream = struct CUstream_st *;
using CUevent = struct CUevent_st *;

constexpr CUresult kCudaSuccess = 0;
constexpr CUresult kCudaDeinitialized = 4;
constexpr int kAttrComputeCapabilityMajor = 75;
constexpr int kAttrComputeCapabilityMinor = 76;
constexpr int kAttrMaxSharedMemoryPerBlockOptin = 97;
constexpr int kFuncAttrMaxDynamicSharedSizeBytes = 8;
constexpr int kJitErrorLogBuffer = 5;
constexpr int kJitErrorLogBufferSizeBytes = 6;
constexpr int kJitOptimizationLevel = 7;
constexpr unsigned kStreamNonBlocking = 0x1;
constexpr unsigned kEventDisableTiming = 0x2;
constexpr unsigned kMemAttachGlobal = 0x1;

// X(field, exported symbol, signature...). The _v2 symbols are what
// cuda.h's macros select for the plain names.
#define COOPVEC_CUDA_DRIVER_FUNCTIONS(X)                                       \
  X(cuGetErrorName, "cuGetErrorName", CUresult(CUresult, const char **))       \
  X(cuGetErrorString, "cuGetErrorString", CUresult(CUresult, const char **))   \
  X(cuInit, "cuInit", CUresult(unsigned))                                      \
  X(cuDeviceGetCount, "cuDeviceGetCount", CUresult(int *))                     \
  X(cuDeviceGet, "cuDeviceGet", CUresult(CUdevice *, int))                     \
  X(cuDeviceGetAttribute, "cuDeviceGetAttribute",                              \
    CUresult(int *, int, CUdevice))                                            \
  X(cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain",                      \
    CUresult(CUcontext *, CUdevice))                                           \
  X(cuCtxSetCurrent, "cuCtxSetCurrent", CUresult(CUcontext))                   \
  X(cuModuleLoadData, "cuModuleLoadData", CUresult(CUmodule *, const void *))  \
  X(cuModuleLoadDataEx, "cuModuleLoadDataEx",                                  \
    CUresult(CUmodule *, const void *, unsigned, int *, void **))              \
  X(cuModuleUnload, "cuModuleUnload", CUresult(CUmodule))                      \
  X(cuModuleGetFunction, "cuModuleGetFunction",                                \
    CUresult(CUfunction *, CUmodule, const char *))                            \
  X(cuFuncSetAttribute, "cuFuncSetAttribute", CUresult(CUfunction, int, int))  \
  X(cuLaunchKernel, "cuLaunchKernel",                                          \
    CUresult(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned,     \
             unsigned, unsigned, CUstream, void **, void **))                  \
  X(cuStreamCreate, "cuStreamCreate", CUresult(CUstream *, unsigned))          \
  X(cuStreamDestroy, "cuStreamDestroy_v2", CUresult(CUstream))                 \
  X(cuStreamSynchronize, "cuStreamSynchronize", CUresult(CUstream))            \
  X(cuStreamWaitEvent, "cuStreamWaitEvent",                                    \
    CUresult(CUstream, CUevent, unsigned))                                     \
  X(cuEventCreate, "cuEventCreate", CUresult(CUevent *, unsigned))             \
  X(cuEventDestroy, "cuEventDestroy_v2", CUresult(CUevent))                    \
  X(cuEventSynchronize, "cuEventSynchronize", CUresult(CUevent))               \
  X(cuEventRecord, "cuEventRecord", CUresult(CUevent, CUstream))               \
  X(cuMemAlloc, "cuMemAlloc_v2", CUresult(CUdeviceptr *, size_t))              \
  X(cuMemAllocManaged, "cuMemAllocManaged",                                    \
    CUresult(CUdeviceptr *, size_t, unsigned))                                 \
  X(cuMemFree, "cuMemFree_v2", CUresult(CUdeviceptr))                          \
  X(cuMemcpyAsync, "cuMemcpyAsync",                                            \
    CUresult(CUdeviceptr, CUdeviceptr, size_t, CUstream))                      \
  X(cuMemsetD16Async, "cuMemsetD16Async",                                      \
    CUresult(CUdeviceptr, unsigned short, size_t, CUstream))                   \
  X(cuMemsetD32Async, "cuMemsetD32Async",                                      \
    CUresult(CUdeviceptr, unsigned, size_t, CUstream))                         \
  X(cuMemHostRegister, "cuMemHostRegister_v2",                                 \
    CUresult(void *, size_t, unsigned))                                        \
  X(cuMemHostUnregister, "cuMemHostUnregister", CUresult(void *))

template <typename Signature> using FunctionPtr = Signature *;

struct Driver {
#define COOPVEC_CUDA_FIELD(field, symbol, ...)                                 \
  FunctionPtr<__VA_ARGS__> field = nullptr;
  COOPVEC_CUDA_DRIVER_FUNCTIONS(COOPVEC_CUDA_FIELD)
#undef COOPVEC_CUDA_FIELD
  // Why the driver is unusable; empty once it is loaded and initialized.
  char failure[512] = "";
};

//===----------------------------------------------------------------------===//
// Errors
//===----------------------------------------------------------------------===//

std::atomic<CoopVecCudaErrorHandler> errorHandler{nullptr};
std::atomic<const char *> errorPrefix{"coopvec-cuda: "};

/// snprintf that accepts an empty buffer.
void format(char *out, size_t size, const char *format, ...) {
  if (!size)
    return;
  va_list args;
  va_start(args, format);
  std::vsnprintf(out, size, format, args);
  va_end(args);
}

/// Prints the error line and ends the run: the handler, or _Exit(1).
[[noreturn]] void fail(const char *message) {
  std::fflush(stdout);
  std::fprintf(stderr, "%serror: %s\n", errorPrefix.load(), message);
  std::fflush(stderr);
  if (CoopVecCudaErrorHandler handler = errorHandler.load())
    handler(message);
  // Not exit(): its atexit handlers include the JIT's global destructors,
  // which would call back into the driver that just failed.
  std::_Exit(1);
}

/// `<driver call> failed: CUDA_ERROR_X (string)`.
void describe(const Driver &driver, char *out, size_t size, const char *call,
              CUresult result) {
  const char *name = nullptr, *text = nullptr;
  if (driver.cuGetErrorName)
    driver.cuGetErrorName(result, &name);
  if (driver.cuGetErrorString)
    driver.cuGetErrorString(result, &text);
  format(out, size, "%s failed: %s (%s)", call, name ? name : "unknown error",
         text ? text : "no description");
  if (!name)
    format(out + std::strlen(out), size - std::strlen(out), " [code %d]",
           result);
}

//===----------------------------------------------------------------------===//
// Loading
//===----------------------------------------------------------------------===//

/// Loads the driver, resolves every function and runs cuInit; on failure
/// leaves the reason in `failure`.
void load(Driver &driver) {
  const char *path = std::getenv("COOPVEC_CUDA_DRIVER");
  if (!path || !*path)
    path = "libcuda.so.1";
  void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char *why = dlerror();
    format(driver.failure, sizeof(driver.failure),
           "no CUDA driver: cannot load %s (%s)", path,
           why ? why : "unknown reason");
    return;
  }
#define COOPVEC_CUDA_RESOLVE(field, symbol, ...)                               \
  driver.field =                                                               \
      reinterpret_cast<FunctionPtr<__VA_ARGS__>>(dlsym(handle, symbol));       \
  if (!driver.field) {                                                         \
    format(driver.failure, sizeof(driver.failure),                             \
           "the CUDA driver %s has no %s (too old a driver?)", path, symbol);  \
    return;                                                                    \
  }
  COOPVEC_CUDA_DRIVER_FUNCTIONS(COOPVEC_CUDA_RESOLVE)
#undef COOPVEC_CUDA_RESOLVE
  char why[400];
  if (CUresult result = driver.cuInit(0)) {
    describe(driver, why, sizeof(why), "cuInit", result);
    format(driver.failure, sizeof(driver.failure),
           "the CUDA driver cannot be used: %s", why);
    return;
  }
  int count = 0;
  if (CUresult result = driver.cuDeviceGetCount(&count)) {
    describe(driver, why, sizeof(why), "cuDeviceGetCount", result);
    format(driver.failure, sizeof(driver.failure),
           "the CUDA driver cannot be used: %s", why);
    return;
  }
  if (count == 0)
    format(driver.failure, sizeof(driver.failure),
           "the CUDA driver reports no GPU");
}

/// The driver, loaded on first use.
const Driver &driver() {
  static Driver instance;
  static std::once_flag once;
  std::call_once(once, [] { load(instance); });
  return instance;
}

/// The device that mgpuSetDefaultDevice chose (upstream keeps it per
/// thread too).
thread_local int defaultDevice = 0;

/// The driver for a call from lowered code: a driver that cannot be used
/// ends the run.
const Driver &usableDriver(const char *function) {
  const Driver &d = driver();
  if (d.failure[0]) {
    char message[640];
    format(message, sizeof(message), "%s: %s", function, d.failure);
    fail(message);
  }
  return d;
}

/// Ends the run if `result` is an error of `call` made by `function`.
void check(const Driver &d, const char *function, const char *call,
           CUresult result) {
  if (result == kCudaSuccess)
    return;
  char why[400], message[512];
  describe(d, why, sizeof(why), call, result);
  format(message, sizeof(message), "%s: %s", function, why);
  fail(message);
}

#define COOPVEC_CUDA_CHECK(d, call, ...)                                       \
  check(d, __func__, #call, d.call(__VA_ARGS__))

/// The primary context of the default device, made current on the calling
/// thread. Primary contexts are retained once per device and live as long
/// as the process.
const Driver &withContext(const char *function) {
  const Driver &d = usableDriver(function);
  static std::mutex mutex;
  static CUcontext contexts[64] = {};
  int ordinal = defaultDevice;
  if (ordinal < 0 || ordinal >= 64) {
    char message[128];
    format(message, sizeof(message), "%s: device %d does not exist", function,
           ordinal);
    fail(message);
  }
  CUcontext context;
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (!contexts[ordinal]) {
      CUdevice device;
      check(d, function, "cuDeviceGet", d.cuDeviceGet(&device, ordinal));
      check(d, function, "cuDevicePrimaryCtxRetain",
            d.cuDevicePrimaryCtxRetain(&contexts[ordinal], device));
    }
    context = contexts[ordinal];
  }
  check(d, function, "cuCtxSetCurrent", d.cuCtxSetCurrent(context));
  return d;
}

CUdeviceptr devicePtr(const void *ptr) {
  return static_cast<CUdeviceptr>(reinterpret_cast<uintptr_t>(ptr));
}

/// A dimension of a launch: the driver takes unsigned.
unsigned launchDim(const char *function, const char *what, intptr_t value) {
  if (value < 1 || static_cast<uint64_t>(value) > UINT32_MAX) {
    char message[160];
    format(message, sizeof(message), "%s: %s is %lld, not in [1, 2^32)",
           function, what, static_cast<long long>(value));
    fail(message);
  }
  return static_cast<unsigned>(value);
}

/// The head of MLIR's ranked memref descriptor; `rank` sizes and then
/// `rank` strides follow it.
struct MemRefDescriptor {
  char *allocated;
  char *aligned;
  int64_t offset;
};

const int64_t *sizesOf(const MemRefDescriptor *descriptor) {
  return reinterpret_cast<const int64_t *>(descriptor + 1);
}

} // namespace

//===----------------------------------------------------------------------===//
// Probing
//===----------------------------------------------------------------------===//

extern "C" int coopvecCudaProbe(char *message, size_t size) {
  const Driver &d = driver();
  if (d.failure[0]) {
    format(message, size, "%s", d.failure);
    return 1;
  }
  format(message, size, "ok");
  return 0;
}

extern "C" int coopvecCudaComputeCapability(int ordinal, int *major, int *minor,
                                            char *message, size_t size) {
  if (coopvecCudaProbe(message, size))
    return 1;
  const Driver &d = driver();
  char why[400];
  CUdevice device;
  if (CUresult result = d.cuDeviceGet(&device, ordinal)) {
    describe(d, why, sizeof(why), "cuDeviceGet", result);
    format(message, size, "no CUDA device %d: %s", ordinal, why);
    return 1;
  }
  if (CUresult result =
          d.cuDeviceGetAttribute(major, kAttrComputeCapabilityMajor, device)) {
    describe(d, why, sizeof(why), "cuDeviceGetAttribute", result);
    format(message, size, "%s", why);
    return 1;
  }
  if (CUresult result =
          d.cuDeviceGetAttribute(minor, kAttrComputeCapabilityMinor, device)) {
    describe(d, why, sizeof(why), "cuDeviceGetAttribute", result);
    format(message, size, "%s", why);
    return 1;
  }
  format(message, size, "ok");
  return 0;
}

extern "C" void coopvecCudaSetErrorHandler(CoopVecCudaErrorHandler handler) {
  errorHandler.store(handler);
}

extern "C" void coopvecCudaSetErrorPrefix(const char *prefix) {
  errorPrefix.store(prefix ? prefix : "");
}

//===----------------------------------------------------------------------===//
// Modules and launches
//===----------------------------------------------------------------------===//

extern "C" CUmodule mgpuModuleLoad(void *data, size_t /*gpuBlobSize*/) {
  const Driver &d = withContext(__func__);
  CUmodule module = nullptr;
  COOPVEC_CUDA_CHECK(d, cuModuleLoadData, &module, data);
  return module;
}

/// PTX (gpu-module-to-binary{format=isa}), compiled by the driver.
extern "C" CUmodule mgpuModuleLoadJIT(void *data, int optLevel) {
  const Driver &d = withContext(__func__);
  CUmodule module = nullptr;
  char log[4096] = "";
  int options[] = {kJitErrorLogBuffer, kJitErrorLogBufferSizeBytes,
                   kJitOptimizationLevel};
  void *values[] = {log, reinterpret_cast<void *>(sizeof(log)),
                    reinterpret_cast<void *>(static_cast<intptr_t>(optLevel))};
  CUresult result = d.cuModuleLoadDataEx(&module, data, 3, options, values);
  if (result != kCudaSuccess) {
    char why[400], message[4600];
    describe(d, why, sizeof(why), "cuModuleLoadDataEx", result);
    // The JIT log is several lines; the error line names its first.
    for (char *c = log; *c; ++c)
      if (*c == '\n')
        *c = ' ';
    format(message, sizeof(message), "%s: %s%s%s", __func__, why,
           log[0] ? ": " : "", log);
    fail(message);
  }
  return module;
}

/// Called from a global destructor: a driver already shut down at exit has
/// unloaded every module itself. A module knows its context, so none is
/// made current.
extern "C" void mgpuModuleUnload(CUmodule module) {
  const Driver &d = usableDriver(__func__);
  CUresult result = d.cuModuleUnload(module);
  if (result != kCudaDeinitialized)
    check(d, __func__, "cuModuleUnload", result);
}

extern "C" CUfunction mgpuModuleGetFunction(CUmodule module, const char *name) {
  const Driver &d = withContext(__func__);
  CUfunction function = nullptr;
  CUresult result = d.cuModuleGetFunction(&function, module, name);
  if (result != kCudaSuccess) {
    char why[400], message[640];
    describe(d, why, sizeof(why), "cuModuleGetFunction", result);
    format(message, sizeof(message), "%s: kernel '%s': %s", __func__, name,
           why);
    fail(message);
  }
  return function;
}

// Sizes are intptr_t as MLIR's index type is; the driver takes unsigned.
extern "C" void mgpuLaunchKernel(CUfunction function, intptr_t gridX,
                                 intptr_t gridY, intptr_t gridZ,
                                 intptr_t blockX, intptr_t blockY,
                                 intptr_t blockZ, int32_t smem, CUstream stream,
                                 void **params, void **extra,
                                 size_t /*paramsCount*/) {
  const Driver &d = withContext(__func__);
  if (smem < 0) {
    char message[128];
    format(message, sizeof(message),
           "%s: dynamic shared memory size %d is negative", __func__, smem);
    fail(message);
  }
  if (smem > 0) {
    // Beyond the default 48 KiB a kernel must opt in, up to the device's
    // limit.
    CUdevice device;
    int limit = 0;
    COOPVEC_CUDA_CHECK(d, cuDeviceGet, &device, defaultDevice);
    COOPVEC_CUDA_CHECK(d, cuDeviceGetAttribute, &limit,
                       kAttrMaxSharedMemoryPerBlockOptin, device);
    if (smem > limit) {
      char message[160];
      format(message, sizeof(message),
             "%s: %d bytes of dynamic shared memory requested, the device "
             "has at most %d per block",
             __func__, smem, limit);
      fail(message);
    }
    COOPVEC_CUDA_CHECK(d, cuFuncSetAttribute, function,
                       kFuncAttrMaxDynamicSharedSizeBytes, smem);
  }
  COOPVEC_CUDA_CHECK(d, cuLaunchKernel, function,
                     launchDim(__func__, "grid x", gridX),
                     launchDim(__func__, "grid y", gridY),
                     launchDim(__func__, "grid z", gridZ),
                     launchDim(__func__, "block x", blockX),
                     launchDim(__func__, "block y", blockY),
                     launchDim(__func__, "block z", blockZ),
                     static_cast<unsigned>(smem), stream, params, extra);
}

//===----------------------------------------------------------------------===//
// Streams and events
//===----------------------------------------------------------------------===//

extern "C" CUstream mgpuStreamCreate() {
  const Driver &d = withContext(__func__);
  CUstream stream = nullptr;
  COOPVEC_CUDA_CHECK(d, cuStreamCreate, &stream, kStreamNonBlocking);
  return stream;
}

extern "C" void mgpuStreamDestroy(CUstream stream) {
  const Driver &d = withContext(__func__);
  COOPVEC_CUDA_CHECK(d, cuStreamDestroy, stream);
}

/// Kernel faults surface here (or at the next call on the context).
extern "C" void mgpuStreamSynchronize(CUstream stream) {
  const Driver &d = withContext(__func__);
  COOPVEC_CUDA_CHECK(d, cuStreamSynchronize, stream);
}

extern "C" void mgpuStreamWaitEvent(CUstream stream, CUevent event) {
  const Driver &d = withContext(__func__);
  COOPVEC_CUDA_CHECK(d, cuStreamWaitEvent, stream, event, 0);
}

extern "C" CUevent mgpuEventCreate() {
  const Driver &d = withContext(__func__);
  CUevent event = nullptr;
  COOPVEC_CUDA_CHECK(d, cuEventCreate, &event, kEventDisableTiming);
  return event;
}

extern "C" void mgpuEventDestroy(CUevent event) {
  const Driver &d = withContext(__func__);
  COOPVEC_CUDA_CHECK(d, cuEventDestroy, event);
}

extern "C" void mgpuEventSynchronize(CUevent event) {
  const Driver &d = withContext(__func__);
  COOPVEC_CUDA_CHECK(d, cuEventSynchronize, event);
}

extern "C" void mgpuEventRecord(CUevent event, CUstream stream) {
  const Driver &d = withContext(__func__);
  COOPVEC_CUDA_CHECK(d, cuEventRecord, event, stream);
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

/// gpu.alloc; `isHostShared` (gpu.alloc host_shared) asks for managed
/// memory, which the host may access too.
extern "C" void *mgpuMemAlloc(uint64_t sizeBytes, CUstream /*stream*/,
                              bool isHostShared) {
  const Driver &d = withContext(__func__);
  CUdeviceptr ptr = 0;
  if (sizeBytes == 0)
    return nullptr;
  if (isHostShared)
    COOPVEC_CUDA_CHECK(d, cuMemAllocManaged, &ptr, sizeBytes, kMemAttachGlobal);
  else
    COOPVEC_CUDA_CHECK(d, cuMemAlloc, &ptr, sizeBytes);
  return reinterpret_cast<void *>(static_cast<uintptr_t>(ptr));
}

extern "C" void mgpuMemFree(void *ptr, CUstream /*stream*/) {
  const Driver &d = withContext(__func__);
  if (ptr)
    COOPVEC_CUDA_CHECK(d, cuMemFree, devicePtr(ptr));
}

/// gpu.memcpy in any direction: with unified addressing the driver tells
/// host from device pointers.
extern "C" void mgpuMemcpy(void *dst, void *src, size_t sizeBytes,
                           CUstream stream) {
  const Driver &d = withContext(__func__);
  if (sizeBytes)
    COOPVEC_CUDA_CHECK(d, cuMemcpyAsync, devicePtr(dst), devicePtr(src),
                       sizeBytes, stream);
}

extern "C" void mgpuMemset32(void *dst, unsigned value, size_t count,
                             CUstream stream) {
  const Driver &d = withContext(__func__);
  if (count)
    COOPVEC_CUDA_CHECK(d, cuMemsetD32Async, devicePtr(dst), value, count,
                       stream);
}

extern "C" void mgpuMemset16(void *dst, unsigned short value, size_t count,
                             CUstream stream) {
  const Driver &d = withContext(__func__);
  if (count)
    COOPVEC_CUDA_CHECK(d, cuMemsetD16Async, devicePtr(dst), value, count,
                       stream);
}

extern "C" void mgpuMemHostRegister(void *ptr, uint64_t sizeBytes) {
  const Driver &d = withContext(__func__);
  if (sizeBytes)
    COOPVEC_CUDA_CHECK(d, cuMemHostRegister, ptr, sizeBytes, 0);
}

extern "C" void mgpuMemHostUnregister(void *ptr) {
  const Driver &d = withContext(__func__);
  COOPVEC_CUDA_CHECK(d, cuMemHostUnregister, ptr);
}

/// gpu.host_register of a memref: its elements must be densely packed, so
/// that one byte range covers them.
extern "C" void mgpuMemHostRegisterMemRef(int64_t rank,
                                          MemRefDescriptor *descriptor,
                                          int64_t elementSizeBytes) {
  const int64_t *sizes = sizesOf(descriptor);
  const int64_t *strides = sizes + rank;
  int64_t elements = 1;
  for (int64_t i = rank - 1; i >= 0; --i) {
    if (sizes[i] != 1 && strides[i] != elements) {
      char message[160];
      format(message, sizeof(message),
             "%s: dimension %lld of the memref has stride %lld, not %lld: "
             "only dense memrefs can be registered",
             __func__, static_cast<long long>(i),
             static_cast<long long>(strides[i]),
             static_cast<long long>(elements));
      fail(message);
    }
    elements *= sizes[i];
  }
  mgpuMemHostRegister(descriptor->aligned +
                          descriptor->offset * elementSizeBytes,
                      static_cast<uint64_t>(elements * elementSizeBytes));
}

extern "C" void mgpuMemHostUnregisterMemRef(int64_t /*rank*/,
                                            MemRefDescriptor *descriptor,
                                            int64_t elementSizeBytes) {
  mgpuMemHostUnregister(descriptor->aligned +
                        descriptor->offset * elementSizeBytes);
}

extern "C" void mgpuSetDefaultDevice(int32_t device) { defaultDevice = device; }
