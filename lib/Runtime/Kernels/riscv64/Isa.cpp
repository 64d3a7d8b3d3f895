//===- Isa.cpp - riscv64 feature bits and kernel levels -------------------===//
//
// The vector extension is read from AT_HWCAP (bit 'V' - 'A'). The table has
// the portable level only so far: it is compiled for the build's -march
// (rv64gcv in CI, so the compiler vectorizes it with RVV). An RVV kernel
// (riscv64/KernelsRvv.cpp with its Simd header) becomes the next entry,
// needing kRiscvV.
//
//===----------------------------------------------------------------------===//

#include "Isa.h"

#include <sys/auxv.h>

namespace coopvec {
namespace kernels {

uint64_t cpuFeatures() {
  static const uint64_t bits = [] {
    unsigned long hwcap = getauxval(AT_HWCAP);
    uint64_t b = 0;
    if (hwcap & (1ul << ('V' - 'A')))
      b |= kRiscvV;
    return b;
  }();
  return bits;
}

const char *detectedCpuKind() { return "generic"; }

const IsaEntry kIsaTable[] = {
    {IsaLevel::Portable, "portable", 0, portable::matVecTask,
     portable::mlpTask},
};
const unsigned kIsaTableSize = sizeof(kIsaTable) / sizeof(kIsaTable[0]);

} // namespace kernels
} // namespace coopvec
