//===- VulkanRuntimeTest.cpp - the Vulkan runtime's C ABI, called directly ===//
//
//   coopvec-vulkan-runtime-test --probe
//       prints the probe's message; exit 0 iff a Vulkan 1.3 device is usable
//   coopvec-vulkan-runtime-test [--validate] CASE KERNEL.spv [N...]
//       runs CASE with the SPIR-V kernels of KERNEL.spv (test/Runtime/Vulkan/
//       Inputs) through the mgpu* calls of lowered host code, with the
//       (tag, value) argument ABI of VulkanRuntime.h, and checks every
//       element of the result on the host:
//     axpy-alloc N     y = 2.5 x + y over N floats in mgpuMemAlloc buffers
//     axpy-host N      the same on host memory (staged), x read-only
//     axpy-subrange    x and y inside one allocation, y aligned and not
//     iota2d W H       a 2-D grid of 8x4 workgroups, the width an i64
//     block-mismatch   axpy launched with workgroups of 32
//     unknown-entry    a kernel name the module lacks
//     bad-blob         loads KERNEL.spv alone (a blob that is not SPIR-V,
//                      or one that only the validation layer rejects) and
//                      prints how many messages the layer reported
//     odd-params       three parameters
//     bad-tag          an argument tagged -3
//     grid-limit       a grid beyond maxComputeWorkGroupCount
//   --validate runs under the validation layer (as does
//   COOPVEC_VULKAN_VALIDATION=1). Each case but axpy-alloc leaves its module
//   loaded for an exit handler registered before the runtime's first use to
//   unload, which then runs after the runtime shut down (as the JIT's global
//   destructors may).
//
//===----------------------------------------------------------------------===//

#include "LinAlgCoop/Runtime/VulkanRuntime.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <vector>

// The runtime's mgpu* functions, as MLIR's lowering declares them.
extern "C" {
void *mgpuModuleLoad(void *data, size_t gpuBlobSize);
void mgpuModuleUnload(void *module);
void *mgpuModuleGetFunction(void *module, const char *name);
void mgpuLaunchKernel(void *function, intptr_t gridX, intptr_t gridY,
                      intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                      intptr_t blockZ, int32_t smem, void *stream,
                      void **params, void **extra, size_t paramsCount);
void *mgpuStreamCreate();
void mgpuStreamDestroy(void *stream);
void mgpuStreamSynchronize(void *stream);
void *mgpuMemAlloc(uint64_t sizeBytes, void *stream, bool isHostShared);
void mgpuMemFree(void *ptr, void *stream);
void mgpuMemcpy(void *dst, void *src, size_t sizeBytes, void *stream);
void mgpuMemset32(void *dst, unsigned value, size_t count, void *stream);
}

namespace {

constexpr int64_t kScalar4 = -4, kScalar8 = -8;
constexpr float kA = 2.5f;

/// x[i] = i / 2 - 7: with y[i] = i and a = 2.5 every sum is exact in f32,
/// fused or not.
struct Table {
  float values[4096];
};
constexpr Table makeX() {
  Table table{};
  for (int i = 0; i < 4096; ++i)
    table.values[i] = 0.5f * i - 7;
  return table;
}
/// In read-only memory: a launch that wrote back an unchanged staged
/// argument would fault.
constexpr Table kX = makeX();

void *loaded = nullptr;

void unloadAtExit() {
  if (loaded)
    mgpuModuleUnload(loaded);
}

/// The (tag, value) pairs of a launch.
struct Arguments {
  std::vector<int64_t> words;
  std::vector<void *> params;

  void memref(const void *data, int64_t bytes) {
    words.push_back(bytes);
    words.push_back(reinterpret_cast<intptr_t>(data));
  }
  void scalar(int64_t tag, int64_t bits) {
    words.push_back(tag);
    words.push_back(bits);
  }
  void **get() {
    params.clear();
    for (int64_t &word : words)
      params.push_back(&word);
    return params.data();
  }
};

int64_t floatBits(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, 4);
  return bits;
}

/// Launches axpy over n elements at x and y, 64 invocations a workgroup.
void launchAxpy(void *function, const float *x, float *y, int64_t n,
                intptr_t block = 64) {
  Arguments args;
  args.memref(x, n * 4);
  args.memref(y, n * 4);
  args.scalar(kScalar4, floatBits(kA));
  args.scalar(kScalar4, n);
  intptr_t grid = n ? (n + 63) / 64 : 1;
  mgpuLaunchKernel(function, grid, 1, 1, block, 1, 1, 0, nullptr, args.get(),
                   nullptr, args.words.size());
}

void fillY(float *y, int64_t n) {
  for (int64_t i = 0; i < n; ++i)
    y[i] = static_cast<float>(i);
}

/// Elements of y that are not a * x + y.
int64_t axpyMismatches(const float *y, int64_t n) {
  int64_t mismatches = 0;
  for (int64_t i = 0; i < n; ++i)
    if (y[i] != kA * kX.values[i] + static_cast<float>(i)) {
      if (mismatches++ < 5)
        std::printf("y[%lld] = %g, expected %g\n", static_cast<long long>(i),
                    y[i], kA * kX.values[i] + static_cast<float>(i));
    }
  return mismatches;
}

int64_t parseCount(const char *text, int64_t limit) {
  char *end = nullptr;
  long long value = std::strtoll(text, &end, 10);
  if (*end || value < 0 || value > limit) {
    std::fprintf(stderr, "%s is not a count in [0, %lld]\n", text,
                 static_cast<long long>(limit));
    std::exit(2);
  }
  return value;
}

int usage() {
  std::fprintf(stderr, "usage: coopvec-vulkan-runtime-test --probe\n"
                       "       coopvec-vulkan-runtime-test [--validate] CASE "
                       "KERNEL.spv [N...]\n");
  return 2;
}

} // namespace

int main(int argc, char **argv) {
  if (argc == 2 && !std::strcmp(argv[1], "--probe")) {
    char message[512];
    int status = coopvecVulkanProbe(message, sizeof(message));
    std::printf("%s\n", message);
    return status ? 1 : 0;
  }
  if (argc > 1 && !std::strcmp(argv[1], "--validate")) {
    coopvecVulkanEnableValidation(1);
    --argc;
    ++argv;
  }
  if (argc < 3)
    return usage();
  std::string mode = argv[1];
  std::ifstream file(argv[2], std::ios::binary);
  if (!file) {
    std::fprintf(stderr, "cannot read %s\n", argv[2]);
    return 2;
  }
  std::vector<char> blob((std::istreambuf_iterator<char>(file)),
                         std::istreambuf_iterator<char>());
  // Words, aligned.
  std::vector<uint32_t> words((blob.size() + 3) / 4);
  if (!blob.empty()) // An empty file: no data to copy (and null pointers).
    std::memcpy(words.data(), blob.data(), blob.size());
  std::atexit(unloadAtExit);

  loaded = mgpuModuleLoad(words.data(), blob.size());
  if (mode == "bad-blob") {
    std::printf("bad-blob: loaded; %u validation messages\n",
                coopvecVulkanValidationMessages());
    return 0;
  }
  if (mode == "unknown-entry") {
    mgpuModuleGetFunction(loaded, "nope");
    return 0;
  }
  if (mode == "iota2d") {
    if (argc != 5)
      return usage();
    int64_t width = parseCount(argv[3], 4096),
            height = parseCount(argv[4], 4096);
    void *function = mgpuModuleGetFunction(loaded, "iota2d");
    auto *out = static_cast<int32_t *>(
        mgpuMemAlloc(width * height * 4, nullptr, false));
    mgpuMemset32(out, 0xdeadbeef, width * height, nullptr);
    Arguments args;
    args.memref(out, width * height * 4);
    args.scalar(kScalar8, width);
    mgpuLaunchKernel(function, width / 8, height / 4, 1, 8, 4, 1, 0, nullptr,
                     args.get(), nullptr, args.words.size());
    int64_t mismatches = 0;
    for (int64_t y = 0; y < height; ++y)
      for (int64_t x = 0; x < width; ++x)
        mismatches += out[y * width + x] != 1000 * y + x;
    std::printf("iota2d: %lldx%lld, %lld mismatches; out[1][2] = %d\n",
                static_cast<long long>(width), static_cast<long long>(height),
                static_cast<long long>(mismatches),
                width > 2 && height > 1 ? out[width + 2] : -1);
    mgpuMemFree(out, nullptr);
    return mismatches != 0;
  }

  void *function = mgpuModuleGetFunction(loaded, "axpy");
  if (mode == "axpy-alloc" || mode == "axpy-host") {
    if (argc != 4)
      return usage();
    int64_t n = parseCount(argv[3], 4096);
    void *stream = mgpuStreamCreate();
    float *x, *y;
    std::vector<float> hostY(n);
    if (mode == "axpy-alloc") {
      x = static_cast<float *>(mgpuMemAlloc(n * 4, stream, false));
      y = static_cast<float *>(mgpuMemAlloc(n * 4, stream, false));
      mgpuMemcpy(x, const_cast<float *>(kX.values), n * 4, stream);
    } else {
      x = const_cast<float *>(kX.values);
      y = hostY.data();
    }
    fillY(y, n);
    launchAxpy(function, x, y, n);
    mgpuStreamSynchronize(stream);
    int64_t mismatches = axpyMismatches(y, n);
    std::printf("%s: %lld elements, %lld mismatches\n", mode.c_str(),
                static_cast<long long>(n), static_cast<long long>(mismatches));
    if (mode == "axpy-alloc") {
      // Freed explicitly and unloaded before the runtime shuts down.
      mgpuMemFree(x, stream);
      mgpuMemFree(y, stream);
      mgpuModuleUnload(loaded);
      loaded = nullptr;
    }
    mgpuStreamDestroy(stream);
    return mismatches != 0;
  }
  if (mode == "axpy-subrange") {
    // x at 0, y at 4096 (a multiple of any minStorageBufferOffsetAlignment):
    // both bound in place. Then y 4 bytes further, which is misaligned and
    // staged. Guards around y must keep their value. Left allocated: the
    // runtime frees it at exit.
    constexpr int64_t n = 1000;
    auto *base = static_cast<char *>(mgpuMemAlloc(65536, nullptr, false));
    mgpuMemset32(base, 0x7fc00001, 65536 / 4, nullptr);
    auto *x = reinterpret_cast<float *>(base);
    std::memcpy(x, kX.values, n * 4);
    int64_t mismatches[2], guards = 0;
    for (int misaligned = 0; misaligned < 2; ++misaligned) {
      float *y = reinterpret_cast<float *>(base + 4096 + 4 * misaligned);
      fillY(y, n);
      launchAxpy(function, x, y, n);
      mismatches[misaligned] = axpyMismatches(y, n);
      uint32_t before, after;
      std::memcpy(&before, y - 1, 4);
      std::memcpy(&after, y + n, 4);
      guards += (before != 0x7fc00001 && !misaligned) || after != 0x7fc00001;
    }
    std::printf("axpy-subrange: aligned %lld mismatches, misaligned %lld "
                "mismatches, %lld guards changed\n",
                static_cast<long long>(mismatches[0]),
                static_cast<long long>(mismatches[1]),
                static_cast<long long>(guards));
    return mismatches[0] || mismatches[1] || guards;
  }

  std::vector<float> y(64);
  if (mode == "block-mismatch") {
    launchAxpy(function, kX.values, y.data(), 64, 32);
    return 0;
  }
  Arguments args;
  args.memref(kX.values, 256);
  args.memref(y.data(), 256);
  if (mode == "odd-params") {
    args.scalar(kScalar4, floatBits(kA));
    mgpuLaunchKernel(function, 1, 1, 1, 64, 1, 1, 0, nullptr, args.get(),
                     nullptr, 5);
    return 0;
  }
  if (mode == "bad-tag") {
    args.scalar(-3, floatBits(kA));
    args.scalar(kScalar4, 64);
    mgpuLaunchKernel(function, 1, 1, 1, 64, 1, 1, 0, nullptr, args.get(),
                     nullptr, args.words.size());
    return 0;
  }
  if (mode == "grid-limit") {
    args.scalar(kScalar4, floatBits(kA));
    args.scalar(kScalar4, 64);
    mgpuLaunchKernel(function, intptr_t(1) << 32, 1, 1, 64, 1, 1, 0, nullptr,
                     args.get(), nullptr, args.words.size());
    return 0;
  }
  return usage();
}
