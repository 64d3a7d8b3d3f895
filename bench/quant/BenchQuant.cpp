//===- BenchQuant.cpp - The quantized product vs oneDNN and OpenBLAS ------===//
//
// Times coopvecKernelsQuantizedMatMul (the kernels behind the quantized form
// of coopvec.batch_matvec) with and without precomputed reductions against
// oneDNN f32 matmul, OpenBLAS sgemm and oneDNN 2.x int8 matmul (u8s8, f32
// output with per-channel output scales) without and with a per-tensor
// weight zero point, on the shapes of the precomputed-reductions RFC, a few
// LLM projections and 64x64 batches, plus the AVX2 kernels forced on the
// same product. Contenders of one shape run interleaved; figures are medians
// (and the with-R / oneDNN int8 ratio of minima, steadier on a loaded
// machine). Prints the CPU, its ISA extensions and the load average. See
// README.md.
//
//===----------------------------------------------------------------------===//

#include "LinAlgCoop/Runtime/Kernels.h"
#include "LinAlgCoop/Runtime/Numerics.h"
#include "LinAlgCoop/Runtime/Quantized.h"

#include <cblas.h>
#include <omp.h>
#include <oneapi/dnnl/dnnl.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

extern "C" void openblas_set_num_threads(int);

namespace {

using dnnl::memory;
using Dt = dnnl::memory::data_type;
using Tag = dnnl::memory::format_tag;

int gReps = 5;
int gThreads = 2;
bool gFloatPeers = true; // COOPVEC_BENCH_NO_F32=1 leaves them out
bool gAvx2 = false;      // the CPU has the AVX2 kernel level
bool gAmx = false;       // the avx512 level runs on AMX tiles

/// Medians (and, in `mins`, minima) of `reps` interleaved runs of each
/// function after one warm-up run; NaN for a null function.
std::vector<double>
interleavedMedianMs(const std::vector<std::function<void()>> &fns, int reps,
                    std::vector<double> &mins) {
  for (const auto &fn : fns)
    if (fn)
      fn();
  std::vector<std::vector<double>> t(fns.size());
  for (int i = 0; i < reps; ++i)
    for (size_t f = 0; f < fns.size(); ++f) {
      if (!fns[f])
        continue;
      auto t0 = std::chrono::steady_clock::now();
      fns[f]();
      auto t1 = std::chrono::steady_clock::now();
      t[f].push_back(
          std::chrono::duration<double, std::milli>(t1 - t0).count());
    }
  std::vector<double> med;
  mins.clear();
  for (auto &v : t) {
    std::sort(v.begin(), v.end());
    med.push_back(v.empty() ? NAN : v[v.size() / 2]);
    mins.push_back(v.empty() ? NAN : v[0]);
  }
  return med;
}

struct Dnnl {
  dnnl::engine eng{dnnl::engine::kind::cpu, 0};
  dnnl::stream strm{eng};
};

/// dst[b x n] = src[b x k] * wei[k x n], weights reordered once into
/// oneDNN's preferred layout. Int8: f32 output with runtime per-channel
/// output scales and, if `weightZeroPoint`, a runtime per-tensor weight
/// zero point.
struct MatMul {
  dnnl::matmul prim;
  memory wei, scales, zp;
  memory::desc srcMd, dstMd;
  bool ok = false;
  std::string why;

  MatMul(Dnnl &d, memory::dim b, memory::dim k, memory::dim n, Dt srcDt,
         Dt weiDt, const void *weiKxN, const float *outScales,
         bool weightZeroPoint) {
    try {
      srcMd = memory::desc({b, k}, srcDt, Tag::ab);
      dstMd = memory::desc({b, n}, Dt::f32, Tag::ab);
      memory::desc weiAny({k, n}, weiDt, Tag::any);
      dnnl::primitive_attr attr;
      if (outScales)
        attr.set_output_scales(1 << 1, {DNNL_RUNTIME_F32_VAL});
      if (weightZeroPoint)
        attr.set_zero_points(DNNL_ARG_WEIGHTS, 0, {DNNL_RUNTIME_S32_VAL});
      dnnl::matmul::primitive_desc pd(dnnl::matmul::desc(srcMd, weiAny, dstMd),
                                      attr, d.eng);
      why = pd.impl_info_str();
      prim = dnnl::matmul(pd);
      memory user({{k, n}, weiDt, Tag::ab}, d.eng, const_cast<void *>(weiKxN));
      wei = memory(pd.weights_desc(), d.eng);
      dnnl::reorder(user, wei).execute(d.strm, user, wei);
      if (outScales) {
        scales = memory({{n}, Dt::f32, Tag::a}, d.eng);
        std::memcpy(scales.get_data_handle(), outScales, size_t(n) * 4);
      }
      if (weightZeroPoint) {
        zp = memory({{1}, Dt::s32, Tag::a}, d.eng);
        *static_cast<int32_t *>(zp.get_data_handle()) = 3;
      }
      d.strm.wait();
      ok = true;
    } catch (const dnnl::error &e) {
      why = e.what();
    }
  }

  void run(Dnnl &d, const void *src, void *dst) {
    memory s(srcMd, d.eng, const_cast<void *>(src));
    memory o(dstMd, d.eng, dst);
    std::unordered_map<int, memory> args = {
        {DNNL_ARG_SRC, s}, {DNNL_ARG_WEIGHTS, wei}, {DNNL_ARG_DST, o}};
    if (scales)
      args[DNNL_ARG_ATTR_OUTPUT_SCALES] = scales;
    if (zp)
      args[DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_WEIGHTS] = zp;
    prim.execute(d.strm, args);
    d.strm.wait();
  }
};

std::mt19937 gRng(42);

template <class T> struct Aligned64 {
  using value_type = T;
  Aligned64() = default;
  template <class U> Aligned64(const Aligned64<U> &) {}
  T *allocate(size_t n) {
    return static_cast<T *>(
        std::aligned_alloc(64, (n * sizeof(T) + 63) / 64 * 64));
  }
  void deallocate(T *p, size_t) { std::free(p); }
  template <class U> bool operator==(const Aligned64<U> &) const {
    return true;
  }
  template <class U> bool operator!=(const Aligned64<U> &) const {
    return false;
  }
};
template <class T> using Buffer = std::vector<T, Aligned64<T>>;

uint16_t toHalf(float f) {
  return uint16_t(coopvecConvertF32(COOPVEC_FMT_F16, f, COOPVEC_RND_RN, 0, 0));
}

/// The 1-, 5- and 15-minute load averages: a loaded machine skews even
/// interleaved ratios.
void printLoad(const char *when) {
  double l[3] = {NAN, NAN, NAN};
  if (FILE *f = std::fopen("/proc/loadavg", "r")) {
    if (std::fscanf(f, "%lf %lf %lf", &l[0], &l[1], &l[2]) != 3)
      l[0] = NAN;
    std::fclose(f);
  }
  std::printf("load average %s: %.2f %.2f %.2f\n", when, l[0], l[1], l[2]);
}

/// The CPU (lscpu's model name), the ISA extensions the kernels and oneDNN
/// care about, and the level the coopvec kernels run at.
void printMachine() {
  std::string model = "unknown", flags;
  if (FILE *f = std::fopen("/proc/cpuinfo", "r")) {
    char line[8192];
    while (std::fgets(line, sizeof(line), f)) {
      std::string l(line);
      auto value = [&] {
        std::string v = l.substr(l.find(':') + 1);
        while (!v.empty() && (v.back() == '\n' || v.back() == ' '))
          v.pop_back();
        return v.empty() || v[0] != ' ' ? v : v.substr(1);
      };
      if (l.rfind("model name", 0) == 0 && model == "unknown")
        model = value();
      if (l.rfind("flags", 0) == 0 && flags.empty())
        flags = " " + value() + " ";
    }
    std::fclose(f);
  }
  std::string isa;
  for (const char *x :
       {"avx2", "fma", "avx512f", "avx512bw", "avx512vl", "avx512_vnni",
        "avx_vnni", "avx512_bf16", "avx512_fp16", "amx_int8"})
    if (flags.find(std::string(" ") + x + " ") != std::string::npos)
      isa += std::string(" ") + x;
  std::printf("cpu: %s (%u online)\nisa:%s\ncoopvec kernel level: %s%s "
              "(AVX2 column: forced avx2%s; VNNI column: %s)\n",
              model.c_str(), coopvecKernelsDefaultThreads(), isa.c_str(),
              coopvecKernelsIsa(), gAmx ? " on AMX tiles" : "",
              gAvx2 ? "" : ", not available",
              gAmx ? "the avx512 level without tiles" : "not run");
  printLoad("before");
}

/// Row quantization as the CPU target runs it: the AVX-512 kernel, else the
/// reference.
int32_t quantizeRows(const CoopVecQuantizeRowsParams *p) {
  int32_t st = coopvecKernelsQuantizeRows(p);
  return st == COOPVEC_ERROR_UNSUPPORTED_TYPE ? coopvecReferenceQuantizeRows(p)
                                              : st;
}

/// The benchmark's row quantization: f32 rows of K to I8, F16 scales and
/// I32 reductions per group of G, every buffer dense.
CoopVecQuantizeRowsParams quantizeParams(const float *x, uint32_t B, uint32_t K,
                                         uint32_t G, void *q, void *scales,
                                         void *red) {
  CoopVecQuantizeRowsParams p{};
  p.input = x;
  p.inputType = COOPVEC_TYPE_F32;
  p.inputStride = uint64_t(K) * 4;
  p.batch = B;
  p.n = K;
  p.group = G;
  p.output = q;
  p.outputInterp = COOPVEC_TYPE_I8;
  p.outputStride = K;
  p.scales = scales;
  p.scaleType = COOPVEC_TYPE_F16;
  p.scalesStride = uint64_t(K / G) * 2;
  p.reductions = red;
  p.reductionsStride = uint64_t(K / G) * 4;
  return p;
}

struct Shape {
  const char *name;
  uint32_t b, k, n, group;
};

void benchShape(Dnnl &d, const Shape &s) {
  const uint32_t B = s.b, K = s.k, N = s.n, G = s.group;
  std::normal_distribution<float> normal(0.0f, 1.0f);
  Buffer<float> xf(size_t(B) * K);
  for (float &v : xf)
    v = normal(gRng);
  // Weights: U8 with a per-channel U8 zero point and F16 scale (the RFC's
  // --dt=s8:u8:f16 ... --attr-zero-points=wei:per_oc:u8).
  Buffer<uint8_t> w(size_t(N) * K);
  for (auto &v : w)
    v = uint8_t(gRng() & 0xFF);
  std::vector<uint8_t> zw(N);
  std::vector<uint16_t> sw(N);
  std::vector<float> swf(N);
  for (uint32_t n = 0; n < N; ++n) {
    zw[n] = uint8_t(100 + gRng() % 56);
    sw[n] = toHalf(0.001f + 0.001f * float(gRng() % 100) / 100.0f);
    swf[n] = coopvecDecodeToF32(COOPVEC_FMT_F16, sw[n]);
  }
  // Activations: I8 rows, F16 scales and I32 reductions per group of G.
  uint32_t groups = K / G;
  Buffer<int8_t> xq(size_t(B) * K);
  Buffer<uint16_t> sx(size_t(B) * groups);
  Buffer<int32_t> red(size_t(B) * groups);
  CoopVecQuantizeRowsParams qp =
      quantizeParams(xf.data(), B, K, G, xq.data(), sx.data(), red.data());
  if (quantizeRows(&qp) != COOPVEC_OK) {
    std::fprintf(stderr, "quantize failed\n");
    std::exit(1);
  }

  Buffer<uint16_t> yR(size_t(B) * N), yNoR(size_t(B) * N);
  CoopVecQuantMatMulParams p{};
  p.output = yR.data();
  p.outputType = COOPVEC_TYPE_F16;
  p.outputStride = uint64_t(N) * 2;
  p.input = xq.data();
  p.inputInterp = COOPVEC_TYPE_I8;
  p.inputStride = K;
  p.batch = B;
  p.matrix = w.data();
  p.matrixInterp = COOPVEC_TYPE_U8;
  p.m = N;
  p.k = K;
  p.layout = COOPVEC_LAYOUT_ROW_MAJOR;
  p.matrixStride = K;
  p.weightZeroPoints = zw.data();
  p.weightZeroPointsInterp = COOPVEC_TYPE_U8;
  p.weightZeroPointsGroup = K;
  p.weightScales = sw.data();
  p.weightScalesInterp = COOPVEC_TYPE_F16;
  p.weightScalesGroup = K;
  p.inputScales = sx.data();
  p.inputScalesStride = uint64_t(groups) * 2;
  p.inputScalesInterp = COOPVEC_TYPE_F16;
  p.inputScalesGroup = G;
  p.reductions = red.data();
  p.reductionsStride = uint64_t(groups) * 4;
  p.reductionsInterp = COOPVEC_TYPE_I32;
  p.reductionsGroup = G;
  p.numThreads = gThreads;
  CoopVecQuantMatMulParams pNoR = p;
  pNoR.output = yNoR.data();
  pNoR.reductions = nullptr;
  pNoR.reductionsGroup = 0;
  pNoR.reductionsInterp = 0;
  pNoR.reductionsStride = 0;
  if (coopvecKernelsQuantizedMatMul(&p) != COOPVEC_OK ||
      coopvecKernelsQuantizedMatMul(&pNoR) != COOPVEC_OK) {
    std::fprintf(stderr, "%s: the kernels do not take the shape\n", s.name);
    std::exit(1);
  }
  if (std::memcmp(yR.data(), yNoR.data(), yR.size() * 2) != 0) {
    std::fprintf(stderr, "%s: with and without reductions differ\n", s.name);
    std::exit(1);
  }
  // The AVX2 kernels (COOPVEC_KERNELS_ISA=avx2) give the same bits.
  Buffer<uint16_t> yAvx2(size_t(B) * N);
  CoopVecQuantMatMulParams pAvx2 = p;
  pAvx2.output = yAvx2.data();
  auto runAvx2 = [&] {
    coopvecKernelsForceIsa("avx2");
    int32_t st = coopvecKernelsQuantizedMatMul(&pAvx2);
    coopvecKernelsForceIsa(nullptr);
    return st;
  };
  if (gAvx2 && (runAvx2() != COOPVEC_OK ||
                std::memcmp(yAvx2.data(), yR.data(), yR.size() * 2) != 0)) {
    std::fprintf(stderr, "%s: the AVX2 kernels differ\n", s.name);
    std::exit(1);
  }
  // So do the AVX-512 VNNI kernels where the tiles are the default.
  Buffer<uint16_t> yVnni(size_t(B) * N);
  CoopVecQuantMatMulParams pVnni = p;
  pVnni.output = yVnni.data();
  auto runVnni = [&] {
    coopvecKernelsQuantizedAmx(0);
    int32_t st = coopvecKernelsQuantizedMatMul(&pVnni);
    coopvecKernelsQuantizedAmx(1);
    return st;
  };
  if (gAmx && (runVnni() != COOPVEC_OK ||
               std::memcmp(yVnni.data(), yR.data(), yR.size() * 2) != 0)) {
    std::fprintf(stderr, "%s: the VNNI and AMX kernels differ\n", s.name);
    std::exit(1);
  }
  // 4-bit weights (U4, two to a byte, with a U8 zero point per channel near
  // the middle of 0..15), the same activations, scales and reductions: the
  // `q4 with R` column (no oneDNN 2.6 peer takes 4-bit weights).
  Buffer<uint8_t> w4(size_t(N) * K / 2);
  for (auto &v : w4)
    v = uint8_t(gRng() & 0xFF);
  std::vector<uint8_t> zw4(N);
  for (uint32_t n = 0; n < N; ++n)
    zw4[n] = uint8_t(6 + gRng() % 4);
  Buffer<uint16_t> y4(size_t(B) * N);
  CoopVecQuantMatMulParams p4 = p;
  p4.output = y4.data();
  p4.matrix = w4.data();
  p4.matrixInterp = COOPVEC_TYPE_U4;
  p4.matrixStride = K / 2;
  p4.weightZeroPoints = zw4.data();
  if (coopvecKernelsQuantizedMatMul(&p4) != COOPVEC_OK) {
    std::fprintf(stderr, "%s: the kernels do not take 4-bit weights\n", s.name);
    std::exit(1);
  }
  // The first rows against the reference semantics, bit for bit.
  for (const CoopVecQuantMatMulParams *q : {&p, &p4}) {
    uint32_t rows = std::min<uint32_t>(B, 2);
    std::vector<uint16_t> ref(size_t(rows) * N);
    CoopVecQuantMatMulParams r = *q;
    r.batch = rows;
    r.output = ref.data();
    coopvecReferenceQuantizedMatMul(&r);
    if (std::memcmp(ref.data(), q->output, ref.size() * 2) != 0) {
      std::fprintf(stderr, "%s: kernels differ from the reference%s\n", s.name,
                   q == &p4 ? " (4-bit weights)" : "");
      std::exit(1);
    }
  }

  // Peers: f32 (oneDNN, OpenBLAS) and oneDNN u8s8 int8 (f32 out, per-channel
  // output scales), without and with a per-tensor weight zero point.
  std::vector<float> wKxN(size_t(K) * N);
  std::vector<int8_t> wS8KxN(size_t(K) * N);
  Buffer<float> wf(size_t(N) * K);
  for (uint32_t n = 0; n < N; ++n)
    for (uint32_t k = 0; k < K; ++k) {
      float v = (float(w[size_t(n) * K + k]) - zw[n]) * swf[n];
      wKxN[size_t(k) * N + n] = v;
      wf[size_t(n) * K + k] = v;
      wS8KxN[size_t(k) * N + n] = int8_t(w[size_t(n) * K + k] ^ 0x80);
    }
  Buffer<uint8_t> xu8(size_t(B) * K);
  for (size_t i = 0; i < xu8.size(); ++i)
    xu8[i] = uint8_t(xq[i]) ^ 0x80;
  std::vector<float> outScales(N, 0.001f);
  MatMul f32(d, B, K, N, Dt::f32, Dt::f32, wKxN.data(), nullptr, false);
  MatMul i8(d, B, K, N, Dt::u8, Dt::s8, wS8KxN.data(), outScales.data(), false);
  MatMul i8zp(d, B, K, N, Dt::u8, Dt::s8, wS8KxN.data(), outScales.data(),
              true);
  Buffer<float> yf(size_t(B) * N);
  int reps = uint64_t(B) * K * N > (uint64_t(1) << 36) ? std::max(gReps / 2, 2)
                                                       : gReps;
  using Fn = std::function<void()>;
  std::vector<Fn> fns = {
      gFloatPeers ? Fn([&] { f32.run(d, xf.data(), yf.data()); }) : nullptr,
      gFloatPeers ? Fn([&] {
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, int(B), int(N),
                    int(K), 1.0f, xf.data(), int(K), wf.data(), int(K), 0.0f,
                    yf.data(), int(N));
      })
                  : nullptr,
      [&] { coopvecKernelsQuantizedMatMul(&pNoR); },
      [&] { coopvecKernelsQuantizedMatMul(&p); },
      i8.ok ? std::function<void()>([&] { i8.run(d, xu8.data(), yf.data()); })
            : nullptr,
      i8zp.ok
          ? std::function<void()>([&] { i8zp.run(d, xu8.data(), yf.data()); })
          : nullptr,
      [&] { quantizeRows(&qp); },
      gAvx2 ? Fn([&] { runAvx2(); }) : nullptr,
      gAmx ? Fn([&] { runVnni(); }) : nullptr,
      [&] { coopvecKernelsQuantizedMatMul(&p4); },
  };
  std::vector<double> tMin;
  std::vector<double> t = interleavedMedianMs(fns, reps, tMin);
  double gop = 2.0 * B * K * N / 1e9;
  std::printf("%-22s %5ux%-5u x %5ux%-5u g%-4u | %9.3f %9.3f | %9.3f %9.3f "
              "| %9.3f %9.3f | %7.3f | %9.3f %9.3f | %9.3f | %5.2f %5.2f %5.2f "
              "%5.2f %5.2f %5.2f | %6.0f | %5.2f\n",
              s.name, B, K, K, N, G, t[0], t[1], t[2], t[3], t[4], t[5], t[6],
              t[7], t[8], t[9], t[3] / t[4], t[2] / t[4], t[7] / t[4],
              t[8] / t[4], t[9] / t[4], t[3] / t[0], gop / (t[3] / 1e3),
              tMin[3] / tMin[4]);
  if (!i8zp.ok)
    std::printf("    oneDNN u8s8 + per-tensor weight zero point: %s\n",
                i8zp.why.c_str());
  std::fflush(stdout);
}

} // namespace

/// The row quantization kernels (coopvecKernelsQuantizeRows) against the
/// reference they replace and against a memcpy of the same input (the
/// bandwidth yardstick), interleaved: f32 rows to I8 with F16 scales and
/// I32 reductions per group, as benchShape quantizes. Each kernel's result
/// is first checked bit for bit against the reference's.
void benchQuantizeRows(const Shape &s) {
  const uint32_t B = s.b, K = s.k, G = s.group, groups = K / G;
  std::normal_distribution<float> normal(0.0f, 1.0f);
  Buffer<float> x(size_t(B) * K), copy(size_t(B) * K);
  for (float &v : x)
    v = normal(gRng);
  struct Out {
    Buffer<uint8_t> q;
    Buffer<uint16_t> scales;
    Buffer<int32_t> red;
  };
  auto params = [&](Out &o) {
    o.q = Buffer<uint8_t>(size_t(B) * K);
    o.scales = Buffer<uint16_t>(size_t(B) * groups);
    o.red = Buffer<int32_t>(size_t(B) * groups);
    return quantizeParams(x.data(), B, K, G, o.q.data(), o.scales.data(),
                          o.red.data());
  };
  Out refOut;
  CoopVecQuantizeRowsParams ref = params(refOut);
  coopvecReferenceQuantizeRows(&ref);
  struct Contender {
    const char *isa;
    uint32_t threads;
    Out out;
    CoopVecQuantizeRowsParams p;
  };
  std::vector<Contender> kernels;
  for (const char *isa : {"avx2", "avx512"})
    for (uint32_t threads : {1u, 2u}) {
      if (coopvecKernelsForceIsa(isa) != COOPVEC_OK)
        continue;
      kernels.push_back({isa, threads, {}, {}});
      Contender &c = kernels.back();
      c.p = params(c.out);
      c.p.numThreads = threads;
      if (coopvecKernelsQuantizeRows(&c.p) != COOPVEC_OK ||
          std::memcmp(c.out.q.data(), refOut.q.data(), size_t(B) * K) ||
          std::memcmp(c.out.scales.data(), refOut.scales.data(),
                      size_t(B) * groups * 2) ||
          std::memcmp(c.out.red.data(), refOut.red.data(),
                      size_t(B) * groups * 4)) {
        std::fprintf(stderr, "%s: the %s kernel differs from the reference\n",
                     s.name, isa);
        std::exit(1);
      }
    }
  coopvecKernelsForceIsa(nullptr);
  std::vector<std::function<void()>> fns = {
      [&] { coopvecReferenceQuantizeRows(&ref); },
      [&] { std::memcpy(copy.data(), x.data(), size_t(B) * K * 4); }};
  for (Contender &c : kernels)
    fns.push_back([&c] {
      coopvecKernelsForceIsa(c.isa);
      coopvecKernelsQuantizeRows(&c.p);
      coopvecKernelsForceIsa(nullptr);
    });
  std::vector<double> mins;
  std::vector<double> t = interleavedMedianMs(fns, gReps, mins);
  std::printf("%-22s %5ux%-5u g%-4u | %9.3f %8.3f", s.name, B, K, G, t[0],
              t[1]);
  for (size_t i = 0; i < kernels.size(); ++i)
    std::printf(" | %s %ut %8.3f %5.1fx %5.2f", kernels[i].isa,
                kernels[i].threads, t[i + 2], t[0] / t[i + 2], t[i + 2] / t[1]);
  std::printf("\n");
}

int main(int argc, char **argv) {
  if (const char *r = std::getenv("COOPVEC_BENCH_REPS"))
    gReps = std::max(1, std::atoi(r));
  if (const char *t = std::getenv("COOPVEC_NUM_THREADS"))
    gThreads = std::max(1, std::atoi(t));
  omp_set_num_threads(gThreads);
  openblas_set_num_threads(gThreads);
  uint32_t rfcRows = 2172;
  if (const char *f = std::getenv("COOPVEC_BENCH_NO_F32"))
    gFloatPeers = !(f[0] && std::strcmp(f, "0") != 0);
  gAvx2 = coopvecKernelsForceIsa("avx2") == COOPVEC_OK;
  coopvecKernelsForceIsa(nullptr);
  gAmx = coopvecKernelsQuantizedAmx(-1) == 1;
  if (const char *r = std::getenv("COOPVEC_BENCH_RFC_ROWS"))
    rfcRows = uint32_t(std::max(1, std::atoi(r)));
  std::vector<Shape> shapes = {
      {"RFC (1) prefill", rfcRows, 4096, 14336, 128},
      {"RFC (2) decode", 31, 2560, 2560, 128},
      {"Llama-7B qkv decode", 1, 4096, 4096, 128},
      {"Llama-7B up, 16 tok", 16, 4096, 11008, 128},
      {"Llama-7B down, 128 tok", 128, 11008, 4096, 128},
      {"Llama-7B o, 512 tok", 512, 4096, 4096, 128},
      {"64x64, 4096 rows", 4096, 64, 64, 32},
      {"64x64, 65536 rows", 65536, 64, 64, 32},
  };
  bool any = false;
  for (int i = 1; i < argc; ++i)
    if (argv[i][0] != '-')
      any = true;
  Dnnl d;
  printMachine();
  std::printf("threads %d, reps %d (median; RFC (1) and other >64 Gop shapes "
              "half), times in ms\n",
              gThreads, gReps);
  std::printf("%-22s %-23s | %9s %9s | %9s %9s | %9s %9s | %7s | %9s %9s | "
              "%9s | %5s %5s %5s %5s %5s %5s | %6s | %s\n",
              "shape", "B x K x K x N, group", "dnnl f32", "sgemm", "q no R",
              "q with R", "dnnl s8", "dnnl zp", "quant", "R avx2", "R vnni",
              "q4 R", "R/s8", "noR/s8", "avx2/s8", "vnni/s8", "q4/s8", "R/f32",
              "GOPS", "R/s8 of minima");
  for (const Shape &s : shapes) {
    if (any) {
      bool match = false;
      for (int i = 1; i < argc; ++i)
        if (std::strstr(s.name, argv[i]))
          match = true;
      if (!match)
        continue;
    }
    benchShape(d, s);
  }
  // Row quantization alone: every shape's activations, unless arguments
  // name shapes (then those) or "quantize" (every shape, this table only).
  bool quantizeOnly = false;
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], "quantize") == 0)
      quantizeOnly = true;
  std::printf("\nrow quantization (coopvecKernelsQuantizeRows; f32 rows to "
              "I8, F16 scales, I32 R), ms; per kernel: time, speed-up over "
              "the reference, time / copy\n%-22s %-17s | %9s %8s | ...\n",
              "shape", "B x K, group", "reference", "copy");
  for (const Shape &s : shapes) {
    if (any && !quantizeOnly) {
      bool match = false;
      for (int i = 1; i < argc; ++i)
        if (std::strstr(s.name, argv[i]))
          match = true;
      if (!match)
        continue;
    }
    benchQuantizeRows(s);
  }
  printLoad("after");
  return 0;
}
