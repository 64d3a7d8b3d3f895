//===- Isa.h - CPU feature bits and the kernel levels of an architecture --===//
//
// Kernels.cpp picks one level per call from the table of the architecture it
// was built for (x86_64/Isa.cpp, riscv64/Isa.cpp, IsaGeneric.cpp): the best
// level whose feature bits the CPU has, capped by COOPVEC_KERNELS_ISA or
// forced by coopvecKernelsForceIsa. Levels are ordered: every level of a
// table runs wherever the ones above it do.
//
//===----------------------------------------------------------------------===//

#ifndef LINALGCOOP_LIB_RUNTIME_KERNELS_ISA_H
#define LINALGCOOP_LIB_RUNTIME_KERNELS_ISA_H

#include "Plan.h"

#include <cstdint>

namespace coopvec {
namespace kernels {

/// CPU features the kernels care about, one bit each.
enum CpuFeature : uint64_t {
  // x86-64 (cpuid, with the OS's register state saving).
  kX86Avx2 = 1ull << 0,
  kX86Fma = 1ull << 1,
  kX86F16c = 1ull << 2,
  kX86Avx512F = 1ull << 3,
  kX86Avx512Bw = 1ull << 4,
  kX86Avx512Vl = 1ull << 5,
  kX86Avx512Dq = 1ull << 6,
  kX86Avx512Vnni = 1ull << 7,
  kX86Prfchw = 1ull << 8,
  kX86Avx512Bf16 = 1ull << 9,
  kX86AmxTile = 1ull << 10,
  kX86AmxBf16 = 1ull << 11,
  kX86AmxInt8 = 1ull << 12,
  // riscv64 (AT_HWCAP).
  kRiscvV = 1ull << 32,
};

/// The features of this CPU, detected once.
uint64_t cpuFeatures();

#if defined(__x86_64__)
/// Whether a kernel may use AMX tiles with the data type of `typeFeature`
/// (kX86AmxBf16, kX86AmxInt8): the CPU has AMX-TILE and it, and the OS
/// grants the tile data.
bool amxTiles(uint64_t typeFeature);
#endif

/// The kind of CPU for the tuning table (Kernels.cpp, cpuTuning()): "zen3",
/// "zen4", "zen5", "intel" or "generic", detected once by the architecture's
/// Isa.cpp (x86-64: the cpuid vendor, family and AVX-512; every other CPU
/// and architecture: "generic").
const char *detectedCpuKind();

/// The levels of every architecture; the numbers order the levels of one
/// table (comparisons in Kernels.cpp).
enum class IsaLevel : int32_t { Portable = 0, Avx2 = 1, Avx512 = 2 };

/// One level of an architecture's table.
struct IsaEntry {
  IsaLevel level;
  const char *name;  ///< COOPVEC_KERNELS_ISA / coopvecKernelsForceIsa name.
  uint64_t features; ///< CpuFeature bits the level needs, all of them.
  void (*matVecTask)(const MatVecPlan &plan, unsigned task);
  void (*mlpTask)(const MlpPlan &plan, unsigned task);
};

/// This architecture's levels, lowest first; the first is always portable.
extern const IsaEntry kIsaTable[];
extern const unsigned kIsaTableSize;

} // namespace kernels
} // namespace coopvec

#endif // LINALGCOOP_LIB_RUNTIME_KERNELS_ISA_H
