//===- Kernels.cpp - C ABI of the CPU kernels: validation and dispatch ----===//
//
// Decodes and checks the DXIL-style arguments into a plan (Plan.h), picks the
// ISA once per call and splits the work over the pool. The accumulate ops
// live here too: they are bound by their atomic read-modify-writes, not by
// arithmetic, so one portable implementation serves every CPU.
//
//===----------------------------------------------------------------------===//

#include "LinAlgCoop/Runtime/Kernels.h"

#include "Convert.h"
#include "Isa.h"
#include "Plan.h"
#include "ThreadPool.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <unistd.h>
#include <vector>

using namespace coopvec;
using namespace coopvec::kernels;
using layout::ceilDiv;
using layout::kPanelRows;
using layout::LayoutParams;
using layout::roundUp;

#if defined(__x86_64__)
bool coopvec::kernels::amxTiles(uint64_t typeFeature) {
  uint64_t f = cpuFeatures();
  return (f & kX86AmxTile) && (f & typeFeature) && amx::amxPermitted();
}
#endif

uint8_t *coopvec::kernels::zeroedLines(std::vector<uint8_t> &buf,
                                       uint64_t bytes) {
  buf.assign(bytes + 64, 0);
  auto addr = reinterpret_cast<uintptr_t>(buf.data());
  return buf.data() + (roundUp(addr, 64) - addr);
}

namespace {

//===----------------------------------------------------------------------===//
// ISA and thread selection
//===----------------------------------------------------------------------===//

/// This architecture's entry for `isa`, or null if its table lacks it.
const IsaEntry *isaEntry(IsaLevel isa) {
  for (unsigned i = 0; i < kIsaTableSize; ++i)
    if (kIsaTable[i].level == isa)
      return &kIsaTable[i];
  return nullptr;
}

const char *isaName(IsaLevel isa) {
  const IsaEntry *entry = isaEntry(isa);
  return entry ? entry->name : "portable";
}

bool cpuHas(IsaLevel isa) {
  const IsaEntry *entry = isaEntry(isa);
  return entry && (cpuFeatures() & entry->features) == entry->features;
}

IsaLevel bestIsa() {
  for (unsigned i = kIsaTableSize; i-- > 1;)
    if (cpuHas(kIsaTable[i].level))
      return kIsaTable[i].level;
  return IsaLevel::Portable;
}

bool parseIsa(const char *name, IsaLevel &isa) {
  for (unsigned i = 0; i < kIsaTableSize; ++i)
    if (std::strcmp(name, kIsaTable[i].name) == 0)
      return isa = kIsaTable[i].level, true;
  return false;
}

/// COOPVEC_KERNELS_ISA caps the level (a level the CPU lacks gives the best
/// one below it); COOPVEC_KERNELS_SCALAR=1 is the older spelling of
/// "portable". Read once.
IsaLevel envIsa() {
  static const IsaLevel isa = [] {
    const char *scalar = std::getenv("COOPVEC_KERNELS_SCALAR");
    if (scalar && scalar[0] && std::strcmp(scalar, "0") != 0)
      return IsaLevel::Portable;
    IsaLevel top = kIsaTable[kIsaTableSize - 1].level, cap = top;
    if (const char *env = std::getenv("COOPVEC_KERNELS_ISA"))
      if (env[0] && !parseIsa(env, cap))
        cap = top; // Unknown names leave the default.
    IsaLevel best = bestIsa();
    return int32_t(cap) < int32_t(best) ? cap : best;
  }();
  return isa;
}

/// -1: the environment's choice, else a forced IsaLevel.
std::atomic<int32_t> forcedIsa{-1};

IsaLevel activeIsa() {
  int32_t forced = forcedIsa.load(std::memory_order_relaxed);
  return forced < 0 ? envIsa() : IsaLevel(forced);
}

/// Choices whose best value differs between CPUs with the same feature bits,
/// one entry per kind of CPU (detectedCpuKind()), each measured with
/// coopvec-bench-cpu (bench/cpu/README.md). A field applies only where the
/// path it steers runs: the first two on AVX-512 kernels, the third with
/// AVX-512 BF16 and without AMX.
struct CpuTuning {
  const char *name;
  /// Results of at least streamingThreshold() bytes (64-byte lines) are
  /// written around the caches with non-temporal stores. Zen 4, batched f32
  /// 64 x 64, 65536 vectors, one thread: 0.84-0.98 of oneDNN's time with,
  /// 1.02-1.11 without. Zen 5, the same product in seven runs (--batched
  /// and --tuning): 1.06-1.20 with, 0.95-1.08 without; int8 and two threads
  /// showed no consistent difference there.
  bool streamResults;
  /// f32 products on 8-row panels (not repacked for F32WideWeights) run the
  /// AVX2 build where AVX-512 exists. Zen 4 executes a 512-bit FMA as two
  /// 256-bit halves, and the AVX2 kernels measured faster than their EVEX
  /// build (111 vs 71 GFLOP/s, batched 64 x 64, clang-22); Zen 5 executes
  /// it whole, and the AVX2 build still measured faster (108.5-109.4 vs
  /// 96.0-102.5 GFLOP/s, batch 4096, one thread).
  bool narrowFloatOnAvx2;
  /// BF16 networks take vdpbf16ps (AVX-512 BF16) rather than f32 FMAs on
  /// widened weights, where the CPU has no AMX-BF16 (see bf16Path): AMD runs
  /// vdpbf16ps at about twice its f32 FMA rate in FLOP/s (Zen 4 227 vs 113,
  /// Zen 5 383.7 vs 204.5 GFLOP/s), Intel at half of it (Emerald Rapids
  /// 73.5 vs 147.5).
  bool bf16DotProduct;
};

/// Unmeasured kinds ("generic") keep the choices of the first measured
/// machines; Zen 3 has no AVX-512, so only its name matters today.
constexpr CpuTuning kCpuTunings[] = {
    {"generic", true, true, false}, {"zen3", true, true, false},
    {"zen4", true, true, true},     {"zen5", false, true, true},
    {"intel", true, true, false},
};
constexpr int32_t kNumCpuTunings =
    int32_t(sizeof(kCpuTunings) / sizeof(kCpuTunings[0]));

int32_t findCpuTuning(const char *name) {
  for (int32_t i = 0; i < kNumCpuTunings; ++i)
    if (std::strcmp(name, kCpuTunings[i].name) == 0)
      return i;
  return -1;
}

/// -1: the environment's choice, else a forced index of kCpuTunings.
std::atomic<int32_t> forcedTuning{-1};

/// The entry of this CPU, or of COOPVEC_CPU_TUNING (read once; an unknown
/// name leaves the detected one), or the one coopvecKernelsForceCpuTuning
/// set.
const CpuTuning &cpuTuning() {
  static const int32_t fromEnv = [] {
    const char *env = std::getenv("COOPVEC_CPU_TUNING");
    int32_t i = env && env[0] ? findCpuTuning(env) : -1;
    return i >= 0 ? i : std::max(findCpuTuning(detectedCpuKind()), 0);
  }();
  int32_t forced = forcedTuning.load(std::memory_order_relaxed);
  return kCpuTunings[forced >= 0 ? forced : fromEnv];
}

/// The level for f32 arithmetic on 8-row panels: AVX2 where the tuning says
/// so (CpuTuning::narrowFloatOnAvx2) and no level is forced (tests,
/// COOPVEC_KERNELS_ISA). Every path gives bit-identical results.
IsaLevel floatIsa() {
  // Read once, like envIsa(): this runs on every kernel call.
  static const bool envForced = std::getenv("COOPVEC_KERNELS_ISA") != nullptr;
  IsaLevel isa = activeIsa();
  bool forced = envForced || forcedIsa.load(std::memory_order_relaxed) >= 0;
  return isa == IsaLevel::Avx512 && !forced && cpuTuning().narrowFloatOnAvx2
             ? IsaLevel::Avx2
             : isa;
}

/// How a BF16 network runs on x86-64 with AVX-512 (the portable and AVX2
/// levels always take the f32 path).
enum class Bf16Path { F32, Vdpbf16ps, Amx };

/// AMX tiles where the CPU has AMX-BF16 and the OS grants the tile data
/// (Intel Sapphire Rapids and later), else vdpbf16ps where the CPU has
/// AVX-512 BF16 and the tuning prefers it (CpuTuning::bf16DotProduct: AMD),
/// else the f32 kernels on widened weights.
/// COOPVEC_MLP_BF16=amx, =vdpbf16ps or =f32 asks for one (tests, benchmarks);
/// a path the CPU lacks falls back to f32. Measured with
/// coopvec-bench-cpu --kernels (12 independent chains per thread): a Zen 5
/// EPYC runs vdpbf16ps at 1.9x its 512-bit FMA rate in FLOP/s (383.7 vs
/// 204.5 GFLOP/s), a Zen 4 at 2x (227 vs 113; the 64-64-64-3 frame took
/// 215-219 ms with BF16 weights, 342-347 with F32, one thread), an Emerald
/// Rapids Xeon at half of it (73.5 vs 147.5: one vdpbf16ps every other
/// cycle) and tdpbf16ps at 680 GFLOP/s; there the frame with BF16 weights
/// took 157-190 ms on AMX, 469-539 ms on the f32 path and 778 ms on
/// vdpbf16ps, with F32 weights 329-437 ms (bench/cpu/README.md).
Bf16Path bf16Path(IsaLevel isa) {
#if defined(__x86_64__)
  static const int requested = [] {
    const char *env = std::getenv("COOPVEC_MLP_BF16");
    if (!env)
      return -1;
    if (std::strcmp(env, "amx") == 0)
      return int(Bf16Path::Amx);
    if (std::strcmp(env, "vdpbf16ps") == 0)
      return int(Bf16Path::Vdpbf16ps);
    return int(Bf16Path::F32);
  }();
  if (isa != IsaLevel::Avx512)
    return Bf16Path::F32;
  uint64_t f = cpuFeatures();
  bool dp = (f & kX86Avx512Bf16) != 0;
  bool amx = dp && amxTiles(kX86AmxBf16);
  if (requested >= 0) {
    Bf16Path want = Bf16Path(requested);
    return (want == Bf16Path::Amx && amx) || (want == Bf16Path::Vdpbf16ps && dp)
               ? want
               : Bf16Path::F32;
  }
  if (amx)
    return Bf16Path::Amx;
  return dp && cpuTuning().bf16DotProduct ? Bf16Path::Vdpbf16ps : Bf16Path::F32;
#else
  (void)isa;
  return Bf16Path::F32;
#endif
}

/// I8 networks on AMX tiles (tdpbssd) where the CPU has AMX-INT8 and the
/// OS grants the tile data, else on vpdpbusd (AVX-512 VNNI) or vpmaddwd.
/// COOPVEC_MLP_I8=vpdpbusd keeps them off the tiles (tests, benchmarks; any
/// other value leaves the default).
/// Both give the same results to the bit. Measured on an Emerald Rapids
/// Xeon (bench/cpu/README.md): the 64-64-64-3 frame took 93-97 ms on AMX
/// and 195 ms on vpdpbusd (one thread; 50-52 and 106 ms on two).
bool i8OnAmx(IsaLevel isa) {
#if defined(__x86_64__)
  static const bool allowed = [] {
    const char *env = std::getenv("COOPVEC_MLP_I8");
    return !env || std::strcmp(env, "vpdpbusd") != 0;
  }();
  return allowed && isa == IsaLevel::Avx512 && amxTiles(kX86AmxInt8);
#else
  (void)isa;
  return false;
#endif
}

unsigned resolveThreads(uint32_t requested) {
  return requested ? std::min<uint32_t>(requested, 1024) : defaultThreadCount();
}

/// Below this many multiply-adds (2^18: about 10 us on one core) a call runs
/// on its own thread: handing tasks to the pool costs more than it saves
/// (256 x 256 f32, batch 1, 2 threads: 2.5 us alone, 10.6 us when the
/// helper has to be woken). See coopvecKernelsSetParallelThreshold.
constexpr uint64_t kDefaultParallelWork = uint64_t(1) << 18;
std::atomic<uint64_t> parallelWork{kDefaultParallelWork};

unsigned threadsFor(uint64_t work, uint32_t requested) {
  return work < parallelWork.load(std::memory_order_relaxed)
             ? 1
             : resolveThreads(requested);
}

//===----------------------------------------------------------------------===//
// Argument decoding
//===----------------------------------------------------------------------===//

bool isFloatWeights(WeightKind w) {
  return w == WeightKind::F32 || w == WeightKind::F16;
}

/// Matrix interpretation -> (weight kind, element size).
bool decodeMatrix(uint32_t interp, WeightKind &kind, uint32_t &elemSize) {
  switch (interp) {
  case COOPVEC_TYPE_F32:
    kind = WeightKind::F32, elemSize = 4;
    return true;
  case COOPVEC_TYPE_F16:
    kind = WeightKind::F16, elemSize = 2;
    return true;
  case COOPVEC_TYPE_I8:
    kind = WeightKind::S8, elemSize = 1;
    return true;
  case COOPVEC_TYPE_U8:
    kind = WeightKind::U8, elemSize = 1;
    return true;
  default:
    return false;
  }
}

/// (physical type, interpretation) -> staging kind and bytes per vector.
bool decodeInput(uint32_t type, uint32_t interp, bool floatPath, uint32_t k,
                 InputKind &kind, uint64_t &bytes) {
  auto is32BitInt = [](uint32_t t) {
    return t == COOPVEC_TYPE_I32 || t == COOPVEC_TYPE_U32;
  };
  if (floatPath) {
    if (type == COOPVEC_TYPE_F32 && interp == COOPVEC_TYPE_F32)
      kind = InputKind::F32, bytes = 4ull * k;
    else if (type == COOPVEC_TYPE_F16 &&
             (interp == COOPVEC_TYPE_F16 || interp == COOPVEC_TYPE_F32))
      kind = InputKind::F16, bytes = 2ull * k;
    else if (type == COOPVEC_TYPE_F32 && interp == COOPVEC_TYPE_F16)
      kind = InputKind::F32RoundToF16, bytes = 4ull * k;
    else
      return false;
    return true;
  }
  bool u = interp == COOPVEC_TYPE_U8 || interp == COOPVEC_TYPE_PACKED_U8X32;
  if ((type == COOPVEC_TYPE_I8 || type == COOPVEC_TYPE_U8) && type == interp)
    kind = u ? InputKind::U8 : InputKind::S8, bytes = k;
  else if (is32BitInt(type) && (interp == COOPVEC_TYPE_PACKED_S8X32 ||
                                interp == COOPVEC_TYPE_PACKED_U8X32))
    kind = u ? InputKind::U8 : InputKind::S8, bytes = 4 * ceilDiv(k, 4);
  else if (interp != COOPVEC_TYPE_I8 && interp != COOPVEC_TYPE_U8)
    return false;
  else if (type == COOPVEC_TYPE_F32)
    kind = u ? InputKind::F32ToU8 : InputKind::F32ToS8, bytes = 4ull * k;
  else if (type == COOPVEC_TYPE_I32)
    kind = u ? InputKind::I32ToU8 : InputKind::I32ToS8, bytes = 4ull * k;
  else if (type == COOPVEC_TYPE_U32)
    kind = u ? InputKind::U32ToU8 : InputKind::U32ToS8, bytes = 4ull * k;
  else
    return false;
  return true;
}

/// The stored matrix as a validated layout: M x K, or K x M transposed.
int32_t storedLayout(uint32_t layout, bool transpose, uint32_t m, uint32_t k,
                     uint32_t elemSize, uint32_t stride, LayoutParams &p) {
  uint32_t rows = transpose ? k : m, cols = transpose ? m : k;
  // The optimal layouts ignore the stride; normalize it so validation does
  // not depend on garbage there.
  if (layout >= COOPVEC_LAYOUT_INFERENCING_OPTIMAL)
    stride = 0;
  if (int32_t st = coopvecLayoutValidate(layout, rows, cols, elemSize, stride))
    return st;
  p = LayoutParams{layout, rows, cols, elemSize, stride};
  return COOPVEC_OK;
}

/// Panel form of a stored matrix the microkernel can read in place, if any.
bool nativePanels(const LayoutParams &p, bool transpose, const uint8_t *base,
                  Panels &panels) {
  if (transpose)
    return false;
  uint32_t es = p.elemSize;
  if (p.layout == COOPVEC_LAYOUT_INFERENCING_OPTIMAL) {
    panels = Panels{base, p.panelBytes(),
                    uint64_t(kPanelRows) * layout::columnGroup(es) * es};
    return true;
  }
  // 8x8 tiles with columns of 8 rows contiguous are 8-row panels whose
  // columns are padded to a multiple of 8, for 1-column groups.
  if (p.layout == COOPVEC_LAYOUT_TRAINING_OPTIMAL && es != 1) {
    panels = Panels{base, 64ull * es * ceilDiv(p.cols, kPanelRows),
                    uint64_t(kPanelRows) * es};
    return true;
  }
  return false;
}

/// Batch tile so that a tile of staged inputs (~48 KiB) stays in L1/L2, a
/// multiple of every register block's vector count (4, 6, 8, 12), at most
/// 384 vectors: fewer, longer tasks (64 x 64 int8, batch 65536, one thread:
/// a cap of 96 cost 3-5% against 384, f32 1-2%). Several threads get at
/// least 8 tiles each where tiles of 96 or more allow, so that the last
/// tasks balance.
uint32_t batchTileFor(uint64_t bytesPerVector, uint32_t batch,
                      unsigned threads) {
  uint64_t tile = 49152 / std::max<uint64_t>(bytesPerVector, 1);
  tile = std::max<uint64_t>(24, std::min<uint64_t>(384, tile / 24 * 24));
  if (threads > 1)
    tile = std::min<uint64_t>(
        tile, std::max<uint64_t>(96, batch / (8 * threads) / 24 * 24));
  return uint32_t(std::min<uint64_t>(tile, batch));
}

/// Consecutive batch tiles per task: up to 8, leaving 8 tasks per thread or
/// more so that the last ones balance. A task's tiles are adjacent in
/// memory, so each thread reads and writes runs of tiles that the hardware
/// prefetchers follow rather than every other tile (batched f32 64 x 64,
/// 65536 vectors, 2 threads, Zen 5, interleaved in one process: 1.68 ->
/// 1.48 ms; int8, 4096 vectors and one thread unchanged). The fused MLP
/// also prefetches a task's next tile in software (Trickle).
uint32_t tilesPerTaskFor(uint64_t numBatchTiles, unsigned threads) {
  return uint32_t(std::clamp<uint64_t>(
      numBatchTiles / (8 * uint64_t(std::max(threads, 1u))), 1, 8));
}

/// Result arrays from this size on are written with non-temporal stores:
/// half the last-level cache, at most 8 MiB (virtual machines report the
/// host's whole L3, e.g. 320 MiB on this project's Zen 4 machines, of which
/// a core sees 32 MiB shared with its neighbours).
uint64_t streamingThreshold() {
  static const uint64_t bytes = [] {
    long l3 = sysconf(_SC_LEVEL3_CACHE_SIZE);
    uint64_t half = l3 > 0 ? uint64_t(l3) / 2 : uint64_t(8) << 20;
    return std::min<uint64_t>(half, uint64_t(8) << 20);
  }();
  return bytes;
}

/// Whether a repack (VNNI, wide f32, or AVX2's vpmaddubsw panels; one pass
/// over the matrix, single-threaded, before the tasks start) pays off: it
/// costs about as much as streaming the matrix once, so the batch must
/// reuse the weights many times. Smaller batches read the 8-row panels in
/// place (8-bit weights with PanelVnniWeights); batch-1 products are
/// bandwidth bound.
bool repackPaysOff(uint32_t m, uint32_t k, uint32_t batch) {
  return batch >= 16 && uint64_t(m) * k <= uint64_t(batch) * 4096;
}

/// The f32 (bytes 4) or f16 (bytes 2) at p as a float.
float loadFloat(const uint8_t *p, uint32_t bytes) {
  if (bytes == 4) {
    float f;
    std::memcpy(&f, p, 4);
    return f;
  }
  uint16_t h;
  std::memcpy(&h, p, 2);
  return halfToFloat(h);
}

/// The F32, F16 or BF16 (`interp`, a CoopVecType) weight at p as a float.
float loadWeight(const uint8_t *p, uint32_t interp) {
  if (interp != COOPVEC_TYPE_BF16)
    return loadFloat(p, interp == COOPVEC_TYPE_F16 ? 2 : 4);
  uint16_t h;
  std::memcpy(&h, p, 2);
  return bf16ToFloat(h);
}

/// Interleaved 16-row panels (Panels::stripBytes) of `stepBytes` per 4-panel
/// step: the byte offset of row r's first byte in column group `group`.
struct WideLayout {
  uint64_t stepBytes, stripBytes;
  WideLayout(uint64_t rowBytesPerGroup, uint64_t groups)
      : stepBytes(kStripRows * rowBytesPerGroup),
        stripBytes(stepBytes * groups) {}
  uint64_t offset(uint32_t r, uint64_t group) const {
    return (r / kStripRows) * stripBytes + group * stepBytes +
           (r % kStripRows) * (stepBytes / kStripRows);
  }
  /// Zeroes `buf` for M rows; returns the aligned base (zeroedLines).
  uint8_t *allocate(std::vector<uint8_t> &buf, uint32_t m) const {
    return zeroedLines(buf, ceilDiv(m, kStripRows) * stripBytes + 64);
  }
  Panels panels(const uint8_t *base) const {
    return Panels{base, stepBytes / 4, stepBytes, stripBytes};
  }
};

/// Repacks the logical M x K F32 / F16 / BF16 (`interp`) matrix stored at
/// `src` as f32 into interleaved 16-row panels (F32WideWeights), zero padded
/// to whole strips.
Panels packWideFloatMatrix(const uint8_t *src, const LayoutParams &stored,
                           bool transpose, uint32_t m, uint32_t k,
                           uint32_t interp, std::vector<uint8_t> &buf) {
  WideLayout wl(4, k);
  uint8_t *base = wl.allocate(buf, m);
  for (uint32_t r = 0; r < m; ++r)
    for (uint32_t c = 0; c < k; ++c) {
      const uint8_t *e =
          src + (transpose ? stored.offset(c, r) : stored.offset(r, c));
      float v = loadWeight(e, interp);
      std::memcpy(base + wl.offset(r, c), &v, 4);
    }
  return wl.panels(base);
}

/// Repacks the logical M x K BF16 matrix stored at `src` into interleaved
/// 16-row panels of column pairs (Bf16Weights): per pair, row r's two bf16
/// in the 4 bytes of its lane, zero padded.
Panels packBf16Matrix(const uint8_t *src, const LayoutParams &stored,
                      bool transpose, uint32_t m, uint32_t k,
                      std::vector<uint8_t> &buf) {
  WideLayout wl(4, ceilDiv(k, 2));
  uint8_t *base = wl.allocate(buf, m);
  for (uint32_t r = 0; r < m; ++r)
    for (uint32_t c = 0; c < k; ++c)
      std::memcpy(base + wl.offset(r, c / 2) + (c % 2) * 2,
                  src + (transpose ? stored.offset(c, r) : stored.offset(r, c)),
                  2);
  return wl.panels(base);
}

/// The segment form of the `m` <= kSegmentRows rows of packed interleaved
/// panels (BF16 or VNNI: 4 bytes per row and input group) with `groups`
/// input groups: `steps` 64-byte vectors, lane 4 r + j of vector s holding
/// row r's group j * steps + s, zero for rows and groups past the matrix
/// (MlpLayerPlan::segments).
const uint8_t *packSegments(const Panels &panels, uint32_t m, uint64_t groups,
                            uint32_t steps, std::vector<uint8_t> &buf) {
  uint8_t *base = zeroedLines(buf, 64ull * steps);
  for (uint32_t s = 0; s < steps; ++s)
    for (uint32_t r = 0; r < m; ++r)
      for (uint32_t j = 0; j < 4; ++j) {
        uint64_t g = uint64_t(j) * steps + s;
        if (g < groups)
          std::memcpy(base + 64ull * s + 4 * (4 * r + j),
                      panels.base + g * panels.stepBytes + 4ull * r, 4);
      }
  return base;
}

/// Repacks the logical M x K 8-bit matrix of `plan` into interleaved VNNI
/// panels: per 4-column group, 16 rows x 4 bytes (row-major within the
/// group) for each of a strip's 4 panels, zero padded; and fills sums[r] with
/// -offset * sum_c W[r][c] for the input offset the staging applies.
void packVnniMatrix(const MatVecPlan &plan, int32_t offset,
                    std::vector<uint8_t> &buf, std::vector<int32_t> &sums,
                    Panels &panels) {
  uint32_t m = plan.m, k = plan.k;
  WideLayout wl(4, ceilDiv(k, 4));
  uint8_t *base = wl.allocate(buf, m);
  sums.assign(roundUp(m, 64), 0);
  const LayoutParams &s = plan.stored;
  bool isSigned = plan.weights == WeightKind::S8;
  // Logical (r, c) advances by a constant per column for the linear
  // layouts; the optimal ones go through the offset formula.
  // InferencingOptimal (the usual operand) is read pair by pair.
  bool linear = s.layout <= COOPVEC_LAYOUT_COLUMN_MAJOR;
  bool optimal =
      s.layout == COOPVEC_LAYOUT_INFERENCING_OPTIMAL && !plan.transpose;
  uint64_t rowStep = s.layout == COOPVEC_LAYOUT_ROW_MAJOR ? s.stride : 1;
  uint64_t colStep = s.layout == COOPVEC_LAYOUT_ROW_MAJOR ? 1 : s.stride;
  if (plan.transpose)
    std::swap(rowStep, colStep);
  for (uint32_t r = 0; r < m; ++r) {
    uint8_t *d = base + wl.offset(r, 0);
    const uint8_t *row =
        plan.matrix + (optimal ? (r / kPanelRows) * s.panelBytes() +
                                     (r % kPanelRows) * 2
                               : linear ? r * rowStep : 0);
    int32_t sum = 0;
    for (uint32_t c = 0; c < k; ++c) {
      uint8_t byte = optimal  ? row[(c / 2) * (2 * kPanelRows) + c % 2]
                     : linear ? row[c * colStep]
                     : plan.matrix[plan.transpose ? s.offset(c, r)
                                                  : s.offset(r, c)];
      d[(c / 4) * wl.stepBytes + c % 4] = byte;
      sum += isSigned ? int32_t(int8_t(byte)) : int32_t(byte);
    }
    // |sum| <= 255 * K and offset is +-128: wraps only where the sums do.
    sums[r] = int32_t(uint32_t(-offset) * uint32_t(sum));
  }
  panels = wl.panels(base);
}

/// Repacks the logical M x K I8 matrix of `plan` into 8-row panels of
/// 4-column groups (QuadS8Weights): per group, row r's 4 bytes in the 4
/// bytes of its 32-bit lane, zero padded.
Panels packQuadMatrix(const MatVecPlan &plan, std::vector<uint8_t> &buf) {
  uint32_t m = plan.m, k = plan.k;
  uint64_t panelBytes = uint64_t(kPanelRows) * roundUp(k, 4);
  buf.assign(ceilDiv(m, kPanelRows) * panelBytes, 0);
  const LayoutParams &s = plan.stored;
  for (uint32_t r = 0; r < m; ++r)
    for (uint32_t c = 0; c < k; ++c)
      buf[(r / kPanelRows) * panelBytes + (c / 4) * 4 * kPanelRows +
          (r % kPanelRows) * 4 + c % 4] =
          plan.matrix[plan.transpose ? s.offset(c, r) : s.offset(r, c)];
  return Panels{buf.data(), panelBytes, 4ull * kPanelRows};
}

/// The repack of the last matrix a thread multiplied, reused while
/// the same matrix comes back: inference multiplies by the same weights call
/// after call, and comparing the stored bytes (one memcmp of the layout's
/// footprint) costs a fraction of repacking them. Keyed on the contents, not
/// the address, so weights updated in place are repacked.
struct RepackCache {
  bool valid = false;
  LayoutParams stored{};
  bool transpose = false;
  WeightKind weights = WeightKind::F32, target = WeightKind::F32;
  int32_t offset = 0;
  std::vector<uint8_t> source, packed;
  std::vector<int32_t> sums;
  Panels panels;

  /// The panels of the matrix of `plan` repacked for `to` (F32Wide, VnniS8
  /// or VnniU8 for the input offset `vnniOffset`, or QuadS8), repacked
  /// unless the cache holds them; VNNI's row corrections in `sums`.
  Panels get(const MatVecPlan &plan, WeightKind to, int32_t vnniOffset) {
    uint64_t bytes = plan.stored.footprint();
    const LayoutParams &s = plan.stored;
    bool hit = valid && stored.layout == s.layout && stored.rows == s.rows &&
               stored.cols == s.cols && stored.elemSize == s.elemSize &&
               stored.stride == s.stride && transpose == plan.transpose &&
               weights == plan.weights && target == to &&
               offset == vnniOffset &&
               std::memcmp(source.data(), plan.matrix, bytes) == 0;
    if (!hit) {
      valid = false;
      if (to == WeightKind::QuadS8)
        panels = packQuadMatrix(plan, packed);
      else if (to == WeightKind::F32Wide)
        panels = packWideFloatMatrix(
            plan.matrix, plan.stored, plan.transpose, plan.m, plan.k,
            plan.weights == WeightKind::F16 ? COOPVEC_TYPE_F16
                                            : COOPVEC_TYPE_F32,
            packed);
      else
        packVnniMatrix(plan, vnniOffset, packed, sums, panels);
      source.assign(plan.matrix, plan.matrix + bytes);
      stored = s;
      transpose = plan.transpose;
      weights = plan.weights;
      target = to;
      offset = vnniOffset;
      valid = true;
    }
    return panels;
  }

  /// Makes the panels of `to` the plan's weights (and, for VNNI, row
  /// corrections).
  void use(MatVecPlan &plan, WeightKind to, int32_t vnniOffset = 0) {
    plan.panels = get(plan, to, vnniOffset);
    plan.native = true;
    plan.rowCorrection = vnniOffset ? sums.data() : nullptr;
    plan.weights = to;
  }
};

bool isSignedInput(InputKind kind) {
  return kind == InputKind::S8 || kind == InputKind::F32ToS8 ||
         kind == InputKind::I32ToS8 || kind == InputKind::U32ToS8;
}

template <class Fn>
void runTasks(unsigned numTasks, uint64_t work, uint32_t threads, Fn fn) {
  parallelFor(numTasks, threadsFor(work, threads), fn);
}

} // namespace

//===----------------------------------------------------------------------===//
// Matrix-vector multiply(-add)
//===----------------------------------------------------------------------===//

extern "C" int32_t coopvecMatVecMulAdd(
    void *output, uint32_t outputType, uint64_t outputStride,
    const void *input, uint32_t inputType, uint32_t inputInterp,
    uint64_t inputStride, uint32_t batch, const void *matrix,
    uint64_t matrixOffset, uint32_t matrixInterp, uint32_t m, uint32_t k,
    uint32_t layout, uint32_t transpose, uint32_t matrixStride,
    const void *bias, uint64_t biasOffset, uint32_t biasInterp,
    uint32_t numThreads) {
  if (batch == 0)
    return COOPVEC_OK;
  if (!output || !input || !matrix)
    return COOPVEC_ERROR_NULL_POINTER;
  if (m == 0 || k == 0)
    return COOPVEC_ERROR_INVALID_DIMENSIONS;
  MatVecPlan plan;
  uint32_t elemSize;
  if (!decodeMatrix(matrixInterp, plan.weights, elemSize))
    return COOPVEC_ERROR_UNSUPPORTED_TYPE;
  bool floatPath = isFloatWeights(plan.weights);
  plan.m = m;
  plan.k = k;
  plan.transpose = transpose != 0;
  plan.matrix = static_cast<const uint8_t *>(matrix) + matrixOffset;
  if (int32_t st = storedLayout(layout, plan.transpose, m, k, elemSize,
                                matrixStride, plan.stored))
    return st;
  plan.native = nativePanels(plan.stored, plan.transpose, plan.matrix,
                             plan.panels);

  uint64_t inputBytes;
  if (!decodeInput(inputType, inputInterp, floatPath, k, plan.inputKind,
                   inputBytes))
    return COOPVEC_ERROR_UNSUPPORTED_TYPE;
  plan.input = static_cast<const uint8_t *>(input);
  plan.inputStride = inputStride ? inputStride : inputBytes;
  if (plan.inputStride < inputBytes)
    return COOPVEC_ERROR_INVALID_STRIDE;
  plan.batch = batch;

  plan.bias = bias ? static_cast<const uint8_t *>(bias) + biasOffset : nullptr;
  plan.biasKind = BiasKind::None;
  if (bias) {
    if (floatPath && biasInterp == COOPVEC_TYPE_F32)
      plan.biasKind = BiasKind::F32;
    else if (floatPath && biasInterp == COOPVEC_TYPE_F16)
      plan.biasKind = BiasKind::F16;
    else if (!floatPath && biasInterp == COOPVEC_TYPE_I32)
      plan.biasKind = BiasKind::I32;
    else
      return COOPVEC_ERROR_UNSUPPORTED_TYPE;
  }

  // The integer kernels sum in i32, wrapping, and add the bias the same way:
  // the result is the exact one whenever the exact sum plus bias is an i32.
  // Where it might not be (a bias near the ends of the range, or K so large
  // that the products alone may leave it), the caller takes the reference,
  // which saturates an i32 result and rounds an f32 one once.
  if (!floatPath) {
    int64_t maxW = plan.weights == WeightKind::S8 ? 128 : 255;
    int64_t maxX = isSignedInput(plan.inputKind) ? 128 : 255;
    int64_t bound = int64_t(k) * maxW * maxX;
    if (bound > INT32_MAX)
      return COOPVEC_ERROR_UNSUPPORTED_TYPE;
    if (plan.biasKind == BiasKind::I32)
      for (uint32_t r = 0; r < m; ++r) {
        int32_t b;
        std::memcpy(&b, plan.bias + uint64_t(r) * 4, 4);
        if (b > INT32_MAX - bound || b < INT32_MIN + bound)
          return COOPVEC_ERROR_UNSUPPORTED_TYPE;
      }
  }

  uint32_t outElem;
  if (floatPath && outputType == COOPVEC_TYPE_F32)
    plan.outputKind = OutputKind::F32, outElem = 4;
  else if (floatPath && outputType == COOPVEC_TYPE_F16)
    plan.outputKind = OutputKind::F16, outElem = 2;
  else if (!floatPath && outputType == COOPVEC_TYPE_I32)
    plan.outputKind = OutputKind::I32, outElem = 4;
  else if (!floatPath && outputType == COOPVEC_TYPE_F32)
    plan.outputKind = OutputKind::I32ToF32, outElem = 4;
  else
    return COOPVEC_ERROR_UNSUPPORTED_TYPE;
  plan.output = static_cast<uint8_t *>(output);
  plan.outputStride = outputStride ? outputStride : uint64_t(outElem) * m;
  if (plan.outputStride < uint64_t(outElem) * m)
    return COOPVEC_ERROR_INVALID_STRIDE;

  // Repacked panels, kept by the calling thread for its next calls.
  static thread_local RepackCache repacked;
  bool wide = activeIsa() == IsaLevel::Avx512 && repackPaysOff(m, k, batch);
  IsaLevel isa = wide ? IsaLevel::Avx512
                 : floatPath ? floatIsa()
                             : activeIsa();
  bool vnni = wide && !floatPath;
  if (wide && floatPath)
    repacked.use(plan, WeightKind::F32Wide);
  if (vnni) {
    // S8 weights take the s8 side of vpdpbusd, U8 weights the u8 side; the
    // input goes on the other side, moved by 128 when its signedness is the
    // weights' own.
    bool signedW = plan.weights == WeightKind::S8;
    bool signedX = isSignedInput(plan.inputKind);
    int32_t offset = signedW == signedX ? (signedW ? 128 : -128) : 0;
    plan.vnniFlip = offset ? 0x80 : 0;
    repacked.use(plan, signedW ? WeightKind::VnniS8 : WeightKind::VnniU8,
                 offset);
  } else if (!floatPath && isa == IsaLevel::Avx512 &&
             roundUp(k, 2) % kPanelVnniColumns == 0) {
    // Smaller batches: vpdpbusd on the 8-row panels as they are (the steps
    // of 8 columns must not run past the last panel). The weights move to
    // the other side of vpdpbusd when the input has their signedness.
    bool signedW = plan.weights == WeightKind::S8;
    plan.vnniFlip = signedW == isSignedInput(plan.inputKind) ? 0x80 : 0;
    plan.weights =
        signedW ? WeightKind::PanelVnniS8 : WeightKind::PanelVnniU8;
  } else if (isa == IsaLevel::Avx2 && plan.weights == WeightKind::S8 &&
             (plan.inputKind == InputKind::S8 ||
              plan.inputKind == InputKind::U8) &&
             repackPaysOff(m, k, batch)) {
    // Without VNNI: vpmaddubsw panels besides the I8 ones, for the batch
    // tiles whose inputs are in [0, 127] (ReLU outputs, U8 data of 7
    // bits), where it is exact (SimdAvx2.h, dotQuads).
    plan.quadPanels = repacked.get(plan, WeightKind::QuadS8, 0);
    plan.weights = WeightKind::QuadS8;
  }

  // Results that large are evicted by the call's own traffic before anyone
  // reads them: write them around the caches where that measured faster
  // (CpuTuning::streamResults: no read for ownership, and the inputs stay
  // cached). 4-byte results on 64-byte aligned lines only, so that every
  // 16-row store covers one whole line.
  plan.streamOutput = cpuTuning().streamResults && isa == IsaLevel::Avx512 &&
                      outElem == 4 &&
                      reinterpret_cast<uintptr_t>(plan.output) % 64 == 0 &&
                      plan.outputStride % 64 == 0 &&
                      plan.outputStride * batch >= streamingThreshold();

  // Tiles of the batch first; when they are too few to feed every thread,
  // the rows are split too (in whole strips).
  unsigned threads = threadsFor(uint64_t(m) * k * batch, numThreads);
  bool byteInputs = vnni || plan.weights == WeightKind::PanelVnniS8 ||
                    plan.weights == WeightKind::PanelVnniU8;
  plan.batchTile = batchTileFor(
      uint64_t(k) * (floatPath ? 4 : byteInputs ? 1 : 2), batch, threads);
  plan.numBatchTiles = uint32_t(ceilDiv(batch, plan.batchTile));
  uint64_t rowChunks = 1;
  if (threads > 1 && plan.numBatchTiles < 4 * threads)
    rowChunks = ceilDiv(4 * threads, plan.numBatchTiles);
  plan.rowChunk = uint32_t(roundUp(ceilDiv(m, rowChunks), kStripRows));
  plan.numRowChunks = uint32_t(ceilDiv(m, plan.rowChunk));
  plan.tilesPerTask = tilesPerTaskFor(plan.numBatchTiles, threads);
  uint64_t numTasks = ceilDiv(plan.numBatchTiles, plan.tilesPerTask) *
                      uint64_t(plan.numRowChunks);
  if (numTasks > 0xffffffffu)
    return COOPVEC_ERROR_INVALID_DIMENSIONS;

  const IsaEntry *kernels = isaEntry(isa);
  auto task = [&](unsigned t) {
    kernels->matVecTask(plan, t);
  };
  parallelFor(unsigned(numTasks), threads, task);
  return COOPVEC_OK;
}

extern "C" int32_t coopvecMatVecMul(
    void *output, uint32_t outputType, uint64_t outputStride,
    const void *input, uint32_t inputType, uint32_t inputInterp,
    uint64_t inputStride, uint32_t batch, const void *matrix,
    uint64_t matrixOffset, uint32_t matrixInterp, uint32_t m, uint32_t k,
    uint32_t layout, uint32_t transpose, uint32_t matrixStride,
    uint32_t numThreads) {
  return coopvecMatVecMulAdd(output, outputType, outputStride, input,
                             inputType, inputInterp, inputStride, batch,
                             matrix, matrixOffset, matrixInterp, m, k, layout,
                             transpose, matrixStride, nullptr, 0, 0,
                             numThreads);
}

//===----------------------------------------------------------------------===//
// Fused MLP
//===----------------------------------------------------------------------===//

namespace {
/// One layer's weights in the MLP's compute form: f32 (from F32/F16) in
/// 1-column groups, 8-bit widened to 16-bit in 2-column groups (what S16Weights
/// loads), or with `wide` f32 in interleaved 16-row panels. Native
/// InferencingOptimal F32 weights are used in place; InferencingOptimal F16/I8
/// have the compute form's element order and are widened in one linear pass
/// (the bulk numerics conversion for F16); other layouts go element by element.
/// `buf` is reused across calls.
void prepareMlpWeights(const CoopVecMlpLayer &l, const LayoutParams &stored,
                       bool int8, bool wide, std::vector<uint8_t> &buf,
                       Panels &panels) {
  const uint8_t *src =
      static_cast<const uint8_t *>(l.weights) + l.weightsOffset;
  uint32_t m = l.outputs, k = l.inputs, g = int8 ? 2 : 1, es = int8 ? 2 : 4;
  if (wide) {
    panels = packWideFloatMatrix(src, stored, l.transpose != 0, m, k,
                                 l.weightsInterp, buf);
    return;
  }
  uint64_t panelBytes = uint64_t(kPanelRows) * roundUp(k, g) * es;
  uint64_t stepBytes = uint64_t(kPanelRows) * g * es;
  uint64_t elems = ceilDiv(m, kPanelRows) * panelBytes / es;
  bool optimal = stored.layout == COOPVEC_LAYOUT_INFERENCING_OPTIMAL &&
                 l.transpose == 0;
  if (optimal && l.weightsInterp == COOPVEC_TYPE_F32) {
    panels = Panels{src, panelBytes, stepBytes};
    return;
  }
  if (buf.size() < elems * es)
    buf.resize(elems * es);
  if (optimal && l.weightsInterp == COOPVEC_TYPE_F16) {
    halvesToFloats(src, reinterpret_cast<float *>(buf.data()), elems);
  } else if (optimal && int8) {
    auto *d = reinterpret_cast<int16_t *>(buf.data());
    for (uint64_t i = 0; i < elems; ++i)
      d[i] = int8_t(src[i]);
  } else {
    std::memset(buf.data(), 0, elems * es);
    bool transpose = l.transpose != 0;
    for (uint32_t r = 0; r < m; ++r)
      for (uint32_t c = 0; c < k; ++c) {
        const uint8_t *e =
            src + (transpose ? stored.offset(c, r) : stored.offset(r, c));
        uint8_t *d = buf.data() + (r / kPanelRows) * panelBytes +
                     (c / g) * stepBytes + (r % kPanelRows) * (g * es) +
                     (c % g) * es;
        if (int8) {
          int16_t v = int8_t(*e);
          std::memcpy(d, &v, 2);
        } else {
          float v = loadWeight(e, l.weightsInterp);
          std::memcpy(d, &v, 4);
        }
      }
  }
  panels = Panels{buf.data(), panelBytes, stepBytes};
}
} // namespace

extern "C" int32_t coopvecMlpForward(float *output, uint64_t outputStride,
                                     const float *input, uint64_t inputStride,
                                     uint32_t batch,
                                     const CoopVecMlpLayer *layers,
                                     uint32_t numLayers, float inputScale,
                                     uint32_t outputExp, uint32_t numThreads) {
  if (batch == 0)
    return COOPVEC_OK;
  if (!output || !input || !layers)
    return COOPVEC_ERROR_NULL_POINTER;
  if (numLayers == 0 || numLayers > kMaxMlpLayers)
    return COOPVEC_ERROR_INVALID_ARGUMENT;
  MlpPlan plan;
  uint32_t interp = layers[0].weightsInterp;
  if (interp != COOPVEC_TYPE_F32 && interp != COOPVEC_TYPE_F16 &&
      interp != COOPVEC_TYPE_BF16 && interp != COOPVEC_TYPE_I8)
    return COOPVEC_ERROR_UNSUPPORTED_TYPE;
  plan.int8 = interp == COOPVEC_TYPE_I8;
  plan.bf16 = interp == COOPVEC_TYPE_BF16;
  plan.numLayers = numLayers;
  uint32_t maxWidth = 0;
  LayoutParams stored[kMaxMlpLayers];
  for (uint32_t l = 0; l < numLayers; ++l) {
    const CoopVecMlpLayer &layer = layers[l];
    if (!layer.weights)
      return COOPVEC_ERROR_NULL_POINTER;
    if (layer.weightsInterp != interp)
      return COOPVEC_ERROR_UNSUPPORTED_TYPE;
    if (layer.outputs == 0 || layer.inputs == 0 ||
        (l > 0 && layer.inputs != layers[l - 1].outputs))
      return COOPVEC_ERROR_INVALID_DIMENSIONS;
    if (layer.activation > COOPVEC_ACTIVATION_RELU)
      return COOPVEC_ERROR_INVALID_ARGUMENT;
    if (layer.bias &&
        (plan.int8 ? layer.biasInterp != COOPVEC_TYPE_I32
                   : layer.biasInterp != COOPVEC_TYPE_F32 &&
                         layer.biasInterp != COOPVEC_TYPE_F16))
      return COOPVEC_ERROR_UNSUPPORTED_TYPE;
    uint32_t es = plan.int8 ? 1 : interp == COOPVEC_TYPE_F32 ? 4 : 2;
    if (int32_t st = storedLayout(layer.layout, layer.transpose != 0,
                                  layer.outputs, layer.inputs, es,
                                  layer.stride, stored[l]))
      return st;
    maxWidth = std::max({maxWidth, layer.outputs, layer.inputs});
  }
  plan.maxWidth = uint32_t(roundUp(maxWidth, 2));
  uint64_t inBytes = 4ull * layers[0].inputs;
  uint64_t outBytes = 4ull * layers[numLayers - 1].outputs;
  plan.inputStride = inputStride ? inputStride : inBytes;
  plan.outputStride = outputStride ? outputStride : outBytes;
  if (plan.inputStride < inBytes || plan.inputStride % 4 ||
      plan.outputStride < outBytes || plan.outputStride % 4)
    return COOPVEC_ERROR_INVALID_STRIDE;
  plan.input = input;
  plan.output = output;
  plan.batch = batch;
  plan.inputScale = inputScale;
  plan.outputExp = outputExp != 0;

  // Float networks run the AVX-512 task (wide layers) where it exists.
  IsaLevel isa = plan.int8 || activeIsa() != IsaLevel::Avx512
                     ? (plan.int8 ? activeIsa() : floatIsa())
                     : IsaLevel::Avx512;
  bool wideFloat = !plan.int8 && isa == IsaLevel::Avx512;
  bool vnni = plan.int8 && isa == IsaLevel::Avx512;
  // BF16 networks run on AMX tiles or vdpbf16ps where the CPU has them and
  // they are faster than f32 FMAs (bf16Path), else the f32 path on widened
  // weights (mlpFloat rounds the layer inputs alike).
  Bf16Path bf16 = plan.bf16 ? bf16Path(isa) : Bf16Path::F32;
  bool bf16Panels = bf16 == Bf16Path::Vdpbf16ps;
  plan.amx = bf16 == Bf16Path::Amx || (plan.int8 && i8OnAmx(isa));

  // Weights and biases in compute form, once per call, in buffers the
  // calling thread keeps for its next calls (no allocation once warm).
  static thread_local std::vector<uint8_t> weightBufs[kMaxMlpLayers];
  static thread_local std::vector<float> biasF[kMaxMlpLayers];
  static thread_local std::vector<int32_t> biasI[kMaxMlpLayers];
  static thread_local std::vector<int32_t> rowTerms;
  static thread_local std::vector<float> requant[kMaxMlpLayers];
  for (uint32_t l = 0; l < numLayers; ++l) {
    const CoopVecMlpLayer &layer = layers[l];
    MlpLayerPlan &lp = plan.layers[l];
    // Layers of 16 rows and more take the wide f32 panels on AVX-512; the
    // narrow ones (e.g. an RGB output) waste fewer lanes in 8-row panels.
    lp.wide = wideFloat && layer.outputs >= 16;
    lp.vnni = vnni && !plan.amx;
    // I8: after a ReLU the activations are u8 (unsignedIn), what vpdpbusd
    // and tdpbusd read; other inputs are s8, which vpdpbusd reads flipped
    // into u8 (VnniS8Weights<true>) with the -128 * row sum correction in
    // the bias (rowTerms), and AMX multiplies by s8 (tdpbssd).
    lp.unsignedIn = plan.int8 && l > 0 &&
                    layers[l - 1].activation == COOPVEC_ACTIVATION_RELU;
    lp.flipInput = lp.vnni && !lp.unsignedIn;
    lp.bf16Panels = bf16Panels;
    if (plan.amx) {
#if defined(__x86_64__)
      lp.panels = amx::packAmxMatrix(
          static_cast<const uint8_t *>(layer.weights) + layer.weightsOffset,
          stored[l], layer.transpose != 0, layer.outputs, layer.inputs,
          plan.int8 ? 1 : 2, weightBufs[l]);
#endif
    } else if (bf16Panels) {
      lp.panels = packBf16Matrix(static_cast<const uint8_t *>(layer.weights) +
                                     layer.weightsOffset,
                                 stored[l], layer.transpose != 0, layer.outputs,
                                 layer.inputs, weightBufs[l]);
    } else if (vnni) {
      MatVecPlan mp{};
      mp.weights = WeightKind::S8;
      mp.m = layer.outputs;
      mp.k = layer.inputs;
      mp.matrix = static_cast<const uint8_t *>(layer.weights) +
                  layer.weightsOffset;
      mp.stored = stored[l];
      mp.transpose = layer.transpose != 0;
      packVnniMatrix(mp, lp.flipInput ? 128 : 0, weightBufs[l], rowTerms,
                     lp.panels);
    } else {
      prepareMlpWeights(layer, stored[l], plan.int8, lp.wide, weightBufs[l],
                        lp.panels);
    }
    lp.m = layer.outputs;
    lp.k = layer.inputs;
    lp.relu = layer.activation == COOPVEC_ACTIVATION_RELU;
    uint64_t padded = roundUp(layer.outputs, kStripRows);
    if (plan.int8) {
      // Per-row scales, padded with zeros like the bias (0 * 0 rows).
      requant[l].assign(padded, 0.0f);
      if (layer.requantScales)
        std::memcpy(requant[l].data(),
                    static_cast<const uint8_t *>(layer.requantScales) +
                        layer.requantScalesOffset,
                    4ull * layer.outputs);
      else
        std::fill_n(requant[l].begin(), layer.outputs, layer.requantScale);
      lp.requant = requant[l].data();
      bool hidden = l + 1 < numLayers;
      lp.unsignedOut = hidden && lp.relu;
    }
    const uint8_t *b =
        layer.bias ? static_cast<const uint8_t *>(layer.bias) + layer.biasOffset
                   : nullptr;
    if (plan.int8) {
      biasI[l].assign(padded, 0);
      if (b)
        std::memcpy(biasI[l].data(), b, 4ull * layer.outputs);
      if (lp.flipInput) // Wrapping, like the sums.
        for (uint32_t i = 0; i < layer.outputs; ++i)
          biasI[l][i] = int32_t(uint32_t(biasI[l][i]) + uint32_t(rowTerms[i]));
    } else {
      biasF[l].assign(padded, 0.0f);
      if (b && layer.biasInterp == COOPVEC_TYPE_F16)
        halvesToFloats(b, biasF[l].data(), layer.outputs);
      else if (b)
        std::memcpy(biasF[l].data(), b, 4ull * layer.outputs);
    }
    lp.biasF = biasF[l].data();
    lp.biasI = biasI[l].data();
    // A narrow output layer (an RGB output) in segment form: its 16-row
    // panel would leave 13 of 16 lanes idle.
    uint64_t groups = ceilDiv(layer.inputs, plan.int8 ? 4 : 2);
    if ((bf16Panels || lp.vnni) && l + 1 == numLayers &&
        layer.outputs <= kSegmentRows && groups <= kSegmentGroups) {
      static thread_local std::vector<uint8_t> segmentBuf;
      lp.segmentGroups = uint32_t(groups);
      lp.segmentSteps = uint32_t(ceilDiv(groups, 4));
      lp.segments = packSegments(lp.panels, layer.outputs, groups,
                                 lp.segmentSteps, segmentBuf);
    }
  }

  // A tile's activations (~16 KiB per buffer) stay in L1 between layers; a
  // multiple of every register block's vector count (4, 6, 8, 12).
  uint64_t tile = 16384 / (4ull * plan.maxWidth);
  tile = std::max<uint64_t>(24, std::min<uint64_t>(96, tile / 24 * 24));
  if (plan.amx) // 1-8 batches of kAmxBatch, 8 tasks or more if they fit.
    tile = std::clamp<uint64_t>(roundUp(ceilDiv(batch, 8), amx::kAmxBatch),
                                amx::kAmxBatch, 8 * amx::kAmxBatch);
  plan.batchTile = uint32_t(std::min<uint64_t>(tile, batch));
  plan.numBatchTiles = uint32_t(ceilDiv(batch, plan.batchTile));
  if (!plan.amx)
    plan.tilesPerTask =
        tilesPerTaskFor(plan.numBatchTiles, resolveThreads(numThreads));
  uint64_t work = 0;
  for (unsigned l = 0; l < plan.numLayers; ++l)
    work += uint64_t(plan.layers[l].m) * plan.layers[l].k * batch;

  const IsaEntry *kernels = isaEntry(isa);
  auto task = [&](unsigned t) {
#if defined(__x86_64__)
    if (plan.amx)
      return amx::mlpTask(plan, t);
    if (bf16Panels)
      return avx512bf16::mlpTask(plan, t);
#endif
    kernels->mlpTask(plan, t);
  };
  runTasks(uint32_t(ceilDiv(plan.numBatchTiles, plan.tilesPerTask)), work,
           numThreads, task);
  return COOPVEC_OK;
}

void coopvec::kernels::applyOutputExp(const MlpPlan &plan, uint8_t *out,
                                      uint32_t nb) {
  if (!plan.outputExp)
    return;
  uint32_t m = plan.layers[plan.numLayers - 1].m;
#if defined(__x86_64__) && defined(__GLIBC__)
  // glibc's expf on 16 lanes (ExpAvx512.cpp); another libm keeps std::exp
  // on every lane, so that every path gives the same floats. (The output
  // stride is a multiple of 4: coopvecMlpForward checks it.)
  if (activeIsa() == IsaLevel::Avx512)
    return avx512::expRows(reinterpret_cast<float *>(out),
                           plan.outputStride / 4, nb, m);
#endif
  for (uint32_t b = 0; b < nb; ++b) {
    float *o = reinterpret_cast<float *>(out + b * plan.outputStride);
    for (uint32_t i = 0; i < m; ++i)
      o[i] = std::exp(o[i]);
  }
}

//===----------------------------------------------------------------------===//
// Atomic accumulation
//===----------------------------------------------------------------------===//

namespace {
/// Adds `v` to the f32 at `p` (4-byte aligned) with a CAS loop.
void atomicAddF32(uint8_t *p, float v) {
  auto *word = reinterpret_cast<uint32_t *>(p);
  uint32_t old = __atomic_load_n(word, __ATOMIC_RELAXED);
  for (;;) {
    float f;
    std::memcpy(&f, &old, 4);
    f += v;
    uint32_t desired;
    std::memcpy(&desired, &f, 4);
    if (__atomic_compare_exchange_n(word, &old, desired, /*weak=*/true,
                                    __ATOMIC_RELAXED, __ATOMIC_RELAXED))
      return;
  }
}

/// Adds `v` to the f16 at `p` (2-byte aligned) with a 16-bit CAS loop,
/// rounding the sum RTNE.
void atomicAddF16(uint8_t *p, float v) {
  auto *half = reinterpret_cast<uint16_t *>(p);
  uint16_t old = __atomic_load_n(half, __ATOMIC_RELAXED);
  for (;;) {
    uint16_t desired = floatToHalf(halfToFloat(old) + v);
    if (__atomic_compare_exchange_n(half, &old, desired, /*weak=*/true,
                                    __ATOMIC_RELAXED, __ATOMIC_RELAXED))
      return;
  }
}

/// Adds `lo`/`hi` to the two f16 halves of the aligned 32-bit word at `word`
/// in one CAS loop, rounding each sum RTNE.
void atomicAddF16Pair(uint8_t *wordPtr, float lo, float hi) {
  auto *word = reinterpret_cast<uint32_t *>(wordPtr);
  uint32_t old = __atomic_load_n(word, __ATOMIC_RELAXED);
  for (;;) {
    // Little-endian: the half at the lower address is the low 16 bits.
    uint32_t desired =
        floatToHalf(halfToFloat(uint16_t(old)) + lo) |
        uint32_t(floatToHalf(halfToFloat(uint16_t(old >> 16)) + hi)) << 16;
    if (__atomic_compare_exchange_n(word, &old, desired, /*weak=*/true,
                                    __ATOMIC_RELAXED, __ATOMIC_RELAXED))
      return;
  }
}

/// Accumulates a run of (address, value) updates in order; consecutive f16
/// updates to both halves of a 32-bit word are merged into one CAS. A half
/// updated alone gets a 16-bit CAS: its word's other half may lie outside
/// the array (past the buffer's end, in a row's padding).
struct Accumulator {
  bool half;
  uint8_t *pendingWord = nullptr;
  bool hasLo = false, hasHi = false;
  float lo = 0, hi = 0;

  void add(uint8_t *p, float v) {
    if (!half)
      return atomicAddF32(p, v);
    auto *w = reinterpret_cast<uint8_t *>(reinterpret_cast<uintptr_t>(p) &
                                          ~uintptr_t(3));
    if (w != pendingWord)
      flush();
    pendingWord = w;
    if (reinterpret_cast<uintptr_t>(p) & 2)
      hasHi = true, hi = v;
    else
      hasLo = true, lo = v;
  }
  void flush() {
    if (pendingWord && hasLo && hasHi)
      atomicAddF16Pair(pendingWord, lo, hi);
    else if (pendingWord && hasLo)
      atomicAddF16(pendingWord, lo);
    else if (pendingWord && hasHi)
      atomicAddF16(pendingWord + 2, hi);
    pendingWord = nullptr;
    hasLo = hasHi = false;
  }
};

bool decodeFloatType(uint32_t t, uint32_t &bytes) {
  if (t == COOPVEC_TYPE_F32)
    return bytes = 4, true;
  if (t == COOPVEC_TYPE_F16)
    return bytes = 2, true;
  return false;
}

/// batch x n vectors of `type` into contiguous f32.
std::vector<float> widenVectors(const uint8_t *src, uint32_t bytes,
                                uint64_t stride, uint32_t batch, uint32_t n) {
  std::vector<float> out(uint64_t(batch) * n);
  for (uint32_t b = 0; b < batch; ++b)
    for (uint32_t i = 0; i < n; ++i)
      out[uint64_t(b) * n + i] = loadFloat(src + b * stride + uint64_t(i) * bytes, bytes);
  return out;
}
} // namespace

extern "C" int32_t coopvecOuterProductAccumulate(
    const void *a, uint32_t aType, uint64_t aStride, const void *b,
    uint32_t bType, uint64_t bStride, uint32_t batch, uint32_t m, uint32_t n,
    void *matrix, uint64_t matrixOffset, uint32_t matrixInterp,
    uint32_t layout, uint32_t matrixStride, uint32_t numThreads) {
  if (batch == 0)
    return COOPVEC_OK;
  if (!a || !b || !matrix)
    return COOPVEC_ERROR_NULL_POINTER;
  uint32_t aBytes, bBytes, es;
  if (!decodeFloatType(aType, aBytes) || !decodeFloatType(bType, bBytes) ||
      !decodeFloatType(matrixInterp, es))
    return COOPVEC_ERROR_UNSUPPORTED_TYPE;
  LayoutParams p;
  if (int32_t st = storedLayout(layout, false, m, n, es, matrixStride, p))
    return st;
  uint8_t *base = static_cast<uint8_t *>(matrix) + matrixOffset;
  if (reinterpret_cast<uintptr_t>(base) % es)
    return COOPVEC_ERROR_INVALID_ARGUMENT;
  aStride = aStride ? aStride : uint64_t(aBytes) * m;
  bStride = bStride ? bStride : uint64_t(bBytes) * n;
  if (aStride < uint64_t(aBytes) * m || bStride < uint64_t(bBytes) * n)
    return COOPVEC_ERROR_INVALID_STRIDE;
  std::vector<float> av = widenVectors(static_cast<const uint8_t *>(a), aBytes,
                                       aStride, batch, m);
  std::vector<float> bv = widenVectors(static_cast<const uint8_t *>(b), bBytes,
                                       bStride, batch, n);
  // Walk the storage's contiguous direction innermost so that the two
  // halves of an f16 word are adjacent updates: columns for row-major, rows
  // for the others (column-major and both optimal layouts keep 8 rows of a
  // column together).
  bool rowsInner = layout != COOPVEC_LAYOUT_ROW_MAJOR;
  uint32_t outer = rowsInner ? n : m, inner = rowsInner ? m : n;
  uint32_t chunk = std::max<uint32_t>(1, 4096 / inner);
  uint32_t numTasks = uint32_t(ceilDiv(outer, chunk));
  auto task = [&](unsigned t) {
    Accumulator acc{es == 2};
    uint32_t o1 = std::min<uint64_t>(outer, uint64_t(t + 1) * chunk);
    for (uint32_t o = t * chunk; o < o1; ++o) {
      for (uint32_t i = 0; i < inner; ++i) {
        uint32_t r = rowsInner ? i : o, c = rowsInner ? o : i;
        float sum = 0.0f;
        for (uint32_t s = 0; s < batch; ++s)
          sum += av[uint64_t(s) * m + r] * bv[uint64_t(s) * n + c];
        acc.add(base + p.offset(r, c), sum);
      }
      acc.flush();
    }
  };
  runTasks(numTasks, uint64_t(batch) * m * n, numThreads, task);
  return COOPVEC_OK;
}

extern "C" int32_t coopvecVectorAccumulate(const void *input,
                                           uint32_t inputType,
                                           uint64_t inputStride,
                                           uint32_t batch, uint32_t n,
                                           void *buffer, uint64_t offset,
                                           uint32_t accumInterp,
                                           uint32_t numThreads) {
  if (batch == 0)
    return COOPVEC_OK;
  if (!input || !buffer)
    return COOPVEC_ERROR_NULL_POINTER;
  if (n == 0)
    return COOPVEC_ERROR_INVALID_DIMENSIONS;
  uint32_t inBytes, es;
  if (!decodeFloatType(inputType, inBytes) ||
      !decodeFloatType(accumInterp, es))
    return COOPVEC_ERROR_UNSUPPORTED_TYPE;
  uint8_t *base = static_cast<uint8_t *>(buffer) + offset;
  if (reinterpret_cast<uintptr_t>(base) % es)
    return COOPVEC_ERROR_INVALID_ARGUMENT;
  inputStride = inputStride ? inputStride : uint64_t(inBytes) * n;
  if (inputStride < uint64_t(inBytes) * n)
    return COOPVEC_ERROR_INVALID_STRIDE;
  const auto *in = static_cast<const uint8_t *>(input);
  constexpr uint32_t kChunk = 4096;
  auto task = [&](unsigned t) {
    Accumulator acc{es == 2};
    uint32_t i1 = std::min<uint64_t>(n, uint64_t(t + 1) * kChunk);
    for (uint32_t i = t * kChunk; i < i1; ++i) {
      float sum = 0.0f;
      for (uint32_t s = 0; s < batch; ++s)
        sum += loadFloat(in + s * inputStride + uint64_t(i) * inBytes, inBytes);
      acc.add(base + uint64_t(i) * es, sum);
    }
    acc.flush();
  };
  runTasks(uint32_t(ceilDiv(n, kChunk)), uint64_t(batch) * n, numThreads,
           task);
  return COOPVEC_OK;
}

//===----------------------------------------------------------------------===//
// Configuration
//===----------------------------------------------------------------------===//

extern "C" void coopvecKernelsForcePortable(int32_t mode) {
  forcedIsa.store(mode < 0   ? -1
                  : mode > 0 ? int32_t(IsaLevel::Portable)
                             : int32_t(bestIsa()),
                  std::memory_order_relaxed);
}

extern "C" int32_t coopvecKernelsForceIsa(const char *name) {
  if (!name) {
    forcedIsa.store(-1, std::memory_order_relaxed);
    return COOPVEC_OK;
  }
  IsaLevel isa;
  if (std::strcmp(name, "best") == 0)
    isa = bestIsa();
  else if (!parseIsa(name, isa))
    return COOPVEC_ERROR_INVALID_ARGUMENT;
  if (!cpuHas(isa))
    return COOPVEC_ERROR_UNSUPPORTED_TYPE;
  forcedIsa.store(int32_t(isa), std::memory_order_relaxed);
  return COOPVEC_OK;
}

extern "C" int32_t coopvecKernelsForceCpuTuning(const char *name) {
  int32_t i = name ? findCpuTuning(name) : -1;
  if (name && i < 0)
    return COOPVEC_ERROR_INVALID_ARGUMENT;
  forcedTuning.store(i, std::memory_order_relaxed);
  return COOPVEC_OK;
}

extern "C" const char *coopvecKernelsCpuTuning(void) {
  return cpuTuning().name;
}

extern "C" const char *coopvecKernelsIsa(void) {
  return isaName(activeIsa());
}

extern "C" uint32_t coopvecKernelsDefaultThreads(void) {
  return defaultThreadCount();
}

extern "C" void coopvecKernelsSetParallelThreshold(int64_t work) {
  parallelWork.store(work < 0 ? kDefaultParallelWork : uint64_t(work),
                     std::memory_order_relaxed);
}
