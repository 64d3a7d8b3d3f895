//===- Quantized.cpp - The quantized product's kernel driver --------------===//
//
// coopvecKernelsQuantizedMatMul: checks that the fast path takes the
// parameters (row-major I8/U8/I4/U4 weights, not transposed, K and every group
// a multiple of 4, an AVX-512 (AMX tiles or VNNI) or AVX2 kernel level, every
// int32 intermediate provably exact), prepares the plan (QuantPlan.h:
// transposed weight zero points and scales, reductions minus the input zero
// points' sums, or row sums of x when no reductions are given) and runs one
// task per 64 outputs (and chunk of batch rows).
//
//===----------------------------------------------------------------------===//

#include "LinAlgCoop/Runtime/Quantized.h"
#include "QuantPlan.h"
#include "QuantValues.h"
#include "Isa.h"
#include "ThreadPool.h"

#include "LinAlgCoop/Runtime/Kernels.h"
#include "LinAlgCoop/Runtime/Layout.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <utility>
#include <vector>

#if defined(__x86_64__)
#include "Numerics/x86_64/X86.h"
#endif

using namespace coopvec::kernels;
using coopvec::quant::Values;

namespace {
constexpr uint64_t kInt32Limit = uint64_t(1) << 31;

/// Whether the AVX-512 level may use AMX tiles: coopvecKernelsQuantizedAmx,
/// initially off only with COOPVEC_QUANT_I8=vpdpbusd.
std::atomic<bool> amxAllowed{[] {
  const char *env = std::getenv("COOPVEC_QUANT_I8");
  return !env || std::strcmp(env, "vpdpbusd") != 0;
}()};

struct PanelKernel {
  QuantPanelTask task = nullptr;
  uint32_t rows = kQuantRows; ///< Batch rows per tile.
};

/// The panel task of the active kernel level (Kernels.cpp: the CPU's best,
/// capped by COOPVEC_KERNELS_ISA or forced by coopvecKernelsForceIsa):
/// AVX-512 on AMX tiles where the CPU has AMX-INT8 and the OS grants the
/// tile data, else AVX-512 VNNI, or AVX2; null at the portable level, where
/// the reference computes the product.
PanelKernel panelKernel() {
#if defined(__x86_64__)
  const char *isa = coopvecKernelsIsa();
  if (std::strcmp(isa, "avx512") == 0) {
    if (amxAllowed.load(std::memory_order_relaxed) && amxTiles(kX86AmxInt8))
      return {amx::quantPanelTask, amx::kQuantAmxRows};
    return {avx512::quantPanelTask, kQuantRows};
  }
  if (std::strcmp(isa, "avx2") == 0)
    return {avx2::quantPanelTask, kQuantRows};
#endif
  return {};
}

/// Rows [n0, n0 + rows) of the plan's 4-bit weights as bytes, k per row,
/// in a buffer the calling thread keeps: the nibble (c & 1) of byte c / 2,
/// sign-extended for I4 ((v ^ 8) - 8).
const uint8_t *unpackNibbles(const QuantPlan &p, uint32_t n0, uint32_t rows,
                             bool isSigned) {
  thread_local std::vector<uint8_t> buf;
  buf.resize(size_t(rows) * p.k);
  const uint8_t bias = isSigned ? 8 : 0;
  for (uint32_t i = 0; i < rows; ++i) {
    const uint8_t *src = p.wRow(n0 + i);
    uint8_t *dst = buf.data() + size_t(i) * p.k;
    uint32_t c = 0;
#if defined(__x86_64__)
    const __m128i biasV = _mm_set1_epi8(char(bias));
    auto fix = [&](__m128i x) {
      return _mm_sub_epi8(_mm_xor_si128(x, biasV), biasV);
    };
    for (; c + 32 <= p.k; c += 32) {
      __m128i lo, hi;
      coopvec::numerics::x86::load32Codes(src, c, true, lo, hi);
      _mm_storeu_si128(reinterpret_cast<__m128i *>(dst + c), fix(lo));
      _mm_storeu_si128(reinterpret_cast<__m128i *>(dst + c + 16), fix(hi));
    }
#endif
    for (; c < p.k; c += 2) {
      uint8_t lo = src[c / 2] & 0xF, hi = src[c / 2] >> 4;
      dst[c] = uint8_t((lo ^ bias) - bias);
      dst[c + 1] = uint8_t((hi ^ bias) - bias);
    }
  }
  return buf.data();
}

/// The per-row values of the calling thread's calls, kept from one call to
/// the next: a stream of calls on large batches then neither maps fresh
/// pages for them nor zeroes them (each call writes every element it reads).
/// More than kKeptBytes in all are freed when the call ends.
struct RowScratch {
  static constexpr size_t kKeptBytes = size_t(64) << 20;

  template <typename T> struct Buffer {
    std::vector<T> data;
    T *take(size_t n) {
      if (data.size() < n)
        data.resize(n);
      return data.data();
    }
    size_t bytes() const { return data.capacity() * sizeof(T); }
  };
  Buffer<uint8_t> flipped, xTiles;
  Buffer<int32_t> zxv, radj, xsum;
  Buffer<float> sxv;

  static RowScratch &get() {
    thread_local RowScratch scratch;
    return scratch;
  }
  void trim() {
    if (flipped.bytes() + xTiles.bytes() + zxv.bytes() + radj.bytes() +
            xsum.bytes() + sxv.bytes() >
        kKeptBytes)
      *this = RowScratch();
  }
};

/// The sum of `n` input bytes read as I8 or U8 (the row sums are
/// O(batch * k) work beside the products): U8 by psadbw against zero, I8 as
/// U8 after flipping the sign bit, less 128 per byte.
int64_t sumBytes(const uint8_t *p, uint32_t n, bool isSigned) {
  const uint8_t flip = isSigned ? 0x80 : 0;
  uint64_t sum = 0;
  uint32_t i = 0;
#if defined(__x86_64__)
  const __m128i flipV = _mm_set1_epi8(char(flip)), zero = _mm_setzero_si128();
  __m128i acc = zero;
  for (; i + 16 <= n; i += 16) {
    __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i *>(p + i));
    acc = _mm_add_epi64(acc, _mm_sad_epu8(_mm_xor_si128(v, flipV), zero));
  }
  sum = uint64_t(_mm_cvtsi128_si64(acc)) +
        uint64_t(_mm_cvtsi128_si64(_mm_unpackhi_epi64(acc, acc)));
#endif
  for (; i < n; ++i)
    sum += uint8_t(p[i] ^ flip);
  return int64_t(sum) - (isSigned ? int64_t(128) * n : 0);
}

/// The largest |value| of a set of integer values over `rows` rows.
int64_t maxAbs(const Values &v, uint32_t rows, uint32_t k) {
  if (!v.present())
    return 0;
  int64_t best = 0;
  uint32_t cols = v.group ? k / v.group : 1;
  uint32_t n = v.group ? rows : 1;
  for (uint32_t r = 0; r < n; ++r)
    for (uint32_t c = 0; c < cols; ++c) {
      int64_t x = v.integer(r, c * (v.group ? v.group : 1));
      best = std::max(best, x < 0 ? -x : x);
    }
  return best;
}
} // namespace

extern "C" int32_t
coopvecKernelsQuantizedMatMul(const CoopVecQuantMatMulParams *p) {
  constexpr int32_t kNotTaken = COOPVEC_ERROR_UNSUPPORTED_TYPE;
#if !defined(__x86_64__)
  (void)p;
  return kNotTaken;
#else
  PanelKernel kernel = panelKernel();
  if (!kernel.task || coopvecQuantizedMatMulCheck(p) != COOPVEC_OK)
    return kNotTaken;
  if (p->layout != COOPVEC_LAYOUT_ROW_MAJOR || p->transpose || p->k % 4 != 0 ||
      p->batch == 0)
    return kNotTaken;
  uint32_t k = p->k, m = p->m, batch = p->batch;
  coopvec::quant::Operands operands(*p);
  const Values &wz = operands.weightZeroPoints, &ws = operands.weightScales,
               &xz = operands.inputZeroPoints, &xs = operands.inputScales,
               &red = operands.reductions;
  uint32_t c = coopvec::quant::computeGroup(xs, ws, k);
  auto sizeOf = [&](const Values &v) { return v.group ? v.group : k; };
  uint32_t zxGroup = xz.present() ? std::gcd(sizeOf(xz), c) : c;
  uint32_t rGroup = red.present() ? red.group
                    : wz.present() ? std::gcd(sizeOf(wz), c)
                                   : 0;
  if (c % 4 != 0 || zxGroup % 4 != 0)
    return kNotTaken;

  bool xSigned = p->inputInterp == COOPVEC_TYPE_I8;
  // 4-bit weights (two to a byte, the even K in the low nibble) are
  // unpacked into bytes by the task that packs their panel: I4 as I8 weights
  // (-8..7); U4 (0..15) as U8 or I8 weights, whichever is of the other
  // signedness than the input, the mode without the flip and its
  // corrections. Their magnitude lets the AVX2 kernel use vpmaddubsw.
  bool nibbles =
      p->matrixInterp == COOPVEC_TYPE_I4 || p->matrixInterp == COOPVEC_TYPE_U4;
  bool wSigned = p->matrixInterp == COOPVEC_TYPE_U4
                     ? !xSigned
                     : p->matrixInterp != COOPVEC_TYPE_U8;

  QuantPlan plan{};
  plan.batch = batch;
  plan.m = m;
  plan.k = k;
  plan.group = c;
  plan.groups = k / c;
  plan.mode = xSigned ? (wSigned ? QuantMode::SignedBySigned
                                 : QuantMode::SignedByUnsigned)
                      : (wSigned ? QuantMode::UnsignedBySigned
                                 : QuantMode::UnsignedByUnsigned);
  plan.w = static_cast<const uint8_t *>(p->matrix) + p->matrixOffset;
  plan.wStride = p->matrixStride;
  plan.wFlip = plan.mode == QuantMode::UnsignedByUnsigned ? 0x80 : 0;
  plan.zxGroup = zxGroup;
  plan.needColSums =
      xz.present() || plan.mode == QuantMode::SignedBySigned;

  const uint8_t *x = static_cast<const uint8_t *>(p->input);
  unsigned threads = p->numThreads ? p->numThreads : defaultThreadCount();
  if (uint64_t(batch) * m * k < (uint64_t(1) << 18))
    threads = 1;

  // The per-row values, O(batch * k), in parallel over blocks of rows: the
  // flipped inputs (SignedBySigned), input zero points per sub-group, the
  // reductions minus the input zero points' sums (or the rows' own sums),
  // row sums (UnsignedByUnsigned), input scales; and the largest |zx| and
  // |R| for the exactness bound below.
  uint32_t subs = k / zxGroup, rGroups = rGroup ? k / rGroup : 0;
  // How many of each per row (0: absent).
  uint32_t nZx = xz.present() ? subs : 0, nRadj = wz.present() ? rGroups : 0,
           nXsum = plan.mode == QuantMode::UnsignedByUnsigned ? plan.groups : 0,
           nSx = xs.present() ? plan.groups : 0;
  // AMX: the whole 16-row tiles of inputs in A-tile order, [batch / 16]
  // [k / chunk][16][chunk] bytes: a tile load reads 1 KiB in a row, where
  // 16 rows with a stride of 4 KiB would fall into one L1 set.
  uint32_t tileRows = 0, tileChunk = 0;
  if (kernel.rows == amx::kQuantAmxRows) {
    tileRows = batch / kernel.rows * kernel.rows;
    tileChunk = std::gcd(c, 64u);
  }
  bool flip = plan.mode == QuantMode::SignedBySigned;
  RowScratch &scratch = RowScratch::get();
  struct TrimOnReturn {
    RowScratch &scratch;
    ~TrimOnReturn() { scratch.trim(); }
  } trimOnReturn{scratch};
  uint8_t *flipped = scratch.flipped.take(flip ? size_t(batch) * k : 0);
  uint8_t *xTiles = scratch.xTiles.take(size_t(tileRows) * k);
  int32_t *zxv = scratch.zxv.take(size_t(batch) * nZx);
  int32_t *radj = scratch.radj.take(size_t(batch) * nRadj);
  int32_t *xsum = scratch.xsum.take(size_t(batch) * nXsum);
  float *sxv = scratch.sxv.take(size_t(batch) * nSx);
  // Input scales one per compute group, and reductions that are the
  // values to store (I32, one per reduction group, no input zero points),
  // in rows with no gaps: a block of rows is one array, copied in one go.
  bool sxBlock = xs.present() && xs.dense(nSx, c);
  bool rBlock = red.present() && !xz.present() && nRadj &&
                red.interp == COOPVEC_TYPE_I32 && red.dense(nRadj, rGroup);
  // Where each value lies within a row of its buffer, computed once: the
  // per-row loop below then only adds offsets (64x64 batches have as many
  // rows as multiply-adds per 64 outputs, so this loop is not negligible).
  auto offsets = [](const Values &v, uint32_t n, uint32_t step) {
    std::vector<uint64_t> at(n);
    for (uint32_t i = 0; i < n; ++i)
      at[i] = v.offset(i * step);
    return at;
  };
  std::vector<uint64_t> zxAt = offsets(xz, nZx, zxGroup),
                        rAt = offsets(red, red.present() && !rBlock ? nRadj : 0,
                                      rGroup),
                        sxAt = offsets(xs, sxBlock ? 0 : nSx, c);
  // The input zero points' sum over reduction group g, as runs of one
  // value: (offset, length) pairs from zRun[g] to zRun[g + 1].
  std::vector<std::pair<uint64_t, uint32_t>> zRuns;
  std::vector<uint32_t> zRun(1, 0);
  if (xz.present())
    for (uint32_t g = 0; g < nRadj; ++g) {
      uint32_t zGroup = sizeOf(xz);
      for (uint32_t i = g * rGroup, end = (g + 1) * rGroup; i < end;) {
        uint32_t next = std::min(end, (i / zGroup + 1) * zGroup);
        zRuns.emplace_back(xz.offset(i), next - i);
        i = next;
      }
      zRun.push_back(uint32_t(zRuns.size()));
    }
  constexpr uint32_t kPrepRows = 256;
  unsigned prepTasks = unsigned((batch + kPrepRows - 1) / kPrepRows);
  std::vector<int64_t> zxMax(prepTasks, 0), rMax(prepTasks, 0);
  auto prepare = [&](unsigned t) {
    uint32_t b0 = t * kPrepRows, b1 = std::min(batch, b0 + kPrepRows);
    // The task's maxima stay in registers and are stored once: the tasks'
    // slots share cache lines, and a store per value made the other thread's
    // task wait on them (the 64x64 batches spent more time here than in the
    // products).
    int64_t zxTop = 0, rTop = 0;
    if (sxBlock && xs.interp == COOPVEC_TYPE_F32)
      std::memcpy(sxv + size_t(b0) * nSx, xs.rowBase(b0),
                  size_t(b1 - b0) * nSx * 4);
    else if (sxBlock)
      coopvecDecodeBuffer(xs.floatFormat(), xs.rowBase(b0),
                          sxv + size_t(b0) * nSx, size_t(b1 - b0) * nSx);
    if (rBlock) {
      int32_t *dst = radj + size_t(b0) * nRadj;
      size_t n = size_t(b1 - b0) * nRadj;
      std::memcpy(dst, red.rowBase(b0), n * 4);
      for (size_t i = 0; i < n; ++i)
        rTop = std::max<int64_t>(rTop, std::abs(int64_t(dst[i])));
    }
    for (uint32_t b = b0; b < b1; ++b) {
      const uint8_t *row = x + uint64_t(b) * p->inputStride;
      if (flip)
        for (uint32_t i = 0; i < k; ++i)
          flipped[size_t(b) * k + i] = row[i] ^ 0x80;
      if (b < tileRows) {
        const uint8_t *src = flip ? &flipped[size_t(b) * k] : row;
        uint8_t *dst = &xTiles[size_t(b / 16) * 16 * k + (b % 16) * tileChunk];
        for (uint32_t i = 0; i < k; i += tileChunk)
          std::memcpy(dst + size_t(i) * 16, src + i, tileChunk);
      }
      const uint8_t *zxRow = xz.present() ? xz.rowBase(b) : nullptr;
      for (uint32_t s = 0; s < nZx; ++s) {
        int64_t z = xz.integerAt(zxRow + zxAt[s]);
        zxv[size_t(b) * subs + s] = int32_t(z);
        zxTop = std::max(zxTop, z < 0 ? -z : z);
      }
      const uint8_t *rRow = red.present() ? red.rowBase(b) : nullptr;
      for (uint32_t g = 0; g < (rBlock ? 0 : nRadj); ++g) {
        int64_t zsum = 0, r;
        if (xz.present())
          for (uint32_t i = zRun[g]; i < zRun[g + 1]; ++i)
            zsum += xz.integerAt(zxRow + zRuns[i].first) * zRuns[i].second;
        if (red.present()) {
          r = red.integerAt(rRow + rAt[g]);
          rTop = std::max(rTop, r < 0 ? -r : r);
        } else {
          r = sumBytes(row + g * rGroup, rGroup, xSigned);
        }
        radj[size_t(b) * rGroups + g] = int32_t(r - zsum);
      }
      for (uint32_t j = 0; j < nXsum; ++j)
        xsum[size_t(b) * plan.groups + j] =
            int32_t(sumBytes(row + j * c, c, xSigned));
      const uint8_t *sxRow = xs.present() ? xs.rowBase(b) : nullptr;
      for (uint32_t j = 0; j < (sxBlock ? 0 : nSx); ++j)
        sxv[size_t(b) * plan.groups + j] = xs.realAt(sxRow + sxAt[j]);
    }
    zxMax[t] = zxTop;
    rMax[t] = rTop;
  };
  parallelFor(prepTasks, std::min(threads, prepTasks), prepare);
  // Exactness in int32: the true value and, with reductions, every value
  // the given R can produce.
  int64_t xzMax = 0;
  for (unsigned t = 0; t < prepTasks; ++t)
    xzMax = std::max(xzMax, zxMax[t]);
  int64_t xMax = 255 + xzMax;
  int64_t wMax = 255 + maxAbs(wz, m, k);
  if (uint64_t(c) * uint64_t(xMax) * uint64_t(wMax) >= kInt32Limit / 2)
    return kNotTaken;
  if (red.present() &&
      *std::max_element(rMax.begin(), rMax.end()) > int64_t(rGroup) * 255)
    return kNotTaken;

  plan.x = flip ? flipped : x;
  plan.xStride = flip ? k : p->inputStride;
  plan.xTiles = tileRows ? xTiles : nullptr;
  plan.zx = xz.present() ? zxv : nullptr;
  plan.xsum = nXsum ? xsum : nullptr;
  plan.sx = xs.present() ? sxv : nullptr;

  std::vector<int32_t> zwT, biasI;
  std::vector<float> swT, biasF;
  uint64_t mPad = (uint64_t(m) + kQuantPanel - 1) / kQuantPanel * kQuantPanel;
  // Per output channel or per tensor: one row of m values serves every
  // group (step 0), else a row per reduction (compute) group.
  if (wz.present()) {
    bool perRow = sizeOf(wz) == k;
    uint32_t rows = perRow ? 1 : rGroups, per = sizeOf(wz) / rGroup;
    zwT.assign(size_t(rows) * mPad + 16, 0);
    for (uint32_t n = 0; n < m; ++n)
      for (uint32_t g = 0; g < rows; g += per) {
        int32_t z = int32_t(wz.integer(n, g * rGroup));
        for (uint32_t i = g; i < std::min(rows, g + per); ++i)
          zwT[size_t(i) * mPad + n] = z;
      }
    plan.zwT = zwT.data();
    plan.zwStep = perRow ? 0 : mPad;
    plan.radj = radj;
    plan.rGroup = rGroup;
  }
  if (ws.present()) {
    bool perRow = sizeOf(ws) == k;
    uint32_t rows = perRow ? 1 : plan.groups, per = sizeOf(ws) / c;
    swT.assign(size_t(rows) * mPad + 16, 0.0f);
    for (uint32_t n = 0; n < m; ++n)
      for (uint32_t j = 0; j < rows; j += per) {
        float scale = ws.real(n, j * c);
        for (uint32_t i = j; i < std::min(rows, j + per); ++i)
          swT[size_t(i) * mPad + n] = scale;
      }
    plan.swT = swT.data();
    plan.swStep = perRow ? 0 : mPad;
  }
  if (p->bias) {
    Values bias = Values::weights(p->bias, p->biasOffset, p->biasInterp, 1, 1);
    if (p->outputType == COOPVEC_TYPE_I32) {
      biasI.resize(m);
      for (uint32_t n = 0; n < m; ++n)
        biasI[n] = int32_t(bias.integer(n, 0));
      plan.biasI = biasI.data();
    } else {
      biasF.resize(m);
      for (uint32_t n = 0; n < m; ++n)
        biasF[n] = bias.real(n, 0);
      plan.biasF = biasF.data();
    }
  }
  plan.out = static_cast<uint8_t *>(p->output);
  plan.outStride = p->outputStride;
  plan.outType = p->outputType;

  unsigned panels = unsigned((m + kQuantPanel - 1) / kQuantPanel);
  // Few panels: split the batch too (each chunk packs its panel again,
  // k * 64 bytes against chunk * k * 64 multiply-adds).
  uint32_t chunks = 1;
  if (panels < 4 * threads)
    chunks = std::min<uint32_t>((4 * threads + panels - 1) / panels,
                                (batch + 63) / 64);
  chunks = std::max<uint32_t>(chunks, 1);
  uint32_t chunkRows = (batch + chunks - 1) / chunks;
  chunkRows = (chunkRows + kernel.rows - 1) / kernel.rows * kernel.rows;
  chunks = (batch + chunkRows - 1) / chunkRows;
  auto task = [&](unsigned t) {
    unsigned panel = t % panels, chunk = t / panels;
    uint32_t b0 = chunk * chunkRows, b1 = std::min(batch, b0 + chunkRows);
    if (!nibbles)
      return kernel.task(plan, panel, b0, b1);
    uint32_t n0 = panel * kQuantPanel;
    QuantPlan local = plan;
    local.w = unpackNibbles(plan, n0, std::min(kQuantPanel, m - n0),
                            p->matrixInterp == COOPVEC_TYPE_I4);
    local.wStride = k;
    local.wRow0 = n0;
    kernel.task(local, panel, b0, b1);
  };
  parallelFor(panels * chunks, threads, task);
  return COOPVEC_OK;
#endif
}

extern "C" int32_t coopvecKernelsQuantizedAmx(int32_t allow) {
  if (allow >= 0)
    amxAllowed.store(allow != 0, std::memory_order_relaxed);
  return panelKernel().rows == amx::kQuantAmxRows ? 1 : 0;
}
