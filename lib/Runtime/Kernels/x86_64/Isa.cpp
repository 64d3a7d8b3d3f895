//===- Isa.cpp - x86-64 feature bits and kernel levels --------------------===//

#include "Isa.h"

#include <cpuid.h>
#include <cstring>

namespace coopvec {
namespace kernels {

uint64_t cpuFeatures() {
  // __builtin_cpu_supports also checks that the OS saves the ymm/zmm state.
  static const uint64_t bits = [] {
    struct {
      bool has;
      uint64_t bit;
    } const table[] = {
        {__builtin_cpu_supports("avx2") != 0, kX86Avx2},
        {__builtin_cpu_supports("fma") != 0, kX86Fma},
        {__builtin_cpu_supports("f16c") != 0, kX86F16c},
        {__builtin_cpu_supports("avx512f") != 0, kX86Avx512F},
        {__builtin_cpu_supports("avx512bw") != 0, kX86Avx512Bw},
        {__builtin_cpu_supports("avx512vl") != 0, kX86Avx512Vl},
        {__builtin_cpu_supports("avx512dq") != 0, kX86Avx512Dq},
        {__builtin_cpu_supports("avx512vnni") != 0, kX86Avx512Vnni},
        {__builtin_cpu_supports("prfchw") != 0, kX86Prfchw},
        {__builtin_cpu_supports("avx512bf16") != 0, kX86Avx512Bf16},
        {__builtin_cpu_supports("amx-tile") != 0, kX86AmxTile},
        {__builtin_cpu_supports("amx-bf16") != 0, kX86AmxBf16},
        {__builtin_cpu_supports("amx-int8") != 0, kX86AmxInt8},
    };
    uint64_t b = 0;
    for (const auto &f : table)
      b |= f.has ? f.bit : 0;
    return b;
  }();
  return bits;
}

const char *detectedCpuKind() {
  static const char *const kind = [] {
    unsigned a, b, c, d;
    if (!__get_cpuid(0, &a, &b, &c, &d))
      return "generic";
    char vendor[13] = {};
    std::memcpy(vendor, &b, 4);
    std::memcpy(vendor + 4, &d, 4);
    std::memcpy(vendor + 8, &c, 4);
    if (std::strcmp(vendor, "GenuineIntel") == 0)
      return "intel";
    if (std::strcmp(vendor, "AuthenticAMD") != 0 ||
        !__get_cpuid(1, &a, &b, &c, &d))
      return "generic";
    // Family 0x19 is Zen 3 and Zen 4: Zen 4 is the one with AVX-512 (a
    // hypervisor that hides it leaves a CPU that runs like Zen 3's AVX2).
    unsigned family = (a >> 8) & 0xf;
    if (family == 0xf)
      family += (a >> 20) & 0xff;
    if (family == 0x19)
      return cpuFeatures() & kX86Avx512F ? "zen4" : "zen3";
    return family == 0x1a ? "zen5" : "generic";
  }();
  return kind;
}

namespace {
constexpr uint64_t kAvx2Features = kX86Avx2 | kX86Fma | kX86F16c;
} // namespace

const IsaEntry kIsaTable[] = {
    {IsaLevel::Portable, "portable", 0, portable::matVecTask,
     portable::mlpTask},
    {IsaLevel::Avx2, "avx2", kAvx2Features, avx2::matVecTask, avx2::mlpTask},
    {IsaLevel::Avx512, "avx512",
     kAvx2Features | kX86Avx512F | kX86Avx512Bw | kX86Avx512Vl |
         kX86Avx512Dq | kX86Avx512Vnni | kX86Prfchw,
     avx512::matVecTask, avx512::mlpTask},
};
const unsigned kIsaTableSize = sizeof(kIsaTable) / sizeof(kIsaTable[0]);

} // namespace kernels
} // namespace coopvec
