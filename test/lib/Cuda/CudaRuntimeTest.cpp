//===- CudaRuntimeTest.cpp - the CUDA runtime's C ABI, called directly ----===//
//
//   coopvec-cuda-runtime-test probe   prints the probe's result and the chip
//                                     of device 0; exit 0 iff a GPU is usable
//   coopvec-cuda-runtime-test stream  creates a stream (mgpuStreamCreate):
//                                     without a driver the runtime's error
//                                     line and exit status 1
//   coopvec-cuda-runtime-test axpy N BLOCK
//                                     y = 2 x + y over N floats on the GPU
//                                     through the mgpu* calls of lowered host
//                                     code (a PTX kernel, JIT-compiled by the
//                                     driver), BLOCK threads a block; prints
//                                     the mismatches against the host
//
//===----------------------------------------------------------------------===//

#include "LinAlgCoop/Runtime/CudaRuntime.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

// The runtime's mgpu* functions, as MLIR's lowering declares them.
extern "C" {
void *mgpuModuleLoadJIT(void *data, int optLevel);
void mgpuModuleUnload(void *module);
void *mgpuModuleGetFunction(void *module, const char *name);
void mgpuLaunchKernel(void *function, intptr_t gridX, intptr_t gridY,
                      intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                      intptr_t blockZ, int32_t smem, void *stream,
                      void **params, void **extra, size_t paramsCount);
void *mgpuStreamCreate();
void mgpuStreamDestroy(void *stream);
void mgpuStreamSynchronize(void *stream);
void mgpuStreamWaitEvent(void *stream, void *event);
void *mgpuEventCreate();
void mgpuEventDestroy(void *event);
void mgpuEventSynchronize(void *event);
void mgpuEventRecord(void *event, void *stream);
void *mgpuMemAlloc(uint64_t sizeBytes, void *stream, bool isHostShared);
void mgpuMemFree(void *ptr, void *stream);
void mgpuMemcpy(void *dst, void *src, size_t sizeBytes, void *stream);
void mgpuMemset32(void *dst, unsigned value, size_t count, void *stream);
}

namespace {

// y[i] = a * x[i] + y[i] for i < n. PTX for sm_50, which the driver
// compiles for any later GPU.
const char kAxpyPtx[] = R"(
.version 7.0
.target sm_50
.address_size 64
.visible .entry axpy(.param .u64 px, .param .u64 py, .param .f32 pa,
                     .param .u32 pn)
{
  .reg .pred %p;
  .reg .b32 %r<5>;
  .reg .f32 %f<5>;
  .reg .b64 %rd<6>;
  ld.param.u64 %rd1, [px];
  ld.param.u64 %rd2, [py];
  ld.param.f32 %f1, [pa];
  ld.param.u32 %r1, [pn];
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %ntid.x;
  mov.u32 %r4, %tid.x;
  mad.lo.s32 %r2, %r2, %r3, %r4;
  setp.ge.u32 %p, %r2, %r1;
  @%p bra DONE;
  cvta.to.global.u64 %rd1, %rd1;
  cvta.to.global.u64 %rd2, %rd2;
  mul.wide.u32 %rd3, %r2, 4;
  add.s64 %rd4, %rd1, %rd3;
  add.s64 %rd5, %rd2, %rd3;
  ld.global.f32 %f2, [%rd4];
  ld.global.f32 %f3, [%rd5];
  fma.rn.f32 %f4, %f1, %f2, %f3;
  st.global.f32 [%rd5], %f4;
DONE:
  ret;
}
)";

int probe() {
  char message[512];
  int status = coopvecCudaProbe(message, sizeof(message));
  std::printf("probe: %d: %s\n", status, message);
  if (status)
    return 1;
  int major = 0, minor = 0;
  if (coopvecCudaComputeCapability(0, &major, &minor, message,
                                   sizeof(message))) {
    std::printf("compute capability: %s\n", message);
    return 1;
  }
  std::printf("chip: sm_%d%d\n", major, minor);
  return 0;
}

int axpy(uint32_t n, intptr_t block) {
  std::vector<float> x(n), y(n), expected(n);
  for (uint32_t i = 0; i < n; ++i) {
    x[i] = static_cast<float>(i % 1000) * 0.25f;
    y[i] = 3.0f - static_cast<float>(i % 77);
  }
  const float a = 2.0f;
  for (uint32_t i = 0; i < n; ++i)
    expected[i] = a * x[i] + y[i];

  void *module = mgpuModuleLoadJIT(const_cast<char *>(kAxpyPtx), 2);
  void *function = mgpuModuleGetFunction(module, "axpy");
  void *stream = mgpuStreamCreate();
  size_t bytes = size_t(n) * sizeof(float);
  void *dx = mgpuMemAlloc(bytes, stream, false);
  void *dy = mgpuMemAlloc(bytes, stream, false);
  // Poison y on the device first, so that a copy that does not happen shows.
  mgpuMemset32(dy, 0x7fc00000u, n, stream);
  mgpuMemcpy(dx, x.data(), bytes, stream);
  mgpuMemcpy(dy, y.data(), bytes, stream);
  // An event orders a second stream after the copies, as gpu-async-region
  // does for work on several streams.
  void *event = mgpuEventCreate();
  mgpuEventRecord(event, stream);
  void *launchStream = mgpuStreamCreate();
  mgpuStreamWaitEvent(launchStream, event);
  float scale = a;
  uint32_t count = n;
  void *params[] = {&dx, &dy, &scale, &count};
  mgpuLaunchKernel(function, (intptr_t(n) + block - 1) / block, 1, 1, block, 1,
                   1, 0, launchStream, params, nullptr, 4);
  mgpuEventRecord(event, launchStream);
  mgpuEventSynchronize(event);
  std::vector<float> result(n, -1.0f);
  mgpuMemcpy(result.data(), dy, bytes, stream);
  mgpuStreamSynchronize(stream);
  mgpuEventDestroy(event);
  mgpuStreamDestroy(launchStream);
  mgpuMemFree(dx, stream);
  mgpuMemFree(dy, stream);
  mgpuStreamDestroy(stream);
  mgpuModuleUnload(module);

  unsigned mismatches = 0;
  for (uint32_t i = 0; i < n; ++i)
    if (std::memcmp(&result[i], &expected[i], sizeof(float)) != 0)
      ++mismatches;
  std::printf("axpy: %u elements, %u mismatches; y[1] = %g\n", n, mismatches,
              n > 1 ? result[1] : 0.0f);
  return mismatches != 0;
}

} // namespace

int main(int argc, char **argv) {
  if (argc == 2 && !std::strcmp(argv[1], "probe"))
    return probe();
  if (argc == 2 && !std::strcmp(argv[1], "stream")) {
    void *stream = mgpuStreamCreate();
    mgpuStreamDestroy(stream);
    std::printf("stream: created and destroyed\n");
    return 0;
  }
  if (argc == 4 && !std::strcmp(argv[1], "axpy"))
    return axpy(static_cast<uint32_t>(std::strtoul(argv[2], nullptr, 10)),
                std::strtol(argv[3], nullptr, 10));
  std::fprintf(stderr, "usage: %s probe | stream | axpy N BLOCK\n", argv[0]);
  return 2;
}
