//===- QuantizedTest.cpp - The quantized product's kernels vs the reference ==//
//
// Forces each x86-64 kernel level the CPU has (avx512: vpdpbusd, and AMX
// tiles where the CPU has AMX-INT8; avx2: i16 vpmaddwd, or vpmaddubsw for
// panels of small weights) and checks coopvecKernelsQuantizedMatMul against
// coopvecReferenceQuantizedMatMul byte for byte on random products: every
// signedness pair, 8-bit and 4-bit weights, weights within and just past the
// range where vpmaddubsw cannot saturate, K and panel tails, batch tails,
// batches past one block of the per-row pass (256 rows), per-tensor, per-row
// and grouped zero points and scales (input-side rows dense or with gaps),
// input zero points, reductions (exact and perturbed: the kernels must use the
// R they are given), bias, every output type, 1 and 2 threads, special weight
// scales (+-inf, NaN with payloads, finite beyond f16: a NaN result may differ
// in sign and f32 payload, F16 and BF16 ones must be canonical), and extreme
// operand values (255 x -128 and the like, the worst case of the pair sums).
// A level must take every case here (the parameters are all within the
// kernels' conditions): a kernel that fell back to the reference silently would
// not be tested. At the portable level the kernels must decline. The row
// quantization kernels (coopvecKernelsQuantizeRows) are checked the same way
// against coopvecReferenceQuantizeRows (checkQuantizeRows).
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include "LinAlgCoop/Runtime/Layout.h"
#include "LinAlgCoop/Runtime/Numerics.h"
#include "LinAlgCoop/Runtime/Quantized.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

using cvtest::Checker;

namespace {

std::mt19937 rng(20261124);

uint32_t pick(std::initializer_list<uint32_t> v) {
  return v.begin()[rng() % v.size()];
}

uint32_t bytesOf(uint32_t interp) {
  switch (interp) {
  case COOPVEC_TYPE_I8:
  case COOPVEC_TYPE_U8:
    return 1;
  case COOPVEC_TYPE_F16:
  case COOPVEC_TYPE_BF16:
    return 2;
  default:
    return 4;
  }
}

/// A positive scale near 1 in `interp` (F32, F16 or BF16), as stored bits.
uint32_t scaleBits(uint32_t interp) {
  float f = 0.25f + float(rng() % 1000) / 256.0f;
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  if (interp == COOPVEC_TYPE_BF16)
    return bits >> 16;
  if (interp == COOPVEC_TYPE_F16)
    return (uint32_t(13 + rng() % 5) << 10) | (rng() & 0x3ff);
  return bits;
}

/// A buffer of `count` values of `interp`: integers in [lo, hi] or scales.
std::vector<uint8_t> values(uint32_t interp, size_t count, int32_t lo,
                            int32_t hi, bool scale) {
  uint32_t es = bytesOf(interp);
  std::vector<uint8_t> v(count * es);
  for (size_t i = 0; i < count; ++i) {
    uint32_t bits = scale
                        ? scaleBits(interp)
                        : uint32_t(lo + int32_t(rng() % uint32_t(hi - lo + 1)));
    std::memcpy(&v[i * es], &bits, es);
  }
  return v;
}

/// A group size for K: 0 (per tensor), k (per row) or a multiple of 4
/// dividing k.
uint32_t group(uint32_t k, bool allowTensor) {
  std::vector<uint32_t> g;
  if (allowTensor)
    g.push_back(0);
  g.push_back(k);
  for (uint32_t d = 4; d < k; d += 4)
    if (k % d == 0)
      g.push_back(d);
  return g[rng() % g.size()];
}

struct Case {
  uint32_t batch, m, k, xI, wI, outT;
  bool wz, xz, ws, xs, red, perturb, bias;
  int extreme; // 0: random bytes, 1: x and w at opposite extremes, 2: equal
  /// 8-bit weights: 0 any byte, 1 within [-64, 64] (I8) or [0, 127] (U8).
  int small;
  /// Weight scales of F32 +-inf and NaN (with a payload) among finite
  /// ones, float results: the kernels' own f16 conversion must give inf
  /// (on overflow too) as the reference does and leave NaN to the library.
  bool special;
  /// Input-side rows (scales, zero points, reductions) with junk bytes
  /// after each: not one array, so no block copy may take them.
  bool gap;
  /// With `fill`: every weight is `wValue` (its byte), every input the
  /// largest-magnitude one of its type (U8 255, I8 127, or -128 against U8
  /// weights): the boundaries of vpmaddubsw's exact range.
  bool fill;
  int32_t wValue;
};

/// Whether the result at `p` of type `outT` is a NaN.
bool isNaN(uint32_t outT, const uint8_t *p) {
  uint32_t bits = 0;
  switch (outT) {
  case COOPVEC_TYPE_F32:
    std::memcpy(&bits, p, 4);
    return (bits & 0x7fffffff) > 0x7f800000;
  case COOPVEC_TYPE_F16:
    std::memcpy(&bits, p, 2);
    return (bits & 0x7fff) > 0x7c00;
  case COOPVEC_TYPE_BF16:
    std::memcpy(&bits, p, 2);
    return (bits & 0x7fff) > 0x7f80;
  default:
    return false;
  }
}

/// A NaN result as Quantized.h allows it where the reference has a NaN:
/// any sign, any f32 payload; F16 and BF16 in the canonical quiet form.
bool isCanonicalNaN(uint32_t outT, const uint8_t *p) {
  uint32_t bits = 0;
  switch (outT) {
  case COOPVEC_TYPE_F16:
    std::memcpy(&bits, p, 2);
    return (bits & 0x7fff) == 0x7e00;
  case COOPVEC_TYPE_BF16:
    std::memcpy(&bits, p, 2);
    return (bits & 0x7fff) == 0x7fc0;
  default:
    return isNaN(outT, p);
  }
}

bool isNibbles(uint32_t interp) {
  return interp == COOPVEC_TYPE_I4 || interp == COOPVEC_TYPE_U4;
}

void runCase(Checker &ck, const Case &c, const char *isa) {
  uint32_t k = c.k, m = c.m, batch = c.batch;
  // 4-bit weights: two to a byte, the even K in the low nibble.
  uint64_t xStride = k + 3, wStride = (isNibbles(c.wI) ? k / 2 : k) + 5;
  std::vector<uint8_t> x(batch * xStride), w(m * wStride);
  for (auto &b : x)
    b = uint8_t(rng());
  for (auto &b : w)
    b = c.small == 0              ? uint8_t(rng())
        : c.wI == COOPVEC_TYPE_U8 ? uint8_t(rng() % 128)
                                  : uint8_t(int32_t(rng() % 129) - 64);
  if (c.extreme) {
    // U8 255 / I8 -128 against U8 255 / I8 -128 (or 127): the largest
    // products and pair sums either kernel sees.
    uint8_t xv = c.xI == COOPVEC_TYPE_U8 ? 255 : 0x80;
    uint8_t wv = c.wI == COOPVEC_TYPE_U8   ? 255
                 : c.wI == COOPVEC_TYPE_U4 ? 0xff
                 : c.wI == COOPVEC_TYPE_I4 ? (c.extreme == 1 ? 0x88 : 0x77)
                 : c.extreme == 1          ? 0x80
                                           : 0x7f;
    std::fill(x.begin(), x.end(), xv);
    std::fill(w.begin(), w.end(), wv);
  }
  if (c.fill) {
    uint8_t xv = c.xI == COOPVEC_TYPE_U8   ? 255
                 : c.wI == COOPVEC_TYPE_U8 ? 0x80
                                           : 0x7f;
    std::fill(x.begin(), x.end(), xv);
    std::fill(w.begin(), w.end(), uint8_t(c.wValue));
  }
  CoopVecQuantMatMulParams p{};
  p.inputInterp = c.xI;
  p.matrixInterp = c.wI;
  p.input = x.data();
  p.inputStride = xStride;
  p.batch = batch;
  p.matrix = w.data();
  p.m = m;
  p.k = k;
  p.layout = COOPVEC_LAYOUT_ROW_MAJOR;
  p.matrixStride = uint32_t(wStride);
  p.outputType = c.outT;
  // Scales: the weights' and the inputs' groups nest (one divides the
  // other), the compute group is the finer.
  bool scaled = c.outT != COOPVEC_TYPE_I32 && (c.ws || c.xs);
  uint32_t sw = scaled && c.ws ? group(k, true) : 0;
  uint32_t sx = 0;
  if (scaled && c.xs) {
    uint32_t swSize = sw ? sw : k;
    do
      sx = group(k, true);
    while ((sx ? sx : k) % swSize != 0 && swSize % (sx ? sx : k) != 0);
  }
  uint32_t compute = std::min(sw ? sw : k, sx ? sx : k);
  std::vector<uint8_t> wsB, xsB, wzB, xzB, rB, biasB;
  if (scaled && c.ws) {
    p.weightScalesGroup = sw;
    size_t nScales = sw ? size_t(m) * (k / sw) : 1;
    if (!c.special) {
      p.weightScalesInterp =
          pick({COOPVEC_TYPE_F32, COOPVEC_TYPE_F16, COOPVEC_TYPE_BF16});
      wsB = values(p.weightScalesInterp, nScales, 0, 0, true);
    } else {
      // One scale in eight special, finite ones up to 2^40 (beyond f16's
      // range, so f16 results overflow to inf too).
      p.weightScalesInterp = COOPVEC_TYPE_F32;
      wsB = values(COOPVEC_TYPE_F32, nScales, 0, 0, true);
      for (size_t i = 0; i < wsB.size() / 4; ++i) {
        uint32_t bits;
        std::memcpy(&bits, &wsB[i * 4], 4);
        if (rng() % 8 == 0)
          bits = pick({0x7f800000u, 0xff800000u, 0x7fc12345u, 0xffa00001u});
        else
          bits += uint32_t(rng() % 40) << 23;
        std::memcpy(&wsB[i * 4], &bits, 4);
      }
    }
    p.weightScales = wsB.data();
  }
  if (scaled && c.xs) {
    p.inputScalesInterp =
        pick({COOPVEC_TYPE_F32, COOPVEC_TYPE_F16, COOPVEC_TYPE_BF16});
    p.inputScalesGroup = sx;
    size_t per = sx ? k / sx : 1;
    xsB = values(p.inputScalesInterp, batch * per, 0, 0, true);
    p.inputScales = xsB.data();
    p.inputScalesStride = sx ? per * bytesOf(p.inputScalesInterp) : 0;
  }
  uint32_t zwGroup = 0;
  if (c.wz || c.red) {
    // The reductions' group divides the zero points' and the compute group.
    zwGroup = group(k, true);
    p.weightZeroPointsInterp =
        pick({COOPVEC_TYPE_I8, COOPVEC_TYPE_U8, COOPVEC_TYPE_I32});
    p.weightZeroPointsGroup = zwGroup;
    int32_t lo = p.weightZeroPointsInterp == COOPVEC_TYPE_U8 ? 0 : -128;
    int32_t hi = p.weightZeroPointsInterp == COOPVEC_TYPE_I8 ? 127 : 255;
    wzB = values(p.weightZeroPointsInterp,
                 zwGroup ? size_t(m) * (k / zwGroup) : 1, lo, hi, false);
    p.weightZeroPoints = wzB.data();
  }
  if (c.xz) {
    uint32_t g = group(k, true);
    // The kernels need the input zero points' sub-groups (gcd with the
    // compute group) to be multiples of 4: groups are, so any choice is.
    p.inputZeroPointsInterp =
        pick({COOPVEC_TYPE_I8, COOPVEC_TYPE_U8, COOPVEC_TYPE_I32});
    p.inputZeroPointsGroup = g;
    size_t per = g ? k / g : 1;
    int32_t lo = p.inputZeroPointsInterp == COOPVEC_TYPE_U8 ? 0 : -128;
    int32_t hi = p.inputZeroPointsInterp == COOPVEC_TYPE_I8 ? 127 : 255;
    xzB = values(p.inputZeroPointsInterp, batch * per, lo, hi, false);
    p.inputZeroPoints = xzB.data();
    p.inputZeroPointsStride = g ? per * bytesOf(p.inputZeroPointsInterp) : 0;
  }
  if (c.red) {
    uint32_t zwSize = zwGroup ? zwGroup : k;
    std::vector<uint32_t> rs;
    for (uint32_t d = 4; d <= compute; d += 4)
      if (compute % d == 0 && zwSize % d == 0)
        rs.push_back(d);
    uint32_t r = rs[rng() % rs.size()];
    uint32_t per = k / r;
    p.reductionsInterp = COOPVEC_TYPE_I32;
    p.reductionsGroup = r;
    p.reductionsStride = per * 4;
    rB.resize(size_t(batch) * per * 4);
    for (uint32_t b = 0; b < batch; ++b)
      for (uint32_t g = 0; g < per; ++g) {
        int32_t s = 0;
        for (uint32_t i = g * r; i < (g + 1) * r; ++i) {
          uint8_t v = x[b * xStride + i];
          s += c.xI == COOPVEC_TYPE_I8 ? int32_t(int8_t(v)) : int32_t(v);
        }
        if (c.perturb)
          s += int32_t(rng() % 7) - 3;
        std::memcpy(&rB[(size_t(b) * per + g) * 4], &s, 4);
      }
    p.reductions = rB.data();
  }
  if (c.bias) {
    p.biasInterp =
        c.outT == COOPVEC_TYPE_I32
            ? COOPVEC_TYPE_I32
            : pick({COOPVEC_TYPE_F32, COOPVEC_TYPE_F16, COOPVEC_TYPE_BF16});
    biasB = p.biasInterp == COOPVEC_TYPE_I32
                ? values(p.biasInterp, m, -100000, 100000, false)
                : values(p.biasInterp, m, 0, 0, true);
    p.bias = biasB.data();
  }
  if (c.gap) {
    // 12 junk bytes after each row of grouped input-side values.
    auto gaps = [&](std::vector<uint8_t> &v, uint64_t &stride) {
      if (!stride)
        return;
      std::vector<uint8_t> out(batch * (stride + 12), 0xCD);
      for (uint32_t b = 0; b < batch; ++b)
        std::memcpy(&out[b * (stride + 12)], &v[b * stride], stride);
      v.swap(out);
      stride += 12;
    };
    gaps(xsB, p.inputScalesStride);
    p.inputScales = xsB.empty() ? nullptr : xsB.data();
    gaps(xzB, p.inputZeroPointsStride);
    p.inputZeroPoints = xzB.empty() ? nullptr : xzB.data();
    gaps(rB, p.reductionsStride);
    p.reductions = rB.empty() ? nullptr : rB.data();
  }
  uint32_t oes = bytesOf(c.outT);
  p.outputStride = uint64_t(m) * oes + 8;
  std::vector<uint8_t> want(batch * p.outputStride, 0xAB);
  p.output = want.data();
  int32_t refSt = coopvecReferenceQuantizedMatMul(&p);
  for (uint32_t threads : {1u, 2u}) {
    std::vector<uint8_t> got(want.size(), 0xAB);
    p.output = got.data();
    p.numThreads = threads;
    int32_t st = coopvecKernelsQuantizedMatMul(&p);
    bool same = true;
    for (uint32_t b = 0; b < batch && same; ++b)
      for (uint32_t n = 0; n < m && same; ++n) {
        size_t at = b * p.outputStride + size_t(n) * oes;
        same = std::memcmp(&got[at], &want[at], oes) == 0 ||
               (isNaN(c.outT, &want[at]) && isCanonicalNaN(c.outT, &got[at]));
      }
    ck.check(refSt == COOPVEC_OK && st == COOPVEC_OK && same,
             "%s batch=%u m=%u k=%u x=%u w=%u out=%u wz=%d/%u xz=%d/%u "
             "ws=%u xs=%u red=%d/%u perturb=%d bias=%d extreme=%d small=%d "
             "fill=%d/%d special=%d gap=%d threads=%u: ref %d kernel %d, %s",
             isa, batch, m, k, c.xI, c.wI, c.outT, int(c.wz || c.red),
             p.weightZeroPointsGroup, int(c.xz), p.inputZeroPointsGroup,
             p.weightScalesGroup, p.inputScalesGroup, int(c.red),
             p.reductionsGroup, int(c.perturb), int(c.bias), c.extreme, c.small,
             int(c.fill), c.wValue, int(c.special), int(c.gap), threads, refSt,
             st, same ? "equal" : "different");
  }
}

Case randomCase() {
  Case c{};
  c.batch = pick({1, 2, 3, 4, 5, 7, 8, 9, 12, 15, 16, 17, 31, 33, 70});
  c.m = pick({1, 7, 16, 63, 64, 65, 130, 200});
  c.k = pick({4, 8, 12, 16, 20, 36, 60, 64, 68, 128, 132, 192, 256, 516});
  c.xI = pick({COOPVEC_TYPE_I8, COOPVEC_TYPE_U8});
  c.wI = pick(
      {COOPVEC_TYPE_I8, COOPVEC_TYPE_U8, COOPVEC_TYPE_I4, COOPVEC_TYPE_U4});
  c.small = !isNibbles(c.wI) && rng() % 3 == 0;
  c.outT = pick({COOPVEC_TYPE_F32, COOPVEC_TYPE_F16, COOPVEC_TYPE_BF16,
                 COOPVEC_TYPE_I32});
  c.wz = rng() % 2;
  c.xz = rng() % 3 == 0;
  c.ws = rng() % 2;
  c.xs = rng() % 2;
  c.red = rng() % 2;
  c.perturb = c.red && rng() % 2;
  c.bias = rng() % 2;
  return c;
}

/// Reductions no input can give (|R| > 255 per element of their group)
/// would overflow the kernels' int32 sums: the kernels must decline them,
/// whether the reductions are copied by rows (I32, no input zero points) or
/// value by value (with input zero points), in any row of the batch.
void checkDeclines(Checker &ck, const char *isa) {
  const uint32_t batch = 600, m = 64, k = 64, g = 32;
  std::vector<uint8_t> x(batch * k, 1), w(m * k, 1), zw(1, 3), zx(1, 2);
  std::vector<int32_t> red(batch * (k / g), g);
  std::vector<float> out(batch * m);
  for (bool inputZeroPoints : {false, true})
    for (uint32_t row : {0u, batch - 1}) {
      red[row * (k / g) + 1] = int32_t(g * 255 + 1);
      CoopVecQuantMatMulParams p{};
      p.inputInterp = COOPVEC_TYPE_U8;
      p.matrixInterp = COOPVEC_TYPE_I8;
      p.input = x.data();
      p.inputStride = k;
      p.batch = batch;
      p.matrix = w.data();
      p.m = m;
      p.k = k;
      p.layout = COOPVEC_LAYOUT_ROW_MAJOR;
      p.matrixStride = k;
      p.outputType = COOPVEC_TYPE_F32;
      p.output = out.data();
      p.outputStride = m * 4;
      p.weightZeroPoints = zw.data();
      p.weightZeroPointsInterp = COOPVEC_TYPE_U8;
      p.reductions = red.data();
      p.reductionsInterp = COOPVEC_TYPE_I32;
      p.reductionsGroup = g;
      p.reductionsStride = (k / g) * 4;
      if (inputZeroPoints) {
        p.inputZeroPoints = zx.data();
        p.inputZeroPointsInterp = COOPVEC_TYPE_U8;
      }
      // The same product with that row's reductions in range is taken.
      red[row * (k / g) + 1] = int32_t(g);
      int32_t ok = coopvecKernelsQuantizedMatMul(&p);
      ck.check(ok == COOPVEC_OK,
               "%s: in-range reductions (input zero points %d) declined (%d)",
               isa, int(inputZeroPoints), ok);
      red[row * (k / g) + 1] = int32_t(g * 255 + 1);
      int32_t st = coopvecKernelsQuantizedMatMul(&p);
      ck.check(st == COOPVEC_ERROR_UNSUPPORTED_TYPE,
               "%s: reductions out of range in row %u (input zero points "
               "%d) were taken (%d)",
               isa, row, int(inputZeroPoints), st);
      red[row * (k / g) + 1] = int32_t(g);
    }
}

struct Level {
  const char *isa, *name;
  bool amx; ///< The avx512 level on AMX tiles (else vpdpbusd).
};

} // namespace

/// Row quantization (coopvecKernelsQuantizeRows) against the reference,
/// byte for byte on every output (codes, scales, zero points, reductions,
/// and the padding between rows left alone), on rows drawn to reach the
/// corners: NaN and +-inf values, all-NaN and all-zero groups, subnormal and
/// huge values (scales that overflow or underflow their format), groups of 1
/// to 67 values (lane tails), F32 and F16 inputs, I8 and U8 codes, F32, F16
/// and BF16 scales, 1 and 2 threads, batches past one block of rows, rows of
/// over a million groups. At the avx512 and avx2 levels the kernel must take
/// every case; at the portable level, decline.
void checkQuantizeRows(Checker &ck, const char *isa, bool takes) {
  std::mt19937 local(7);
  auto draw = [&](uint32_t n) { return uint32_t(local() % n); };
  for (int iter = 0; iter <= 300; ++iter) {
    CoopVecQuantizeRowsParams p{};
    uint32_t group =
        std::initializer_list<uint32_t>{1, 3, 4, 15, 16, 17, 31, 32, 33, 64, 67}
            .begin()[draw(11)];
    uint32_t groups = 1 + draw(4);
    uint32_t batch = iter % 10 == 0 ? 100 + draw(200) : 1 + draw(20);
    if (iter == 300) {
      // Rows of more groups than the kernel's scratch keeps between blocks
      // (QuantizeRowsScratch::trim): freed and grown again per row.
      group = 1;
      groups = (1u << 20) + 17;
      batch = 2;
    }
    uint32_t n = group * groups;
    bool f16 = draw(2), asym = draw(2), red = draw(4) != 0;
    p.inputType = f16 ? COOPVEC_TYPE_F16 : COOPVEC_TYPE_F32;
    p.outputInterp = asym ? COOPVEC_TYPE_U8 : COOPVEC_TYPE_I8;
    p.scaleType =
        std::initializer_list<uint32_t>{COOPVEC_TYPE_F32, COOPVEC_TYPE_F16,
                                        COOPVEC_TYPE_BF16}
            .begin()[draw(3)];
    unsigned inBytes = f16 ? 2 : 4,
             sBytes = p.scaleType == COOPVEC_TYPE_F32 ? 4 : 2;
    p.batch = batch;
    p.n = n;
    p.group = group;
    p.inputStride = uint64_t(n + draw(3)) * inBytes;
    p.outputStride = n + draw(5);
    p.scalesStride = uint64_t(groups + draw(2)) * sBytes;
    p.zeroPointsStride = uint64_t(groups + draw(2)) * 4;
    p.reductionsStride = uint64_t(groups + draw(2)) * 4;
    p.numThreads = 1 + draw(2);
    std::vector<uint8_t> in(batch * p.inputStride);
    for (uint32_t b = 0; b < batch; ++b) {
      // Each row has its own magnitude: 2^-140 (subnormal f32 scales) to
      // 2^127 (scales past f16 and, for U8's hi - lo, past f32).
      int mag = int(draw(10)) == 0 ? -140 : int(draw(40)) - 20;
      if (draw(12) == 0)
        mag = 127;
      for (uint32_t i = 0; i < n; ++i) {
        float v = std::ldexp(std::normal_distribution<float>(0, 1)(local),
                             f16 ? std::clamp(mag, -24, 14) : mag);
        uint32_t kind = draw(64);
        if (kind == 0)
          v = NAN;
        else if (kind == 1)
          v = draw(2) ? INFINITY : -INFINITY;
        else if (kind == 2)
          v = draw(2) ? 0.0f : -0.0f;
        if (b % 7 == 3) // a row of one value: zero range
          v = b % 2 ? 1.5f : 0.0f;
        if (b % 11 == 5 && i < group) // a first group all NaN
          v = NAN;
        uint8_t *at = &in[b * p.inputStride + uint64_t(i) * inBytes];
        if (f16) {
          uint16_t h = uint16_t(
              coopvecConvertF32(COOPVEC_FMT_F16, v, COOPVEC_RND_RN, 0, 0));
          std::memcpy(at, &h, 2);
        } else {
          std::memcpy(at, &v, 4);
        }
      }
    }
    p.input = in.data();
    struct Out {
      std::vector<uint8_t> q, s, z, r;
    } want, got;
    for (Out *o : {&want, &got}) {
      o->q.assign(batch * p.outputStride, 0xa5);
      o->s.assign(batch * p.scalesStride, 0xa5);
      o->z.assign(batch * p.zeroPointsStride, 0xa5);
      o->r.assign(batch * p.reductionsStride, 0xa5);
    }
    auto point = [&](CoopVecQuantizeRowsParams &q, Out &o) {
      q.output = o.q.data();
      q.scales = o.s.data();
      q.zeroPoints = asym ? o.z.data() : nullptr;
      q.reductions = red ? o.r.data() : nullptr;
    };
    CoopVecQuantizeRowsParams pw = p, pg = p;
    point(pw, want);
    point(pg, got);
    int32_t refSt = coopvecReferenceQuantizeRows(&pw);
    int32_t st = coopvecKernelsQuantizeRows(&pg);
    char what[160];
    std::snprintf(what, sizeof what,
                  "%s: quantize_rows %u x %u (group %u) %s->%s scales %u "
                  "red=%d threads=%u",
                  isa, batch, n, group, f16 ? "f16" : "f32", asym ? "u8" : "i8",
                  p.scaleType, int(red), p.numThreads);
    ck.check(refSt == COOPVEC_OK, "%s: reference status %d", what, refSt);
    if (!takes) {
      ck.check(st == COOPVEC_ERROR_UNSUPPORTED_TYPE &&
                   got.q == std::vector<uint8_t>(got.q.size(), 0xa5),
               "%s: took it (%d)", what, st);
      continue;
    }
    ck.check(st == COOPVEC_OK, "%s: status %d", what, st);
    ck.check(got.q == want.q, "%s: codes differ", what);
    ck.check(got.s == want.s, "%s: scales differ", what);
    ck.check(got.z == want.z, "%s: zero points differ", what);
    ck.check(got.r == want.r, "%s: reductions differ", what);
  }
  // The checks come first: bad parameters are the reference's errors.
  CoopVecQuantizeRowsParams bad{};
  std::vector<uint8_t> buf(64);
  bad.input = bad.output = bad.scales = buf.data();
  bad.inputType = COOPVEC_TYPE_F32;
  bad.outputInterp = COOPVEC_TYPE_I8;
  bad.scaleType = COOPVEC_TYPE_F32;
  bad.batch = 1;
  bad.n = 6;
  bad.group = 4;
  int32_t st = coopvecKernelsQuantizeRows(&bad);
  ck.check(st == (takes ? COOPVEC_ERROR_INVALID_DIMENSIONS
                        : COOPVEC_ERROR_UNSUPPORTED_TYPE),
           "%s: quantize_rows with n %% group != 0: %d", isa, st);
}

int main() {
  Checker ck;
  std::vector<Level> levels;
  for (const char *isa : {"avx2", "avx512"})
    if (coopvecKernelsForceIsa(isa) == COOPVEC_OK) {
      bool avx512 = std::strcmp(isa, "avx512") == 0;
      levels.push_back({isa, avx512 ? "avx512-vnni" : isa, false});
      // Where the CPU has AMX-INT8 (and the OS grants the tile data), the
      // avx512 level runs on tiles unless told not to: both are checked.
      if (avx512 && coopvecKernelsQuantizedAmx(-1) == 1)
        levels.push_back({isa, "avx512-amx", true});
    }
  std::string line;
  for (const Level &l : levels)
    line += std::string(" ") + l.name;
  std::printf("quant isas:%s\n", line.c_str());

  // The same cases on every level: draw them once.
  std::vector<Case> cases;
  for (uint32_t xI : {COOPVEC_TYPE_I8, COOPVEC_TYPE_U8})
    for (uint32_t wI :
         {COOPVEC_TYPE_I8, COOPVEC_TYPE_U8, COOPVEC_TYPE_I4, COOPVEC_TYPE_U4})
      for (int extreme : {1, 2})
        for (bool zps : {false, true})
          for (uint32_t batch : {5u, 27u}) {
            Case c{};
            c.batch = batch;
            c.m = 70;
            c.k = 1024;
            c.xI = xI;
            c.wI = wI;
            c.outT = COOPVEC_TYPE_I32;
            c.wz = c.xz = zps;
            c.extreme = extreme;
            cases.push_back(c);
          }
  // Weights at the edges of vpmaddubsw's exact range, each inside (the AVX2
  // kernel's vpmaddubsw form) and just outside (vpmaddwd), against the
  // largest inputs: a wrong choice saturates the pair sums. I8 weights meet
  // U8 inputs (and I8 ones, flipped to U8); U8 weights meet I8 inputs as
  // vpmaddubsw's unsigned side, and U8 inputs flipped by 128.
  struct Edge {
    uint32_t xI, wI;
    int32_t wValue;
  };
  for (Edge e :
       std::initializer_list<Edge>{{COOPVEC_TYPE_U8, COOPVEC_TYPE_I8, 64},
                                   {COOPVEC_TYPE_U8, COOPVEC_TYPE_I8, -64},
                                   {COOPVEC_TYPE_U8, COOPVEC_TYPE_I8, 65},
                                   {COOPVEC_TYPE_U8, COOPVEC_TYPE_I8, -65},
                                   {COOPVEC_TYPE_I8, COOPVEC_TYPE_I8, 64},
                                   {COOPVEC_TYPE_I8, COOPVEC_TYPE_I8, 65},
                                   {COOPVEC_TYPE_I8, COOPVEC_TYPE_U8, 127},
                                   {COOPVEC_TYPE_I8, COOPVEC_TYPE_U8, 128},
                                   {COOPVEC_TYPE_I8, COOPVEC_TYPE_U8, 129},
                                   {COOPVEC_TYPE_U8, COOPVEC_TYPE_U8, 64},
                                   {COOPVEC_TYPE_U8, COOPVEC_TYPE_U8, 63},
                                   {COOPVEC_TYPE_U8, COOPVEC_TYPE_U8, 192},
                                   {COOPVEC_TYPE_U8, COOPVEC_TYPE_U8, 193}})
    for (bool zps : {false, true}) {
      Case c{};
      c.batch = 7;
      c.m = 70;
      c.k = 1024;
      c.xI = e.xI;
      c.wI = e.wI;
      c.outT = COOPVEC_TYPE_I32;
      c.wz = c.xz = zps;
      c.fill = true;
      c.wValue = e.wValue;
      cases.push_back(c);
    }
  for (int i = 0; i < 400; ++i)
    cases.push_back(randomCase());
  // Tasks of 64 rows or more: AMX runs four row tiles per group (one task
  // per panel at 1 thread with 4 panels, at 2 threads with 8).
  for (int i = 0; i < 24; ++i) {
    Case c = randomCase();
    c.batch = pick({64, 80, 100});
    c.m = pick({256, 456});
    c.k = pick({36, 64, 128, 192});
    cases.push_back(c);
  }
  // More than one block of rows of the per-row pass (256), with rows of
  // input-side values dense or with gaps.
  for (int i = 0; i < 12; ++i) {
    Case c = randomCase();
    c.batch = pick({257, 300, 600});
    c.m = pick({16, 64, 70});
    c.k = pick({32, 64, 128});
    c.gap = i % 2;
    cases.push_back(c);
  }
  for (int i = 0; i < 30; ++i) {
    Case c = randomCase();
    c.gap = true;
    cases.push_back(c);
  }
  // Special weight scales (inf, NaN, beyond f16), float results.
  for (int i = 0; i < 40; ++i) {
    Case c = randomCase();
    c.outT = pick({COOPVEC_TYPE_F32, COOPVEC_TYPE_F16, COOPVEC_TYPE_F16,
                   COOPVEC_TYPE_BF16});
    c.ws = c.special = true;
    cases.push_back(c);
  }
  for (const Level &l : levels) {
    coopvecKernelsForceIsa(l.isa);
    coopvecKernelsQuantizedAmx(l.amx ? 1 : 0);
    ck.check(coopvecKernelsQuantizedAmx(-1) == int32_t(l.amx),
             "%s: the tiles are %s", l.name, l.amx ? "off" : "on");
    for (const Case &c : cases)
      runCase(ck, c, l.name);
    checkDeclines(ck, l.name);
    if (!l.amx)
      checkQuantizeRows(ck, l.isa, true);
  }
  coopvecKernelsQuantizedAmx(1);

  // The portable level leaves the product to the reference.
  coopvecKernelsForceIsa("portable");
  std::vector<uint8_t> x(64, 1), w(64 * 64, 1), out(64 * 4);
  CoopVecQuantMatMulParams p{};
  p.inputInterp = COOPVEC_TYPE_U8;
  p.matrixInterp = COOPVEC_TYPE_I8;
  p.input = x.data();
  p.inputStride = 64;
  p.batch = 1;
  p.matrix = w.data();
  p.m = 64;
  p.k = 64;
  p.matrixStride = 64;
  p.outputType = COOPVEC_TYPE_I32;
  p.output = out.data();
  p.outputStride = 256;
  int32_t st = coopvecKernelsQuantizedMatMul(&p);
  ck.check(st == COOPVEC_ERROR_UNSUPPORTED_TYPE,
           "portable: the kernels took the product (%d)", st);
  checkQuantizeRows(ck, "portable", false);
  coopvecKernelsForceIsa(nullptr);
  return ck.finish("quantized");
}
