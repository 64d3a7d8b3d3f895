//===- NumericsTest.cpp - Bit-exact tests of CoopVecNumerics --------------===//
//
// `coopvec-numerics-test <suite>...` runs one or more suites and prints one
// summary line per suite ("PASS <suite>: N checks" or "FAIL <suite>: M of N
// mismatched"), preceded by the first mismatches. It exits non-zero if any
// suite fails. `--exhaustive` runs every f32 input (2^32) for the
// configurations listed in runExhaustive.
//
//===----------------------------------------------------------------------===//

#include "Oracle.h"

#include <algorithm>
#include <atomic>
#include <cinttypes>
#include <cmath>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

using namespace oracle;

namespace {

/// Mismatch counter shared by the threads of one suite.
class Report {
public:
  explicit Report(const char *suite) : suite(suite) {}

  void check(bool ok, const std::function<std::string()> &describe) {
    checks.fetch_add(1, std::memory_order_relaxed);
    if (ok)
      return;
    uint64_t n = failures.fetch_add(1, std::memory_order_relaxed);
    if (n < kMaxPrinted) {
      std::lock_guard<std::mutex> lock(printMutex);
      std::printf("  mismatch: %s\n", describe().c_str());
    }
  }
  void addChecks(uint64_t n) { checks.fetch_add(n, std::memory_order_relaxed); }

  bool finish() {
    uint64_t f = failures.load(), c = checks.load();
    if (f)
      std::printf("FAIL %s: %" PRIu64 " of %" PRIu64 " mismatched\n", suite, f,
                  c);
    else
      std::printf("PASS %s: %" PRIu64 " checks\n", suite, c);
    std::fflush(stdout);
    return f == 0;
  }

private:
  static constexpr uint64_t kMaxPrinted = 12;
  const char *suite;
  std::atomic<uint64_t> checks{0}, failures{0};
  std::mutex printMutex;
};

unsigned threadCount() {
  unsigned n = std::thread::hardware_concurrency();
  return n ? n : 1;
}

/// Runs body(begin, end) over [0, n) split across the hardware threads.
void parallelFor(uint64_t n,
                 const std::function<void(uint64_t, uint64_t)> &body) {
  unsigned t = threadCount();
  if (n < 4096 || t == 1) {
    body(0, n);
    return;
  }
  // Small chunks keep the threads busy to the end.
  std::atomic<uint64_t> next{0};
  const uint64_t chunk = std::max<uint64_t>(1024, n / (t * 64));
  std::vector<std::thread> threads;
  for (unsigned i = 0; i < t; ++i)
    threads.emplace_back([&] {
      for (;;) {
        uint64_t b = next.fetch_add(chunk);
        if (b >= n)
          return;
        body(b, std::min(n, b + chunk));
      }
    });
  for (auto &th : threads)
    th.join();
}

std::string hex(uint64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "0x%" PRIx64, v);
  return buf;
}

std::string describeConvert(unsigned src, uint32_t in, unsigned dst,
                            unsigned rounding, unsigned flags, uint32_t got,
                            uint32_t want) {
  char buf[256];
  std::snprintf(buf, sizeof(buf), "%s %#x -> %s.%s%s: got %#x want %#x",
                coopvecFormatName(src), in, coopvecFormatName(dst),
                modeName(rounding), flagsName(flags).c_str(), got, want);
  return buf;
}

/// The (rounding, flags) configurations checked for every input.
struct Config {
  unsigned rounding, flags;
};
std::vector<Config> deterministicConfigs() {
  std::vector<Config> configs;
  for (unsigned m : kDeterministicModes)
    for (unsigned flags : {0u, unsigned(COOPVEC_CVT_SATFINITE)})
      configs.push_back({m, flags});
  configs.push_back({COOPVEC_RND_RN, COOPVEC_CVT_RELU});
  configs.push_back(
      {COOPVEC_RND_RN, COOPVEC_CVT_RELU | COOPVEC_CVT_SATFINITE});
  return configs;
}

//===----------------------------------------------------------------------===//
// decode: every encoding of every format of 8 bits or fewer, f16 and bf16
//===----------------------------------------------------------------------===//

bool testDecode() {
  Report r("decode");
  struct Case {
    unsigned fmt, count;
  };
  const Case cases[] = {
      {COOPVEC_FMT_E4M3, 256},  {COOPVEC_FMT_E5M2, 256},
      {COOPVEC_FMT_E2M3, 64},   {COOPVEC_FMT_E3M2, 64},
      {COOPVEC_FMT_E2M1, 16},   {COOPVEC_FMT_UE8M0, 256},
      {COOPVEC_FMT_UE4M3, 128}, {COOPVEC_FMT_F16, 65536},
      {COOPVEC_FMT_BF16, 65536}};
  for (const Case &c : cases) {
    for (uint32_t b = 0; b < c.count; ++b) {
      double want = apDecode(c.fmt, b);
      double got = coopvecDecode(c.fmt, b);
      r.check(sameDouble(got, want), [&] {
        return std::string(coopvecFormatName(c.fmt)) + " " + hex(b) +
               ": got " + std::to_string(got) + " want " +
               std::to_string(want);
      });
      // The f32 decode is the same value.
      double viaF32 = double(coopvecDecodeToF32(c.fmt, b));
      r.check(sameDouble(viaF32, want), [&] {
        return std::string(coopvecFormatName(c.fmt)) + " " + hex(b) +
               " via f32: got " + std::to_string(viaF32);
      });
      // ... to the bit: NaN is the quiet NaN of its sign, 0x7FC00000 or
      // 0xFFC00000 (F16 and BF16 take a direct path).
      uint32_t viaBits = floatBits(coopvecDecodeToF32(c.fmt, b));
      uint32_t wantBits = std::isnan(want)
                              ? (std::signbit(want) ? 0xFFC00000u : 0x7FC00000u)
                              : floatBits(float(want));
      r.check(viaBits == wantBits, [&] {
        return std::string(coopvecFormatName(c.fmt)) + " " + hex(b) +
               " via f32: bits " + hex(viaBits) + " want " + hex(wantBits);
      });
    }
  }
  // Padding bits are ignored: 6-bit formats in a byte, UE4M3's bit 7.
  for (uint32_t b = 0; b < 256; ++b) {
    r.check(sameDouble(coopvecDecode(COOPVEC_FMT_E2M3, b),
                       apDecode(COOPVEC_FMT_E2M3, b & 0x3F)),
            [&] { return "e2m3 padding " + hex(b); });
    r.check(sameDouble(coopvecDecode(COOPVEC_FMT_UE4M3, b),
                       apDecode(COOPVEC_FMT_E4M3, b & 0x7F)),
            [&] { return "ue4m3 bit 7 " + hex(b); });
  }
  // Hand-checked anchors of the scale formats.
  r.check(coopvecDecode(COOPVEC_FMT_UE8M0, 0x00) == std::ldexp(1.0, -127),
          [] { return std::string("ue8m0 0x00 != 2^-127"); });
  r.check(coopvecDecode(COOPVEC_FMT_UE8M0, 0xFE) == std::ldexp(1.0, 127),
          [] { return std::string("ue8m0 0xfe != 2^127"); });
  r.check(std::isnan(coopvecDecode(COOPVEC_FMT_UE8M0, 0xFF)),
          [] { return std::string("ue8m0 0xff not NaN"); });
  r.check(coopvecDecode(COOPVEC_FMT_UE4M3, 0x7E) == 448.0,
          [] { return std::string("ue4m3 0x7e != 448"); });
  r.check(std::isnan(coopvecDecode(COOPVEC_FMT_UE4M3, 0x7F)),
          [] { return std::string("ue4m3 0x7f not NaN"); });
  return r.finish();
}

//===----------------------------------------------------------------------===//
// convert-f16 / convert-bf16: every 16-bit input, every destination, every
// deterministic mode, with and without satfinite (and relu)
//===----------------------------------------------------------------------===//

bool testConvert16(unsigned src, const char *suite) {
  Report r(suite);
  const std::vector<Config> configs = deterministicConfigs();
  parallelFor(65536, [&](uint64_t begin, uint64_t end) {
    for (uint64_t b = begin; b < end; ++b) {
      APFloat x(semantics(src), APInt(16, b));
      for (unsigned dst : kAllDstFormats) {
        for (const Config &c : configs) {
          uint32_t want = expectConvert(dst, x, c.rounding, c.flags);
          uint32_t got =
              coopvecConvert(dst, src, uint32_t(b), c.rounding, c.flags, 0);
          r.check(got == want, [&] {
            return describeConvert(src, uint32_t(b), dst, c.rounding, c.flags,
                                   got, want);
          });
        }
      }
    }
  });
  return r.finish();
}

//===----------------------------------------------------------------------===//
// convert-f32: a structured sample (every exponent, both signs, mantissas at
// and around every rounding boundary, specials, random fill)
//===----------------------------------------------------------------------===//

std::vector<uint32_t> structuredF32Sample(uint64_t seed, unsigned randomPerExp) {
  std::vector<uint32_t> v;
  Rng rng(seed);
  for (uint32_t sign = 0; sign < 2; ++sign) {
    for (uint32_t e = 0; e < 256; ++e) {
      auto add = [&](uint32_t m) {
        v.push_back((sign << 31) | (e << 23) | (m & 0x7FFFFF));
      };
      for (uint32_t m : {0u, 1u, 2u, 3u, 0x7FFFFFu, 0x7FFFFEu, 0x400000u,
                         0x400001u, 0x3FFFFFu, 0x200000u, 0x600000u})
        add(m);
      // Every dropped-bit count s: the boundary k * 2^s, the half-way point
      // k * 2^s + 2^(s-1) and their neighbours, for even and odd k.
      for (uint32_t s = 1; s <= 23; ++s) {
        uint32_t kMax = 0x7FFFFF >> s;
        for (uint32_t k : {0u, 1u, 2u, 3u, kMax, kMax - 1}) {
          uint32_t base = k << s, half = 1u << (s - 1);
          for (int d : {-1, 0, 1}) {
            add(base + half + d);
            add(base + d);
          }
        }
      }
      for (unsigned i = 0; i < randomPerExp; ++i)
        add(rng.next32());
    }
  }
  // Canonical and payload NaNs.
  for (uint32_t u : {0x7FC00000u, 0xFFC00000u, 0x7F800001u, 0xFFBFFFFFu})
    v.push_back(u);
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

bool testConvertF32() {
  Report r("convert-f32");
  const std::vector<uint32_t> inputs = structuredF32Sample(0xC00BEC, 16);
  const std::vector<Config> configs = deterministicConfigs();
  parallelFor(inputs.size(), [&](uint64_t begin, uint64_t end) {
    for (uint64_t i = begin; i < end; ++i) {
      uint32_t u = inputs[i];
      APFloat x(APFloat::IEEEsingle(), APInt(32, u));
      for (unsigned dst : kAllDstFormats)
        for (const Config &c : configs) {
          uint32_t want = expectConvert(dst, x, c.rounding, c.flags);
          uint32_t got =
              coopvecConvertF32(dst, bitsFloat(u), c.rounding, c.flags, 0);
          r.check(got == want, [&] {
            return describeConvert(COOPVEC_FMT_F32, u, dst, c.rounding,
                                   c.flags, got, want);
          });
        }
    }
  });
  return r.finish();
}

//===----------------------------------------------------------------------===//
// edge: the documented answers where APFloat is wrong or silent
//===----------------------------------------------------------------------===//

bool testEdgeCases() {
  Report r("edge");
  const float inf = INFINITY, nan = NAN;
  struct Case {
    unsigned dst;
    float x;
    unsigned rounding, flags;
    uint32_t want;
    const char *why;
  };
  const unsigned SAT = COOPVEC_CVT_SATFINITE, RELU = COOPVEC_CVT_RELU;
  const unsigned RN = COOPVEC_RND_RN, RZ = COOPVEC_RND_RZ,
                 RP = COOPVEC_RND_RP;
  const Case cases[] = {
      // inf/NaN into finite-only formats (APFloat: +-0).
      {COOPVEC_FMT_E2M1, inf, RN, SAT, 0x7, "+inf -> +6"},
      {COOPVEC_FMT_E2M1, -inf, RN, SAT, 0xF, "-inf -> -6"},
      {COOPVEC_FMT_E2M1, inf, RN, 0, 0x7, "+inf non-sat still saturates"},
      {COOPVEC_FMT_E2M1, nan, RN, SAT, 0x7, "NaN -> +MAX_NORM"},
      {COOPVEC_FMT_E2M1, -nan, RN, SAT, 0x7, "-NaN -> +MAX_NORM"},
      {COOPVEC_FMT_E2M3, -inf, RN, SAT, 0x3F, "-inf -> -7.5"},
      {COOPVEC_FMT_E2M3, nan, RZ, 0, 0x1F, "NaN -> +7.5"},
      {COOPVEC_FMT_E3M2, inf, RN, SAT, 0x1F, "+inf -> +28"},
      {COOPVEC_FMT_E3M2, -nan, RN, 0, 0x1F, "-NaN -> +28"},
      {COOPVEC_FMT_E3M2, 1e9f, RN, 0, 0x1F, "overflow saturates"},
      // E8M0: sign dropped, zero clamps (APFloat: sign bit set, 0x00 silent).
      {COOPVEC_FMT_UE8M0, -1e-30f, RN, 0, 0x1B, "|-1e-30| -> 2^-100"},
      {COOPVEC_FMT_UE8M0, -4.0f, RZ, SAT, 0x81, "|-4| -> 2^2"},
      {COOPVEC_FMT_UE8M0, 0.0f, RP, SAT, 0x00, "+0 -> 2^-127"},
      {COOPVEC_FMT_UE8M0, -0.0f, RZ, SAT, 0x00, "-0 -> 2^-127"},
      {COOPVEC_FMT_UE8M0, 1e-45f, RP, SAT, 0x00, "below 2^-127 clamps"},
      {COOPVEC_FMT_UE8M0, inf, RP, SAT, 0xFE, "+inf satfinite -> 2^127"},
      {COOPVEC_FMT_UE8M0, inf, RZ, 0, 0xFF, "+inf -> NaN"},
      {COOPVEC_FMT_UE8M0, 3e38f, RP, 0, 0xFF, "rp overflow -> NaN"},
      {COOPVEC_FMT_UE8M0, 3e38f, RP, SAT, 0xFE, "rp overflow satfinite"},
      {COOPVEC_FMT_UE8M0, 3e38f, RZ, 0, 0xFE, "rz never overflows"},
      {COOPVEC_FMT_UE8M0, 1.5f, RN, 0, 0x80, "rn tie rounds up"},
      {COOPVEC_FMT_UE8M0, -3.0f, RN, RELU, 0x00, "relu: -3 -> +0 -> 2^-127"},
      {COOPVEC_FMT_UE8M0, nan, RZ, SAT, 0xFF, "NaN -> 0xff"},
      // UE4M3: |x|, NaN 0x7F.
      {COOPVEC_FMT_UE4M3, -2.0f, RN, SAT, 0x40, "|-2| -> 2"},
      {COOPVEC_FMT_UE4M3, -nan, RN, SAT, 0x7F, "NaN positive"},
      {COOPVEC_FMT_UE4M3, 1000.0f, RN, 0, 0x7F, "overflow -> NaN"},
      {COOPVEC_FMT_UE4M3, 1000.0f, RN, SAT, 0x7E, "overflow satfinite"},
      // E4M3 / E5M2 overflow and specials.
      {COOPVEC_FMT_E4M3, 464.0f, RN, 0, 0x7E, "tie at 464 rounds to 448"},
      {COOPVEC_FMT_E4M3, 464.01f, RN, 0, 0x7F, "above the tie -> NaN"},
      {COOPVEC_FMT_E4M3, -1000.0f, RN, SAT, 0xFE, "satfinite -448"},
      {COOPVEC_FMT_E4M3, -inf, RN, 0, 0xFF, "-inf -> -NaN"},
      {COOPVEC_FMT_E4M3, -inf, RN, SAT, 0xFE, "-inf satfinite -> -448"},
      {COOPVEC_FMT_E4M3, -nan, RN, RELU, 0x7F, "relu NaN -> +NaN"},
      {COOPVEC_FMT_E4M3, -1.0f, RN, RELU, 0x00, "relu -1 -> +0"},
      {COOPVEC_FMT_E4M3, -0.0f, RN, RELU, 0x00, "relu -0 -> +0"},
      {COOPVEC_FMT_E5M2, 61440.0f, RN, 0, 0x7C, "E5M2 tie above max -> inf"},
      {COOPVEC_FMT_E5M2, 61440.0f, RN, SAT, 0x7B, "E5M2 satfinite"},
      {COOPVEC_FMT_E5M2, inf, RZ, 0, 0x7C, "inf stays inf in rz"},
      {COOPVEC_FMT_E5M2, -nan, RN, 0, 0xFE, "canonical -NaN"},
      {COOPVEC_FMT_F16, -inf, RN, RELU, 0x0000, "relu -inf -> +0"},
      {COOPVEC_FMT_BF16, nan, RN, SAT, 0x7FC0, "bf16 NaN satfinite"},
      {COOPVEC_FMT_TF32, 1.0f + 0x1p-11f, RN, 0, 0x3F800000, "tf32 tie even"},
      {COOPVEC_FMT_TF32, 1.0f + 0x1p-11f, COOPVEC_RND_RNA, 0, 0x3F802000,
       "tf32 rna"},
  };
  for (const Case &c : cases) {
    uint32_t got = coopvecConvertF32(c.dst, c.x, c.rounding, c.flags, 0);
    r.check(got == c.want, [&] {
      return describeConvert(COOPVEC_FMT_F32, floatBits(c.x), c.dst,
                             c.rounding, c.flags, got, c.want) +
             " (" + c.why + ")";
    });
  }
  return r.finish();
}

//===----------------------------------------------------------------------===//
// stochastic: exact against the definition, and unbiased
//===----------------------------------------------------------------------===//

/// Independent stochastic rounding: truncate with APFloat (rz), then decide
/// the step up from the exact dropped fraction.
uint32_t expectStochastic(unsigned dst, float xf, unsigned flags,
                          uint32_t rbits) {
  APFloat x(xf);
  if (!x.isFinite() || x.isZero())
    return expectConvert(dst, x, COOPVEC_RND_RZ, flags);
  if ((flags & COOPVEC_CVT_RELU) && x.isNegative())
    return expectConvert(dst, x, COOPVEC_RND_RN, flags);
  if (isUnsigned(dst))
    x.clearSign();
  bool neg = x.isNegative();
  const llvm::fltSemantics &sem = semantics(dst);
  bool lost;
  APFloat lo = x;
  lo.convert(sem, APFloat::rmTowardZero, &lost);
  // rz overflowed (E8M0 above 2^127): no neighbours to step between, and
  // the fraction below would be NaN (converting it to an integer is UB).
  if (lo.isNaN() || lo.isInfinity())
    return expectConvert(dst, x, COOPVEC_RND_RZ, flags);
  APFloat up = lo;
  up.next(neg); // one ulp away from zero
  double xd = std::fabs(double(xf));
  double loD = std::fabs(apDecode(dst, bitsOf(dst, lo)));
  double upD = std::fabs(apDecode(dst, bitsOf(dst, up)));
  // Neighbours differ by a power of two; past MAX_NORM the ulp is the
  // spacing just below it: there `up` is not finite, or, in a format without
  // inf and NaN (FP6, FP4), APFloat's next() stays at MAX_NORM (ulp 0, and
  // the fraction below would be NaN).
  double ulp = upD - loD;
  if (!std::isfinite(ulp) || ulp == 0) {
    APFloat below = lo;
    below.next(!neg);
    ulp = loD - std::fabs(apDecode(dst, bitsOf(dst, below)));
  }
  unsigned w = coopvecStochasticBits(dst);
  double frac = (xd - loD) / ulp;                      // exact dyadic in [0,1)
  if (frac >= 1) // beyond MAX_NORM + ulp: even the truncation overflows
    return expectConvert(dst, APFloat(neg ? -INFINITY : INFINITY),
                         COOPVEC_RND_RN, flags);
  uint64_t top = uint64_t(std::floor(std::ldexp(frac, w)));
  uint64_t rnd = rbits & ((1ull << w) - 1);
  // (APFloat::isLargest is false for E4M3FN's 448: compare bit patterns.)
  if (bitsOf(dst, lo) == largest(dst, neg)) {
    // Stepping up from MAX_NORM overflows: handled as RN overflow.
    if (top + rnd >= (1ull << w))
      return expectConvert(dst, APFloat(neg ? -INFINITY : INFINITY),
                           COOPVEC_RND_RN, flags);
    return bitsOf(dst, lo);
  }
  return bitsOf(dst, top + rnd >= (1ull << w) ? up : lo);
}

bool testStochastic() {
  Report r("stochastic");
  const unsigned dsts[] = {COOPVEC_FMT_F16,  COOPVEC_FMT_BF16, COOPVEC_FMT_E4M3,
                           COOPVEC_FMT_E5M2, COOPVEC_FMT_E2M3, COOPVEC_FMT_E3M2,
                           COOPVEC_FMT_E2M1, COOPVEC_FMT_UE4M3};
  // Exact: a structured sample of inputs within range, random bits.
  std::vector<uint32_t> inputs = structuredF32Sample(0x5EED, 2);
  Rng rng(42);
  std::vector<uint32_t> randoms(inputs.size());
  for (auto &v : randoms)
    v = rng.next32();
  parallelFor(inputs.size(), [&](uint64_t begin, uint64_t end) {
    for (uint64_t i = begin; i < end; ++i) {
      float x = bitsFloat(inputs[i]);
      if (std::isnan(x) || std::isinf(x))
        continue;
      for (unsigned dst : dsts)
        for (unsigned flags : {0u, unsigned(COOPVEC_CVT_SATFINITE)}) {
          // Three draws: the random word, all zeros, all ones.
          for (uint32_t rb : {randoms[i], 0u, 0xFFFFFFFFu}) {
            uint32_t got = coopvecConvertF32(dst, x, COOPVEC_RND_RS, flags, rb);
            uint32_t want = expectStochastic(dst, x, flags, rb);
            r.check(got == want, [&] {
              return describeConvert(COOPVEC_FMT_F32, inputs[i], dst,
                                     COOPVEC_RND_RS, flags, got, want) +
                     " rbits " + hex(rb);
            });
          }
        }
    }
  });
  // Unbiased: the mean over N draws is within 5 standard errors plus the
  // truncation bias bound (2^-w ulp) of the input.
  const unsigned kDraws = 200000;
  Rng draws(7);
  for (unsigned dst : dsts) {
    for (float x : {0.3f, -1.1f, 2.7182817f, 5.3f, 0.0123f, -0.8671875f}) {
      if (isUnsigned(dst) && x < 0)
        continue;
      APFloat ax(x), lo = ax;
      bool lost;
      lo.convert(semantics(dst), APFloat::rmTowardZero, &lost);
      APFloat up = lo;
      up.next(x < 0);
      double loD = apDecode(dst, bitsOf(dst, lo)),
             upD = apDecode(dst, bitsOf(dst, up));
      double ulp = std::fabs(upD - loD);
      double sum = 0;
      for (unsigned k = 0; k < kDraws; ++k)
        sum += coopvecDecode(dst, coopvecConvertF32(dst, x, COOPVEC_RND_RS,
                                                    COOPVEC_CVT_SATFINITE,
                                                    draws.next32()));
      double mean = sum / kDraws;
      double p = std::fabs(double(x) - loD) / ulp;
      double stderr_ = ulp * std::sqrt(p * (1 - p) / kDraws);
      double bound = 5 * stderr_ + ulp * std::ldexp(1.0, -int(
                                        coopvecStochasticBits(dst))) + 1e-300;
      double err = std::fabs(mean - double(x));
      r.check(err <= bound, [&] {
        char buf[200];
        std::snprintf(buf, sizeof(buf),
                      "%s bias at %g: mean %.9g error %.3g > bound %.3g",
                      coopvecFormatName(dst), double(x), mean, err, bound);
        return std::string(buf);
      });
    }
  }
  return r.finish();
}

//===----------------------------------------------------------------------===//
// packed: PTX layouts and random-bit sharing
//===----------------------------------------------------------------------===//

bool testPacked() {
  Report r("packed");
  auto expect = [&](const char *what, uint32_t got, uint32_t want) {
    r.check(got == want, [&] {
      return std::string(what) + ": got " + hex(got) + " want " + hex(want);
    });
  };
  const unsigned RN = COOPVEC_RND_RN, SAT = COOPVEC_CVT_SATFINITE;
  // Hand-checked words: a lands in the most significant field.
  expect("e2m1x2(1.0, -0.5)", coopvecPackX2(COOPVEC_FMT_E2M1, 1.0f, -0.5f, RN,
                                            SAT, 0),
         0x29);
  expect("e4m3x2(1.0, -2.0)", coopvecPackX2(COOPVEC_FMT_E4M3, 1.0f, -2.0f, RN,
                                            SAT, 0),
         0x38C0);
  expect("e5m2x2(1.0, 0.5)", coopvecPackX2(COOPVEC_FMT_E5M2, 1.0f, 0.5f, RN,
                                           SAT, 0),
         0x3C38);
  expect("e2m3x2(-7.5, 1.0)", coopvecPackX2(COOPVEC_FMT_E2M3, -7.5f, 1.0f, RN,
                                            SAT, 0),
         0x3F08);
  expect("e3m2x2(28, 0.25)", coopvecPackX2(COOPVEC_FMT_E3M2, 28.0f, 0.25f, RN,
                                           SAT, 0),
         0x1F04);
  expect("ue8m0x2(2^-127.., 4)",
         coopvecPackX2(COOPVEC_FMT_UE8M0, 0.0f, 4.0f, COOPVEC_RND_RP, SAT, 0),
         0x0081);
  expect("f16x2(1.0, -2.0)",
         coopvecPackX2(COOPVEC_FMT_F16, 1.0f, -2.0f, RN, 0, 0), 0x3C00C000);
  expect("bf16x2(1.0, 3.0)",
         coopvecPackX2(COOPVEC_FMT_BF16, 1.0f, 3.0f, RN, 0, 0), 0x3F804040);
  expect("e4m3x4(1, 2, 4, -1)",
         coopvecPackX4(COOPVEC_FMT_E4M3, 1.0f, 2.0f, 4.0f, -1.0f, RN, SAT, 0),
         0x384048B8);
  expect("e2m1x4(6, 0.5, -1, 3)",
         coopvecPackX4(COOPVEC_FMT_E2M1, 6.0f, 0.5f, -1.0f, 3.0f, RN, SAT, 0),
         0x71A5);
  expect("e3m2x4(1, 1, 1, 1)",
         coopvecPackX4(COOPVEC_FMT_E3M2, 1.0f, 1.0f, 1.0f, 1.0f, RN, SAT, 0),
         0x0C0C0C0C);

  // Random-bit sharing: x4 results equal per-element conversions with the
  // documented slices of rbits.
  Rng rng(99);
  for (unsigned iter = 0; iter < 20000; ++iter) {
    float v[4];
    for (float &x : v)
      x = float((rng.uniform() * 2 - 1) * std::ldexp(1.0, int(rng.next() % 12) - 6));
    uint32_t rb = rng.next32();
    for (unsigned fmt : {COOPVEC_FMT_E4M3, COOPVEC_FMT_E5M2, COOPVEC_FMT_E2M3,
                         COOPVEC_FMT_E3M2, COOPVEC_FMT_E2M1}) {
      uint32_t ab, ef;
      unsigned w = fmt == COOPVEC_FMT_E2M1 ? 4 : 8;
      if (fmt == COOPVEC_FMT_E2M1) {
        ab = ((rb >> 24) << 8) | ((rb >> 8) & 0xFF);
        ef = (((rb >> 16) & 0xFF) << 8) | (rb & 0xFF);
      } else {
        ab = rb >> 16;
        ef = rb & 0xFFFF;
      }
      uint32_t want = 0;
      for (unsigned k = 0; k < 4; ++k)
        want = (want << w) | coopvecConvertF32(fmt, v[k], COOPVEC_RND_RS, SAT,
                                               k < 2 ? ab : ef);
      expect("x4 rbits", coopvecPackX4(fmt, v[0], v[1], v[2], v[3],
                                       COOPVEC_RND_RS, SAT, rb),
             want);
      // Unpacking returns the decoded elements in a, b, e, f order.
      float out[4];
      coopvecUnpackX4(fmt, want, out);
      for (unsigned k = 0; k < 4; ++k) {
        uint32_t code = (want >> (w * (3 - k))) & ((1u << w) - 1);
        expect("unpack x4", floatBits(out[k]),
               floatBits(coopvecDecodeToF32(fmt, code)));
      }
    }
    uint32_t f16 = coopvecPackX2(COOPVEC_FMT_F16, v[0], v[1], COOPVEC_RND_RS,
                                 0, rb);
    expect("f16x2 rbits", f16,
           (coopvecConvertF32(COOPVEC_FMT_F16, v[0], COOPVEC_RND_RS, 0,
                              (rb >> 16) & 0x1FFF)
            << 16) |
               coopvecConvertF32(COOPVEC_FMT_F16, v[1], COOPVEC_RND_RS, 0,
                                 rb & 0x1FFF));
    float hi, lo;
    coopvecUnpackX2(COOPVEC_FMT_F16, f16, &hi, &lo);
    expect("unpack f16x2 hi", floatBits(hi),
           floatBits(coopvecDecodeToF32(COOPVEC_FMT_F16, f16 >> 16)));
    expect("unpack f16x2 lo", floatBits(lo),
           floatBits(coopvecDecodeToF32(COOPVEC_FMT_F16, f16 & 0xFFFF)));
  }
  return r.finish();
}

//===----------------------------------------------------------------------===//
// dxil: the interpretation conversion rules
//===----------------------------------------------------------------------===//

bool testDxil() {
  Report r("dxil");
  auto expect = [&](const char *what, uint64_t got, uint64_t want) {
    r.check(got == want, [&] {
      return std::string(what) + ": got " + hex(got) + " want " + hex(want);
    });
  };
  auto f32 = [](float f) { return uint64_t(floatBits(f)); };
  // int -> int saturates.
  expect("i32 300 -> i8", coopvecDxilConvert(COOPVEC_FMT_I8, COOPVEC_FMT_I32, 300), 0x7F);
  expect("i32 -300 -> i8", coopvecDxilConvert(COOPVEC_FMT_I8, COOPVEC_FMT_I32, uint32_t(-300)), 0x80);
  expect("i8 -1 -> u16", coopvecDxilConvert(COOPVEC_FMT_U16, COOPVEC_FMT_I8, 0xFF), 0);
  expect("u32 max -> i32", coopvecDxilConvert(COOPVEC_FMT_I32, COOPVEC_FMT_U32, 0xFFFFFFFF), 0x7FFFFFFF);
  expect("u16 65535 -> i16", coopvecDxilConvert(COOPVEC_FMT_I16, COOPVEC_FMT_U16, 0xFFFF), 0x7FFF);
  expect("i16 -5 -> i32", coopvecDxilConvert(COOPVEC_FMT_I32, COOPVEC_FMT_I16, 0xFFFB), 0xFFFFFFFB);
  // float -> int: RNE and saturating; NaN -> 0.
  expect("2.5 -> i8", coopvecDxilConvert(COOPVEC_FMT_I8, COOPVEC_FMT_F32, f32(2.5f)), 2);
  expect("3.5 -> i8", coopvecDxilConvert(COOPVEC_FMT_I8, COOPVEC_FMT_F32, f32(3.5f)), 4);
  expect("-2.5 -> i8", coopvecDxilConvert(COOPVEC_FMT_I8, COOPVEC_FMT_F32, f32(-2.5f)), 0xFE);
  expect("-0.5 -> i8", coopvecDxilConvert(COOPVEC_FMT_I8, COOPVEC_FMT_F32, f32(-0.5f)), 0);
  expect("-1 -> u8", coopvecDxilConvert(COOPVEC_FMT_U8, COOPVEC_FMT_F32, f32(-1.0f)), 0);
  expect("1e10 -> i32", coopvecDxilConvert(COOPVEC_FMT_I32, COOPVEC_FMT_F32, f32(1e10f)), 0x7FFFFFFF);
  expect("-inf -> i32", coopvecDxilConvert(COOPVEC_FMT_I32, COOPVEC_FMT_F32, f32(-INFINITY)), 0x80000000);
  expect("NaN -> i16", coopvecDxilConvert(COOPVEC_FMT_I16, COOPVEC_FMT_F32, f32(NAN)), 0);
  expect("255.5 -> u8", coopvecDxilConvert(COOPVEC_FMT_U8, COOPVEC_FMT_F32, f32(255.5f)), 255);
  expect("e4m3 -448 -> i8", coopvecDxilConvert(COOPVEC_FMT_I8, COOPVEC_FMT_E4M3, 0xFE), 0x80);
  expect("f16 0.5 -> u32", coopvecDxilConvert(COOPVEC_FMT_U32, COOPVEC_FMT_F16, 0x3800), 0);
  expect("f16 1.5 -> u32", coopvecDxilConvert(COOPVEC_FMT_U32, COOPVEC_FMT_F16, 0x3E00), 2);
  // int -> float: RNE from the exact integer (no f32 double rounding).
  expect("u32 2^31+2^23+1 -> bf16 (no double rounding)",
         coopvecDxilConvert(COOPVEC_FMT_BF16, COOPVEC_FMT_U32, 0x80800001u),
         0x4F01);
  expect("u32 2^24+1 -> f32", coopvecDxilConvert(COOPVEC_FMT_F32, COOPVEC_FMT_U32, 0x1000001), f32(16777216.0f));
  expect("u32 2^24+3 -> f32", coopvecDxilConvert(COOPVEC_FMT_F32, COOPVEC_FMT_U32, 0x1000003), f32(16777220.0f));
  expect("i32 70000 -> f16 saturates", coopvecDxilConvert(COOPVEC_FMT_F16, COOPVEC_FMT_I32, 70000), 0x7BFF);
  expect("i8 -128 -> e4m3", coopvecDxilConvert(COOPVEC_FMT_E4M3, COOPVEC_FMT_I8, 0x80), 0xF0);
  // float -> float: RNE; finite overflow saturates; inf kept where it exists.
  expect("1e6 -> f16", coopvecDxilConvert(COOPVEC_FMT_F16, COOPVEC_FMT_F32, f32(1e6f)), 0x7BFF);
  expect("inf -> f16", coopvecDxilConvert(COOPVEC_FMT_F16, COOPVEC_FMT_F32, f32(INFINITY)), 0x7C00);
  expect("-inf -> e4m3", coopvecDxilConvert(COOPVEC_FMT_E4M3, COOPVEC_FMT_F32, f32(-INFINITY)), 0xFE);
  expect("NaN -> e4m3", coopvecDxilConvert(COOPVEC_FMT_E4M3, COOPVEC_FMT_F32, f32(NAN)), 0x7F);
  expect("e5m2 inf -> f16", coopvecDxilConvert(COOPVEC_FMT_F16, COOPVEC_FMT_E5M2, 0x7C), 0x7C00);
  expect("f16 max -> e5m2", coopvecDxilConvert(COOPVEC_FMT_E5M2, COOPVEC_FMT_F16, 0x7BFF), 0x7B);

  // Every i16/u16 into every float destination against APFloat's integer
  // conversion (RNE), saturated; random i32/u32.
  const unsigned floatDsts[] = {COOPVEC_FMT_F32,  COOPVEC_FMT_F16,
                                COOPVEC_FMT_BF16, COOPVEC_FMT_E4M3,
                                COOPVEC_FMT_E5M2};
  auto intCase = [&](unsigned src, int64_t v, uint64_t bits) {
    for (unsigned dst : floatDsts) {
      APFloat ap(semantics(dst));
      auto st = ap.convertFromAPInt(APInt(64, uint64_t(v), true), true,
                                    APFloat::rmNearestTiesToEven);
      (void)st;
      uint32_t want = (ap.isInfinity() || ap.isNaN())
                          ? largest(dst, v < 0)
                          : bitsOf(dst, ap);
      uint64_t got = coopvecDxilConvert(dst, src, bits);
      r.check(got == want, [&] {
        return std::string(coopvecFormatName(src)) + " " + std::to_string(v) +
               " -> " + coopvecFormatName(dst) + ": got " + hex(got) +
               " want " + hex(want);
      });
    }
  };
  for (uint32_t b = 0; b < 65536; ++b) {
    intCase(COOPVEC_FMT_I16, int16_t(b), b);
    intCase(COOPVEC_FMT_U16, b, b);
  }
  Rng rng(5);
  for (unsigned i = 0; i < 200000; ++i) {
    uint32_t b = rng.next32() >> (rng.next() % 32);
    intCase(COOPVEC_FMT_I32, int32_t(b), b);
    intCase(COOPVEC_FMT_U32, b, b);
  }
  // Packed interpretations are bitcasts, byte 0 first.
  int32_t s[4], u[4];
  coopvecDxilUnpackS8x32(0x80FF017Fu, s);
  coopvecDxilUnpackU8x32(0x80FF017Fu, u);
  expect("s8x32[0]", uint32_t(s[0]), 127);
  expect("s8x32[1]", uint32_t(s[1]), 1);
  expect("s8x32[2]", uint32_t(s[2]), uint32_t(-1));
  expect("s8x32[3]", uint32_t(s[3]), uint32_t(-128));
  expect("u8x32[2]", uint32_t(u[2]), 255);
  expect("u8x32[3]", uint32_t(u[3]), 128);
  return r.finish();
}

} // namespace

// Suites in other files.
bool testMx();
bool testSimd();
bool runExhaustive(unsigned first, unsigned count);

int main(int argc, char **argv) {
  if (argc < 2) {
    std::fprintf(stderr,
                 "usage: %s <suite>... | --exhaustive [first count]\n"
                 "suites: decode convert-f16 convert-bf16 convert-f32 edge "
                 "stochastic packed dxil mx simd all\n",
                 argv[0]);
    return 2;
  }
  bool ok = true;
  for (int i = 1; i < argc; ++i) {
    std::string s = argv[i];
    bool all = s == "all";
    if (s == "--exhaustive") {
      unsigned first = 0, count = ~0u;
      if (i + 2 < argc) {
        first = unsigned(std::atoi(argv[i + 1]));
        count = unsigned(std::atoi(argv[i + 2]));
        i += 2;
      }
      ok &= runExhaustive(first, count);
      continue;
    }
    bool known = all;
    auto run = [&](const char *name, bool (*fn)()) {
      if (all || s == name) {
        known = true;
        ok &= fn();
      }
    };
    run("decode", testDecode);
    run("convert-f16",
        [] { return testConvert16(COOPVEC_FMT_F16, "convert-f16"); });
    run("convert-bf16",
        [] { return testConvert16(COOPVEC_FMT_BF16, "convert-bf16"); });
    run("convert-f32", testConvertF32);
    run("edge", testEdgeCases);
    run("stochastic", testStochastic);
    run("packed", testPacked);
    run("dxil", testDxil);
    run("mx", testMx);
    run("simd", testSimd);
    if (!known) {
      std::fprintf(stderr, "unknown suite '%s'\n", s.c_str());
      return 2;
    }
  }
  return ok ? 0 : 1;
}
