//===- MxSimdTest.cpp - MX, SIMD-vs-scalar and exhaustive suites ----------===//
//
// MX / NVFP4 quantization against an independent implementation written
// here (double arithmetic + APFloat), the vectorized paths against the
// scalar path, and the opt-in exhaustive run over all 2^32 f32 inputs.
//
//===----------------------------------------------------------------------===//

#include "Oracle.h"

#include <algorithm>
#include <atomic>
#include <cinttypes>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

using namespace oracle;

namespace {

/// Mismatch counter (same contract as the one in NumericsTest.cpp).
class Report {
public:
  explicit Report(std::string suite) : suite(std::move(suite)) {}
  void check(bool ok, const std::function<std::string()> &describe) {
    checks.fetch_add(1, std::memory_order_relaxed);
    if (ok)
      return;
    if (failures.fetch_add(1, std::memory_order_relaxed) < 12) {
      std::lock_guard<std::mutex> lock(printMutex);
      std::printf("  mismatch: %s\n", describe().c_str());
    }
  }
  bool finish(const char *note = "") {
    uint64_t f = failures.load(), c = checks.load();
    if (f)
      std::printf("FAIL %s: %" PRIu64 " of %" PRIu64 " mismatched%s\n",
                  suite.c_str(), f, c, note);
    else
      std::printf("PASS %s: %" PRIu64 " checks%s\n", suite.c_str(), c, note);
    std::fflush(stdout);
    return f == 0;
  }

private:
  std::string suite;
  std::atomic<uint64_t> checks{0}, failures{0};
  std::mutex printMutex;
};

std::string hex(uint64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "0x%" PRIx64, v);
  return buf;
}

/// The dispatch state the process started with (COOPVEC_NUMERICS_SCALAR),
/// restored after each forced-scalar comparison.
int startedScalar() {
  const char *env = std::getenv("COOPVEC_NUMERICS_SCALAR");
  return env && env[0] && std::strcmp(env, "0") != 0;
}

constexpr unsigned kMxElements[] = {COOPVEC_FMT_E4M3, COOPVEC_FMT_E5M2,
                                    COOPVEC_FMT_E2M3, COOPVEC_FMT_E3M2,
                                    COOPVEC_FMT_E2M1};

uint32_t loadCode(unsigned elem, const std::vector<uint8_t> &buf, size_t i) {
  if (elem != COOPVEC_FMT_E2M1)
    return buf[i];
  return (i & 1) ? buf[i / 2] >> 4 : buf[i / 2] & 0xF;
}

size_t elemBytes(unsigned elem, size_t n) {
  return elem == COOPVEC_FMT_E2M1 ? (n + 1) / 2 : n;
}

/// Independent OCP MX reference for one block.
void refMxBlock(unsigned elem, const float *v, size_t count, uint8_t &scale,
                std::vector<uint32_t> &codes) {
  codes.assign(count, 0);
  double amax = 0;
  for (size_t i = 0; i < count; ++i) {
    if (!std::isfinite(v[i])) {
      scale = 0xFF;
      return;
    }
    amax = std::max(amax, std::fabs(double(v[i])));
  }
  // emax: floor(log2) of the element format's largest value.
  int emax = std::ilogb(
      APFloat::getLargest(semantics(elem)).convertToDouble());
  int s = amax == 0 ? -127 : std::ilogb(amax) - emax;
  s = std::min(127, std::max(-127, s));
  scale = uint8_t(s + 127);
  for (size_t i = 0; i < count; ++i)
    codes[i] = expectConvert(elem, APFloat(std::ldexp(double(v[i]), -s)),
                             COOPVEC_RND_RN, COOPVEC_CVT_SATFINITE);
}

/// Independent NVFP4 reference for one block.
void refNvfp4Block(const float *v, size_t count, uint8_t &scale,
                   std::vector<uint32_t> &codes) {
  codes.assign(count, 0);
  double amax = 0;
  for (size_t i = 0; i < count; ++i) {
    if (!std::isfinite(v[i])) {
      scale = 0x7F;
      return;
    }
    amax = std::max(amax, std::fabs(double(v[i])));
  }
  scale = uint8_t(expectConvert(COOPVEC_FMT_UE4M3, APFloat(amax / 6.0),
                                COOPVEC_RND_RN, COOPVEC_CVT_SATFINITE));
  double s = apDecode(COOPVEC_FMT_UE4M3, scale);
  for (size_t i = 0; i < count; ++i) {
    if (s == 0)
      codes[i] = std::signbit(v[i]) ? 0x8 : 0x0;
    else
      codes[i] = expectConvert(COOPVEC_FMT_E2M1, APFloat(double(v[i]) / s),
                               COOPVEC_RND_RN, COOPVEC_CVT_SATFINITE);
  }
}

/// Random test data: mixed magnitudes around a random block exponent,
/// subnormals, zeros and (rarely) inf/NaN blocks.
std::vector<float> randomBlocks(Rng &rng, size_t n, bool specials) {
  std::vector<float> v(n);
  for (size_t b = 0; b < n; b += 32) {
    int center = int(rng.next() % 280) - 150;
    unsigned kind = unsigned(rng.next() % 8);
    for (size_t i = b; i < std::min(n, b + 32); ++i) {
      double mag = rng.uniform() * std::ldexp(1.0, center + int(rng.next() % 12) - 6);
      if (kind == 1)
        mag = std::ldexp(double(rng.next() % 64), center); // many ties
      if (kind == 2 && rng.next() % 4 == 0)
        mag = 0;
      float f = float(rng.next() & 1 ? -mag : mag);
      v[i] = f;
    }
    if (kind == 3)
      v[b] = 1e30f; // outlier
    if (specials && kind == 4)
      v[b + rng.next() % std::min<size_t>(32, n - b)] =
          rng.next() & 1 ? NAN : -INFINITY;
  }
  return v;
}

bool compareMx(Report &r, unsigned elem, const std::vector<float> &v,
               const char *path) {
  size_t n = v.size(), blocks = (n + 31) / 32;
  std::vector<uint8_t> elems(elemBytes(elem, n), 0xAA), scales(blocks, 0xAA);
  coopvecMxQuantize(elem, v.data(), n, elems.data(), scales.data());
  std::vector<uint32_t> codes;
  uint8_t scale;
  for (size_t b = 0; b < blocks; ++b) {
    size_t count = std::min<size_t>(32, n - b * 32);
    refMxBlock(elem, v.data() + b * 32, count, scale, codes);
    r.check(scales[b] == scale, [&] {
      return std::string(path) + " " + coopvecFormatName(elem) + " block " +
             std::to_string(b) + " scale: got " + hex(scales[b]) + " want " +
             hex(scale);
    });
    for (size_t j = 0; j < count; ++j) {
      uint32_t got = loadCode(elem, elems, b * 32 + j);
      r.check(got == codes[j], [&] {
        char buf[200];
        std::snprintf(buf, sizeof(buf), "%s %s v=%a scale %#x: got %#x want %#x",
                      path, coopvecFormatName(elem), double(v[b * 32 + j]),
                      scale, got, codes[j]);
        return std::string(buf);
      });
    }
  }
  // Dequantization: code value * 2^(scale-127), NaN for a NaN scale.
  std::vector<float> back(n);
  coopvecMxDequantize(elem, elems.data(), scales.data(), n, back.data());
  for (size_t i = 0; i < n; ++i) {
    uint8_t s = scales[i / 32];
    float want = s == 0xFF ? NAN
                           : float(std::ldexp(apDecode(elem, loadCode(elem, elems, i)),
                                              int(s) - 127));
    r.check(sameDouble(back[i], want), [&] {
      return std::string(path) + " dequantize " + std::to_string(i);
    });
  }
  return true;
}

} // namespace

bool testMx() {
  Report r("mx");
  auto expectEq = [&](const std::string &what, uint64_t got, uint64_t want) {
    r.check(got == want, [&] {
      return what + ": got " + hex(got) + " want " + hex(want);
    });
  };
  // Hand-checked blocks.
  {
    float zeros[32] = {};
    zeros[5] = -0.0f;
    uint8_t e[32], s;
    coopvecMxQuantize(COOPVEC_FMT_E4M3, zeros, 32, e, &s);
    expectEq("zero block scale", s, 0x00);
    expectEq("zero block +0", e[0], 0x00);
    expectEq("zero block -0", e[5], 0x80);
  }
  {
    float v[32];
    for (float &x : v)
      x = 1.0f;
    v[7] = NAN;
    uint8_t e[32], s;
    coopvecMxQuantize(COOPVEC_FMT_E4M3, v, 32, e, &s);
    expectEq("NaN block scale", s, 0xFF);
    expectEq("NaN block code", e[0], 0);
    float back[32];
    coopvecMxDequantize(COOPVEC_FMT_E4M3, e, &s, 32, back);
    r.check(std::isnan(back[0]) && std::isnan(back[31]),
            [] { return std::string("NaN block dequantizes to NaN"); });
  }
  {
    float v[32];
    for (float &x : v)
      x = 1.0f;
    v[0] = 1e30f;
    uint8_t e[32], s;
    coopvecMxQuantize(COOPVEC_FMT_E4M3, v, 32, e, &s);
    expectEq("outlier scale (floor(log2 1e30) - 8 = 91)", s, 127 + 91);
    expectEq("outlier code (1e30 / 2^91 = 403.9 -> 416)", e[0], 0x7D);
    expectEq("1.0 under the outlier flushes to 0", e[1], 0x00);
  }
  {
    float v[32] = {};
    v[0] = 1.0f;
    v[1] = 0x1p-17f;       // 2^-9 after scaling: min subnormal
    v[2] = 0x1p-18f;       // half the min subnormal: ties to 0
    v[3] = 0x1.8p-18f;     // 0.75 ulp: rounds up
    v[4] = -0x1p-16f;      // -2 * 2^-9
    uint8_t e[32], s;
    coopvecMxQuantize(COOPVEC_FMT_E4M3, v, 32, e, &s);
    expectEq("subnormal block scale", s, 127 - 8);
    expectEq("1.0 -> 256", e[0], 0x78);
    expectEq("min subnormal", e[1], 0x01);
    expectEq("tie to zero", e[2], 0x00);
    expectEq("0.75 ulp", e[3], 0x01);
    expectEq("negative subnormal", e[4], 0x82);
  }
  {
    float v[32] = {6.0f, 5.0f, -0.25f, 0.75f, 7.9f};
    uint8_t e[16], s;
    coopvecMxQuantize(COOPVEC_FMT_E2M1, v, 32, e, &s);
    expectEq("mxfp4 scale", s, 127);
    expectEq("mxfp4 (6, 5->4)", e[0], 0x67);
    expectEq("mxfp4 (-0.25->-0, 0.75->1)", e[1], 0x28);
    expectEq("mxfp4 7.9 clamps to 6", e[2] & 0xF, 0x7);
  }
  // Round trip: blocks made of element values times 2^s come back exactly.
  Rng rng(2024);
  for (unsigned elem : kMxElements) {
    uint32_t maxCode = coopvecFormatMaxFinite(elem);
    unsigned bits = coopvecFormatBits(elem);
    for (unsigned iter = 0; iter < 200; ++iter) {
      int s = int(rng.next() % 200) - 100;
      float v[32];
      std::vector<uint32_t> codes(32);
      for (unsigned i = 0; i < 32; ++i) {
        uint32_t c = rng.next32() & ((1u << bits) - 1);
        if ((c & ~(1u << (bits - 1))) > maxCode) // skip NaN/inf codes
          c = maxCode;
        if (i == 0)
          c = maxCode; // fixes the block exponent
        codes[i] = c;
        v[i] = float(std::ldexp(apDecode(elem, c), s));
      }
      uint8_t e[32], sc;
      coopvecMxQuantize(elem, v, 32, e, &sc);
      float back[32];
      coopvecMxDequantize(elem, e, &sc, 32, back);
      for (unsigned i = 0; i < 32; ++i)
        r.check(floatBits(back[i]) == floatBits(v[i]) ||
                    (v[i] == 0 && back[i] == 0),
                [&] {
                  char buf[160];
                  std::snprintf(buf, sizeof(buf), "%s round trip %a -> %a",
                                coopvecFormatName(elem), double(v[i]),
                                double(back[i]));
                  return std::string(buf);
                });
    }
  }
  // Random blocks (including a partial last block) against the reference,
  // on the current dispatch path and on the forced scalar path.
  for (unsigned elem : kMxElements) {
    std::vector<float> v = randomBlocks(rng, 32 * 3000 + 7, true);
    compareMx(r, elem, v, "dispatch");
    coopvecNumericsForceScalar(1);
    compareMx(r, elem, v, "scalar");
    coopvecNumericsForceScalar(startedScalar());
  }
  // NVFP4.
  {
    float v[16] = {6.0f, -3.0f, 1.0f, 0.5f, 2.5f};
    uint8_t e[8], s;
    coopvecNvfp4Quantize(v, 16, e, &s);
    expectEq("nvfp4 scale 6/6 = 1", s, 0x38);
    expectEq("nvfp4 (6, -3)", e[0], 0xD7);
    expectEq("nvfp4 2.5 ties to 2", e[2] & 0xF, 0x4);
    float w[16] = {3.0f, 1.0f};
    coopvecNvfp4Quantize(w, 16, e, &s);
    expectEq("nvfp4 scale 3/6 = 0.5", s, 0x30);
    expectEq("nvfp4 (3 / 0.5 = 6, 1 / 0.5 = 2)", e[0], 0x47);
  }
  for (unsigned iter = 0; iter < 3; ++iter) {
    std::vector<float> v = randomBlocks(rng, 16 * 2000 + 5, true);
    size_t n = v.size(), blocks = (n + 15) / 16;
    std::vector<uint8_t> e((n + 1) / 2), s(blocks);
    coopvecNvfp4Quantize(v.data(), n, e.data(), s.data());
    std::vector<float> back(n);
    coopvecNvfp4Dequantize(e.data(), s.data(), n, back.data());
    std::vector<uint32_t> codes;
    uint8_t scale;
    for (size_t b = 0; b < blocks; ++b) {
      size_t count = std::min<size_t>(16, n - b * 16);
      refNvfp4Block(v.data() + b * 16, count, scale, codes);
      expectEq("nvfp4 scale", s[b], scale);
      for (size_t j = 0; j < count; ++j) {
        size_t i = b * 16 + j;
        uint32_t got = loadCode(COOPVEC_FMT_E2M1, e, i);
        r.check(got == codes[j], [&] {
          char buf[160];
          std::snprintf(buf, sizeof(buf), "nvfp4 v=%a scale %#x: got %#x want %#x",
                        double(v[i]), scale, got, codes[j]);
          return std::string(buf);
        });
        float want = scale == 0x7F ? NAN
                                   : float(apDecode(COOPVEC_FMT_E2M1, got) *
                                           apDecode(COOPVEC_FMT_UE4M3, scale));
        r.check(sameDouble(back[i], want),
                [&] { return "nvfp4 dequantize " + std::to_string(i); });
      }
    }
  }
  return r.finish();
}

//===----------------------------------------------------------------------===//
// simd: vectorized and scalar paths agree
//===----------------------------------------------------------------------===//

namespace {

void compareBuffers(Report &r, const char *what, unsigned dst,
                    unsigned flags, const std::vector<uint8_t> &a,
                    const std::vector<uint8_t> &b, size_t unit) {
  size_t first = a.size();
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i] != b[i]) {
      first = i;
      break;
    }
  r.check(first == a.size(), [&] {
    return std::string(what) + " " + coopvecFormatName(dst) +
           flagsName(flags) + ": first difference at element " +
           std::to_string(unit ? first / unit : first * 2) + " (simd " +
           hex(a[first]) + " scalar " + hex(b[first]) + ")";
  });
}

size_t bufferBytes(unsigned fmt, size_t n) {
  unsigned bits = coopvecFormatBits(fmt);
  if (fmt == COOPVEC_FMT_E2M1)
    return (n + 1) / 2;
  return bits == 6 ? n : n * bits / 8;
}

} // namespace

bool testSimd() {
  Report r("simd");
  int simd = coopvecNumericsUsingSimd();
  // Inputs: every f16 and bf16 value (as f32), the boundary-rich sample and
  // random bits.
  std::vector<float> inputs;
  for (uint32_t b = 0; b < 65536; ++b) {
    inputs.push_back(coopvecDecodeToF32(COOPVEC_FMT_F16, b));
    inputs.push_back(bitsFloat(b << 16));
    inputs.push_back(bitsFloat((b << 16) | 0x8000)); // bf16 ties
    inputs.push_back(bitsFloat((b << 16) | 0x7FFF));
    inputs.push_back(bitsFloat((b << 16) | (b & 0x1FFF))); // f16/tf32 ties
  }
  Rng rng(77);
  for (unsigned i = 0; i < 400000; ++i)
    inputs.push_back(bitsFloat(rng.next32()));
  // NaN with payload, for the canonical NaN in every lane position.
  for (unsigned i = 0; i < 64; ++i)
    inputs.push_back(bitsFloat(0x7F800001u + i * 977));

  for (unsigned dst : kAllDstFormats) {
    for (unsigned flags : {0u, unsigned(COOPVEC_CVT_SATFINITE),
                           unsigned(COOPVEC_CVT_RELU),
                           unsigned(COOPVEC_CVT_SATFINITE | COOPVEC_CVT_RELU)}) {
      // Odd length and an unaligned start exercise the tails.
      for (size_t offset : {size_t(0), size_t(3)}) {
        size_t n = inputs.size() - offset - 5;
        std::vector<uint8_t> a(bufferBytes(dst, n)), b(bufferBytes(dst, n));
        coopvecConvertF32Buffer(dst, inputs.data() + offset, a.data(), n,
                                COOPVEC_RND_RN, flags, nullptr);
        coopvecNumericsForceScalar(1);
        coopvecConvertF32Buffer(dst, inputs.data() + offset, b.data(), n,
                                COOPVEC_RND_RN, flags, nullptr);
        coopvecNumericsForceScalar(startedScalar());
        compareBuffers(r, "f32 buffer", dst, flags, a, b,
                       bufferBytes(dst, 2) / 2);
        // Element-wise agreement of the scalar buffer with the scalar API.
        size_t bad = n;
        for (size_t i = 0; i < n && bad == n; ++i) {
          uint32_t want = coopvecConvertF32(dst, inputs[offset + i],
                                            COOPVEC_RND_RN, flags, 0);
          uint32_t got;
          if (dst == COOPVEC_FMT_E2M1)
            got = (i & 1) ? b[i / 2] >> 4 : b[i / 2] & 0xF;
          else if (coopvecFormatBits(dst) == 32)
            std::memcpy(&got, &b[4 * i], 4);
          else if (coopvecFormatBits(dst) == 16)
            got = uint32_t(b[2 * i]) | (uint32_t(b[2 * i + 1]) << 8);
          else
            got = b[i];
          if (got != want)
            bad = i;
        }
        r.check(bad == n, [&] {
          return std::string("scalar buffer != scalar API for ") +
                 coopvecFormatName(dst) + " at " + std::to_string(bad);
        });
      }
      // From f16 and bf16 storage (every pattern).
      for (unsigned src : {COOPVEC_FMT_F16, COOPVEC_FMT_BF16}) {
        std::vector<uint16_t> halves(65536 + 9);
        for (size_t i = 0; i < halves.size(); ++i)
          halves[i] = uint16_t(i * 40503u);
        size_t n = halves.size();
        std::vector<uint8_t> a(bufferBytes(dst, n)), b(bufferBytes(dst, n));
        coopvecConvertBuffer(dst, src, halves.data(), a.data(), n,
                             COOPVEC_RND_RN, flags, nullptr);
        coopvecNumericsForceScalar(1);
        coopvecConvertBuffer(dst, src, halves.data(), b.data(), n,
                             COOPVEC_RND_RN, flags, nullptr);
        coopvecNumericsForceScalar(startedScalar());
        compareBuffers(r, src == COOPVEC_FMT_F16 ? "f16 buffer" : "bf16 buffer",
                       dst, flags, a, b, bufferBytes(dst, 2) / 2);
      }
    }
  }
  // f16 decode.
  {
    std::vector<uint16_t> halves(65536);
    for (uint32_t i = 0; i < 65536; ++i)
      halves[i] = uint16_t(i);
    std::vector<float> a(65536), b(65536);
    coopvecDecodeBuffer(COOPVEC_FMT_F16, halves.data(), a.data(), 65536);
    coopvecNumericsForceScalar(1);
    coopvecDecodeBuffer(COOPVEC_FMT_F16, halves.data(), b.data(), 65536);
    coopvecNumericsForceScalar(startedScalar());
    r.check(std::memcmp(a.data(), b.data(), a.size() * 4) == 0,
            [] { return std::string("f16 decode buffer differs"); });
  }
  // MX quantization.
  for (unsigned elem : kMxElements) {
    std::vector<float> v = randomBlocks(rng, 32 * 20000 + 13, true);
    size_t n = v.size(), blocks = (n + 31) / 32;
    std::vector<uint8_t> ea(elemBytes(elem, n)), eb(elemBytes(elem, n)),
        sa(blocks), sb(blocks);
    coopvecMxQuantize(elem, v.data(), n, ea.data(), sa.data());
    coopvecNumericsForceScalar(1);
    coopvecMxQuantize(elem, v.data(), n, eb.data(), sb.data());
    coopvecNumericsForceScalar(startedScalar());
    compareBuffers(r, "mx elements", elem, 0, ea, eb,
                   elem == COOPVEC_FMT_E2M1 ? 0 : 1);
    compareBuffers(r, "mx scales", elem, 0, sa, sb, 1);
  }
  // MX dequantization: every element code (NaN and garbage high bits of the
  // 6-bit formats included) under every scale byte, 0 and 0xFF included.
  for (unsigned elem : kMxElements) {
    size_t n = 256 * 32 * 4 + 17, blocks = (n + 31) / 32;
    std::vector<uint8_t> e(elemBytes(elem, n)), sc(blocks);
    for (size_t i = 0; i < e.size(); ++i)
      e[i] = uint8_t(rng.next32());
    for (size_t b = 0; b < blocks; ++b)
      sc[b] = uint8_t(b);
    std::vector<float> a(n), b(n);
    coopvecMxDequantize(elem, e.data(), sc.data(), n, a.data());
    coopvecNumericsForceScalar(1);
    coopvecMxDequantize(elem, e.data(), sc.data(), n, b.data());
    coopvecNumericsForceScalar(startedScalar());
    size_t bad = n;
    for (size_t i = 0; i < n && bad == n; ++i)
      if (floatBits(a[i]) != floatBits(b[i]))
        bad = i;
    r.check(bad == n, [&] {
      return std::string("mx dequantize ") + coopvecFormatName(elem) +
             ": first difference at element " + std::to_string(bad) + " (simd " +
             hex(floatBits(a[bad])) + " scalar " + hex(floatBits(b[bad])) + ")";
    });
  }
  std::string note = simd ? std::string(" (") + coopvecNumericsSimdName(simd) +
                                " vs scalar)"
                          : std::string(" (scalar path only)");
  return r.finish(note.c_str());
}

//===----------------------------------------------------------------------===//
// --exhaustive: all 2^32 f32 inputs
//===----------------------------------------------------------------------===//

bool runExhaustive(unsigned first, unsigned count) {
  struct Exhaustive {
    unsigned dst, rounding, flags;
  };
  const unsigned SAT = COOPVEC_CVT_SATFINITE;
  const Exhaustive configs[] = {
      {COOPVEC_FMT_E4M3, COOPVEC_RND_RN, SAT},
      {COOPVEC_FMT_E4M3, COOPVEC_RND_RN, 0},
      {COOPVEC_FMT_E5M2, COOPVEC_RND_RN, SAT},
      {COOPVEC_FMT_E2M3, COOPVEC_RND_RN, SAT},
      {COOPVEC_FMT_E3M2, COOPVEC_RND_RN, SAT},
      {COOPVEC_FMT_E2M1, COOPVEC_RND_RN, SAT},
      {COOPVEC_FMT_UE8M0, COOPVEC_RND_RP, SAT},
      {COOPVEC_FMT_UE8M0, COOPVEC_RND_RZ, 0},
      {COOPVEC_FMT_UE4M3, COOPVEC_RND_RN, SAT},
      {COOPVEC_FMT_BF16, COOPVEC_RND_RN, 0},
      {COOPVEC_FMT_F16, COOPVEC_RND_RN, 0},
  };
  const unsigned numConfigs = sizeof(configs) / sizeof(configs[0]);
  bool ok = true;
  unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  for (unsigned ci = first; ci < numConfigs && ci - first < count; ++ci) {
    const Exhaustive &c = configs[ci];
    std::string name = std::string("exhaustive ") + coopvecFormatName(c.dst) +
                       "." + modeName(c.rounding) + flagsName(c.flags);
    Report r(name);
    std::atomic<uint64_t> next{0};
    const uint64_t kChunk = 1 << 16, kTotal = uint64_t(1) << 32;
    bool simdCheck = c.rounding == COOPVEC_RND_RN;
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < threads; ++t)
      pool.emplace_back([&] {
        std::vector<float> in(kChunk);
        std::vector<uint32_t> scalarOut(kChunk);
        std::vector<uint8_t> simdOut(kChunk * 4);
        for (;;) {
          uint64_t base = next.fetch_add(kChunk);
          if (base >= kTotal)
            return;
          uint64_t mismatches = 0;
          uint32_t firstBad = 0, firstGot = 0, firstWant = 0;
          for (uint64_t i = 0; i < kChunk; ++i) {
            uint32_t u = uint32_t(base + i);
            in[i] = bitsFloat(u);
            uint32_t got =
                coopvecConvertF32(c.dst, in[i], c.rounding, c.flags, 0);
            scalarOut[i] = got;
            uint32_t want = expectConvert(
                c.dst, APFloat(APFloat::IEEEsingle(), APInt(32, u)),
                c.rounding, c.flags);
            if (got != want && mismatches++ == 0) {
              firstBad = u;
              firstGot = got;
              firstWant = want;
            }
          }
          r.check(mismatches == 0, [&] {
            return std::to_string(mismatches) + " in chunk " + hex(base) +
                   ", first " + hex(firstBad) + ": got " + hex(firstGot) +
                   " want " + hex(firstWant);
          });
          if (simdCheck) {
            // The bulk path (vectorized when available) against the scalar
            // API on the same chunk.
            coopvecConvertF32Buffer(c.dst, in.data(), simdOut.data(), kChunk,
                                    c.rounding, c.flags, nullptr);
            uint64_t bad = 0;
            for (uint64_t i = 0; i < kChunk; ++i) {
              uint32_t want = scalarOut[i];
              uint32_t got;
              unsigned bits = coopvecFormatBits(c.dst);
              if (c.dst == COOPVEC_FMT_E2M1)
                got = (i & 1) ? simdOut[i / 2] >> 4 : simdOut[i / 2] & 0xF;
              else if (bits == 16)
                got = uint32_t(simdOut[2 * i]) |
                      (uint32_t(simdOut[2 * i + 1]) << 8);
              else
                got = simdOut[i];
              bad += got != want;
            }
            r.check(bad == 0, [&] {
              return "bulk path: " + std::to_string(bad) +
                     " mismatches in chunk " + hex(base);
            });
          }
        }
      });
    for (auto &t : pool)
      t.join();
    std::string note = std::string(" (all 2^32 inputs, ") +
                       coopvecNumericsSimdName(coopvecNumericsUsingSimd()) +
                       ")";
    ok &= r.finish(note.c_str());
  }
  return ok;
}
