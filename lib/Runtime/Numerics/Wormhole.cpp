//===- Wormhole.cpp - Tenstorrent Wormhole math-fidelity functional model -===//
//
// The matrix unit's fidelity phases, Dst rounding after every MVMUL/ELWMUL,
// the matmul loop order and the packer (format conversion, L1
// accumulation), as Numerics.h specifies. Sums are exact (a fixed-point
// window covering every product and Dst value the hardware can hold) and
// rounded once per Dst or L1 write.
//
//===----------------------------------------------------------------------===//

#include "NumericsInternal.h"

using namespace coopvec::numerics;

namespace {

/// Exact sum of signed dyadic terms. Bit 0 weighs 2^kLsbExp; the smallest
/// term is a lo x lo slice product of two minimum normals (2^-271), the
/// largest 17 x 2^258 (operands read with exponent 255 are < 2^129), so 640
/// two's-complement bits hold every sum the model forms.
class ExactSum {
public:
  static constexpr int kWords = 10;
  static constexpr int kLsbExp = -300;

  /// Adds (-1)^neg * mag * 2^exp; mag < 2^40 and exp >= kLsbExp.
  void add(bool neg, uint64_t mag, int exp) {
    if (mag == 0)
      return;
    unsigned shift = unsigned(exp - kLsbExp);
    unsigned word = shift / 64, bit = shift % 64;
    uint64_t lo = mag << bit, hi = bit ? mag >> (64 - bit) : 0;
    if (neg) {
      subAt(word, lo);
      if (hi)
        subAt(word + 1, hi);
    } else {
      addAt(word, lo);
      if (hi)
        addAt(word + 1, hi);
    }
  }

  /// The sum as sign, at most 64 significant bits and exponent, the bits
  /// below the 63 leading ones folded into a sticky LSB (enough for any
  /// rounding to 24 bits or fewer).
  Unpacked toUnpacked() const {
    uint64_t m[kWords];
    bool neg = (w[kWords - 1] >> 63) != 0;
    for (int i = 0; i < kWords; ++i)
      m[i] = neg ? ~w[i] : w[i];
    if (neg) {
      uint64_t carry = 1;
      for (int i = 0; i < kWords && carry; ++i) {
        m[i] += 1;
        carry = m[i] == 0;
      }
    }
    int top = kWords - 1;
    while (top >= 0 && m[top] == 0)
      --top;
    if (top < 0)
      return Unpacked{false, 0, 0};
    int h = 64 * top + (63 - __builtin_clzll(m[top])); // highest set bit
    if (h < 63)
      return Unpacked{neg, m[0], kLsbExp};
    // Bits [h, h-62]: everything above h is zero, so the 64 bits from
    // h-62 up are exactly them.
    int low = h - 62, lw = low / 64, off = low % 64;
    uint64_t mag = m[lw] >> off;
    if (off && lw + 1 < kWords)
      mag |= m[lw + 1] << (64 - off);
    bool sticky = off && (m[lw] & ((uint64_t(1) << off) - 1)) != 0;
    for (int i = 0; i < lw && !sticky; ++i)
      sticky = m[i] != 0;
    return Unpacked{neg, (mag << 1) | uint64_t(sticky), low - 1 + kLsbExp};
  }

private:
  void addAt(unsigned i, uint64_t v) {
    uint64_t old = w[i];
    w[i] = old + v;
    bool carry = w[i] < old;
    while (carry && ++i < kWords)
      carry = ++w[i] == 0;
  }
  void subAt(unsigned i, uint64_t v) {
    uint64_t old = w[i];
    w[i] = old - v;
    bool borrow = old < v;
    while (borrow && ++i < kWords)
      borrow = w[i]-- == 0;
  }

  uint64_t w[kWords] = {}; // two's complement, modulo 2^640
};

/// A Src-register or Dst/L1 datum read by the Tensix datapath: exponent 0
/// is zero (denormals flushed), exponent 255 an ordinary binade.
struct Operand {
  bool neg;
  uint32_t sig; ///< 24-bit significand with the implicit one; 0 for zero
  int exp;      ///< the value is sig * 2^exp
};

Operand readDatum(uint32_t u) {
  uint32_t e = (u >> 23) & 0xFF;
  if (e == 0)
    return Operand{false, 0, 0};
  return Operand{(u >> 31) != 0, (u & 0x7FFFFF) | 0x800000u, int(e) - 150};
}

void addDatum(ExactSum &sum, uint32_t bits) {
  Operand o = readDatum(bits);
  sum.add(o.neg, o.sig, o.exp);
}

/// Rounds `sum` to `format` (F32 or BF16) the way the FPU writes Dst and the
/// packer writes L1: to nearest, ties away from zero, at the format's
/// precision with an unbounded exponent; then +0 for a result below 2^-126
/// (no denormals) and for zero, and the all-ones-exponent, zero-mantissa
/// pattern for a result of 2^128 or more. Returns f32 bits.
uint32_t writeDatum(const ExactSum &sum, unsigned format) {
  Unpacked v = sum.toUnpacked();
  if (v.mag == 0)
    return 0;
  // Below the normal range, round as if the exponent were unbounded: move
  // the value up 64 binades, round, and move the result back.
  int lift = 63 - __builtin_clzll(v.mag) + v.exp < -126 ? 64 : 0;
  v.exp += lift;
  const FloatFormat &fmt = *getFloatFormat(format);
  uint32_t enc = roundToFormat(fmt, v, COOPVEC_RND_RNA, 0, 0);
  uint32_t bits = format == COOPVEC_FMT_BF16 ? enc << 16 : enc;
  int biased = int((bits >> 23) & 0xFF) - lift;
  if (biased < 1)
    return 0;
  return (bits & 0x807FFFFFu) | (uint32_t(biased) << 23);
}

/// The significand slices a Src datum feeds to the multipliers.
struct Slices {
  bool neg;
  uint32_t hi, lo; ///< hi * 2^hiExp, lo * 2^loExp
  int hiExp, loExp;
};

/// SrcA: 1 + 4 mantissa bits, then the next 5 (the TF32 LSB is dropped).
Slices sliceSrcA(Operand o) {
  if (!o.sig)
    return Slices{false, 0, 0, 0, 0};
  return Slices{o.neg, o.sig >> 19, (o.sig >> 14) & 0x1F, o.exp + 19,
                o.exp + 14};
}

/// SrcB: 1 + 6 mantissa bits, then the remaining 4 TF32 bits.
Slices sliceSrcB(Operand o) {
  if (!o.sig)
    return Slices{false, 0, 0, 0, 0};
  return Slices{o.neg, o.sig >> 17, (o.sig >> 13) & 0xF, o.exp + 17,
                o.exp + 13};
}

/// Adds the phase-`phase` partial product of SrcA slices `a` and SrcB
/// slices `b` to `sum`.
void addPhaseProduct(ExactSum &sum, const Slices &a, const Slices &b,
                     unsigned phase) {
  uint64_t am = (phase & 1) ? a.lo : a.hi, bm = (phase & 2) ? b.lo : b.hi;
  int ae = (phase & 1) ? a.loExp : a.hiExp,
      be = (phase & 2) ? b.loExp : b.hiExp;
  sum.add(a.neg != b.neg, am * bm, ae + be);
}

uint32_t unpackBits(float x, unsigned srcFormat) {
  uint32_t u = floatBits(x);
  if (((u >> 23) & 0xFF) == 0)
    return u & 0x80000000u;
  return u & (srcFormat == COOPVEC_FMT_BF16 ? 0xFFFF0000u : 0xFFFFE000u);
}

/// The packer: a Dst datum (f32 bits) to the L1 format, then L1
/// accumulation onto `l1` when `acc` is set. Returns the L1 value's bits.
uint32_t pack(const CoopVecWormholeConfig &cfg, uint32_t dst, uint32_t l1,
              bool acc) {
  uint32_t datum = dst;
  if (cfg.packFormat == COOPVEC_FMT_BF16 && cfg.dstFormat == COOPVEC_FMT_F32) {
    // Early format conversion with rounding: exact sum of one datum.
    ExactSum s;
    addDatum(s, dst);
    datum = ((dst >> 23) & 0xFF) == 0xFF ? dst & 0xFF800000u
                                         : writeDatum(s, COOPVEC_FMT_BF16);
  }
  if (!acc)
    return datum;
  ExactSum s;
  addDatum(s, l1);
  addDatum(s, datum);
  return writeDatum(s, cfg.packFormat);
}

bool validConfig(const CoopVecWormholeConfig *cfg) {
  if (!cfg || cfg->fidelity > COOPVEC_FIDELITY_HIFI4)
    return false;
  if (cfg->srcFormat != COOPVEC_FMT_BF16 && cfg->srcFormat != COOPVEC_FMT_TF32)
    return false;
  auto f32OrBf16 = [](unsigned f) {
    return f == COOPVEC_FMT_F32 || f == COOPVEC_FMT_BF16;
  };
  return f32OrBf16(cfg->dstFormat) && f32OrBf16(cfg->packFormat);
}

/// One Dst element after the K range [k0, k1), from `dst` (f32 bits of a
/// Dst-format value): for each 32-wide K tile and each fidelity phase, one
/// MVMUL per 16-wide K half adds the exact sum of its slice products and
/// rounds Dst to its format (tt-llk's loop order). `srcA(kk)` and
/// `srcB(kk)` are the L1 values that reach SrcA and SrcB for K index kk.
template <class SrcA, class SrcB>
uint32_t dstLoop(const CoopVecWormholeConfig &cfg, uint32_t dst, size_t k0,
                 size_t k1, SrcA srcA, SrcB srcB) {
  for (size_t t = k0; t < k1; t += 32) {
    size_t width = t + 32 < k1 ? 32 : k1 - t;
    Slices sa[32], sb[32];
    for (size_t kk = 0; kk < width; ++kk) {
      sa[kk] = sliceSrcA(readDatum(unpackBits(srcA(t + kk), cfg.srcFormat)));
      sb[kk] = sliceSrcB(readDatum(unpackBits(srcB(t + kk), cfg.srcFormat)));
    }
    for (unsigned phase = 0; phase <= cfg.fidelity; ++phase) {
      for (size_t h = 0; h < width; h += 16) { // one MVMUL per K half
        ExactSum sum;
        addDatum(sum, dst);
        size_t hEnd = h + 16 < width ? h + 16 : width;
        for (size_t kk = h; kk < hEnd; ++kk)
          addPhaseProduct(sum, sa[kk], sb[kk], phase);
        dst = writeDatum(sum, cfg.dstFormat);
      }
    }
  }
  return dst;
}

} // namespace

extern "C" {

int coopvecWormholeCheckConfig(const CoopVecWormholeConfig *cfg) {
  return validConfig(cfg) ? COOPVEC_WH_OK : COOPVEC_WH_INVALID_CONFIG;
}

float coopvecWormholeUnpack(float x, unsigned srcFormat) {
  return bitsFloat(unpackBits(x, srcFormat));
}

float coopvecWormholeBfpToFloat(uint8_t datum, uint8_t sharedExp,
                                unsigned bits) {
  if (bits != 8 && bits != 4 && bits != 2)
    return bitsFloat(0x7FC00000u);
  // BFP4 and BFP2 are decoded as BFP8 with the datum moved to the top.
  uint8_t d = uint8_t(datum << (8 - bits));
  uint32_t sign = d >> 7;
  uint8_t mag = uint8_t(d << 1);
  if (mag == 0)
    return bitsFloat(sign ? 0xFF800000u : 0u);
  unsigned lz = unsigned(__builtin_clz(mag)) - 24;
  mag = uint8_t(mag << lz);
  uint8_t exp = uint8_t(sharedExp - lz); // wraps as the hardware's u8 does
  uint32_t bf16 = (sign << 15) | (uint32_t(exp) << 7) | (mag & 0x7E);
  return bitsFloat(bf16 << 16);
}

int coopvecWormholeMatmul(const CoopVecWormholeConfig *cfg, const float *a,
                          const float *b, float *c, size_t m, size_t n,
                          size_t k, size_t kBlock) {
  if (!validConfig(cfg))
    return COOPVEC_WH_INVALID_CONFIG;
  if (kBlock == 0 || kBlock > k)
    kBlock = k;
  if (kBlock % 32 && kBlock != k)
    return COOPVEC_WH_INVALID_BLOCK;
  if (kBlock < k && !cfg->l1Acc)
    return COOPVEC_WH_INVALID_BLOCK;
  const size_t blocks = k ? (k + kBlock - 1) / kBlock : 1;
  for (size_t i = 0; i < m; ++i) {
    for (size_t j = 0; j < n; ++j) {
      uint32_t out = floatBits(c[i * n + j]);
      for (size_t blk = 0; blk < blocks; ++blk) {
        size_t k0 = blk * kBlock, k1 = k0 + kBlock < k ? k0 + kBlock : k;
        // ZEROACC before the block's first tile; in1 feeds SrcA, in0 SrcB.
        uint32_t dst = dstLoop(
            *cfg, 0, k0, k1, [&](size_t kk) { return b[kk * n + j]; },
            [&](size_t kk) { return a[i * k + kk]; });
        out = pack(*cfg, dst, out, cfg->l1Acc != 0);
      }
      c[i * n + j] = bitsFloat(out);
    }
  }
  return COOPVEC_WH_OK;
}

int coopvecWormholeTileMma(const CoopVecWormholeConfig *cfg, const float *srcA,
                           const float *srcB, float *dst, size_t m, size_t n,
                           size_t k) {
  if (!validConfig(cfg))
    return COOPVEC_WH_INVALID_CONFIG;
  if (k % 32)
    return COOPVEC_WH_INVALID_BLOCK;
  for (size_t i = 0; i < m; ++i)
    for (size_t j = 0; j < n; ++j) {
      // The live Dst value as the FPU holds it: rounded to the Dst format.
      ExactSum start;
      addDatum(start, floatBits(dst[i * n + j]));
      uint32_t d = dstLoop(
          *cfg, writeDatum(start, cfg->dstFormat), 0, k,
          [&](size_t kk) { return srcA[i * k + kk]; },
          [&](size_t kk) { return srcB[kk * n + j]; });
      dst[i * n + j] = bitsFloat(d);
    }
  return COOPVEC_WH_OK;
}

int coopvecWormholePack(const CoopVecWormholeConfig *cfg, const float *dst,
                        float *l1, size_t n) {
  if (!validConfig(cfg))
    return COOPVEC_WH_INVALID_CONFIG;
  for (size_t i = 0; i < n; ++i) {
    // The value as Dst holds it, then the packer.
    ExactSum held;
    addDatum(held, floatBits(dst[i]));
    l1[i] = bitsFloat(pack(*cfg, writeDatum(held, cfg->dstFormat),
                           floatBits(l1[i]), cfg->l1Acc != 0));
  }
  return COOPVEC_WH_OK;
}

int coopvecWormholeEltwiseMul(const CoopVecWormholeConfig *cfg, const float *a,
                              const float *b, float *c, size_t n) {
  if (!validConfig(cfg))
    return COOPVEC_WH_INVALID_CONFIG;
  for (size_t i = 0; i < n; ++i) {
    Slices sa = sliceSrcA(readDatum(unpackBits(a[i], cfg->srcFormat)));
    Slices sb = sliceSrcB(readDatum(unpackBits(b[i], cfg->srcFormat)));
    uint32_t dst = 0;
    for (unsigned phase = 0; phase <= cfg->fidelity; ++phase) {
      ExactSum sum;
      addDatum(sum, dst);
      addPhaseProduct(sum, sa, sb, phase);
      dst = writeDatum(sum, cfg->dstFormat);
    }
    c[i] = bitsFloat(pack(*cfg, dst, floatBits(c[i]), cfg->l1Acc != 0));
  }
  return COOPVEC_WH_OK;
}

float coopvecWormholeMul(float srcA, float srcB, unsigned fidelity) {
  CoopVecWormholeConfig cfg = {
      fidelity > COOPVEC_FIDELITY_HIFI4 ? unsigned(COOPVEC_FIDELITY_HIFI4)
                                        : fidelity,
      COOPVEC_FMT_TF32, COOPVEC_FMT_F32, COOPVEC_FMT_F32, 0};
  float c = 0;
  coopvecWormholeEltwiseMul(&cfg, &srcA, &srcB, &c, 1);
  return c;
}

} // extern "C"
