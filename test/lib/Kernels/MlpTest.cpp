//===- MlpTest.cpp - Fused MLP kernel vs chained matvecs and a reference --===//
//
// Float weights: the fused kernel must equal, bit for bit, the same layers
// run one coopvecMatVecMulAdd at a time (same ISA; ReLU and exp applied by
// the test), and a double-precision reference within a relative bound.
// I8 weights: bit-exact against the documented quantization scheme computed
// here in scalar code. BF16 weights: the rounding of layer inputs to bf16
// bit-exact through identity layers, products within a bound of a double
// reference that rounds its layer inputs to bf16 alike. Every ISA the CPU
// has (at AVX-512, BF16 and I8 networks run on AMX tiles where the CPU has
// them; mlp.test forces the other paths), 1 and 2 threads. The output exp
// equals std::exp on a sweep of floats.
//
//===----------------------------------------------------------------------===//

#include "LinAlgCoop/Runtime/Kernels.h"
#include "TestUtil.h"

#include <algorithm>
#include <iterator>
#include <limits>
#include <vector>

using namespace cvtest;

namespace {

/// f32 -> bf16 by the DXIL rule, written independently of the runtime: the
/// nearer of the two bf16 neighbours in double arithmetic, ties to even, a
/// finite value beyond the largest bf16 saturates to it.
uint16_t bf16FromFloat(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  if (std::isnan(f))
    return uint16_t((bits >> 16) | 0x40);
  if (std::isinf(f))
    return uint16_t(bits >> 16);
  uint16_t sign = uint16_t((bits >> 16) & 0x8000);
  uint16_t lo = uint16_t((bits & 0x7fffffff) >> 16); // Toward zero.
  auto value = [](uint16_t h) {
    uint32_t b = uint32_t(h) << 16;
    float v;
    std::memcpy(&v, &b, 4);
    return double(v);
  };
  double a = std::fabs(double(f));
  if (value(lo) == a)
    return uint16_t(sign | lo);
  if (lo == 0x7f7f) // Beyond the largest finite bf16.
    return uint16_t(sign | lo);
  double dlo = a - value(lo), dhi = value(uint16_t(lo + 1)) - a;
  uint16_t pick = dlo < dhi   ? lo
                  : dhi < dlo ? uint16_t(lo + 1)
                              : ((lo & 1) ? uint16_t(lo + 1) : lo);
  return uint16_t(sign | pick);
}

double bf16Value(uint16_t h) {
  uint32_t b = uint32_t(h) << 16;
  float v;
  std::memcpy(&v, &b, 4);
  return v;
}

struct LayerSpec {
  uint32_t outputs, inputs, layout, transpose;
  bool relu;
};

struct Built {
  std::vector<std::vector<uint8_t>> weights, biases;
  std::vector<std::vector<double>> w, b; // logical values
  std::vector<CoopVecMlpLayer> layers;
};

Built build(const std::vector<LayerSpec> &specs, uint32_t interp,
            std::mt19937 &rng) {
  Built bt;
  uint32_t es = interp == COOPVEC_TYPE_F32  ? 4
                : interp == COOPVEC_TYPE_I8 ? 1
                                            : 2;
  std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
  for (const LayerSpec &s : specs) {
    uint32_t rows = s.transpose ? s.inputs : s.outputs;
    uint32_t cols = s.transpose ? s.outputs : s.inputs;
    uint32_t stride = s.layout == 0 ? cols * es : s.layout == 1 ? rows * es : 0;
    std::vector<uint8_t> buf(refSize(s.layout, rows, cols, es, stride), 0xff);
    std::vector<double> w(uint64_t(s.outputs) * s.inputs);
    float scale = 1.0f / std::sqrt(float(s.inputs));
    for (uint32_t r = 0; r < s.outputs; ++r)
      for (uint32_t c = 0; c < s.inputs; ++c) {
        uint64_t off = s.transpose ? refOffset(s.layout, rows, cols, es, stride, c, r)
                                   : refOffset(s.layout, rows, cols, es, stride, r, c);
        double &v = w[uint64_t(r) * s.inputs + c];
        if (interp == COOPVEC_TYPE_F32) {
          float f = 2.0f * scale * unit(rng);
          std::memcpy(&buf[off], &f, 4);
          v = f;
        } else if (interp == COOPVEC_TYPE_F16) {
          uint16_t h = halfFromFloat(2.0f * scale * unit(rng));
          std::memcpy(&buf[off], &h, 2);
          v = halfValue(h);
        } else if (interp == COOPVEC_TYPE_BF16) {
          uint16_t h = bf16FromFloat(2.0f * scale * unit(rng));
          std::memcpy(&buf[off], &h, 2);
          v = bf16Value(h);
        } else {
          int8_t q = int8_t(int(rng() % 255) - 127);
          buf[off] = uint8_t(q);
          v = q;
        }
      }
    std::vector<uint8_t> bias(uint64_t(s.outputs) * 4);
    std::vector<double> bv(s.outputs);
    for (uint32_t r = 0; r < s.outputs; ++r) {
      if (interp == COOPVEC_TYPE_I8) {
        int32_t v = int32_t(rng() % 4001) - 2000;
        std::memcpy(&bias[4 * r], &v, 4);
        bv[r] = v;
      } else {
        float f = 0.1f * unit(rng);
        std::memcpy(&bias[4 * r], &f, 4);
        bv[r] = f;
      }
    }
    bt.weights.push_back(std::move(buf));
    bt.biases.push_back(std::move(bias));
    bt.w.push_back(std::move(w));
    bt.b.push_back(std::move(bv));
    CoopVecMlpLayer l{};
    l.weightsInterp = interp;
    l.outputs = s.outputs;
    l.inputs = s.inputs;
    l.layout = s.layout;
    l.transpose = s.transpose;
    l.stride = stride;
    l.biasInterp = interp == COOPVEC_TYPE_I8 ? COOPVEC_TYPE_I32 : COOPVEC_TYPE_F32;
    l.activation = s.relu ? COOPVEC_ACTIVATION_RELU : COOPVEC_ACTIVATION_NONE;
    // Keeps activations of a 64-wide layer within int8 most of the time
    // while still saturating some.
    l.requantScale = 1.0f / (40.0f * float(s.inputs));
    bt.layers.push_back(l);
  }
  for (size_t i = 0; i < bt.layers.size(); ++i) {
    bt.layers[i].weights = bt.weights[i].data();
    bt.layers[i].bias = bt.biases[i].data();
  }
  return bt;
}

/// `batch` input rows of the first layer's width, uniform in [-1, 1).
std::vector<float> unitInputs(const std::vector<LayerSpec> &specs,
                              uint32_t batch, std::mt19937 &rng) {
  std::vector<float> in(uint64_t(batch) * specs.front().inputs);
  std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
  for (float &f : in)
    f = unit(rng);
  return in;
}

/// The network in double precision over `batch` input rows: `ref` the
/// results, `mag` the same sums over magnitudes (for error bounds);
/// `bf16Inputs` rounds every layer's input to bf16 through f32 first.
void reference(const std::vector<LayerSpec> &specs, const Built &bt,
               const std::vector<float> &in, uint32_t batch, bool bf16Inputs,
               bool outExp, std::vector<double> &ref,
               std::vector<double> &mag) {
  uint32_t k0 = specs.front().inputs, mOut = specs.back().outputs;
  ref.assign(uint64_t(batch) * mOut, 0.0);
  mag.assign(ref.size(), 0.0);
  for (uint32_t b = 0; b < batch; ++b) {
    std::vector<double> h(in.begin() + uint64_t(b) * k0,
                          in.begin() + uint64_t(b + 1) * k0);
    std::vector<double> hm(h.size());
    for (size_t i = 0; i < h.size(); ++i)
      hm[i] = std::fabs(h[i]);
    for (size_t l = 0; l < specs.size(); ++l) {
      if (bf16Inputs)
        for (double &v : h)
          v = bf16Value(bf16FromFloat(float(v)));
      std::vector<double> o(specs[l].outputs), om(specs[l].outputs);
      for (uint32_t r = 0; r < specs[l].outputs; ++r) {
        double sum = bt.b[l][r], m = std::fabs(bt.b[l][r]);
        for (uint32_t c = 0; c < specs[l].inputs; ++c) {
          double w = bt.w[l][uint64_t(r) * specs[l].inputs + c];
          sum += w * h[c];
          m += std::fabs(w) * hm[c];
        }
        o[r] = specs[l].relu ? std::max(0.0, sum) : sum;
        om[r] = m;
      }
      h = o;
      hm = om;
    }
    for (uint32_t r = 0; r < mOut; ++r) {
      ref[uint64_t(b) * mOut + r] = outExp ? std::exp(h[r]) : h[r];
      mag[uint64_t(b) * mOut + r] = hm[r];
    }
  }
}

void checkFloat(Checker &ck, const std::vector<LayerSpec> &specs,
                uint32_t interp, uint32_t batch, bool outExp,
                std::mt19937 &rng) {
  Built bt = build(specs, interp, rng);
  std::vector<float> in = unitInputs(specs, batch, rng);
  std::vector<double> ref, mag;
  reference(specs, bt, in, batch, /*bf16Inputs=*/false, outExp, ref, mag);
  for (const char *isa : availableIsas()) {
    coopvecKernelsForceIsa(isa);
    // Chained matvecs on the same ISA.
    std::vector<float> cur = in, next;
    for (size_t l = 0; l < specs.size(); ++l) {
      const CoopVecMlpLayer &L = bt.layers[l];
      next.assign(uint64_t(batch) * L.outputs, 0.0f);
      int32_t st = coopvecMatVecMulAdd(
          next.data(), COOPVEC_TYPE_F32, 0, cur.data(), COOPVEC_TYPE_F32,
          COOPVEC_TYPE_F32, 0, batch, L.weights, 0, interp, L.outputs,
          L.inputs, L.layout, L.transpose, L.stride, L.bias, 0,
          COOPVEC_TYPE_F32, 1);
      ck.check(st == COOPVEC_OK, "chained matvec status %d", st);
      if (specs[l].relu)
        for (float &f : next)
          f = f > 0.0f ? f : 0.0f;
      cur.swap(next);
    }
    if (outExp)
      for (float &f : cur)
        f = std::exp(f);
    for (uint32_t threads : {1u, 2u}) {
      std::vector<float> out(ref.size(), -7.0f);
      int32_t st = coopvecMlpForward(out.data(), 0, in.data(), 0, batch,
                                     bt.layers.data(), uint32_t(specs.size()),
                                     1.0f, outExp, threads);
      bool same = st == COOPVEC_OK && std::memcmp(out.data(), cur.data(),
                                                  out.size() * 4) == 0;
      bool close = st == COOPVEC_OK;
      for (size_t i = 0; close && i < out.size(); ++i) {
        // Per layer (K+1) ulps of the magnitude, three layers deep; exp
        // scales the absolute error by its value.
        double tol = 4.0 * 200 * std::ldexp(mag[i], -23);
        if (outExp)
          tol *= ref[i];
        close &= std::fabs(out[i] - ref[i]) <= tol + 1e-30;
      }
      ck.check(same && close,
               "mlp %s interp=%u batch=%u threads=%u exp=%d same=%d close=%d "
               "status=%d",
               coopvecKernelsIsa(), interp, batch, threads, int(outExp),
               int(same), int(close), st);
    }
  }
  coopvecKernelsForceIsa(nullptr);
}

/// With perRow, every layer has a scale per row (requantScales, at an
/// offset), else the layer's one requantScale.
void checkInt8(Checker &ck, const std::vector<LayerSpec> &specs, uint32_t batch,
               std::mt19937 &rng, bool perRow = false) {
  Built bt = build(specs, COOPVEC_TYPE_I8, rng);
  std::vector<std::vector<float>> rowScales(specs.size());
  auto scaleOf = [&](size_t l, uint32_t r) {
    return perRow ? rowScales[l][4 + r] : bt.layers[l].requantScale;
  };
  if (perRow)
    for (size_t l = 0; l < specs.size(); ++l) {
      // 16 bytes of something else first: requantScalesOffset.
      rowScales[l].assign(4 + specs[l].outputs, -1.0f);
      for (uint32_t r = 0; r < specs[l].outputs; ++r)
        rowScales[l][4 + r] =
            bt.layers[l].requantScale * float(1 + rng() % 8) / 4.0f;
      bt.layers[l].requantScales = rowScales[l].data();
      bt.layers[l].requantScalesOffset = 16;
      bt.layers[l].requantScale = 1e30f; // Must not be used.
    }
  uint32_t k0 = specs.front().inputs, mOut = specs.back().outputs;
  float inputScale = 50.0f;
  std::vector<float> in(uint64_t(batch) * k0);
  std::uniform_real_distribution<float> unit(-3.0f, 3.0f);
  for (float &f : in)
    f = unit(rng);
  // Inputs the quantization saturates, rounds to even or zeroes (NaN).
  const float special[] = {std::numeric_limits<float>::quiet_NaN(),
                           std::numeric_limits<float>::infinity(),
                           -std::numeric_limits<float>::infinity(),
                           1e30f,
                           -1e30f,
                           127.5f / 50.0f,
                           -128.5f / 50.0f,
                           0.5f / 50.0f,
                           -2.5f / 50.0f};
  for (size_t i = 0; i < in.size(); i += 37)
    in[i] = special[(i / 37) % std::size(special)];
  std::vector<float> ref(uint64_t(batch) * mOut);
  for (uint32_t b = 0; b < batch; ++b) {
    std::vector<int32_t> q(k0);
    for (uint32_t i = 0; i < k0; ++i)
      q[i] = satRtne(in[uint64_t(b) * k0 + i] * inputScale, -128, 127);
    for (size_t l = 0; l < specs.size(); ++l) {
      const LayerSpec &s = specs[l];
      std::vector<int32_t> nq(s.outputs);
      for (uint32_t r = 0; r < s.outputs; ++r) {
        int64_t acc = int64_t(bt.b[l][r]);
        for (uint32_t c = 0; c < s.inputs; ++c)
          acc += int64_t(bt.w[l][uint64_t(r) * s.inputs + c]) * q[c];
        if (s.relu && acc < 0)
          acc = 0;
        float scaled = float(acc) * scaleOf(l, r);
        if (l + 1 == specs.size())
          ref[uint64_t(b) * mOut + r] = scaled;
        else if (s.relu) // After a ReLU: u8.
          nq[r] = satRtne(scaled, 0, 255);
        else
          nq[r] = satRtne(scaled, -128, 127);
      }
      q = nq;
    }
  }
  for (const char *isa : availableIsas()) {
    coopvecKernelsForceIsa(isa);
    for (uint32_t threads : {1u, 2u}) {
      std::vector<float> out(ref.size(), -7.0f);
      int32_t st = coopvecMlpForward(out.data(), 0, in.data(), 0, batch,
                                     bt.layers.data(), uint32_t(specs.size()),
                                     inputScale, 0, threads);
      bool same = st == COOPVEC_OK &&
                  std::memcmp(out.data(), ref.data(), out.size() * 4) == 0;
      ck.check(same, "mlp-i8 %s batch=%u threads=%u perRow=%d status=%d",
               coopvecKernelsIsa(), batch, threads, int(perRow), st);
    }
  }
  coopvecKernelsForceIsa(nullptr);
}

/// BF16 weights on random layers: the double reference rounds every layer's
/// input to bf16 (through f32, as the kernels hold them), then sums exactly.
/// A kernel's f32 sums may round a hidden value to the neighbouring bf16,
/// so beyond one layer the bound allows a bf16 ulp (2^-8 relative) per
/// layer and element; one layer gets the f32 summation bound alone.
void checkBf16(Checker &ck, const std::vector<LayerSpec> &specs, uint32_t batch,
               std::mt19937 &rng) {
  Built bt = build(specs, COOPVEC_TYPE_BF16, rng);
  uint32_t k0 = specs.front().inputs;
  std::vector<float> in = unitInputs(specs, batch, rng);
  std::vector<double> ref, mag;
  reference(specs, bt, in, batch, /*bf16Inputs=*/true, /*outExp=*/false, ref,
            mag);
  double rel = specs.size() == 1 ? 2.0 * (k0 + 1) * std::ldexp(1.0, -24)
                                 : double(specs.size()) * std::ldexp(1.0, -7);
  for (const char *isa : availableIsas()) {
    coopvecKernelsForceIsa(isa);
    for (uint32_t threads : {1u, 2u}) {
      std::vector<float> out(ref.size(), -7.0f);
      int32_t st = coopvecMlpForward(out.data(), 0, in.data(), 0, batch,
                                     bt.layers.data(), uint32_t(specs.size()),
                                     1.0f, 0, threads);
      bool close = st == COOPVEC_OK;
      double worst = 0;
      for (size_t i = 0; close && i < out.size(); ++i) {
        double err = std::fabs(out[i] - ref[i]);
        worst = std::max(worst, err / (mag[i] + 1e-30));
        close &= err <= rel * mag[i] + 1e-30;
      }
      ck.check(close,
               "mlp bf16 %s layers=%zu batch=%u threads=%u status=%d worst "
               "error %.3g of the magnitude (bound %.3g)",
               coopvecKernelsIsa(), specs.size(), batch, threads, st, worst,
               rel);
    }
  }
  coopvecKernelsForceIsa(nullptr);
}

/// The bf16 rounding of layer inputs, bit for bit: an identity layer passes
/// its input rounded to bf16 (one exact product per row, the rest +0); a
/// 1-column layer with weight 1 and input 0 makes its bias the hidden value
/// (one f32 addition), which an identity layer then rounds. Values at ties,
/// beside them, at the top of the range (saturating to the largest bf16),
/// the largest f32 subnormal (rounding up to the smallest normal bf16,
/// where a conversion that reads subnormals as zero would give 0), of both
/// signs; 72 rows (4 x 16 + 8) reach the 16-lane and the 8-lane stores.
void checkBf16Rounding(Checker &ck) {
  // The subnormals in the first 16 values, the saturating ones in the
  // fourth (a vector of 16 with either goes to an exact sequence on AMX).
  std::vector<float> values;
  uint32_t subnormal = 0x007fffff;
  values.push_back(0.0f);
  std::memcpy(&values.back(), &subnormal, 4);
  values.push_back(-values.back());
  for (int e : {0, 5, -3, 100})
    for (double frac : {0.0, 1.0, 2.0, 3.0, 1.5, 2.5, 0.75}) {
      // 1 + frac * 2^-8: ties at odd multiples of 2^-8 (frac 1, 3).
      values.push_back(float(std::ldexp(1.0 + frac * std::ldexp(1.0, -8), e)));
      values.push_back(-values.back());
    }
  values.push_back(3.3999e38f);
  values.push_back(-3.3996e38f);
  values.push_back(std::ldexp(1.0f, 127) * 1.99609375f); // Tie below max.
  values.resize(72, 0.3333333f);
  uint32_t n = uint32_t(values.size());
  std::vector<uint16_t> identity(uint64_t(n) * n, 0), column(n, 0x3f80);
  for (uint32_t i = 0; i < n; ++i)
    identity[uint64_t(i) * n + i] = 0x3f80; // 1.0
  std::vector<float> zeroBias(n, 0.0f);
  auto layer = [&](const std::vector<uint16_t> &w, uint32_t outputs,
                   uint32_t inputs, const float *bias) {
    CoopVecMlpLayer l{};
    l.weights = w.data();
    l.weightsInterp = COOPVEC_TYPE_BF16;
    l.outputs = outputs;
    l.inputs = inputs;
    l.layout = COOPVEC_LAYOUT_ROW_MAJOR;
    l.stride = inputs * 2;
    l.bias = bias;
    l.biasInterp = COOPVEC_TYPE_F32;
    l.activation = COOPVEC_ACTIVATION_NONE;
    return l;
  };
  CoopVecMlpLayer passInput[1] = {layer(identity, n, n, zeroBias.data())};
  CoopVecMlpLayer passBias[2] = {layer(column, n, 1, values.data()),
                                 layer(identity, n, n, zeroBias.data())};
  float zero[1] = {0.0f};
  for (const char *isa : availableIsas()) {
    coopvecKernelsForceIsa(isa);
    std::vector<float> a(n, -7.0f), b(n, -7.0f);
    int32_t sa = coopvecMlpForward(a.data(), 0, values.data(), 0, 1, passInput,
                                   1, 1.0f, 0, 1);
    int32_t sb =
        coopvecMlpForward(b.data(), 0, zero, 0, 1, passBias, 2, 1.0f, 0, 1);
    for (uint32_t i = 0; i < n; ++i) {
      float want = float(bf16Value(bf16FromFloat(values[i])));
      ck.check(sa == COOPVEC_OK && a[i] == want,
               "bf16 input rounding %s: %.9g -> %.9g, want %.9g (status %d)",
               coopvecKernelsIsa(), double(values[i]), double(a[i]),
               double(want), sa);
      ck.check(sb == COOPVEC_OK && b[i] == want,
               "bf16 hidden rounding %s: %.9g -> %.9g, want %.9g (status %d)",
               coopvecKernelsIsa(), double(values[i]), double(b[i]),
               double(want), sb);
    }
  }
  coopvecKernelsForceIsa(nullptr);
}

/// The output exp on every path: identity layers (weights 1, no bias) pass
/// a sweep of floats through, so the result must be std::exp of the input;
/// on x86-64 glibc the AVX-512 exp reproduces glibc's expf to the bit (its
/// special cases too: |x| >= 88, inf, NaN, subnormal results), elsewhere a
/// libm's own exp or one ulp from it. One output per vector (one run of
/// values) and 19 per vector in rows 24 apart (16 lanes and a rest).
void checkExp(Checker &ck) {
  std::vector<float> x;
  for (uint64_t bits = 0; bits < (1ull << 32); bits += 65521) {
    uint32_t b = uint32_t(bits);
    float f;
    std::memcpy(&f, &b, 4);
    x.push_back(f);
  }
  for (uint32_t i = 0; i < (1u << 18); ++i) // Densely where exp is finite.
    x.push_back(-104.0f + 193.0f * float(i) / float(1u << 18));
  for (float f : {0.0f, -0.0f, 1.0f, -1.0f, 88.0f, -88.0f, 88.72f, 88.73f,
                  -87.33f, -87.34f, -103.97f, -104.0f, -150.0f, 1e-30f, 1e-45f,
                  0x1.fffffep-127f, std::numeric_limits<float>::infinity(),
                  -std::numeric_limits<float>::infinity(),
                  std::numeric_limits<float>::quiet_NaN()})
    x.push_back(f);
  for (uint32_t b : {0x42afffffu, 0x42b00000u, 0xc2afffffu, 0xc2b00000u})
    x.push_back([&] {
      float f;
      std::memcpy(&f, &b, 4);
      return f;
    }());
  auto matches = [](float got, float want) {
    if (std::isnan(want))
      return std::isnan(got);
#if defined(__GLIBC__)
    return std::memcmp(&got, &want, 4) == 0;
#else
    return std::fabs(double(got) - want) <=
           std::fabs(double(std::nextafter(want, 0.0f)) - want);
#endif
  };
  uint32_t batch = uint32_t(x.size());
  std::vector<float> ones(19, 1.0f);
  for (uint32_t m : {1u, 19u}) {
    CoopVecMlpLayer layer = {};
    layer.weights = ones.data();
    layer.weightsInterp = COOPVEC_TYPE_F32;
    layer.outputs = m;
    layer.inputs = 1;
    layer.layout = COOPVEC_LAYOUT_ROW_MAJOR;
    layer.stride = 4;
    uint32_t stride = m == 1 ? 1 : 24;
    for (const char *isa : availableIsas()) {
      coopvecKernelsForceIsa(isa);
      std::vector<float> y(uint64_t(batch) * stride, 0.0f);
      int32_t st = coopvecMlpForward(y.data(), stride * 4, x.data(), 0, batch,
                                     &layer, 1, 1.0f, 1, 2);
      uint32_t bad = 0;
      for (uint32_t b = 0; b < batch; ++b)
        for (uint32_t i = 0; i < m; ++i)
          bad += !matches(y[uint64_t(b) * stride + i], std::exp(x[b]));
      ck.check(st == COOPVEC_OK && bad == 0,
               "mlp exp %s m=%u status=%d: %u values differ from std::exp",
               coopvecKernelsIsa(), m, st, bad);
    }
  }
  coopvecKernelsForceIsa(nullptr);
}

/// An infinite input through a BF16 layer without ReLU whose M (20) is not
/// a multiple of 16: every output is +inf on every path. (The AMX path once
/// left 0 * inf = NaN in the next layer's padding inputs, which then made
/// every output NaN.)
void checkBf16Infinity(Checker &ck) {
  const uint16_t half = 0x3F00; // 0.5 in bf16
  std::vector<uint16_t> w0(20 * 8, half), w1(3 * 24, half);
  CoopVecMlpLayer l[2] = {};
  l[0].weights = w0.data();
  l[0].outputs = 20;
  l[0].inputs = 8;
  l[0].stride = 16;
  l[1].weights = w1.data();
  l[1].outputs = 3;
  l[1].inputs = 20;
  l[1].stride = 48;
  for (CoopVecMlpLayer &layer : l) {
    layer.weightsInterp = COOPVEC_TYPE_BF16;
    layer.layout = COOPVEC_LAYOUT_ROW_MAJOR;
    layer.activation = COOPVEC_ACTIVATION_NONE;
  }
  uint32_t batch = 37;
  std::vector<float> x(uint64_t(batch) * 8, 1.0f), y(uint64_t(batch) * 3);
  x[8 * 5] = std::numeric_limits<float>::infinity();
  int32_t st =
      coopvecMlpForward(y.data(), 0, x.data(), 0, batch, l, 2, 1.0f, 0, 1);
  bool ok = st == COOPVEC_OK;
  for (uint32_t b = 0; b < batch; ++b)
    for (uint32_t i = 0; i < 3; ++i)
      ok &= b == 5 ? y[3 * b + i] == std::numeric_limits<float>::infinity()
                   : y[3 * b + i] == 40.0f; // 20 x 0.5 x (8 x 0.5 x 1)
  ck.check(ok, "mlp-bf16 infinite input: status=%d row 5 = %g %g %g", st, y[15],
           y[16], y[17]);
}

void checkInvalid(Checker &ck) {
  std::vector<float> w(64 * 64), x(64), y(64);
  CoopVecMlpLayer l[2] = {};
  for (auto &layer : l) {
    layer.weights = w.data();
    layer.weightsInterp = COOPVEC_TYPE_F32;
    layer.outputs = layer.inputs = 8;
    layer.layout = COOPVEC_LAYOUT_INFERENCING_OPTIMAL;
  }
  ck.check(coopvecMlpForward(y.data(), 0, x.data(), 0, 1, l, 2, 1, 0, 1) ==
               COOPVEC_OK, "valid mlp");
  l[1].inputs = 9;
  ck.check(coopvecMlpForward(y.data(), 0, x.data(), 0, 1, l, 2, 1, 0, 1) ==
               COOPVEC_ERROR_INVALID_DIMENSIONS, "chain mismatch");
  l[1].inputs = 8;
  l[1].weightsInterp = COOPVEC_TYPE_F16;
  ck.check(coopvecMlpForward(y.data(), 0, x.data(), 0, 1, l, 2, 1, 0, 1) ==
               COOPVEC_ERROR_UNSUPPORTED_TYPE, "mixed weight types");
  l[1].weightsInterp = COOPVEC_TYPE_F32;
  l[1].activation = 7;
  ck.check(coopvecMlpForward(y.data(), 0, x.data(), 0, 1, l, 2, 1, 0, 1) ==
               COOPVEC_ERROR_INVALID_ARGUMENT, "bad activation");
  l[1].activation = 0;
  ck.check(coopvecMlpForward(y.data(), 6, x.data(), 0, 1, l, 2, 1, 0, 1) ==
               COOPVEC_ERROR_INVALID_STRIDE, "output stride");
  ck.check(coopvecMlpForward(y.data(), 0, x.data(), 0, 1, l, 0, 1, 0, 1) ==
               COOPVEC_ERROR_INVALID_ARGUMENT, "no layers");
}

} // namespace

int main() {
  Checker ck;
  std::mt19937 rng(99);
  // The 2-thread cases split even these small shapes across the pool.
  coopvecKernelsSetParallelThreshold(0);
  // Shading MLP shapes, mixed layouts (native, row-major, transposed tiles).
  std::vector<LayerSpec> small = {{64, 9, 2, 0, true}, {64, 64, 0, 0, true},
                                  {3, 64, 3, 1, false}};
  std::vector<LayerSpec> wide = {{64, 64, 2, 0, true}, {64, 64, 3, 0, true},
                                 {3, 64, 2, 0, false}};
  std::vector<LayerSpec> odd = {{33, 7, 1, 0, true}, {13, 33, 2, 1, true},
                                {5, 13, 0, 0, true}};
  for (uint32_t interp : {COOPVEC_TYPE_F32, COOPVEC_TYPE_F16})
    for (uint32_t batch : {1u, 7u, 1000u}) {
      checkFloat(ck, small, interp, batch, batch == 7, rng);
      checkFloat(ck, wide, interp, batch, false, rng);
      checkFloat(ck, odd, interp, batch, batch == 1, rng);
    }
  // A hidden layer without ReLU: signed activations into the next layer
  // (the VNNI path flips them into u8 and corrects by the row sums).
  std::vector<LayerSpec> signedHidden = {{48, 64, 2, 0, false},
                                         {17, 48, 0, 1, true},
                                         {3, 17, 2, 0, false}};
  for (uint32_t batch : {1u, 3u, 1000u}) {
    checkInt8(ck, signedHidden, batch, rng);
    checkInt8(ck, wide, batch, rng);
    checkInt8(ck, odd, batch, rng);
    checkInt8(ck, small, batch, rng);
    // AMX: more than 64 outputs (two groups of C tiles), inputs past one
    // 64-wide chunk with a remainder, a last layer of more than 16 outputs.
    checkInt8(
        ck,
        {{100, 70, 2, 0, true}, {40, 100, 3, 1, false}, {19, 40, 1, 0, false}},
        batch, rng);
    checkInt8(ck, {{24, 130, 0, 1, true}}, batch, rng);
    // Narrow single layers on signed (flipped) inputs: the segment form
    // with all 32 input groups, and with a partial last group.
    checkInt8(ck, {{4, 128, 2, 0, false}}, batch, rng);
    checkInt8(ck, {{2, 33, 0, 1, true}}, batch, rng);
    checkInt8(ck, wide, batch, rng, /*perRow=*/true);
    checkInt8(ck, signedHidden, batch, rng, /*perRow=*/true);
  }
  for (uint32_t batch : {1u, 7u, 1000u}) {
    checkBf16(ck, small, batch, rng);
    checkBf16(ck, wide, batch, rng);
    checkBf16(ck, odd, batch, rng);
    checkBf16(ck, {{64, 64, 2, 0, false}}, batch, rng);
    checkBf16(ck, {{19, 37, 1, 1, true}}, batch, rng);
    // Narrow single layers (the segment form on AVX-512 BF16: up to 4 rows,
    // up to 64 inputs), under the one-layer bound, which the deeper networks'
    // per-layer ulp bound is too loose to check their last layer by.
    checkBf16(ck, {{3, 64, 2, 0, false}}, batch, rng);
    checkBf16(ck, {{4, 17, 0, 1, true}}, batch, rng);
    checkBf16(ck, {{1, 64, 1, 0, false}}, batch, rng);
    checkBf16(ck, {{4, 65, 2, 0, false}}, batch, rng); // Panels: 33 groups.
    // More than 64 outputs (AMX: two groups of C tiles) and inputs past one
    // 32-wide chunk with a remainder.
    checkBf16(ck, {{100, 70, 2, 0, true}, {40, 100, 3, 1, false}}, batch, rng);
  }
  checkBf16Rounding(ck);
  checkExp(ck);
  checkBf16Infinity(ck);
  checkInvalid(ck);
  printIsas();
  return ck.finish("mlp");
}
