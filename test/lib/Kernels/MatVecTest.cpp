//===- MatVecTest.cpp - Batched matrix-vector kernels vs a scalar reference
//===//
//
// Every matrix interpretation, layout, transpose, stride, input/bias/output
// combination, with odd shapes and batches, on every ISA the CPU has
// (portable, avx2, avx512) with 1 and 2 threads. Integer results must be
// bit-exact (batches of 16 and more take the AVX-512 VNNI path, smaller
// ones read the 8-row panels in place with vpdpbusd when K allows, every
// weight/input signedness; on avx2, batch tiles of I8 weights whose byte
// inputs are all in [0, 127] take vpmaddubsw, the others vpmaddwd); float
// results within (K + 1) * 2^-23 *
// sum|w*x| (+ one f16 rounding for f16 outputs). The two thread counts must
// agree bit for bit, and so must avx2 and avx512 (the same FMA sequence; at
// batch >= 16 avx512 runs the repacked 16-row panels). A matrix changed in
// place between two calls must not be served from the repack cache.
//
//===----------------------------------------------------------------------===//

#include "LinAlgCoop/Runtime/Kernels.h"
#include "TestUtil.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

using namespace cvtest;

namespace {

enum : uint32_t {
  I32 = COOPVEC_TYPE_I32,
  U32 = COOPVEC_TYPE_U32,
  F16 = COOPVEC_TYPE_F16,
  F32 = COOPVEC_TYPE_F32,
  PS8 = COOPVEC_TYPE_PACKED_S8X32,
  PU8 = COOPVEC_TYPE_PACKED_U8X32,
  U8 = COOPVEC_TYPE_U8,
  I8 = COOPVEC_TYPE_I8,
};

struct InputCombo {
  uint32_t type, interp;
};
const InputCombo kFloatInputs[] = {{F32, F32}, {F16, F16}, {F16, F32}, {F32, F16}};
const InputCombo kIntInputs[] = {{I8, I8},   {U8, U8},   {U32, PS8}, {I32, PU8},
                                 {F32, I8},  {F32, U8},  {I32, I8},  {U32, U8}};

struct Case {
  uint32_t mtype, layout, transpose, m, k, batch;
  InputCombo in;
  uint32_t biasInterp; // 0: no bias
  uint32_t outType;
  bool padStrides;
  /// Byte inputs: 0 any byte; 1 every byte in [0, 127] (127 often) and I8
  /// weights of -128 or 127 (the largest pair sums vpmaddubsw sees on
  /// avx2); 2 as 1 but one vector with a byte of 255 (its batch tile must
  /// take vpmaddwd).
  int small = 0;
};

uint32_t elemSize(uint32_t t) {
  return t == F32 || t == I32 || t == U32 ? 4 : t == F16 ? 2 : 1;
}

struct Prepared {
  std::vector<uint8_t> matrix, input, bias;
  uint64_t matrixOffset, biasOffset, inStride, outStride;
  uint32_t stride;
  std::vector<double> ref, mag; // batch x m
};

/// Builds buffers and the reference result of one case.
Prepared prepare(const Case &c, std::mt19937 &rng) {
  Prepared p;
  bool isFloat = c.mtype == F32 || c.mtype == F16;
  uint32_t es = elemSize(c.mtype);
  std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
  // Logical weights as exact doubles plus their storage bits.
  std::vector<double> w(uint64_t(c.m) * c.k);
  std::vector<uint32_t> wbits(w.size());
  for (size_t i = 0; i < w.size(); ++i) {
    if (c.mtype == F32) {
      float f = unit(rng);
      w[i] = f;
      std::memcpy(&wbits[i], &f, 4);
    } else if (c.mtype == F16) {
      uint16_t h = halfFromFloat(2.0f * unit(rng));
      w[i] = halfValue(h);
      wbits[i] = h;
    } else if (c.mtype == I8) {
      int v = c.small ? (rng() % 2 ? -128 : 127) : int(rng() % 256) - 128;
      w[i] = v;
      wbits[i] = uint8_t(v);
    } else {
      int v = int(rng() % 256);
      w[i] = v;
      wbits[i] = uint8_t(v);
    }
  }
  // Stored matrix: K x M when transposed.
  uint32_t rows = c.transpose ? c.k : c.m, cols = c.transpose ? c.m : c.k;
  p.stride = 0;
  if (c.layout < 2) {
    uint32_t line = (c.layout == 0 ? cols : rows) * es;
    p.stride = c.padStrides ? line + 3 * es : line;
  }
  uint64_t size = refSize(c.layout, rows, cols, es, p.stride);
  p.matrixOffset = c.padStrides ? 128 : 0;
  // 0xff everywhere else: NaN for float padding, proving it is never read.
  p.matrix.assign(p.matrixOffset + size, 0xff);
  for (uint32_t r = 0; r < c.m; ++r)
    for (uint32_t k = 0; k < c.k; ++k) {
      uint64_t off = c.transpose ? refOffset(c.layout, rows, cols, es, p.stride, k, r)
                                 : refOffset(c.layout, rows, cols, es, p.stride, r, k);
      std::memcpy(&p.matrix[p.matrixOffset + off], &wbits[uint64_t(r) * c.k + k], es);
    }

  // Inputs and their interpreted values.
  uint32_t ies = elemSize(c.in.type);
  bool packed = c.in.interp == PS8 || c.in.interp == PU8;
  uint64_t natural = packed ? (c.k + 3) / 4 * 4 : uint64_t(c.k) * ies;
  p.inStride = c.padStrides ? natural + 8 : natural;
  p.input.assign(p.inStride * c.batch, 0x77);
  std::vector<double> x(uint64_t(c.batch) * c.k);
  for (uint32_t b = 0; b < c.batch; ++b)
    for (uint32_t k = 0; k < c.k; ++k) {
      double &xv = x[uint64_t(b) * c.k + k];
      uint8_t *base = &p.input[b * p.inStride];
      if (packed || c.in.type == I8 || c.in.type == U8) {
        uint8_t byte = !c.small         ? uint8_t(rng())
                       : rng() % 3 == 0 ? 127
                                        : uint8_t(rng() % 128);
        if (c.small == 2 && b == c.batch / 2 && k == c.k - 1)
          byte = 255;
        base[k] = byte;
        bool u = c.in.interp == U8 || c.in.interp == PU8;
        xv = u ? double(byte) : double(int8_t(byte));
      } else if (c.in.type == F16) {
        uint16_t h = halfFromFloat(2.0f * unit(rng));
        std::memcpy(base + 2 * k, &h, 2);
        xv = halfValue(h);
      } else if (c.in.type == F32) {
        float f = unit(rng);
        // Exercise saturation and ties (multiples of 0.5) and NaN, which
        // the DXIL rule converts to 0.
        if (!isFloat)
          f = rng() % 29 == 0 ? std::numeric_limits<float>::quiet_NaN()
                              : std::round(f * 600.0f) * 0.5f;
        std::memcpy(base + 4 * k, &f, 4);
        if (isFloat)
          xv = c.in.interp == F16 ? halfValue(halfFromFloat(f)) : f;
        else if (std::isnan(f))
          xv = 0.0;
        else
          xv = c.in.interp == U8 ? satRtne(f, 0, 255) : satRtne(f, -128, 127);
      } else { // I32 / U32 with an 8-bit interpretation
        int32_t v = int32_t(rng() % 700) - 350;
        if (c.in.type == U32 && rng() % 5 == 0)
          v = int32_t(0x80000000u + rng() % 1000); // huge unsigned
        std::memcpy(base + 4 * k, &v, 4);
        double dv = c.in.type == U32 ? double(uint32_t(v)) : double(v);
        xv = c.in.interp == U8 ? std::min(255.0, std::max(0.0, dv))
                               : std::min(127.0, std::max(-128.0, dv));
      }
    }

  // Bias.
  std::vector<double> bias(c.m, 0.0);
  p.biasOffset = c.padStrides ? 64 : 0;
  if (c.biasInterp) {
    uint32_t bes = elemSize(c.biasInterp);
    p.bias.assign(p.biasOffset + uint64_t(c.m) * bes, 0);
    for (uint32_t r = 0; r < c.m; ++r) {
      uint8_t *d = &p.bias[p.biasOffset + uint64_t(r) * bes];
      if (c.biasInterp == F32) {
        float f = unit(rng);
        std::memcpy(d, &f, 4);
        bias[r] = f;
      } else if (c.biasInterp == F16) {
        uint16_t h = halfFromFloat(unit(rng));
        std::memcpy(d, &h, 2);
        bias[r] = halfValue(h);
      } else {
        int32_t v = int32_t(rng() % 200001) - 100000;
        std::memcpy(d, &v, 4);
        bias[r] = v;
      }
    }
  }

  p.outStride = uint64_t(c.m) * elemSize(c.outType) + (c.padStrides ? 12 : 0);
  p.ref.assign(uint64_t(c.batch) * c.m, 0.0);
  p.mag.assign(p.ref.size(), 0.0);
  for (uint32_t b = 0; b < c.batch; ++b)
    for (uint32_t r = 0; r < c.m; ++r) {
      double s = bias[r], mag = std::fabs(bias[r]);
      for (uint32_t k = 0; k < c.k; ++k) {
        double t = w[uint64_t(r) * c.k + k] * x[uint64_t(b) * c.k + k];
        s += t;
        mag += std::fabs(t);
      }
      p.ref[uint64_t(b) * c.m + r] = s;
      p.mag[uint64_t(b) * c.m + r] = mag;
    }
  return p;
}

/// A result buffer that starts `shift` bytes after a 64-byte line, filled
/// with 0x5a: the kernels write whole lines around the caches only into
/// aligned results (MatVecPlan::streamOutput), so the cases run both ways.
struct OutBuf {
  std::vector<uint8_t> storage;
  uint8_t *data;
  uint64_t size;
  OutBuf(uint64_t size, unsigned shift)
      : storage(size + 64 + shift, 0x5a), size(size) {
    uintptr_t a = reinterpret_cast<uintptr_t>(storage.data());
    data = storage.data() + (64 - a % 64) % 64 + shift;
  }
  std::vector<uint8_t> bytes() const { return {data, data + size}; }
};

int32_t run(const Case &c, const Prepared &p, uint8_t *out,
            uint32_t threads) {
  return coopvecMatVecMulAdd(
      out, c.outType, p.outStride, p.input.data(), c.in.type,
      c.in.interp, p.inStride, c.batch, p.matrix.data(), p.matrixOffset,
      c.mtype, c.m, c.k, c.layout, c.transpose, p.stride,
      c.biasInterp ? p.bias.data() : nullptr, p.biasOffset, c.biasInterp,
      threads);
}

void checkCase(Checker &ck, const Case &c, std::mt19937 &rng) {
  Prepared p = prepare(c, rng);
  uint32_t oes = elemSize(c.outType);
  std::vector<uint8_t> avx2Out;
  for (const char *isa : availableIsas()) {
    coopvecKernelsForceIsa(isa);
    std::vector<uint8_t> first;
    for (uint32_t threads : {1u, 2u}) {
      // One thread writes an aligned result, two a shifted one.
      OutBuf buf(p.outStride * c.batch, threads == 1 ? 0 : 16);
      int32_t st = run(c, p, buf.data, threads);
      const uint8_t *outData = buf.data;
      bool ok = st == COOPVEC_OK;
      double worst = 0;
      for (uint32_t b = 0; ok && b < c.batch; ++b) {
        for (uint32_t r = 0; r < c.m; ++r) {
          const uint8_t *o = &outData[b * p.outStride + uint64_t(r) * oes];
          double ref = p.ref[uint64_t(b) * c.m + r];
          double mag = p.mag[uint64_t(b) * c.m + r];
          double tol = (c.k + 1) * std::ldexp(mag, -23) + 1e-37;
          if (c.outType == I32) {
            int32_t v;
            std::memcpy(&v, o, 4);
            ok &= v == int64_t(ref);
          } else if (c.outType == F32) {
            float v;
            std::memcpy(&v, o, 4);
            bool exact = !(c.mtype == F32 || c.mtype == F16);
            if (exact)
              ok &= v == float(int64_t(ref));
            else
              ok &= std::fabs(v - ref) <= tol;
            worst = std::max(worst, std::fabs(v - ref) / (tol));
          } else {
            uint16_t h;
            std::memcpy(&h, o, 2);
            double v = halfValue(h);
            ok &= std::fabs(v - ref) <= tol + std::ldexp(std::fabs(ref), -11) +
                                            std::ldexp(1.0, -24);
          }
        }
        // Bytes between result vectors stay untouched.
        for (uint64_t i = uint64_t(c.m) * oes; i < p.outStride; ++i)
          ok &= outData[b * p.outStride + i] == 0x5a;
      }
      std::vector<uint8_t> out = buf.bytes();
      if (threads == 1)
        first = out;
      else
        ok &= first == out;
      if (threads == 1 && std::strcmp(isa, "avx2") == 0)
        avx2Out = out;
      if (std::strcmp(isa, "avx512") == 0 && !avx2Out.empty())
        ok &= out == avx2Out;
      ck.check(ok,
               "%s threads=%u mtype=%u layout=%u T=%u %ux%u batch=%u small=%d "
               "in=(%u,%u) "
               "bias=%u out=%u pad=%d status=%d worst=%.3g",
               coopvecKernelsIsa(), threads, c.mtype, c.layout, c.transpose,
               c.m, c.k, c.batch, c.small, c.in.type, c.in.interp, c.biasInterp,
               c.outType, int(c.padStrides), st, worst);
    }
  }
  coopvecKernelsForceIsa(nullptr);
}

/// Two calls on the same matrix buffer, changed in place in between: the
/// second result must see the change (the AVX-512 repack cache compares
/// contents, not addresses), for F32 and I8 weights on every ISA.
void checkRepackCache(Checker &ck) {
  const uint32_t m = 20, k = 8, batch = 32;
  for (const char *isa : availableIsas()) {
    coopvecKernelsForceIsa(isa);
    for (uint32_t mtype : {F32, I8}) {
      uint32_t es = elemSize(mtype);
      std::vector<uint8_t> w(uint64_t(m) * k * es, 0), x(uint64_t(batch) * k * es);
      for (uint32_t i = 0; i < batch * k; ++i) {
        if (mtype == F32) {
          float one = 1.0f;
          std::memcpy(&x[4 * i], &one, 4);
        } else {
          x[i] = 1;
        }
      }
      auto setW = [&](uint32_t r, uint32_t c, int v) {
        if (mtype == F32) {
          float f = float(v);
          std::memcpy(&w[(uint64_t(r) * k + c) * 4], &f, 4);
        } else {
          w[uint64_t(r) * k + c] = uint8_t(int8_t(v));
        }
      };
      for (uint32_t r = 0; r < m; ++r)
        setW(r, r % k, int(r) + 1);
      std::vector<uint8_t> out(uint64_t(batch) * m * 4);
      auto call = [&] {
        uint32_t outType = mtype == F32 ? F32 : I32;
        return coopvecMatVecMul(out.data(), outType, 0, x.data(), mtype, mtype,
                                0, batch, w.data(), 0, mtype, m, k,
                                COOPVEC_LAYOUT_ROW_MAJOR, 0, k * es, 1);
      };
      auto valueAt = [&](uint32_t b, uint32_t r) {
        if (mtype == F32) {
          float f;
          std::memcpy(&f, &out[(uint64_t(b) * m + r) * 4], 4);
          return double(f);
        }
        int32_t v;
        std::memcpy(&v, &out[(uint64_t(b) * m + r) * 4], 4);
        return double(v);
      };
      bool ok = call() == COOPVEC_OK;
      for (uint32_t b = 0; b < batch; ++b)
        for (uint32_t r = 0; r < m; ++r)
          ok &= valueAt(b, r) == double(r + 1);
      setW(17, 3, -5); // Row 17 gains -5 * 1.
      ok &= call() == COOPVEC_OK;
      for (uint32_t b = 0; b < batch; ++b)
        for (uint32_t r = 0; r < m; ++r)
          ok &= valueAt(b, r) == double(r + 1) - (r == 17 ? 5 : 0);
      ck.check(ok, "%s repack cache mtype=%u", coopvecKernelsIsa(), mtype);
    }
  }
  coopvecKernelsForceIsa(nullptr);
}

void checkInvalid(Checker &ck) {
  std::vector<uint8_t> buf(1 << 16, 0);
  void *o = buf.data();
  const void *i = buf.data() + 4096, *w = buf.data() + 8192;
  auto mv = [&](uint32_t outT, uint32_t inT, uint32_t inI, uint32_t mT,
                uint32_t m, uint32_t k, uint32_t layout, uint32_t tr,
                uint32_t stride, uint64_t inStride = 0) {
    return coopvecMatVecMul(o, outT, 0, i, inT, inI, inStride, 2, w, 0, mT, m,
                            k, layout, tr, stride, 1);
  };
  ck.check(mv(F32, F32, F32, F32, 4, 4, 0, 0, 16) == COOPVEC_OK, "valid call");
  ck.check(mv(F32, F32, F32, F32, 0, 4, 0, 0, 16) ==
               COOPVEC_ERROR_INVALID_DIMENSIONS, "M = 0");
  ck.check(mv(F32, F32, F32, F32, 4, 4, 0, 0, 8) ==
               COOPVEC_ERROR_INVALID_STRIDE, "stride too small");
  ck.check(mv(F32, F32, F32, F32, 4, 4, 5, 0, 16) ==
               COOPVEC_ERROR_INVALID_LAYOUT, "layout 5");
  ck.check(mv(F32, F32, F32, COOPVEC_TYPE_F8_E4M3, 4, 4, 2, 0, 0) ==
               COOPVEC_ERROR_UNSUPPORTED_TYPE, "fp8 matrix");
  ck.check(mv(F32, I8, I8, F32, 4, 4, 2, 0, 0) ==
               COOPVEC_ERROR_UNSUPPORTED_TYPE, "int input, float matrix");
  ck.check(mv(I32, F16, F16, I8, 4, 4, 2, 0, 0) ==
               COOPVEC_ERROR_UNSUPPORTED_TYPE, "f16 input, int matrix");
  ck.check(mv(F16, I8, I8, I8, 4, 4, 2, 0, 0) ==
               COOPVEC_ERROR_UNSUPPORTED_TYPE, "f16 output, int matrix");
  ck.check(mv(F32, F32, F32, F32, 4, 4, 2, 0, 0, 8) ==
               COOPVEC_ERROR_INVALID_STRIDE, "input stride too small");
  ck.check(coopvecMatVecMul(nullptr, F32, 0, i, F32, F32, 0, 1, w, 0, F32, 4,
                            4, 2, 0, 0, 1) == COOPVEC_ERROR_NULL_POINTER,
           "null output");
  ck.check(coopvecMatVecMulAdd(o, I32, 0, i, I8, I8, 0, 1, w, 0, I8, 4, 4, 2,
                               0, 0, w, 0, F32, 1) ==
               COOPVEC_ERROR_UNSUPPORTED_TYPE, "f32 bias on int path");
  ck.check(coopvecKernelsForceIsa("sse9") == COOPVEC_ERROR_INVALID_ARGUMENT,
           "unknown ISA name");
  ck.check(coopvecKernelsForceIsa("portable") == COOPVEC_OK &&
               std::strcmp(coopvecKernelsIsa(), "portable") == 0,
           "force portable");
  ck.check(coopvecKernelsForceIsa(nullptr) == COOPVEC_OK, "reset ISA");
  const char *detected = coopvecKernelsCpuTuning();
  ck.check(coopvecKernelsForceCpuTuning("zen9") ==
                   COOPVEC_ERROR_INVALID_ARGUMENT &&
               std::strcmp(coopvecKernelsCpuTuning(), detected) == 0,
           "unknown CPU tuning name");
  for (const char *name : {"generic", "zen3", "zen4", "zen5", "intel"})
    ck.check(coopvecKernelsForceCpuTuning(name) == COOPVEC_OK &&
                 std::strcmp(coopvecKernelsCpuTuning(), name) == 0,
             "force CPU tuning %s", name);
  ck.check(coopvecKernelsForceCpuTuning(nullptr) == COOPVEC_OK &&
               std::strcmp(coopvecKernelsCpuTuning(), detected) == 0,
           "reset CPU tuning");
}

} // namespace

int main(int argc, char **argv) {
  bool large = argc > 1 && std::strcmp(argv[1], "--large") == 0;
  Checker ck;
  std::mt19937 rng(1234);
  // The 2-thread cases split even these small shapes across the pool.
  coopvecKernelsSetParallelThreshold(0);
  const uint32_t mtypes[] = {F32, F16, I8, U8};
  const uint32_t shapes[][2] = {{1, 1},  {3, 5},  {8, 8},   {13, 7},
                                {16, 9}, {33, 64}, {70, 3}, {5, 130}};
  const uint32_t batches[] = {1, 3, 37};
  unsigned variant = 0;
  if (!large) {
    for (uint32_t mtype : mtypes)
      for (uint32_t layout = 0; layout < 4; ++layout)
        for (uint32_t transpose = 0; transpose < 2; ++transpose)
          for (auto &shape : shapes)
            for (int rep = 0; rep < 2; ++rep, ++variant) {
              bool isFloat = mtype == F32 || mtype == F16;
              Case c;
              c.mtype = mtype;
              c.layout = layout;
              c.transpose = transpose;
              c.m = shape[0];
              c.k = shape[1];
              c.batch = batches[variant % 3];
              c.in = isFloat ? kFloatInputs[variant % 4]
                             : kIntInputs[(variant / 2 + variant) % 8];
              c.biasInterp = variant % 5 == 0 ? 0u
                             : isFloat ? uint32_t(variant % 2 ? F32 : F16)
                                       : uint32_t(I32);
              c.outType = isFloat ? (variant / 3 % 2 ? F16 : F32)
                                  : (variant / 3 % 2 ? F32 : I32);
              c.padStrides = variant % 7 < 3;
              checkCase(ck, c, rng);
            }
    // Single vectors and pairs on native panels run spread blocks (panels
    // i, i + q, i + 2q, i + 3q; KernelBody.inc, multiplySpread): 200 rows
    // are 6 such blocks and a remainder with one thread, 2 blocks per 64-row
    // chunk with two; with bias, and K = 136 keeps I8/U8 on the in-place
    // VNNI kernel.
    for (uint32_t mtype : mtypes)
      for (uint32_t batch : {1u, 2u}) {
        bool isFloat = mtype == F32 || mtype == F16;
        Case c{mtype, 2, 0, 200, 136, batch,
               isFloat ? kFloatInputs[variant % 4] : kIntInputs[variant % 8],
               isFloat ? (variant % 2 ? F32 : F16) : I32,
               isFloat ? (batch == 1 ? F16 : F32) : (batch == 1 ? I32 : F32),
               false};
        checkCase(ck, c, rng);
        ++variant;
      }
    // avx2's vpmaddubsw path (QuadS8Weights): I8 weights, byte inputs all
    // in [0, 127], batch >= 16, every layout and transpose, K a multiple of
    // 4 (inputs read in place) or not (staged); and a batch with a byte of
    // 255, whose tile falls back to vpmaddwd. Both exact.
    for (int small : {1, 2})
      for (const InputCombo &in : {InputCombo{I8, I8}, InputCombo{U8, U8},
                                   InputCombo{U32, PS8}, InputCombo{I32, PU8}})
        for (uint32_t layout = 0; layout < 4; ++layout) {
          Case c{I8,
                 layout,
                 layout % 2,
                 45,
                 variant % 2 ? 64u : 67u,
                 40,
                 in,
                 variant % 2 ? I32 : 0u,
                 variant % 3 ? I32 : F32,
                 variant % 2 == 0,
                 small};
          checkCase(ck, c, rng);
          ++variant;
        }
    checkInvalid(ck);
    checkRepackCache(ck);
  } else {
    // Batch tiles and row chunks: batch 1000, a tall matrix with batch 1
    // (rows split over threads), native and packed layouts.
    for (uint32_t mtype : mtypes)
      for (uint32_t layout : {0u, 2u, 3u}) {
        bool isFloat = mtype == F32 || mtype == F16;
        Case c{mtype, layout, layout == 3, 64, 64, 1000,
               isFloat ? kFloatInputs[0] : kIntInputs[variant % 8],
               isFloat ? F32 : I32, isFloat ? F32 : I32, layout == 0};
        checkCase(ck, c, rng);
        Case tall{mtype, layout, 0, 300, 129, 1,
                  isFloat ? kFloatInputs[1] : kIntInputs[(variant + 3) % 8],
                  0, isFloat ? F16 : I32, false};
        checkCase(ck, tall, rng);
        ++variant;
      }
    // The wide f32 path: F32 / F16 weights in every layout and transpose,
    // rows spanning three 64-row strips (the last partial and not a multiple
    // of 16), odd K, batch >= 16; bit-identical to avx2 (checkCase).
    for (uint32_t mtype : {F32, F16})
      for (uint32_t layout : {0u, 1u, 2u, 3u})
        for (uint32_t transpose : {0u, 1u}) {
          Case c{mtype, layout, transpose, 141, 67, 40,
                 kFloatInputs[variant % 4],
                 variant % 3 ? (variant % 2 ? F32 : F16) : 0u,
                 variant % 2 ? F16 : F32, variant % 2 == 0};
          checkCase(ck, c, rng);
          ++variant;
        }
    // Results of 8 MiB and more (aligned, 256-byte rows): the AVX-512
    // epilogues stream them around the caches with one thread (aligned
    // buffer) and store them normally with two (shifted buffer), under a
    // tuning that streams (zen4) and one that does not (zen5); f32 and VNNI
    // i32 / i32 -> f32 results, identical and exact either way.
    for (const char *tuning : {"zen4", "zen5"}) {
      coopvecKernelsForceCpuTuning(tuning);
      for (uint32_t mtype : {F32, I8}) {
        bool isFloat = mtype == F32;
        for (uint32_t out : {F32, I32}) {
          if (isFloat && out == I32)
            continue;
          Case c{mtype,
                 2,
                 0,
                 64,
                 64,
                 32768,
                 isFloat ? kFloatInputs[0] : kIntInputs[0],
                 isFloat ? F32 : I32,
                 out,
                 false};
          checkCase(ck, c, rng);
        }
      }
    }
    coopvecKernelsForceCpuTuning(nullptr);
    // The VNNI path: both weight signedness, every input interpretation,
    // rows not a multiple of 16, K not a multiple of 4, batch >= 16.
    for (uint32_t mtype : {I8, U8})
      for (const InputCombo &in : kIntInputs)
        for (uint32_t layout : {0u, 1u, 2u, 3u}) {
          Case c{mtype, layout, layout % 2, 45, 67, 40, in,
                 variant % 2 ? I32 : 0u, variant % 3 ? I32 : F32,
                 variant % 2 == 0};
          checkCase(ck, c, rng);
          ++variant;
        }
  }
  coopvecKernelsForceIsa(nullptr);
  printIsas();
  std::printf("default-isa: %s\n", coopvecKernelsIsa());
  std::printf("cpu-tuning: %s\n", coopvecKernelsCpuTuning());
  return ck.finish(large ? "matvec-large" : "matvec");
}
