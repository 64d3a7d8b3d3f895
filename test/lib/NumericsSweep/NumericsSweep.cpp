//===- NumericsSweep.cpp - Deterministic sweep of the numerics library ----===//
//
// Runs a fixed set of conversions through CoopVecNumerics (Numerics.h) and
// prints, per section, the number of results and an FNV-1a hash of their
// bits, then the same for all sections together. No LLVM: it builds for the
// host and, with the standalone runtime, for riscv64, and
// test/Runtime/riscv64/numerics.test checks that both print the same
// hashes (the portable code on riscv64 must agree with the host's SIMD
// paths bit for bit).
//
// Inputs are special values plus xorshift bit patterns from a fixed seed;
// the random bits of stochastic rounding come from the same generator, so
// every run computes the same results.
//
//===----------------------------------------------------------------------===//

#include "LinAlgCoop/Runtime/Numerics.h"

#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

namespace {

/// FNV-1a over the bytes of every result, little-endian whatever the host.
struct Hash {
  uint64_t state = 0xcbf29ce484222325ull;
  uint64_t count = 0;

  void bytes(uint64_t value, unsigned n) {
    for (unsigned i = 0; i < n; ++i) {
      state ^= (value >> (8 * i)) & 0xff;
      state *= 0x100000001b3ull;
    }
  }
  void add(uint64_t value, unsigned n = 4) {
    bytes(value, n);
    ++count;
  }
  void addFloat(float value) {
    uint32_t bits;
    std::memcpy(&bits, &value, 4);
    add(bits);
  }
  void addDouble(double value) {
    uint64_t bits;
    std::memcpy(&bits, &value, 8);
    add(bits, 8);
  }
};

struct Random {
  uint64_t state = 0x9e3779b97f4a7c15ull;
  uint32_t next() {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return static_cast<uint32_t>(state >> 32);
  }
};

float fromBits(uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, 4);
  return value;
}

const unsigned kFloatFormats[] = {
    COOPVEC_FMT_F32,  COOPVEC_FMT_F16,  COOPVEC_FMT_BF16,  COOPVEC_FMT_TF32,
    COOPVEC_FMT_E4M3, COOPVEC_FMT_E5M2, COOPVEC_FMT_E2M3,  COOPVEC_FMT_E3M2,
    COOPVEC_FMT_E2M1, COOPVEC_FMT_UE8M0, COOPVEC_FMT_UE4M3};
const unsigned kIntFormats[] = {COOPVEC_FMT_I8,  COOPVEC_FMT_U8,
                                COOPVEC_FMT_I16, COOPVEC_FMT_U16,
                                COOPVEC_FMT_I32, COOPVEC_FMT_U32};
const unsigned kMxFormats[] = {COOPVEC_FMT_E4M3, COOPVEC_FMT_E5M2,
                               COOPVEC_FMT_E2M3, COOPVEC_FMT_E3M2,
                               COOPVEC_FMT_E2M1};

/// f32 inputs: zeros, infinities, NaNs, boundaries of every format, ties,
/// subnormals, then random bit patterns (a third of them scaled into the
/// small formats' range so that rounding, not overflow, decides).
std::vector<float> makeInputs(Random &rng, unsigned randomCount) {
  std::vector<float> inputs = {
      0.0f, -0.0f, 1.0f, -1.0f, 1.5f, 2.5f, -2.5f, 0.25f, 0.75f, 3.0f,
      5.0f, 6.0f, 7.0f, 7.5f, 8.0f, 28.0f, 30.0f, 240.0f, 448.0f, 464.0f,
      480.0f, 57344.0f, 61440.0f, 65504.0f, 65520.0f, 1e-3f, 1e-8f, 1e30f,
      -1e30f, 3.0e38f, 1e-45f, 1.17549435e-38f, 0.1f, 1.0f / 3.0f,
      fromBits(0x7f800000), fromBits(0xff800000), fromBits(0x7fc00000),
      fromBits(0xffc00001), fromBits(0x7f800001), fromBits(0x00000001),
      fromBits(0x80400000), fromBits(0x3f801000), fromBits(0x3f808000),
      fromBits(0x3f800800), fromBits(0x3f7fffff), fromBits(0x477ff000)};
  for (unsigned i = 0; i < randomCount; ++i) {
    uint32_t bits = rng.next();
    if (i % 3 == 0) // exponent in [2^-10, 2^10)
      bits = (bits & 0x807fffffu) | ((117u + bits % 21u) << 23);
    inputs.push_back(fromBits(bits));
  }
  return inputs;
}

void print(const char *name, const Hash &hash) {
  std::printf("%-12s %8" PRIu64 " %016" PRIx64 "\n", name, hash.count,
              hash.state);
}

} // namespace

int main() {
  Random rng;
  std::vector<float> inputs = makeInputs(rng, 1024);
  Hash total;
  auto section = [&](const char *name, const Hash &hash) {
    print(name, hash);
    total.bytes(hash.state, 8);
    total.count += hash.count;
  };

  // coopvecConvertF32: every destination, rounding mode and flag set.
  {
    Hash hash;
    for (unsigned dst : kFloatFormats)
      for (unsigned rounding = COOPVEC_RND_RN; rounding <= COOPVEC_RND_RS;
           ++rounding)
        for (unsigned flags = 0; flags < 4; ++flags)
          for (float x : inputs)
            hash.add(coopvecConvertF32(dst, x, rounding, flags, rng.next()));
    for (unsigned dst : kIntFormats)
      for (float x : inputs)
        hash.add(coopvecConvertF32(dst, x, COOPVEC_RND_RN, 0, 0));
    section("convert-f32", hash);
  }

  // coopvecConvert and coopvecDecode from every float source: every code of
  // the formats of 8 bits or fewer, random codes of the wider ones.
  {
    Hash convert, decode;
    for (unsigned src : kFloatFormats) {
      unsigned bits = coopvecFormatBits(src);
      std::vector<uint32_t> codes;
      if (bits <= 8) {
        for (uint32_t c = 0; c < (1u << bits); ++c)
          codes.push_back(c);
      } else {
        for (unsigned i = 0; i < 512; ++i) {
          uint32_t c = rng.next();
          if (bits == 16)
            c &= 0xffff;
          if (src == COOPVEC_FMT_TF32)
            c &= ~0x1fffu;
          codes.push_back(c);
        }
      }
      for (uint32_t c : codes) {
        decode.addDouble(coopvecDecode(src, c));
        decode.addFloat(coopvecDecodeToF32(src, c));
      }
      if (src == COOPVEC_FMT_F32)
        continue; // covered by convert-f32
      for (unsigned dst : kFloatFormats)
        for (unsigned rounding = COOPVEC_RND_RN; rounding <= COOPVEC_RND_RS;
             ++rounding)
          for (unsigned flags : {0u, unsigned(COOPVEC_CVT_SATFINITE)})
            for (uint32_t c : codes)
              convert.add(
                  coopvecConvert(dst, src, c, rounding, flags, rng.next()));
    }
    section("convert", convert);
    section("decode", decode);
  }

  // Bulk conversions (the SIMD path where the host has one) and packed
  // forms, including stochastic rounding with fixed random words.
  {
    Hash hash;
    size_t n = inputs.size();
    std::vector<uint32_t> rbits(n);
    for (uint32_t &r : rbits)
      r = rng.next();
    std::vector<uint8_t> out(4 * n + 4), back(4 * n + 4);
    std::vector<float> decoded(n);
    for (unsigned dst : kFloatFormats)
      for (unsigned rounding = COOPVEC_RND_RN; rounding <= COOPVEC_RND_RS;
           ++rounding)
        for (unsigned flags = 0; flags < 4; ++flags) {
          std::memset(out.data(), 0, out.size());
          coopvecConvertF32Buffer(dst, inputs.data(), out.data(), n, rounding,
                                  flags, rbits.data());
          for (uint8_t byte : out)
            hash.add(byte, 1);
          if (rounding == COOPVEC_RND_RN && flags == 0) {
            coopvecDecodeBuffer(dst, out.data(), decoded.data(), n);
            for (float f : decoded)
              hash.addFloat(f);
          }
        }
    for (unsigned src : {unsigned(COOPVEC_FMT_F16), unsigned(COOPVEC_FMT_BF16)}) {
      std::vector<uint16_t> in(n);
      for (uint16_t &c : in)
        c = static_cast<uint16_t>(rng.next());
      for (unsigned dst : kFloatFormats)
        for (unsigned rounding = COOPVEC_RND_RN; rounding <= COOPVEC_RND_RS;
             ++rounding) {
          std::memset(back.data(), 0, back.size());
          coopvecConvertBuffer(dst, src, in.data(), back.data(), n, rounding,
                               COOPVEC_CVT_SATFINITE, rbits.data());
          for (uint8_t byte : back)
            hash.add(byte, 1);
        }
    }
    for (unsigned fmt : {COOPVEC_FMT_F16, COOPVEC_FMT_BF16, COOPVEC_FMT_E4M3,
                         COOPVEC_FMT_E5M2, COOPVEC_FMT_E2M3, COOPVEC_FMT_E3M2,
                         COOPVEC_FMT_E2M1, COOPVEC_FMT_UE8M0})
      for (size_t i = 0; i + 4 <= n; i += 4)
        for (unsigned rounding : {unsigned(COOPVEC_RND_RN),
                                  unsigned(COOPVEC_RND_RS)}) {
          hash.add(coopvecPackX2(fmt, inputs[i], inputs[i + 1], rounding, 0,
                                 rbits[i]));
          if (fmt != COOPVEC_FMT_F16 && fmt != COOPVEC_FMT_BF16 &&
              fmt != COOPVEC_FMT_UE8M0)
            hash.add(coopvecPackX4(fmt, inputs[i], inputs[i + 1],
                                   inputs[i + 2], inputs[i + 3], rounding,
                                   COOPVEC_CVT_SATFINITE, rbits[i]));
        }
    section("bulk", hash);
  }

  // MX and NVFP4 block quantization and its inverse, over blocks of
  // ordinary values and blocks holding the special inputs; the final
  // block is partial.
  {
    Hash mx, nvfp4;
    std::vector<float> values(inputs.size() - 7);
    for (size_t i = 0; i < values.size(); ++i)
      values[i] = inputs[(i * 37) % inputs.size()];
    size_t n = values.size();
    std::vector<uint8_t> elems(n), scales(n / 16 + 2);
    std::vector<float> back(n);
    for (unsigned elem : kMxFormats) {
      std::memset(elems.data(), 0, elems.size());
      coopvecMxQuantize(elem, values.data(), n, elems.data(), scales.data());
      coopvecMxDequantize(elem, elems.data(), scales.data(), n, back.data());
      for (size_t i = 0; i < n; ++i)
        mx.add(elems[i], 1);
      for (size_t i = 0; i < (n + 31) / 32; ++i)
        mx.add(scales[i], 1);
      for (float f : back)
        mx.addFloat(f);
      for (size_t i = 0; i < n; i += 32) {
        uint8_t scale = coopvecMxBlockScale(elem, values.data() + i,
                                            n - i < 32 ? n - i : 32);
        mx.add(scale, 1);
        mx.add(coopvecMxQuantizeElement(elem, values[i], scale));
      }
    }
    section("mx", mx);
    std::memset(elems.data(), 0, elems.size());
    coopvecNvfp4Quantize(values.data(), n, elems.data(), scales.data());
    coopvecNvfp4Dequantize(elems.data(), scales.data(), n, back.data());
    for (size_t i = 0; i < (n + 1) / 2; ++i)
      nvfp4.add(elems[i], 1);
    for (size_t i = 0; i < (n + 15) / 16; ++i)
      nvfp4.add(scales[i], 1);
    for (float f : back)
      nvfp4.addFloat(f);
    section("nvfp4", nvfp4);
  }

  // DXIL interpretation conversions between every pair of formats.
  {
    Hash hash;
    const unsigned formats[] = {
        COOPVEC_FMT_F32, COOPVEC_FMT_F16, COOPVEC_FMT_BF16, COOPVEC_FMT_E4M3,
        COOPVEC_FMT_E5M2, COOPVEC_FMT_I8, COOPVEC_FMT_U8, COOPVEC_FMT_I16,
        COOPVEC_FMT_U16, COOPVEC_FMT_I32, COOPVEC_FMT_U32};
    for (unsigned src : formats) {
      unsigned bits = coopvecFormatBits(src);
      for (unsigned i = 0; i < 256; ++i) {
        uint64_t code = rng.next();
        if (bits < 32)
          code &= (1ull << bits) - 1;
        for (unsigned dst : formats)
          hash.add(coopvecDxilConvert(dst, src, code), 8);
      }
    }
    section("dxil", hash);
  }

  print("total", total);
  return 0;
}
