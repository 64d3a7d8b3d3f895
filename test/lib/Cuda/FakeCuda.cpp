//===- FakeCuda.cpp - a CUDA driver stand-in for tests without a GPU ------===//
//
// libcoopvec_fake_cuda.so exports every driver function that
// libcoopvec_cuda_runtime.so resolves; tests load it in place of
// libcuda.so.1 with COOPVEC_CUDA_DRIVER. COOPVEC_FAKE_CUDA picks what it
// reports:
//   init-error  cuInit fails with CUDA_ERROR_NO_DEVICE
//   no-device   cuInit succeeds, cuDeviceGetCount reports 0 devices
//   sm_XY       one device of compute capability X.Y, on which loading any
//               module fails with CUDA_ERROR_NO_BINARY_FOR_GPU; streams and
//               memory calls succeed (host memory stands in for the device's)
//   sm_XY:launch  the same device, which loads modules and launches kernels
//               without running them: each launch prints its function name,
//               grid, block, shared memory and first parameter on stderr,
//               each unload a line too
//
//===----------------------------------------------------------------------===//

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <algorithm>

namespace {

using CUresult = int;
constexpr CUresult kSuccess = 0, kInvalidValue = 1, kNotInitialized = 3,
                   kNoDevice = 100, kInvalidDevice = 101, kNoBinaryForGpu = 209,
                   kNotSupported = 801;

const char *mode() {
  const char *value = std::getenv("COOPVEC_FAKE_CUDA");
  return value ? value : "";
}

bool initialized = false;

/// The compute capability of the fake device, or false without one.
bool device(int &major, int &minor) {
  const char *m = mode();
  size_t digits = std::strcspn(m + std::min<size_t>(3, std::strlen(m)), ":");
  if (std::strncmp(m, "sm_", 3) || digits < 2 || digits > 3)
    return false;
  major = m[3] - '0';
  minor = m[4] - '0';
  if (digits == 3) {
    major = major * 10 + minor;
    minor = m[5] - '0';
  }
  return true;
}

/// Whether modules load and kernels "launch" (sm_XY:launch).
bool launches() { return std::strstr(mode(), ":launch") != nullptr; }

/// A loaded module: the function names it hands out point into it.
struct Module {
  char name[128];
};

CUresult ready() {
  int major, minor;
  if (!initialized)
    return kNotInitialized;
  return device(major, minor) ? kSuccess : kNoDevice;
}

} // namespace

extern "C" {

CUresult cuGetErrorName(CUresult error, const char **name) {
  switch (error) {
  case kSuccess:
    *name = "CUDA_SUCCESS";
    return kSuccess;
  case kInvalidValue:
    *name = "CUDA_ERROR_INVALID_VALUE";
    return kSuccess;
  case kNotInitialized:
    *name = "CUDA_ERROR_NOT_INITIALIZED";
    return kSuccess;
  case kNoDevice:
    *name = "CUDA_ERROR_NO_DEVICE";
    return kSuccess;
  case kInvalidDevice:
    *name = "CUDA_ERROR_INVALID_DEVICE";
    return kSuccess;
  case kNoBinaryForGpu:
    *name = "CUDA_ERROR_NO_BINARY_FOR_GPU";
    return kSuccess;
  case kNotSupported:
    *name = "CUDA_ERROR_NOT_SUPPORTED";
    return kSuccess;
  }
  *name = nullptr;
  return kInvalidValue;
}

CUresult cuGetErrorString(CUresult error, const char **text) {
  switch (error) {
  case kNoDevice:
    *text = "no CUDA-capable device is detected";
    return kSuccess;
  case kNoBinaryForGpu:
    *text = "no kernel image is available for execution on the device";
    return kSuccess;
  }
  *text = "fake CUDA error";
  return kSuccess;
}

CUresult cuInit(unsigned) {
  if (!std::strcmp(mode(), "init-error"))
    return kNoDevice;
  initialized = true;
  return kSuccess;
}

CUresult cuDeviceGetCount(int *count) {
  int major, minor;
  *count = device(major, minor) ? 1 : 0;
  return initialized ? kSuccess : kNotInitialized;
}

CUresult cuDeviceGet(int *dev, int ordinal) {
  if (CUresult r = ready())
    return r;
  *dev = ordinal;
  return ordinal == 0 ? kSuccess : kInvalidDevice;
}

CUresult cuDeviceGetAttribute(int *value, int attribute, int dev) {
  int major, minor;
  if (CUresult r = ready())
    return r;
  if (dev != 0)
    return kInvalidDevice;
  device(major, minor);
  switch (attribute) {
  case 75:
    *value = major;
    return kSuccess;
  case 76:
    *value = minor;
    return kSuccess;
  case 97:
    *value = 48 * 1024;
    return kSuccess;
  }
  return kInvalidValue;
}

CUresult cuDevicePrimaryCtxRetain(void **context, int) {
  static int token;
  *context = &token;
  return ready();
}
CUresult cuCtxSetCurrent(void *) { return ready(); }
CUresult cuModuleLoadData(void **module, const void *) {
  if (CUresult r = ready())
    return r;
  if (!launches())
    return kNoBinaryForGpu;
  *module = new Module();
  return kSuccess;
}
CUresult cuModuleLoadDataEx(void **module, const void *image, unsigned, int *,
                            void **) {
  return cuModuleLoadData(module, image);
}
CUresult cuModuleUnload(void *module) {
  if (!module)
    return kInvalidValue;
  std::fprintf(stderr, "fake cuModuleUnload\n");
  delete static_cast<Module *>(module);
  return kSuccess;
}
CUresult cuModuleGetFunction(void **function, void *module, const char *name) {
  if (!module)
    return kInvalidValue;
  auto *m = static_cast<Module *>(module);
  std::snprintf(m->name, sizeof(m->name), "%s", name);
  *function = m->name;
  return kSuccess;
}
CUresult cuFuncSetAttribute(void *, int, int) { return kNotSupported; }
CUresult cuLaunchKernel(void *function, unsigned gridX, unsigned gridY,
                        unsigned gridZ, unsigned blockX, unsigned blockY,
                        unsigned blockZ, unsigned smem, void *, void **params,
                        void **) {
  if (!function)
    return kInvalidValue;
  if (blockX * blockY * blockZ > 1024)
    return kInvalidValue;
  // The first parameter of a lowered kernel taking a memref is its
  // allocated pointer; printed as "set" or "null" to stay deterministic.
  std::fprintf(stderr,
               "fake cuLaunchKernel: %s grid %ux%ux%u block %ux%ux%u smem %u "
               "param0 %s\n",
               static_cast<const char *>(function), gridX, gridY, gridZ,
               blockX, blockY, blockZ, smem,
               params && params[0] && *static_cast<void **>(params[0])
                   ? "set"
                   : "null");
  return kSuccess;
}
CUresult cuStreamCreate(void **stream, unsigned) {
  static int token;
  *stream = &token;
  return ready();
}
CUresult cuStreamDestroy_v2(void *) { return ready(); }
CUresult cuStreamSynchronize(void *) { return ready(); }
CUresult cuStreamWaitEvent(void *, void *, unsigned) { return ready(); }
CUresult cuEventCreate(void **event, unsigned) {
  static int token;
  *event = &token;
  return ready();
}
CUresult cuEventDestroy_v2(void *) { return ready(); }
CUresult cuEventSynchronize(void *) { return ready(); }
CUresult cuEventRecord(void *, void *) { return ready(); }
CUresult cuMemAlloc_v2(unsigned long long *ptr, size_t size) {
  if (CUresult r = ready())
    return r;
  *ptr = reinterpret_cast<uintptr_t>(std::malloc(size));
  return kSuccess;
}
CUresult cuMemAllocManaged(unsigned long long *ptr, size_t size, unsigned) {
  return cuMemAlloc_v2(ptr, size);
}
CUresult cuMemFree_v2(unsigned long long ptr) {
  std::free(reinterpret_cast<void *>(static_cast<uintptr_t>(ptr)));
  return ready();
}
CUresult cuMemcpyAsync(unsigned long long dst, unsigned long long src,
                       size_t size, void *) {
  std::memcpy(reinterpret_cast<void *>(static_cast<uintptr_t>(dst)),
              reinterpret_cast<void *>(static_cast<uintptr_t>(src)), size);
  return ready();
}
CUresult cuMemsetD16Async(unsigned long long, unsigned short, size_t, void *) {
  return kNotSupported;
}
CUresult cuMemsetD32Async(unsigned long long, unsigned, size_t, void *) {
  return kNotSupported;
}
CUresult cuMemHostRegister_v2(void *, size_t, unsigned) { return ready(); }
CUresult cuMemHostUnregister(void *) { return ready(); }

} // extern "C"
