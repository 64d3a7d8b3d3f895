//===- WormholeTest.cpp - Tests of the Wormhole math-fidelity model -------===//
//
// coopvec-wormhole-test <suite>...: hand-checked values for every fidelity x
// Dst format x pack format x L1 accumulation switch, the values measured on
// silicon that tt-metal issues publish, edge cases, and random tiles
// against an independent model written here. The independent model follows
// the ISA pseudo-code (SrcAFidelityBits / SrcBFidelityBits as float masks),
// simulates whole 32x32 tiles MVMUL by MVMUL in tt-llk's face order, and
// sums in double, which is exact for the operand range the random tests
// draw (every value a multiple of 2^-27 below 2^26). docs/WormholeFidelity.md
// lists the sources.
//
//===----------------------------------------------------------------------===//

#include "LinAlgCoop/Runtime/Numerics.h"

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace {

uint32_t bitsOf(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
float fromBits(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

struct Checker {
  const char *suite;
  uint64_t checks = 0, failures = 0;
  explicit Checker(const char *suite) : suite(suite) {}
  void same(const char *what, float got, float want) {
    ++checks;
    if (bitsOf(got) == bitsOf(want))
      return;
    if (++failures <= 20)
      std::printf("  mismatch: %s: got %a (%.9g) want %a (%.9g)\n", what,
                  double(got), double(got), double(want), double(want));
  }
  void expect(const char *what, bool ok) {
    ++checks;
    if (!ok && ++failures <= 20)
      std::printf("  mismatch: %s\n", what);
  }
  bool finish() {
    if (failures)
      std::printf("FAIL %s: %" PRIu64 " of %" PRIu64 " mismatched\n", suite,
                  failures, checks);
    else
      std::printf("PASS %s: %" PRIu64 " checks\n", suite, checks);
    return failures == 0;
  }
};

const char *fmtName(unsigned f) {
  return f == COOPVEC_FMT_F32    ? "fp32"
         : f == COOPVEC_FMT_BF16 ? "bf16"
                                 : "tf32";
}
const char *fidName(unsigned f) {
  static const char *names[] = {"LoFi", "HiFi2", "HiFi3", "HiFi4"};
  return names[f];
}

/// The Dst and L1 formats, and the Src formats.
const unsigned kFormats[2] = {COOPVEC_FMT_F32, COOPVEC_FMT_BF16};
const unsigned kSrcFormats[2] = {COOPVEC_FMT_BF16, COOPVEC_FMT_TF32};

CoopVecWormholeConfig config(unsigned fidelity, unsigned dst, unsigned pack,
                             unsigned l1Acc, unsigned src = COOPVEC_FMT_BF16) {
  CoopVecWormholeConfig cfg;
  cfg.fidelity = fidelity;
  cfg.srcFormat = src;
  cfg.dstFormat = dst;
  cfg.packFormat = pack;
  cfg.l1Acc = l1Acc;
  return cfg;
}

float eltwise(const CoopVecWormholeConfig &cfg, float a, float b, float c = 0) {
  int rc = coopvecWormholeEltwiseMul(&cfg, &a, &b, &c, 1);
  return rc == COOPVEC_WH_OK ? c : NAN;
}

//===----------------------------------------------------------------------===//
// The independent model
//===----------------------------------------------------------------------===//

/// tt-isa-documentation MatrixUnit.md: the bits of SrcA a phase consumes.
float srcAFidelityBits(float x, unsigned phase) {
  uint32_t u = bitsOf(x);
  if ((phase & 1) == 0)
    return fromBits(u & 0xfff80000u);   // sign, exponent, 1 + four bits
  return x - fromBits(u & 0xfff83fffu); // the next five mantissa bits
}

/// The bits of SrcB a phase consumes.
float srcBFidelityBits(float x, unsigned phase) {
  uint32_t u = bitsOf(x);
  if ((phase & 2) == 0)
    return fromBits(u & 0xfffe0000u);   // sign, exponent, 1 + six bits
  return x - fromBits(u & 0xfffe1fffu); // the next four mantissa bits
}

/// The unpacker: truncation to the Src format, denormals to zero.
float toSrc(float x, unsigned srcFormat) {
  if (std::fpclassify(x) == FP_SUBNORMAL || x == 0)
    return 0;
  return fromBits(bitsOf(x) &
                  (srcFormat == COOPVEC_FMT_BF16 ? 0xffff0000u : 0xffffe000u));
}

/// Round to nearest, ties away from zero, to `p` fraction bits; +0 below
/// 2^-126 and for zero; inf from 2^128 on. `x` is exact.
double roundRna(double x, int p) {
  if (x == 0)
    return 0;
  int e;
  std::frexp(std::fabs(x), &e); // |x| = f * 2^e, f in [0.5, 1)
  double scaled = std::ldexp(std::fabs(x), p + 1 - e); // [2^p, 2^(p+1))
  double r = std::ldexp(std::floor(scaled + 0.5), e - p - 1);
  if (r < std::ldexp(1.0, -126))
    return 0;
  if (r >= std::ldexp(1.0, 128))
    return std::copysign(INFINITY, x);
  return std::copysign(r, x);
}

int fractionBits(unsigned format) {
  return format == COOPVEC_FMT_BF16 ? 7 : 23;
}

/// Packer: Dst datum to the L1 format (F32 Dst to BF16 rounds RNA), then
/// L1 accumulation in the L1 format.
double refPack(const CoopVecWormholeConfig &cfg, double dst, double l1,
               bool acc) {
  double datum =
      cfg.dstFormat == COOPVEC_FMT_F32 && cfg.packFormat == COOPVEC_FMT_BF16
          ? roundRna(dst, 7)
          : dst;
  return acc ? roundRna(l1 + datum, fractionBits(cfg.packFormat)) : datum;
}

/// One output tile of C = A @ B simulated MVMUL by MVMUL: per K tile, per
/// fidelity phase, the eight (SrcB face, SrcA face) pairs in tt-llk's order,
/// each two MVMULs of 8 rows; Dst rounded after every MVMUL.
void refMatmul(const CoopVecWormholeConfig &cfg, const std::vector<float> &a,
               const std::vector<float> &b, std::vector<float> &c, size_t m,
               size_t n, size_t k, size_t kBlock) {
  struct Pair {
    int bFace, aFace, dFace;
  };
  // in0 faces (SrcB): 0 rows 0-15/k 0-15, 1 rows 0-15/k 16-31, 2 rows
  // 16-31/k 0-15, 3 rows 16-31/k 16-31. in1 faces (SrcA): 0 k 0-15/cols
  // 0-15, 1 k 0-15/cols 16-31, 2 k 16-31/cols 0-15, 3 k 16-31/cols 16-31.
  static const Pair order[8] = {{0, 0, 0}, {0, 1, 1}, {2, 0, 2}, {2, 1, 3},
                                {1, 2, 0}, {1, 3, 1}, {3, 2, 2}, {3, 3, 3}};
  int dstBits = fractionBits(cfg.dstFormat);
  for (size_t ti = 0; ti < m; ti += 32) {
    for (size_t tj = 0; tj < n; tj += 32) {
      double dst[32][32];
      for (size_t k0 = 0; k0 < k; k0 += kBlock) {
        for (auto &row : dst)
          for (double &d : row)
            d = 0;
        size_t k1 = k0 + kBlock < k ? k0 + kBlock : k;
        for (size_t tk = k0; tk < k1; tk += 32) {
          for (unsigned phase = 0; phase <= cfg.fidelity; ++phase) {
            for (const Pair &pr : order) {
              int rowBase = (pr.bFace >> 1) * 16, kBase = (pr.bFace & 1) * 16;
              int colBase = (pr.aFace & 1) * 16;
              for (int mv = 0; mv < 2; ++mv) { // two MVMULs of 8 rows
                for (int r = 0; r < 8; ++r) {
                  int row = rowBase + mv * 8 + r;
                  for (int col = colBase; col < colBase + 16; ++col) {
                    double x = dst[row][col];
                    for (int kk = 0; kk < 16; ++kk) {
                      float bv = toSrc(a[(ti + row) * k + tk + kBase + kk],
                                       cfg.srcFormat);
                      float av = toSrc(b[(tk + kBase + kk) * n + tj + col],
                                       cfg.srcFormat);
                      x += double(srcBFidelityBits(bv, phase)) *
                           double(srcAFidelityBits(av, phase));
                    }
                    dst[row][col] = roundRna(x, dstBits);
                  }
                }
              }
            }
          }
        }
        for (int r = 0; r < 32; ++r)
          for (int col = 0; col < 32; ++col) {
            float &out = c[(ti + r) * n + tj + col];
            out = float(refPack(cfg, dst[r][col], out, cfg.l1Acc != 0));
          }
      }
    }
  }
}

double refEltwise(const CoopVecWormholeConfig &cfg, float a, float b,
                  double c) {
  float av = toSrc(a, cfg.srcFormat), bv = toSrc(b, cfg.srcFormat);
  double dst = 0;
  for (unsigned phase = 0; phase <= cfg.fidelity; ++phase)
    dst = roundRna(dst + double(srcAFidelityBits(av, phase)) *
                             double(srcBFidelityBits(bv, phase)),
                   fractionBits(cfg.dstFormat));
  return refPack(cfg, dst, c, cfg.l1Acc != 0);
}

//===----------------------------------------------------------------------===//
// hand: every fidelity x Dst x pack x L1 switch on values derived by hand
//===----------------------------------------------------------------------===//

struct HandRow {
  unsigned dst, pack, l1;
  double want[4]; // LoFi, HiFi2, HiFi3, HiFi4
};

bool testHand() {
  Checker r("hand");
  const unsigned F32 = COOPVEC_FMT_F32, BF16 = COOPVEC_FMT_BF16;
  // ELWMUL 1.3125 (in0, SrcA) * 7.96875 (in1, SrcB). SrcA 1.0101000: hi
  // 1.0101 = 1.3125, lo 0. SrcB 1.1111111 * 4: hi 1.111111 * 4 = 7.9375,
  // lo 2^-7 * 4 = 0.03125. Phase 0: 1.3125 * 7.9375 = 10.41796875; phase 1
  // adds lo(A) * hi(B) = 0; phase 2 adds 1.3125 * 0.03125 = 0.041015625;
  // phase 3 adds 0.
  //   BF16 Dst (ulp 0.0625 in [8, 16)): 10.41796875 = 166.6875 ulp -> 167
  //   = 10.4375; + 0.041015625 = 10.478515625 = 167.66 ulp -> 168 = 10.5.
  //   FP32 Dst: exact, 10.41796875 then 10.458984375; the packer rounds
  //   the latter to BF16 at 167.34 ulp -> 10.4375.
  //   L1 accumulation onto 0.046875: BF16 10.4375 + 0.046875 = 10.484375 =
  //   167.75 ulp -> 10.5, 10.5 + 0.046875 -> 168.75 ulp -> 10.5625.
  static const HandRow elw[] = {
      {BF16, BF16, 0, {10.4375, 10.4375, 10.5, 10.5}},
      {BF16, BF16, 1, {10.5, 10.5, 10.5625, 10.5625}},
      {BF16, F32, 0, {10.4375, 10.4375, 10.5, 10.5}},
      {BF16, F32, 1, {10.484375, 10.484375, 10.546875, 10.546875}},
      {F32, BF16, 0, {10.4375, 10.4375, 10.4375, 10.4375}},
      {F32, BF16, 1, {10.5, 10.5, 10.5, 10.5}},
      {F32, F32, 0, {10.41796875, 10.41796875, 10.458984375, 10.458984375}},
      {F32, F32, 1, {10.46484375, 10.46484375, 10.505859375, 10.505859375}},
  };
  // MATMUL 1x32 @ 32x1, nonzero at k = 0 (first MVMUL) and k = 16 (second):
  //   k=0:  in0 1.3125 -> SrcB hi 1.3125, lo 0; in1 7.96875 -> SrcA hi
  //         1.1111 * 4 = 7.75, lo 0.0000111 * 4 = 0.21875.
  //   k=16: in0 7.96875 -> SrcB hi 7.9375, lo 0.03125; in1 1.0078125 ->
  //         SrcA hi 1, lo 2^-7.
  // BF16 Dst, per phase, per MVMUL (ulp 0.0625 below 16, 0.125 above):
  //   phase 0: 0 + 7.75 * 1.3125 = 10.171875 -> 10.1875 (162.75 ulp);
  //            + 1 * 7.9375 = 18.125 (exact).
  //   phase 1: + 0.21875 * 1.3125 = 18.412109375 -> 18.375 (147.30 ulp);
  //            + 2^-7 * 7.9375 = 18.43701171875 -> 18.375 (147.50 - 2^-9).
  //   phase 2: + 0; + 1 * 0.03125 = 18.40625 -> 18.375 (147.25 ulp).
  //   phase 3: + 0; + 2^-7 * 0.03125 -> 18.375.
  // The exact product sum 18.489990234375 would round to 18.5: the phase
  // order loses one ulp. FP32 Dst is exact: 18.109375, 18.45849609375,
  // 18.48974609375, 18.489990234375; packed to BF16: 18.125, then 18.5.
  // L1 accumulation onto -0.15625: BF16 18.375 - 0.15625 = 18.21875 =
  // 145.75 ulp -> 18.25; 18.125 - 0.15625 = 17.96875 (143.75) -> 18.
  static const HandRow mm[] = {
      {BF16, BF16, 0, {18.125, 18.375, 18.375, 18.375}},
      {BF16, BF16, 1, {18.0, 18.25, 18.25, 18.25}},
      {BF16, F32, 0, {18.125, 18.375, 18.375, 18.375}},
      {BF16, F32, 1, {17.96875, 18.21875, 18.21875, 18.21875}},
      {F32, BF16, 0, {18.125, 18.5, 18.5, 18.5}},
      {F32, BF16, 1, {18.0, 18.375, 18.375, 18.375}},
      {F32,
       F32,
       0,
       {18.109375, 18.45849609375, 18.48974609375, 18.489990234375}},
      {F32,
       F32,
       1,
       {17.953125, 18.30224609375, 18.33349609375, 18.333740234375}},
  };
  std::vector<float> a(32, 0.0f), b(32, 0.0f), c(1);
  a[0] = 1.3125f, b[0] = 7.96875f, a[16] = 7.96875f, b[16] = 1.0078125f;
  char what[160];
  for (unsigned fid = 0; fid < 4; ++fid) {
    for (const HandRow &row : elw) {
      CoopVecWormholeConfig cfg = config(fid, row.dst, row.pack, row.l1);
      std::snprintf(what, sizeof(what), "eltwise %s dst=%s pack=%s l1=%u",
                    fidName(fid), fmtName(row.dst), fmtName(row.pack), row.l1);
      float c0 = row.l1 ? 0.046875f : 123.0f; // overwritten without L1 acc
      r.same(what, eltwise(cfg, 1.3125f, 7.96875f, c0), float(row.want[fid]));
      r.same(what, float(refEltwise(cfg, 1.3125f, 7.96875f, c0)),
             float(row.want[fid]));
    }
    for (const HandRow &row : mm) {
      CoopVecWormholeConfig cfg = config(fid, row.dst, row.pack, row.l1);
      std::snprintf(what, sizeof(what), "matmul %s dst=%s pack=%s l1=%u",
                    fidName(fid), fmtName(row.dst), fmtName(row.pack), row.l1);
      c[0] = row.l1 ? -0.15625f : 123.0f;
      r.expect(what, coopvecWormholeMatmul(&cfg, a.data(), b.data(), c.data(),
                                           1, 1, 32, 0) == COOPVEC_WH_OK);
      r.same(what, c[0], float(row.want[fid]));
    }
  }
  return r.finish();
}

//===----------------------------------------------------------------------===//
// silicon: values measured on Wormhole B0 and published in tt-metal issues
//===----------------------------------------------------------------------===//

struct SiliconCase {
  const char *source;
  float a, b; ///< mul_tiles(in0 = a, in1 = b)
  unsigned fidelity;
  float measured;
};

bool testSilicon() {
  Checker r("silicon");
  // All are mul_tiles (ELWMUL) on bfloat16 circular buffers with
  // fp32_dest_acc_en = false (BF16 Dst) and a BF16 output buffer.
  static const SiliconCase cases[] = {
      {"tt-metal#12923", 1.3125f, 7.96875f, COOPVEC_FIDELITY_HIFI2, 10.4375f},
      {"tt-metal#12923", 1.3125f, 7.96875f, COOPVEC_FIDELITY_HIFI4, 10.5f},
      {"tt-metal#16448", -3.640625f, 0.298828125f, COOPVEC_FIDELITY_HIFI4,
       -1.09375f},
      {"tt-metal#16448", -3.640625f, 0.30078125f, COOPVEC_FIDELITY_HIFI4,
       -1.1015625f},
      // ttnn.multiply's FPU path before tt-metal#35077 (HiFi4 default).
      {"tt-metal#35077", 508.0f, 748.0f, COOPVEC_FIDELITY_HIFI4, 378880.0f},
  };
  char what[200];
  for (const SiliconCase &sc : cases) {
    CoopVecWormholeConfig cfg =
        config(sc.fidelity, COOPVEC_FMT_BF16, COOPVEC_FMT_BF16, 0);
    float got = eltwise(cfg, sc.a, sc.b);
    std::printf("  %s: %g * %g %s, bf16 Dst: model %.9g, silicon %.9g\n",
                sc.source, double(sc.a), double(sc.b), fidName(sc.fidelity),
                double(got), double(sc.measured));
    std::snprintf(what, sizeof(what), "%s %g * %g %s", sc.source, double(sc.a),
                  double(sc.b), fidName(sc.fidelity));
    r.same(what, got, sc.measured);
    r.same(what, float(refEltwise(cfg, sc.a, sc.b, 0)), sc.measured);
  }
  // What the measurements rule out. The model this one replaced (phases
  // summed exactly, one rounding) gives 10.4375 for #12923's HiFi4 case,
  // not 10.5; an FP32 Dst gives the same. Swapping the operand roles
  // (in0 in SrcB, as in a matmul) gives 10.5 for the HiFi2 case, not
  // 10.4375, and 380928 for #35077, not 378880.
  float exactOnce = float(roundRna(1.3125 * 7.96875, 7));
  r.expect("#12923 HiFi4: exact-sum model disagrees with silicon",
           exactOnce != 10.5f);
  CoopVecWormholeConfig fp32Dst =
      config(COOPVEC_FIDELITY_HIFI4, COOPVEC_FMT_F32, COOPVEC_FMT_BF16, 0);
  r.expect("#12923 HiFi4: an FP32 Dst disagrees with silicon",
           eltwise(fp32Dst, 1.3125f, 7.96875f) != 10.5f);
  CoopVecWormholeConfig hifi2 =
      config(COOPVEC_FIDELITY_HIFI2, COOPVEC_FMT_BF16, COOPVEC_FMT_BF16, 0);
  r.same("#12923 HiFi2 with in0 in SrcB (matmul roles)",
         eltwise(hifi2, 7.96875f, 1.3125f), 10.5f);
  CoopVecWormholeConfig hifi4 =
      config(COOPVEC_FIDELITY_HIFI4, COOPVEC_FMT_BF16, COOPVEC_FMT_BF16, 0);
  r.same("#35077 with in0 in SrcB (matmul roles)", eltwise(hifi4, 748, 508),
         380928.0f);
  // A 1x1x1 matmul puts in0 in SrcB: the same call as #12923's HiFi2 case
  // gives the swapped-role value.
  float a = 1.3125f, b = 7.96875f, c = 0;
  coopvecWormholeMatmul(&hifi2, &a, &b, &c, 1, 1, 1, 0);
  r.same("matmul(1.3125, 7.96875) HiFi2 uses in0 as SrcB", c, 10.5f);
  return r.finish();
}

//===----------------------------------------------------------------------===//
// edge: specials, flushes, ties, unpacker, configuration errors
//===----------------------------------------------------------------------===//

bool testEdge() {
  Checker r("edge");
  const unsigned F32 = COOPVEC_FMT_F32, BF16 = COOPVEC_FMT_BF16,
                 TF32 = COOPVEC_FMT_TF32;
  CoopVecWormholeConfig f32 = config(COOPVEC_FIDELITY_HIFI4, F32, F32, 0);
  CoopVecWormholeConfig f32tf =
      config(COOPVEC_FIDELITY_HIFI4, F32, F32, 0, TF32);
  // Exponent 255 is an ordinary binade to the FPU: inf is 2^128.
  r.same("inf * 0.5 = 2^127", eltwise(f32, INFINITY, 0.5f), 0x1p127f);
  r.same("inf * 0 = +0", eltwise(f32, INFINITY, 0.0f), 0.0f);
  r.same("-inf * 0.25 = -2^126", eltwise(f32, -INFINITY, 0.25f), -0x1p126f);
  // Overflow writes the exponent-255 zero-mantissa pattern.
  r.same("2^127 * 4 overflows", eltwise(f32, 0x1p127f, 4.0f), INFINITY);
  r.same("-2^127 * 4 overflows", eltwise(f32, -0x1p127f, 4.0f), -INFINITY);
  // Below 2^-126 the result is +0; the FPU writes no -0.
  r.same("2^-100 * 2^-30 flushes", eltwise(f32, 0x1p-100f, 0x1p-30f), 0.0f);
  r.same("-2^-100 * 2^-30 flushes to +0", eltwise(f32, -0x1p-100f, 0x1p-30f),
         0.0f);
  r.same("-1 * 0 = +0", eltwise(f32, -1.0f, 0.0f), 0.0f);
  r.same("denormal operand is zero", eltwise(f32, 1e-40f, 1e10f), 0.0f);
  // 2^-126 itself survives; rounding up into the normal range counts.
  r.same("2^-63 * 2^-63 = 2^-126", eltwise(f32, 0x1p-63f, 0x1p-63f), 0x1p-126f);
  {
    float a[2] = {1.0f, 1.0f}, b[2] = {1.0f, -1.0f}, c = -5;
    coopvecWormholeMatmul(&f32, a, b, &c, 1, 1, 2, 0);
    r.same("1*1 + 1*-1 = +0", c, 0.0f);
  }
  // One MVMUL sums its products exactly and rounds once: sticky bits far
  // below the FP32 tie decide it, in either direction.
  {
    auto dot3 = [&](float x, float y, float z) {
      float a[3] = {x, y, z}, b[3] = {1.0f, 1.0f, 1.0f}, c = 0;
      coopvecWormholeMatmul(&f32, a, b, &c, 1, 1, 3, 0);
      return c;
    };
    r.same("1 + 2^-24 ties away", dot3(1.0f, 0x1p-24f, 0.0f), 1.0f + 0x1p-23f);
    r.same("1 + 2^-24 + 2^-80 rounds up", dot3(1.0f, 0x1p-24f, 0x1p-80f),
           1.0f + 0x1p-23f);
    r.same("1 + 2^-24 - 2^-80 rounds down", dot3(1.0f, 0x1p-24f, -0x1p-80f),
           1.0f);
    r.same("2^100 - 2^100 + 2^-100 is exact",
           dot3(0x1p100f, -0x1p100f, 0x1p-100f), 0x1p-100f);
    r.same("-2^120 - 2^96 - 2^-120 rounds once",
           dot3(-0x1p120f, -0x1p96f, -0x1p-120f), -0x1p120f - 0x1p97f);
  }
  // Unpacker truncation and TF32 slices: SrcA drops its TF32 LSB.
  r.same("unpack bf16 truncates", coopvecWormholeUnpack(1.99999f, BF16),
         1.9921875f);
  r.same("unpack tf32 truncates", coopvecWormholeUnpack(1.0f + 0x1p-11f, TF32),
         1.0f);
  r.same("unpack flushes denormals", coopvecWormholeUnpack(-1e-40f, TF32),
         -0.0f);
  r.same("SrcA TF32 LSB ignored", eltwise(f32tf, 1.0f + 0x1p-10f, 1.0f), 1.0f);
  r.same("SrcB TF32 LSB used", eltwise(f32tf, 1.0f, 1.0f + 0x1p-10f),
         1.0f + 0x1p-10f);
  r.same("SrcA TF32 bit 9 used", eltwise(f32tf, 1.0f + 0x1p-9f, 1.0f),
         1.0f + 0x1p-9f);
  r.same("bf16 src drops f32 bits", eltwise(f32, 1.0f + 0x1p-8f, 1.0f), 1.0f);
  // Ties round away from zero. 1.0625^2 = 1 + 2^-3 + 2^-8 is a BF16 tie.
  CoopVecWormholeConfig lofiBf16 = config(COOPVEC_FIDELITY_LOFI, BF16, BF16, 0);
  r.same("Dst BF16 tie rounds away", eltwise(lofiBf16, 1.0625f, 1.0625f),
         1.1328125f);
  r.same("Dst BF16 negative tie rounds away",
         eltwise(lofiBf16, -1.0625f, 1.0625f), -1.1328125f);
  CoopVecWormholeConfig packBf16 = config(COOPVEC_FIDELITY_LOFI, F32, BF16, 0);
  r.same("packer FP32->BF16 tie rounds away",
         eltwise(packBf16, 1.0625f, 1.0625f), 1.1328125f);
  // L1 accumulation rounds in the L1 format and flushes like Dst.
  CoopVecWormholeConfig accBf16 = config(COOPVEC_FIDELITY_HIFI4, BF16, BF16, 1);
  r.same("L1 BF16 accumulation rounds", eltwise(accBf16, 1.0f, 1.0f, 0x1p-8f),
         1.0078125f);
  r.same("L1 accumulation cancels to +0", eltwise(accBf16, 1.0f, 1.0f, -1.0f),
         0.0f);
  // The legacy scalar entry: one ELWMUL into FP32 Dst from TF32 sources.
  float la = 1.0f + 0x1p-4f + 0x1p-9f, lb = 1.0f + 0x1p-6f + 0x1p-10f;
  double ah = 1 + 0x1p-4, al = 0x1p-9, bh = 1 + 0x1p-6, bl = 0x1p-10;
  r.same("mul lofi", coopvecWormholeMul(la, lb, 0), float(ah * bh));
  r.same("mul hifi2", coopvecWormholeMul(la, lb, 1), float(ah * bh + al * bh));
  r.same("mul hifi3", coopvecWormholeMul(la, lb, 2),
         float(ah * bh + al * bh + ah * bl));
  r.same("mul hifi4", coopvecWormholeMul(la, lb, 3),
         float(double(la) * double(lb)));
  // Configuration errors.
  CoopVecWormholeConfig bad = config(4, F32, F32, 0);
  r.expect("fidelity 4 rejected",
           coopvecWormholeCheckConfig(&bad) == COOPVEC_WH_INVALID_CONFIG);
  bad = config(0, COOPVEC_FMT_F16, F32, 0);
  r.expect("F16 Dst rejected",
           coopvecWormholeCheckConfig(&bad) == COOPVEC_WH_INVALID_CONFIG);
  bad = config(0, F32, F32, 0, F32);
  r.expect("F32 Src rejected",
           coopvecWormholeCheckConfig(&bad) == COOPVEC_WH_INVALID_CONFIG);
  r.expect("null config rejected",
           coopvecWormholeCheckConfig(nullptr) == COOPVEC_WH_INVALID_CONFIG);
  std::vector<float> z(64 * 64, 0.0f);
  r.expect("K blocks need L1 accumulation",
           coopvecWormholeMatmul(&f32, z.data(), z.data(), z.data(), 32, 32, 64,
                                 32) == COOPVEC_WH_INVALID_BLOCK);
  CoopVecWormholeConfig acc = config(0, F32, F32, 1);
  r.expect("K block of 48 rejected",
           coopvecWormholeMatmul(&acc, z.data(), z.data(), z.data(), 32, 32, 96,
                                 48) == COOPVEC_WH_INVALID_BLOCK);
  r.expect("K block of 32 accepted",
           coopvecWormholeMatmul(&acc, z.data(), z.data(), z.data(), 32, 32, 64,
                                 32) == COOPVEC_WH_OK);
  return r.finish();
}

//===----------------------------------------------------------------------===//
// bfp: the unpacker's block-float decode and the phases BFP data needs
//===----------------------------------------------------------------------===//

bool testBfp() {
  Checker r("bfp");
  // FloatBitPatterns.md: BFP8 is Mag/2^6 * 2^(Exp-127), BFP4 Mag/2^2 *
  // 2^(Exp-127), BFP2 2^(Exp-127); sign-magnitude.
  r.same("bfp8 0x40", coopvecWormholeBfpToFloat(0x40, 127, 8), 1.0f);
  r.same("bfp8 0x01", coopvecWormholeBfpToFloat(0x01, 127, 8), 0x1p-6f);
  r.same("bfp8 0xC0 e130", coopvecWormholeBfpToFloat(0xC0, 130, 8), -8.0f);
  r.same("bfp8 0x7F", coopvecWormholeBfpToFloat(0x7F, 127, 8), 1.984375f);
  r.same("bfp8 +0", coopvecWormholeBfpToFloat(0x00, 90, 8), 0.0f);
  r.same("bfp8 -0 is the -inf pattern", coopvecWormholeBfpToFloat(0x80, 90, 8),
         -INFINITY);
  r.same("bfp4 0x7", coopvecWormholeBfpToFloat(0x7, 127, 4), 1.75f);
  r.same("bfp4 0xF", coopvecWormholeBfpToFloat(0xF, 127, 4), -1.75f);
  r.same("bfp4 0x1 e120", coopvecWormholeBfpToFloat(0x1, 120, 4), 0x1p-9f);
  r.same("bfp2 0x1", coopvecWormholeBfpToFloat(0x1, 127, 2), 1.0f);
  r.same("bfp2 0x3", coopvecWormholeBfpToFloat(0x3, 100, 2), -0x1p-27f);
  r.same("bfp2 0x2 is the -inf pattern", coopvecWormholeBfpToFloat(0x2, 127, 2),
         -INFINITY);
  r.expect("bits 3 rejected",
           std::isnan(coopvecWormholeBfpToFloat(0x1, 127, 3)));
  const unsigned widths[3] = {8, 4, 2};
  char what[120];
  for (unsigned bits : widths)
    for (unsigned e = 20; e < 250; e += 23)
      for (unsigned d = 0; d < (1u << bits); ++d) {
        unsigned mag = d & ((1u << (bits - 1)) - 1);
        bool neg = d >> (bits - 1);
        if (mag == 0)
          continue;
        double want = std::ldexp(double(mag), int(e) - 127 - int(bits - 2));
        std::snprintf(what, sizeof(what), "bfp%u 0x%x e%u", bits, d, e);
        r.same(what, coopvecWormholeBfpToFloat(uint8_t(d), uint8_t(e), bits),
               float(neg ? -want : want));
      }
  // SrcASrcB.md: BFP8 needs phases 0-1 for full precision, BFP4 phase 0.
  // Decoded BFP8 has 1 + 6 significant bits, BFP4 1 + 2: the phases
  // beyond add zero, so the results are bit-identical.
  std::mt19937 rng(8);
  auto bfp = [&](unsigned bits) {
    return coopvecWormholeBfpToFloat(
        uint8_t(rng() & ((1u << bits) - 1) & ~(1u << (bits - 1))) |
            uint8_t((rng() & 1) << (bits - 1)),
        uint8_t(124 + rng() % 8), bits);
  };
  for (unsigned dst : kFormats) {
    std::vector<float> a8(64 * 64), b8(64 * 64), a4(64 * 64), b4(64 * 64);
    for (size_t i = 0; i < a8.size(); ++i)
      a8[i] = bfp(8), b8[i] = bfp(8), a4[i] = bfp(4), b4[i] = bfp(4);
    auto run = [&](unsigned fid, const std::vector<float> &a,
                   const std::vector<float> &b, bool matmul) {
      CoopVecWormholeConfig cfg = config(fid, dst, dst, 0);
      std::vector<float> c(64 * 64, 0.0f);
      if (matmul)
        coopvecWormholeMatmul(&cfg, a.data(), b.data(), c.data(), 64, 64, 64,
                              0);
      else
        coopvecWormholeEltwiseMul(&cfg, a.data(), b.data(), c.data(), c.size());
      return c;
    };
    for (int matmul = 0; matmul < 2; ++matmul) {
      std::snprintf(what, sizeof(what), "%s dst=%s bfp8 HiFi2 == HiFi4",
                    matmul ? "matmul" : "eltwise", fmtName(dst));
      r.expect(what, run(1, a8, b8, matmul) == run(3, a8, b8, matmul));
      std::snprintf(what, sizeof(what), "%s dst=%s bfp8 LoFi != HiFi2",
                    matmul ? "matmul" : "eltwise", fmtName(dst));
      r.expect(what, run(0, a8, b8, matmul) != run(1, a8, b8, matmul));
      std::snprintf(what, sizeof(what), "%s dst=%s bfp4 LoFi == HiFi4",
                    matmul ? "matmul" : "eltwise", fmtName(dst));
      r.expect(what, run(0, a4, b4, matmul) == run(3, a4, b4, matmul));
    }
  }
  return r.finish();
}

//===----------------------------------------------------------------------===//
// random: whole tiles against the independent model
//===----------------------------------------------------------------------===//

/// A random operand with exponent in [-4, 4] (the range in which the
/// independent model's double sums are exact), 1 in 10 zero.
float randomOperand(std::mt19937 &rng) {
  uint32_t u = rng();
  if (u % 10 == 0)
    return 0.0f;
  uint32_t e = 127 - 4 + (rng() % 9);
  return fromBits((u & 0x807fffffu) | (e << 23));
}

float randomL1(std::mt19937 &rng, unsigned packFormat) {
  float x = randomOperand(rng) * 4.0f;
  return packFormat == COOPVEC_FMT_BF16 ? fromBits(bitsOf(x) & 0xffff0000u) : x;
}

bool testRandom() {
  Checker r("random");
  std::mt19937 rng(15);
  char what[200];
  for (unsigned fid = 0; fid < 4; ++fid)
    for (unsigned src : kSrcFormats)
      for (unsigned dst : kFormats)
        for (unsigned pack : kFormats)
          for (unsigned l1 = 0; l1 < 2; ++l1) {
            CoopVecWormholeConfig cfg = config(fid, dst, pack, l1, src);
            for (unsigned trial = 0; trial < 3; ++trial) {
              size_t m = 32 * (1 + rng() % 2), n = 32 * (1 + rng() % 2);
              size_t k = 32 * (1 + rng() % 4);
              size_t kBlock = l1 ? 32 * (1 + rng() % (k / 32)) : k;
              std::vector<float> a(m * k), b(k * n), c(m * n), want;
              for (float &x : a)
                x = randomOperand(rng);
              for (float &x : b)
                x = randomOperand(rng);
              for (float &x : c)
                x = randomL1(rng, pack);
              want = c;
              refMatmul(cfg, a, b, want, m, n, k, kBlock);
              size_t blockArg = kBlock == k ? 0 : kBlock;
              r.expect("matmul status",
                       coopvecWormholeMatmul(&cfg, a.data(), b.data(), c.data(),
                                             m, n, k,
                                             blockArg) == COOPVEC_WH_OK);
              for (size_t i = 0; i < m * n; ++i) {
                std::snprintf(what, sizeof(what),
                              "matmul %zux%zux%zu/%zu %s src=%s dst=%s "
                              "pack=%s l1=%u [%zu]",
                              m, n, k, kBlock, fidName(fid), fmtName(src),
                              fmtName(dst), fmtName(pack), l1, i);
                r.same(what, c[i], want[i]);
              }
            }
            std::vector<float> a(2048), b(2048), c(2048), want(2048);
            for (size_t i = 0; i < a.size(); ++i) {
              a[i] = randomOperand(rng);
              b[i] = randomOperand(rng);
              c[i] = randomL1(rng, pack);
              want[i] = float(refEltwise(cfg, a[i], b[i], c[i]));
            }
            coopvecWormholeEltwiseMul(&cfg, a.data(), b.data(), c.data(),
                                      a.size());
            for (size_t i = 0; i < a.size(); ++i) {
              std::snprintf(what, sizeof(what),
                            "eltwise %a*%a %s src=%s dst=%s pack=%s l1=%u",
                            double(a[i]), double(b[i]), fidName(fid),
                            fmtName(src), fmtName(dst), fmtName(pack), l1);
              r.same(what, c[i], want[i]);
            }
          }
  return r.finish();
}

//===----------------------------------------------------------------------===//
// tile: one matrix-unit step onto a live Dst (coopvec.tile_mma)
//===----------------------------------------------------------------------===//

/// out[i][j] = Dst after acc[i][j] enters it (rounded to the Dst format)
/// and, per 32-wide K tile and phase, the two 16-wide halves of
/// sum_k SrcA(lhs[i][k]) x SrcB(rhs[k][j]) are added, each rounded: written
/// per element from the ISA's masks, independently of refMatmul's faces.
float refTileMma(const CoopVecWormholeConfig &cfg,
                 const std::vector<float> &lhs, const std::vector<float> &rhs,
                 float acc, size_t i, size_t j, size_t n, size_t k) {
  int dstBits = fractionBits(cfg.dstFormat);
  double dst = roundRna(double(acc), dstBits); // +0 for -0 and subnormals
  for (size_t t = 0; t < k; t += 32)
    for (unsigned phase = 0; phase <= cfg.fidelity; ++phase)
      for (size_t h = t; h < t + 32; h += 16) {
        double x = dst;
        for (size_t kk = h; kk < h + 16; ++kk)
          x += double(srcAFidelityBits(toSrc(lhs[i * k + kk], cfg.srcFormat),
                                       phase)) *
               double(srcBFidelityBits(toSrc(rhs[kk * n + j], cfg.srcFormat),
                                       phase));
        dst = roundRna(x, dstBits);
      }
  return float(dst);
}

bool testTile() {
  Checker r("tile");
  std::mt19937 rng(27);
  char what[200];
  for (unsigned fid = 0; fid < 4; ++fid)
    for (unsigned src : kSrcFormats)
      for (unsigned dst : kFormats)
        for (unsigned trial = 0; trial < 4; ++trial) {
          CoopVecWormholeConfig cfg = config(fid, dst, dst, 0, src);
          size_t m = 1 + rng() % 20, n = 1 + rng() % 12,
                 k = 32 * (1 + rng() % 3);
          std::vector<float> lhs(m * k), rhs(k * n), acc(m * n);
          for (float &x : lhs)
            x = randomOperand(rng);
          for (float &x : rhs)
            x = randomOperand(rng);
          // A live Dst: values of either format, -0, a subnormal.
          for (float &x : acc)
            x = randomOperand(rng) * 8.0f;
          acc[0] = -0.0f;
          if (acc.size() > 1)
            acc[1] = 1e-40f;
          std::vector<float> got = acc;
          r.expect("tile status", coopvecWormholeTileMma(
                                      &cfg, lhs.data(), rhs.data(), got.data(),
                                      m, n, k) == COOPVEC_WH_OK);
          for (size_t i = 0; i < m; ++i)
            for (size_t j = 0; j < n; ++j) {
              std::snprintf(what, sizeof(what),
                            "tile %zux%zux%zu %s src=%s dst=%s [%zu][%zu]", m,
                            n, k, fidName(fid), fmtName(src), fmtName(dst), i,
                            j);
              r.same(what, got[i * n + j],
                     refTileMma(cfg, lhs, rhs, acc[i * n + j], i, j, n, k));
            }
        }
  // The matmul of one K block is the same step from a zero Dst, with the
  // roles of the operands exchanged (in0 is SrcB): C^T = tile(B^T, A^T).
  CoopVecWormholeConfig cfg =
      config(COOPVEC_FIDELITY_HIFI3, COOPVEC_FMT_BF16, COOPVEC_FMT_BF16, 0);
  // A rows x cols row-major matrix, transposed.
  auto transposed = [](const std::vector<float> &src, size_t rows,
                       size_t cols) {
    std::vector<float> t(rows * cols);
    for (size_t i = 0; i < rows; ++i)
      for (size_t j = 0; j < cols; ++j)
        t[j * rows + i] = src[i * cols + j];
    return t;
  };
  size_t m = 7, n = 5, k = 64;
  std::vector<float> a(m * k), b(k * n), c(m * n, 0.0f), ct(n * m, 0.0f);
  for (float &x : a)
    x = randomOperand(rng);
  for (float &x : b)
    x = randomOperand(rng);
  std::vector<float> at = transposed(a, m, k), bt = transposed(b, k, n);
  coopvecWormholeMatmul(&cfg, a.data(), b.data(), c.data(), m, n, k, 0);
  coopvecWormholeTileMma(&cfg, bt.data(), at.data(), ct.data(), n, m, k);
  for (size_t i = 0; i < m; ++i)
    for (size_t j = 0; j < n; ++j)
      r.same("tile vs matmul", ct[j * m + i], c[i * n + j]);
  // The packer after each K block (coopvecWormholePack onto L1 values that
  // start from a bias) equals the matmul with K blocks and L1
  // accumulation: an f32 Dst packed to bf16, K = 96 in blocks of 64 (the
  // last one partial, zero-padded to a 32-wide tile).
  CoopVecWormholeConfig acc =
      config(COOPVEC_FIDELITY_HIFI2, COOPVEC_FMT_F32, COOPVEC_FMT_BF16, 1);
  const size_t kk2 = 96, block = 64;
  std::vector<float> a2(m * kk2), b2t(n * kk2), c2(m * n), l1(n * m);
  for (float &x : a2)
    x = randomOperand(rng);
  for (float &x : b2t)
    x = randomOperand(rng);
  for (size_t i = 0; i < m; ++i)
    for (size_t j = 0; j < n; ++j)
      c2[i * n + j] = l1[j * m + i] = float(int(i + j) - 4) * 0.5f;
  std::vector<float> b2 = transposed(b2t, n, kk2);
  r.expect("blocked matmul",
           coopvecWormholeMatmul(&acc, a2.data(), b2.data(), c2.data(), m, n,
                                 kk2, block) == COOPVEC_WH_OK);
  for (size_t k0 = 0; k0 < kk2; k0 += block) {
    size_t width = std::min(block, kk2 - k0), padded = (width + 31) / 32 * 32;
    // One block's tiles, zero-padded: SrcA = in1^T (n x k), SrcB = in0^T.
    std::vector<float> sa(n * padded, 0.0f), sb(padded * m, 0.0f),
        dst(n * m, 0.0f);
    for (size_t j = 0; j < n; ++j)
      for (size_t kk = 0; kk < width; ++kk)
        sa[j * padded + kk] = b2t[j * kk2 + k0 + kk];
    for (size_t kk = 0; kk < width; ++kk)
      for (size_t i = 0; i < m; ++i)
        sb[kk * m + i] = a2[i * kk2 + k0 + kk];
    coopvecWormholeTileMma(&acc, sa.data(), sb.data(), dst.data(), n, m,
                           padded);
    r.expect("pack", coopvecWormholePack(&acc, dst.data(), l1.data(), n * m) ==
                         COOPVEC_WH_OK);
  }
  for (size_t i = 0; i < m; ++i)
    for (size_t j = 0; j < n; ++j)
      r.same("tiles + pack vs blocked matmul", l1[j * m + i], c2[i * n + j]);
  // Rejected: K not a multiple of 32, a bad configuration.
  std::vector<float> one(64, 1.0f);
  r.expect("k = 48",
           coopvecWormholeTileMma(&cfg, one.data(), one.data(), one.data(), 1,
                                  1, 48) == COOPVEC_WH_INVALID_BLOCK);
  CoopVecWormholeConfig bad = cfg;
  bad.fidelity = 4;
  r.expect("fidelity 4",
           coopvecWormholeTileMma(&bad, one.data(), one.data(), one.data(), 1,
                                  1, 32) == COOPVEC_WH_INVALID_CONFIG);
  bad = acc;
  bad.packFormat = COOPVEC_FMT_F16;
  r.expect("pack to f16", coopvecWormholePack(&bad, one.data(), one.data(),
                                              1) == COOPVEC_WH_INVALID_CONFIG);
  return r.finish();
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 2) {
    std::fprintf(stderr,
                 "usage: %s <suite>...\nsuites: hand silicon edge "
                 "bfp random tile all\n",
                 argv[0]);
    return 2;
  }
  bool ok = true;
  for (int i = 1; i < argc; ++i) {
    std::string s = argv[i];
    bool all = s == "all", known = all;
    auto run = [&](const char *name, bool (*fn)()) {
      if (all || s == name) {
        known = true;
        ok &= fn();
      }
    };
    run("hand", testHand);
    run("silicon", testSilicon);
    run("edge", testEdge);
    run("bfp", testBfp);
    run("random", testRandom);
    run("tile", testTile);
    if (!known) {
      std::fprintf(stderr, "unknown suite '%s'\n", s.c_str());
      return 2;
    }
  }
  return ok ? 0 : 1;
}
