//===- BenchCpu.cpp - coopvec CPU kernels vs oneDNN, OpenBLAS, peaks ------===//
//
// One run prints, per shape and thread count, the median time of coopvec and
// of its peers and the ratio coopvec / peer (< 1 means coopvec is faster),
// plus this machine's arithmetic peaks (the widest FMA, the VNNI and BF16 dot
// products where present) and STREAM-style triad bandwidth measured in
// the same run. Run with OMP_WAIT_POLICY=passive so that oneDNN's idle
// OpenMP threads do not spin against coopvec's pool (README.md).
//
//===----------------------------------------------------------------------===//

#include "LinAlgCoop/Runtime/Kernels.h"
#include "LinAlgCoop/Runtime/Layout.h"

#include <cblas.h>
#include <oneapi/dnnl/dnnl.hpp>
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <immintrin.h>
#include <random>
#include <string>
#include <thread>
#include <vector>

namespace {

using dnnl::memory;
using Dt = dnnl::memory::data_type;
using Tag = dnnl::memory::format_tag;

int gReps = 7;

/// Median wall time in ms of `reps` runs after one warm-up run; `untimed`,
/// if given, runs before each timed run (e.g. to flush the caches).
double medianMs(const std::function<void()> &fn, int reps = gReps,
                const std::function<void()> &untimed = nullptr) {
  fn();
  std::vector<double> t;
  for (int i = 0; i < reps; ++i) {
    if (untimed)
      untimed();
    auto t0 = std::chrono::steady_clock::now();
    fn();
    auto t1 = std::chrono::steady_clock::now();
    t.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

/// Median wall times in ms of several contenders measured side by side:
/// after one warm-up run each, every repetition runs each contender once in
/// turn, so that a drift in the machine's load (other processes, frequency)
/// hits all of them alike. `untimed`, if given, runs before each timed run.
std::vector<double>
interleavedMedianMs(const std::vector<std::function<void()>> &fns,
                    int reps = gReps,
                    const std::function<void()> &untimed = nullptr) {
  for (const auto &fn : fns)
    fn();
  std::vector<std::vector<double>> t(fns.size());
  for (int i = 0; i < reps; ++i)
    for (size_t f = 0; f < fns.size(); ++f) {
      if (untimed)
        untimed();
      auto t0 = std::chrono::steady_clock::now();
      fns[f]();
      auto t1 = std::chrono::steady_clock::now();
      t[f].push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
    }
  std::vector<double> med;
  for (auto &v : t) {
    std::sort(v.begin(), v.end());
    med.push_back(v[v.size() / 2]);
  }
  return med;
}

/// Untimed pause before each timed run of the batched tables' 2-thread rows:
/// coopvec's pool helpers spin for 100 us after a call before they sleep,
/// and would otherwise hold the core that the next contender's threads wake
/// onto. Every contender starts with idle helpers.
std::function<void()> settleFor(int threads) {
  if (threads == 1)
    return nullptr;
  return [] { std::this_thread::sleep_for(std::chrono::microseconds(300)); };
}

/// The benchmark only runs where the kernels' AVX2/F16C path does.
__attribute__((target("f16c"))) uint16_t toHalf(float f) {
  return _cvtss_sh(f, _MM_FROUND_TO_NEAREST_INT);
}

/// The machine load (other processes compete for the cores: ratios measured
/// side by side stay meaningful, absolute figures do not).
void printLoad(const char *when) {
  double l1 = 0, l5 = 0, l15 = 0;
  if (FILE *f = std::fopen("/proc/loadavg", "r")) {
    if (std::fscanf(f, "%lf %lf %lf", &l1, &l5, &l15) != 3)
      l1 = l5 = l15 = -1;
    std::fclose(f);
  }
  std::printf("\nload average at %s: %.2f %.2f %.2f\n", when, l1, l5, l15);
}

void setThreads(int n) {
  omp_set_num_threads(n);
  openblas_set_num_threads(n);
}

//===----------------------------------------------------------------------===//
// Machine peaks
//===----------------------------------------------------------------------===//

/// 12 independent accumulator chains of one instruction: the units'
/// throughput, not their latency. Each returns a value so the loop stays.
__attribute__((target("avx2,fma"))) float fmaLoop256(long iters) {
  __m256 acc[12];
  for (int i = 0; i < 12; ++i)
    acc[i] = _mm256_set1_ps(float(i));
  __m256 b = _mm256_set1_ps(0.999999f), c = _mm256_set1_ps(1e-7f);
  for (long it = 0; it < iters; ++it)
    for (int i = 0; i < 12; ++i)
      acc[i] = _mm256_fmadd_ps(acc[i], b, c);
  __m256 s = acc[0];
  for (int i = 1; i < 12; ++i)
    s = _mm256_add_ps(s, acc[i]);
  float out[8];
  _mm256_storeu_ps(out, s);
  return out[0];
}

__attribute__((target("avx512f"))) float fmaLoop512(long iters) {
  __m512 acc[12];
  for (int i = 0; i < 12; ++i)
    acc[i] = _mm512_set1_ps(float(i));
  __m512 b = _mm512_set1_ps(0.999999f), c = _mm512_set1_ps(1e-7f);
  for (long it = 0; it < iters; ++it)
    for (int i = 0; i < 12; ++i)
      acc[i] = _mm512_fmadd_ps(acc[i], b, c);
  __m512 s = acc[0];
  for (int i = 1; i < 12; ++i)
    s = _mm512_add_ps(s, acc[i]);
  return _mm512_reduce_add_ps(s);
}

/// vpdpbusd: 16 lanes x 4 u8*s8 products, 128 integer ops.
__attribute__((target("avx512f,avx512vnni"))) float vnniLoop(long iters) {
  __m512i acc[12];
  for (int i = 0; i < 12; ++i)
    acc[i] = _mm512_set1_epi32(i);
  __m512i a = _mm512_set1_epi8(3), b = _mm512_set1_epi8(-5);
  for (long it = 0; it < iters; ++it)
    for (int i = 0; i < 12; ++i)
      acc[i] = _mm512_dpbusd_epi32(acc[i], a, b);
  __m512i s = acc[0];
  for (int i = 1; i < 12; ++i)
    s = _mm512_add_epi32(s, acc[i]);
  return float(_mm512_reduce_add_epi32(s));
}

/// vdpbf16ps: 16 lanes x 2 bf16 products, 64 FLOP.
__attribute__((target("avx512f,avx512bf16"))) float bf16Loop(long iters) {
  __m512 acc[12];
  for (int i = 0; i < 12; ++i)
    acc[i] = _mm512_set1_ps(float(i));
  __m512bh a = (__m512bh)_mm512_set1_epi16(0x3F80),
           b = (__m512bh)_mm512_set1_epi16(0x3380); // 1.0, 2^-24
  for (long it = 0; it < iters; ++it)
    for (int i = 0; i < 12; ++i)
      acc[i] = _mm512_dpbf16_ps(acc[i], a, b);
  __m512 s = acc[0];
  for (int i = 1; i < 12; ++i)
    s = _mm512_add_ps(s, acc[i]);
  return _mm512_reduce_add_ps(s);
}

/// Giga-operations per second of `loop` (12 chains of `opsPerInstr`) on
/// `threads` threads.
double loopPeak(float (*loop)(long), double opsPerInstr, int threads) {
  const long iters = 20000000;
  volatile float sink = 0;
  double ms = medianMs(
      [&] {
        std::vector<std::thread> pool;
        for (int t = 0; t < threads; ++t)
          pool.emplace_back([&] { sink = sink + loop(iters); });
        for (auto &t : pool)
          t.join();
      },
      5);
  return double(threads) * iters * 12 * opsPerInstr / (ms * 1e6);
}

/// The machine's arithmetic peaks, each with the widest instruction the CPU
/// has: f32 FMA (512-bit where AVX-512F exists, else 256-bit), the int8 dot
/// product (AVX-512 VNNI) and the bf16 dot product (AVX-512 BF16); 0 where
/// the CPU lacks the instruction.
struct Peaks {
  int fmaBits = 256;
  double fma = 0, vnni = 0, bf16 = 0;

  explicit Peaks(int threads) {
    if (__builtin_cpu_supports("avx512f")) {
      fmaBits = 512;
      fma = loopPeak(fmaLoop512, 32, threads);
    } else {
      fma = loopPeak(fmaLoop256, 16, threads);
    }
    if (__builtin_cpu_supports("avx512vnni"))
      vnni = loopPeak(vnniLoop, 128, threads);
    if (__builtin_cpu_supports("avx512bf16"))
      bf16 = loopPeak(bf16Loop, 64, threads);
  }
};

/// STREAM-style triad a = b + s * c over 128 MiB arrays; counts 3 x 4
/// bytes per element.
struct Triad {
  static constexpr size_t n = size_t(1) << 25;
  std::vector<float> a = std::vector<float>(n, 0.0f),
                     b = std::vector<float>(n, 1.0f),
                     c = std::vector<float>(n, 2.0f);
  static constexpr double bytes = 3.0 * 4 * n;

  void run(int threads) {
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t)
      pool.emplace_back([&, t] {
        size_t lo = n * t / threads, hi = n * (t + 1) / threads;
        float *pa = a.data();
        const float *pb = b.data(), *pc = c.data();
        for (size_t i = lo; i < hi; ++i)
          pa[i] = pb[i] + 3.0f * pc[i];
      });
    for (auto &t : pool)
      t.join();
  }
};

/// XOR of the 32-byte words of [p, p + bytes) (a multiple of 128 bytes).
__attribute__((target("avx2"))) uint64_t xorRange(const uint8_t *p,
                                                  size_t bytes) {
  __m256i a = _mm256_setzero_si256(), b = a, c = a, d = a;
  for (size_t o = 0; o < bytes; o += 128) {
    a = _mm256_xor_si256(a, _mm256_loadu_si256((const __m256i *)(p + o)));
    b = _mm256_xor_si256(b, _mm256_loadu_si256((const __m256i *)(p + o + 32)));
    c = _mm256_xor_si256(c, _mm256_loadu_si256((const __m256i *)(p + o + 64)));
    d = _mm256_xor_si256(d, _mm256_loadu_si256((const __m256i *)(p + o + 96)));
  }
  alignas(32) uint64_t lanes[4];
  _mm256_store_si256((__m256i *)lanes,
                     _mm256_xor_si256(_mm256_xor_si256(a, b),
                                      _mm256_xor_si256(c, d)));
  return lanes[0] ^ lanes[1] ^ lanes[2] ^ lanes[3];
}

/// A plain read of a matrix (`bytes`, a multiple of 128 * threads), one
/// contiguous range per OpenMP thread: the bandwidth that reading the same
/// bytes gets, next to the triad's.
uint64_t plainRead(const uint8_t *p, size_t bytes, int threads) {
  size_t part = bytes / threads;
  uint64_t s = 0;
#pragma omp parallel for num_threads(threads) reduction(^ : s)
  for (int t = 0; t < threads; ++t)
    s ^= xorRange(p + t * part, part);
  return s;
}

double triadGBs(int threads) {
  Triad triad;
  double ms = medianMs([&] { triad.run(threads); }, 5);
  return Triad::bytes / (ms * 1e6);
}

//===----------------------------------------------------------------------===//
// oneDNN helpers
//===----------------------------------------------------------------------===//

struct Dnnl {
  dnnl::engine eng{dnnl::engine::kind::cpu, 0};
  dnnl::stream strm{eng};
};

/// dst[n x m] = src[n x k] * wei[k x m] (+ bias) (relu); weights reordered
/// once into oneDNN's preferred layout, as coopvec's are pre-packed.
struct MatMul {
  dnnl::matmul prim;
  memory wei, bias;
  memory::desc srcMd, dstMd;

  MatMul(Dnnl &d, memory::dim n, memory::dim k, memory::dim m, Dt srcDt,
         Dt weiDt, Dt dstDt, const void *weiKxM, const float *biasData,
         bool relu) {
    srcMd = memory::desc({n, k}, srcDt, Tag::ab);
    dstMd = memory::desc({n, m}, dstDt, Tag::ab);
    memory::desc weiAny({k, m}, weiDt, Tag::any);
    memory::desc biasMd({1, m}, Dt::f32, Tag::ab);
    dnnl::primitive_attr attr;
    if (relu) {
      dnnl::post_ops po;
      po.append_eltwise(1.0f, dnnl::algorithm::eltwise_relu, 0.0f, 0.0f);
      attr.set_post_ops(po);
    }
    auto desc = biasData ? dnnl::matmul::desc(srcMd, weiAny, biasMd, dstMd)
                         : dnnl::matmul::desc(srcMd, weiAny, dstMd);
    dnnl::matmul::primitive_desc pd(desc, attr, d.eng);
    prim = dnnl::matmul(pd);
    memory user({{k, m}, weiDt, Tag::ab}, d.eng, const_cast<void *>(weiKxM));
    wei = memory(pd.weights_desc(), d.eng);
    dnnl::reorder(user, wei).execute(d.strm, user, wei);
    if (biasData) {
      bias = memory(biasMd, d.eng);
      std::memcpy(bias.get_data_handle(), biasData, size_t(m) * 4);
    }
    d.strm.wait();
  }

  void run(Dnnl &d, const void *src, void *dst) {
    memory s(srcMd, d.eng, const_cast<void *>(src));
    memory o(dstMd, d.eng, dst);
    std::unordered_map<int, memory> args = {
        {DNNL_ARG_SRC, s}, {DNNL_ARG_WEIGHTS, wei}, {DNNL_ARG_DST, o}};
    if (bias)
      args[DNNL_ARG_BIAS] = bias;
    prim.execute(d.strm, args);
    d.strm.wait();
  }
};

std::mt19937 gRng(42);

std::vector<float> randomFloats(size_t n, float scale = 1.0f) {
  std::uniform_real_distribution<float> u(-scale, scale);
  std::vector<float> v(n);
  for (float &f : v)
    f = u(gRng);
  return v;
}

std::vector<int8_t> randomBytes(size_t n, int lo, int hi) {
  std::vector<int8_t> v(n);
  for (auto &b : v)
    b = int8_t(lo + int(gRng() % unsigned(hi - lo + 1)));
  return v;
}

/// Row-major M x K -> InferencingOptimal bytes.
std::vector<uint8_t> toOptimal(const void *rowMajor, uint32_t m, uint32_t k,
                               uint32_t es) {
  std::vector<uint8_t> out(coopvecLayoutDestinationSize(2, m, k, es, 0));
  int32_t st = coopvecLayoutConvert(out.data(), out.size(), 2, 0, rowMajor,
                                    uint64_t(m) * k * es, 0, k * es, m, k, es);
  if (st) {
    std::fprintf(stderr, "layout conversion failed: %d\n", st);
    std::exit(1);
  }
  return out;
}

template <class T> std::vector<T> transposed(const T *w, size_t m, size_t k) {
  std::vector<T> t(m * k);
  for (size_t r = 0; r < m; ++r)
    for (size_t c = 0; c < k; ++c)
      t[c * m + r] = w[r * k + c];
  return t;
}

/// Cache-line aligned storage for the batched inputs and results, as the
/// JIT's memrefs and NumPy's arrays are (every contender uses it).
template <class T> struct Aligned64 {
  using value_type = T;
  Aligned64() = default;
  template <class U> Aligned64(const Aligned64<U> &) {}
  T *allocate(size_t n) {
    void *p = std::aligned_alloc(64, (n * sizeof(T) + 63) / 64 * 64);
    if (!p)
      throw std::bad_alloc();
    return static_cast<T *>(p);
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

template <class T> Buffer<T> aligned(const std::vector<T> &v) {
  return Buffer<T>(v.begin(), v.end());
}

void check(bool ok, const char *what) {
  if (!ok) {
    std::fprintf(stderr, "result mismatch: %s\n", what);
    std::exit(1);
  }
}

//===----------------------------------------------------------------------===//
// Benchmarks
//===----------------------------------------------------------------------===//

void benchMatVecF32(Dnnl &d) {
  std::printf("\n## Batched matvec f32, 64x64 (InferencingOptimal), "
              "ratio = coopvec / peer\n\n");
  std::printf("| batch | threads | coopvec ms | GFLOP/s | oneDNN ms | ratio | "
              "OpenBLAS ms | ratio |\n|---|---|---|---|---|---|---|---|\n");
  const uint32_t m = 64, k = 64;
  std::vector<float> w = randomFloats(m * k);
  std::vector<uint8_t> wOpt = toOptimal(w.data(), m, k, 4);
  std::vector<float> wT = transposed(w.data(), m, k);
  for (uint32_t batch : {4096u, 65536u})
    for (int threads : {1, 2}) {
      setThreads(threads);
      Buffer<float> x = aligned(randomFloats(size_t(batch) * k));
      Buffer<float> y(size_t(batch) * m), yd(y.size()), yb(y.size());
      auto cv = [&] {
        coopvecMatVecMul(y.data(), COOPVEC_TYPE_F32, 0, x.data(),
                         COOPVEC_TYPE_F32, COOPVEC_TYPE_F32, 0, batch,
                         wOpt.data(), 0, COOPVEC_TYPE_F32, m, k, 2, 0, 0,
                         threads);
      };
      MatMul mm(d, batch, k, m, Dt::f32, Dt::f32, Dt::f32, wT.data(), nullptr,
                false);
      auto dn = [&] { mm.run(d, x.data(), yd.data()); };
      auto bl = [&] {
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, int(batch), int(m),
                    int(k), 1.0f, x.data(), int(k), w.data(), int(k), 0.0f,
                    yb.data(), int(m));
      };
      auto med = interleavedMedianMs({cv, dn, bl}, gReps, settleFor(threads));
      double tc = med[0], td = med[1], tb = med[2];
      for (size_t i = 0; i < y.size(); i += 97)
        check(std::fabs(y[i] - yd[i]) < 1e-3f && std::fabs(y[i] - yb[i]) < 1e-3f,
              "matvec f32");
      double gflops = 2.0 * batch * m * k / (tc * 1e6);
      std::printf("| %u | %d | %.3f | %.1f | %.3f | %.2f | %.3f | %.2f |\n",
                  batch, threads, tc, gflops, td, tc / td, tb, tc / tb);
    }
}

/// coopvec alone, one thread, 64x64 batch 4096: calls back to back (warm
/// caches) and with 8 MiB written between calls (cold, as in the
/// interleaved tables), as a fraction of the FMA peak (f32) or the
/// vpdpbusd peak (int8, where the CPU has VNNI), next to oneDNN's times in
/// the same state.
void benchKernelsAlone(Dnnl &d, const Peaks &peaks) {
  double peak1 = peaks.fma;
  std::printf("\n## Kernels alone, 64x64, batch 4096, 1 thread (%d reps)\n\n",
              gReps * 20);
  std::printf("| kernel | warm ms | GFLOP/s or GOP/s | cold ms | GFLOP/s or "
              "GOP/s | oneDNN warm / cold ms |\n|---|---|---|---|---|---|\n");
  setThreads(1);
  const uint32_t m = 64, k = 64, batch = 4096;
  std::vector<char> junk(8 << 20);
  auto flush = [&] {
    for (size_t q = 0; q < junk.size(); q += 64)
      junk[q]++;
  };
  auto measure = [&](const std::function<void()> &fn, bool cold) {
    return medianMs(fn, gReps * 20, cold ? flush : std::function<void()>());
  };
  double ops = 2.0 * batch * m * k / 1e6;
  {
    std::vector<float> w = randomFloats(m * k), x = randomFloats(batch * k);
    std::vector<uint8_t> wOpt = toOptimal(w.data(), m, k, 4);
    std::vector<float> wT = transposed(w.data(), m, k), y(batch * m);
    auto cv = [&] {
      coopvecMatVecMul(y.data(), COOPVEC_TYPE_F32, 0, x.data(),
                       COOPVEC_TYPE_F32, COOPVEC_TYPE_F32, 0, batch,
                       wOpt.data(), 0, COOPVEC_TYPE_F32, m, k, 2, 0, 0, 1);
    };
    MatMul mm(d, batch, k, m, Dt::f32, Dt::f32, Dt::f32, wT.data(), nullptr,
              false);
    auto dn = [&] { mm.run(d, x.data(), y.data()); };
    double warm = measure(cv, false), cold = measure(cv, true);
    std::printf("| f32 | %.3f | %.1f (%.0f%% of FMA peak) | %.3f | %.1f | "
                "%.3f / %.3f |\n",
                warm, ops / warm, 100.0 * ops / warm / peak1, cold, ops / cold,
                measure(dn, false), measure(dn, true));
  }
  {
    std::vector<int8_t> w = randomBytes(m * k, -128, 127),
                        x = randomBytes(size_t(batch) * k, 0, 127);
    std::vector<uint8_t> wOpt = toOptimal(w.data(), m, k, 1);
    std::vector<int8_t> wT = transposed(w.data(), m, k);
    std::vector<int32_t> y(size_t(batch) * m);
    auto cv = [&] {
      coopvecMatVecMul(y.data(), COOPVEC_TYPE_I32, 0, x.data(),
                       COOPVEC_TYPE_I8, COOPVEC_TYPE_I8, 0, batch, wOpt.data(),
                       0, COOPVEC_TYPE_I8, m, k, 2, 0, 0, 1);
    };
    MatMul mm(d, batch, k, m, Dt::u8, Dt::s8, Dt::s32, wT.data(), nullptr,
              false);
    auto dn = [&] { mm.run(d, x.data(), y.data()); };
    double warm = measure(cv, false), cold = measure(cv, true);
    std::string ofPeak;
    if (peaks.vnni > 0)
      ofPeak = " (" + std::to_string(int(100.0 * ops / warm / peaks.vnni + 0.5)) +
               "% of vpdpbusd peak)";
    std::printf("| int8 | %.3f | %.1f%s | %.3f | %.1f | %.3f / %.3f |\n",
                warm, ops / warm, ofPeak.c_str(), cold, ops / cold,
                measure(dn, false), measure(dn, true));
  }
}

void benchMatVecI8(Dnnl &d) {
  std::printf("\n## Batched matvec int8 (I8 matrix, I32 accumulate), 64x64, "
              "vs oneDNN u8s8s32\n\n");
  std::printf("| batch | threads | coopvec I8 in ms | GOP/s | coopvec "
              "PackedS8x32 ms | oneDNN u8s8s32 ms | GOP/s | ratio I8 | ratio "
              "packed |\n|---|---|---|---|---|---|---|---|---|\n");
  const uint32_t m = 64, k = 64;
  std::vector<int8_t> w = randomBytes(m * k, -128, 127);
  std::vector<uint8_t> wOpt = toOptimal(w.data(), m, k, 1);
  std::vector<int8_t> wT = transposed(w.data(), m, k);
  for (uint32_t batch : {4096u, 65536u})
    for (int threads : {1, 2}) {
      setThreads(threads);
      Buffer<int8_t> x = aligned(randomBytes(size_t(batch) * k, 0, 127));
      Buffer<int32_t> y(size_t(batch) * m), yp(y.size()), yd(y.size());
      auto cv = [&] {
        coopvecMatVecMul(y.data(), COOPVEC_TYPE_I32, 0, x.data(),
                         COOPVEC_TYPE_I8, COOPVEC_TYPE_I8, 0, batch,
                         wOpt.data(), 0, COOPVEC_TYPE_I8, m, k, 2, 0, 0,
                         threads);
      };
      auto cvPacked = [&] {
        coopvecMatVecMul(yp.data(), COOPVEC_TYPE_I32, 0, x.data(),
                         COOPVEC_TYPE_U32, COOPVEC_TYPE_PACKED_S8X32, 0, batch,
                         wOpt.data(), 0, COOPVEC_TYPE_I8, m, k, 2, 0, 0,
                         threads);
      };
      MatMul mm(d, batch, k, m, Dt::u8, Dt::s8, Dt::s32, wT.data(), nullptr,
                false);
      auto dn = [&] { mm.run(d, x.data(), yd.data()); };
      auto med = interleavedMedianMs({cv, cvPacked, dn}, gReps,
                                     settleFor(threads));
      double tc = med[0], tp = med[1], td = med[2];
      check(y == yd && yp == yd, "matvec int8");
      double gops = 2.0 * batch * m * k / 1e6;
      std::printf("| %u | %d | %.3f | %.1f | %.3f | %.3f | %.1f | %.2f | %.2f |\n",
                  batch, threads, tc, gops / tc, tp, td, gops / td, tc / td,
                  tp / td);
    }
}

/// The per-CPU tuning's result stores (CpuTuning::streamResults in
/// lib/Runtime/Kernels/Kernels.cpp): 64x64, 65536 vectors (16 MiB of f32 or
/// i32 results, past the streaming threshold), coopvec under a tuning that
/// writes them with non-temporal stores ("zen4") and under one that stores
/// them through the caches ("zen5"), interleaved with oneDNN. The AVX-512
/// epilogues are the only ones that stream.
void benchTuning(Dnnl &d) {
  std::printf("\n## Result stores by CPU tuning (detected: %s), 64x64, 65536 "
              "vectors, ratio = coopvec / oneDNN\n\n",
              coopvecKernelsCpuTuning());
  if (std::strcmp(coopvecKernelsIsa(), "avx512") != 0) {
    std::printf("(isa %s: results are stored through the caches under every "
                "tuning)\n",
                coopvecKernelsIsa());
    return;
  }
  std::printf("| type | threads | streamed ms | ratio | cached ms | ratio | "
              "oneDNN ms |\n|---|---|---|---|---|---|---|\n");
  const uint32_t m = 64, k = 64, batch = 65536;
  std::vector<float> wf = randomFloats(m * k);
  std::vector<uint8_t> wfOpt = toOptimal(wf.data(), m, k, 4);
  std::vector<float> wfT = transposed(wf.data(), m, k);
  std::vector<int8_t> wi = randomBytes(m * k, -128, 127);
  std::vector<uint8_t> wiOpt = toOptimal(wi.data(), m, k, 1);
  std::vector<int8_t> wiT = transposed(wi.data(), m, k);
  Buffer<float> xf = aligned(randomFloats(size_t(batch) * k));
  Buffer<int8_t> xi = aligned(randomBytes(size_t(batch) * k, 0, 127));
  Buffer<float> yf(size_t(batch) * m), yfd(yf.size());
  Buffer<int32_t> yi(size_t(batch) * m), yid(yi.size());
  for (bool isFloat : {true, false})
    for (int threads : {1, 2}) {
      setThreads(threads);
      auto under = [&](const char *tuning) {
        return [&, tuning] {
          coopvecKernelsForceCpuTuning(tuning);
          if (isFloat)
            coopvecMatVecMul(yf.data(), COOPVEC_TYPE_F32, 0, xf.data(),
                             COOPVEC_TYPE_F32, COOPVEC_TYPE_F32, 0, batch,
                             wfOpt.data(), 0, COOPVEC_TYPE_F32, m, k, 2, 0, 0,
                             threads);
          else
            coopvecMatVecMul(yi.data(), COOPVEC_TYPE_I32, 0, xi.data(),
                             COOPVEC_TYPE_I8, COOPVEC_TYPE_I8, 0, batch,
                             wiOpt.data(), 0, COOPVEC_TYPE_I8, m, k, 2, 0, 0,
                             threads);
          coopvecKernelsForceCpuTuning(nullptr);
        };
      };
      MatMul mm(d, batch, k, m, isFloat ? Dt::f32 : Dt::u8,
                isFloat ? Dt::f32 : Dt::s8, isFloat ? Dt::f32 : Dt::s32,
                isFloat ? static_cast<const void *>(wfT.data())
                        : static_cast<const void *>(wiT.data()),
                nullptr, false);
      auto dn = [&] {
        if (isFloat)
          mm.run(d, xf.data(), yfd.data());
        else
          mm.run(d, xi.data(), yid.data());
      };
      auto med = interleavedMedianMs({under("zen4"), under("zen5"), dn}, gReps,
                                     settleFor(threads));
      if (isFloat) {
        for (size_t i = 0; i < yf.size(); i += 97)
          check(std::fabs(yf[i] - yfd[i]) < 1e-3f, "tuning f32");
      } else {
        check(yi == yid, "tuning int8");
      }
      std::printf("| %s | %d | %.3f | %.2f | %.3f | %.2f | %.3f |\n",
                  isFloat ? "f32" : "int8", threads, med[0], med[0] / med[2],
                  med[1], med[1] / med[2], med[2]);
    }
}

/// The frame: coopvec with F32, F16, I8 and BF16 weights against oneDNN's f32
/// matmuls over the whole frame and over tiles of it. Each coopvec time is
/// quoted as a speedup over oneDNN's best (whole or tiled) f32 frame, and as
/// a fraction of the peak of the instruction its weights run on here: the
/// FMA peak for F32/F16, vpdpbusd for I8 and vdpbf16ps for BF16 where the
/// CPU has them (on CPUs with AMX, whose tiles the I8 and BF16 frames take,
/// those fractions can exceed 100%).
void benchMlp(Dnnl &d, const Peaks &peaks1, const Peaks &peaks2) {
  const uint32_t n = 1920 * 1080, width = 64, outW = 3;
  std::printf("\n## Frame MLP 64-64-64-3 (bias, ReLU), %u vectors, ms per "
              "frame\n\n", n);
  std::vector<float> w1 = randomFloats(width * width, 0.25f),
                     w2 = randomFloats(width * width, 0.25f),
                     w3 = randomFloats(outW * width, 0.25f);
  std::vector<float> b1 = randomFloats(width, 0.1f), b2 = randomFloats(width, 0.1f),
                     b3 = randomFloats(outW, 0.1f);
  std::vector<float> x = randomFloats(size_t(n) * width);
  std::vector<float> y(size_t(n) * outW), yd(y.size());
  const double flops = 2.0 * n * (width * width * 2 + outW * width);

  // coopvec layer tables for the four weight types (F32, F16, I8, BF16).
  std::vector<uint8_t> opt[4][3]; // [type][layer]
  const float *wl[3] = {w1.data(), w2.data(), w3.data()};
  const float *bl[3] = {b1.data(), b2.data(), b3.data()};
  uint32_t mo[3] = {width, width, outW};
  std::vector<std::vector<int32_t>> biasI(3);
  CoopVecMlpLayer layers[4][3];
  // I8: symmetric per-layer weight scales, activation scales from the data
  // range (|x| <= 1 to s8, hidden activations measured below by the f32 run
  // to u8).
  float wScale[3], actScale[4] = {127.0f, 0, 0, 0};
  for (int l = 0; l < 3; ++l) {
    uint32_t m = mo[l];
    std::vector<uint16_t> h(size_t(m) * width), bh(h.size());
    std::vector<int8_t> q(size_t(m) * width);
    float maxAbs = 0;
    for (size_t i = 0; i < h.size(); ++i) {
      h[i] = toHalf(wl[l][i]);
      uint32_t bits;
      std::memcpy(&bits, &wl[l][i], 4);
      bh[i] = uint16_t((bits + 0x7fff + ((bits >> 16) & 1)) >> 16); // RNE
      maxAbs = std::max(maxAbs, std::fabs(wl[l][i]));
    }
    wScale[l] = 127.0f / maxAbs;
    for (size_t i = 0; i < q.size(); ++i)
      q[i] = int8_t(std::lrint(wl[l][i] * wScale[l]));
    opt[0][l] = toOptimal(wl[l], m, width, 4);
    opt[1][l] = toOptimal(h.data(), m, width, 2);
    opt[2][l] = toOptimal(q.data(), m, width, 1);
    opt[3][l] = toOptimal(bh.data(), m, width, 2);
  }
  // Hidden activation ranges of the f32 network pick the int8 scales.
  {
    std::vector<float> h1(size_t(4096) * width), h2(h1.size());
    for (int l = 0; l < 2; ++l) {
      const float *in = l ? h1.data() : x.data();
      float *out = l ? h2.data() : h1.data();
      coopvecMatVecMulAdd(out, COOPVEC_TYPE_F32, 0, in, COOPVEC_TYPE_F32,
                          COOPVEC_TYPE_F32, 0, 4096, opt[0][l].data(), 0,
                          COOPVEC_TYPE_F32, width, width, 2, 0, 0, bl[l], 0,
                          COOPVEC_TYPE_F32, 1);
      float mx = 1e-6f;
      for (float &f : (l ? h2 : h1))
        mx = std::max(mx, f = std::max(f, 0.0f));
      actScale[l + 1] = 255.0f / mx; // u8 after the ReLU (Kernels.h).
    }
  }
  for (int t = 0; t < 4; ++t)
    for (int l = 0; l < 3; ++l) {
      CoopVecMlpLayer &L = layers[t][l];
      L = CoopVecMlpLayer{};
      L.weights = opt[t][l].data();
      L.weightsInterp = t == 0   ? COOPVEC_TYPE_F32
                        : t == 1 ? COOPVEC_TYPE_F16
                        : t == 2 ? COOPVEC_TYPE_I8
                                 : COOPVEC_TYPE_BF16;
      L.outputs = mo[l];
      L.inputs = width;
      L.layout = COOPVEC_LAYOUT_INFERENCING_OPTIMAL;
      L.activation = l < 2 ? COOPVEC_ACTIVATION_RELU : COOPVEC_ACTIVATION_NONE;
      if (t != 2) {
        L.bias = bl[l];
        L.biasInterp = COOPVEC_TYPE_F32;
      } else {
        float accScale = wScale[l] * actScale[l];
        biasI[l].resize(mo[l]);
        for (uint32_t i = 0; i < mo[l]; ++i)
          biasI[l][i] = int32_t(std::lrint(bl[l][i] * accScale));
        L.bias = biasI[l].data();
        L.biasInterp = COOPVEC_TYPE_I32;
        L.requantScale = l < 2 ? actScale[l + 1] / accScale : 1.0f / accScale;
      }
    }

  std::printf(
      "| threads | coopvec f32 | GFLOP/s | of FMA peak | oneDNN whole "
      "frame | oneDNN tiled (best) | speedup vs best | coopvec F16 | "
      "coopvec I8 | I8 speedup vs best | I8 of vpdpbusd peak | I8 max "
      "abs err | coopvec BF16 | BF16 speedup vs best | BF16 of "
      "vdpbf16ps peak | BF16 max abs err |\n"
      "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
      "\n");
  std::vector<float> w1T = transposed(w1.data(), width, width),
                     w2T = transposed(w2.data(), width, width),
                     w3T = transposed(w3.data(), outW, width);
  for (int threads : {1, 2}) {
    setThreads(threads);
    auto runCv = [&](int t, std::vector<float> &out) {
      int32_t st = coopvecMlpForward(out.data(), 0, x.data(), 0, n, layers[t],
                                     3, actScale[0], 0, threads);
      check(st == 0, "mlp status");
    };
    std::vector<float> yh(y.size()), yq(y.size()), yb(y.size());
    // oneDNN whole frame: three matmuls over full-frame buffers.
    std::vector<float> h1(size_t(n) * width), h2(h1.size());
    MatMul l1(d, n, width, width, Dt::f32, Dt::f32, Dt::f32, w1T.data(),
              b1.data(), true);
    MatMul l2(d, n, width, width, Dt::f32, Dt::f32, Dt::f32, w2T.data(),
              b2.data(), true);
    MatMul l3(d, n, width, outW, Dt::f32, Dt::f32, Dt::f32, w3T.data(),
              b3.data(), false);
    std::vector<std::function<void()>> contenders = {
        [&] { runCv(0, y); }, [&] { runCv(1, yh); }, [&] { runCv(2, yq); },
        [&] { runCv(3, yb); },
        [&] {
          l1.run(d, x.data(), h1.data());
          l2.run(d, h1.data(), h2.data());
          l3.run(d, h2.data(), yd.data());
        }};
    // oneDNN tiled: the same three matmuls on cache-sized tiles.
    const uint32_t tiles[] = {1200u, 4800u, 19200u};
    struct Tiled {
      MatMul l1, l2, l3;
      std::vector<float> t1, t2;
    };
    std::vector<std::unique_ptr<Tiled>> tiled;
    for (uint32_t tile : tiles) {
      tiled.push_back(std::unique_ptr<Tiled>(new Tiled{
          MatMul(d, tile, width, width, Dt::f32, Dt::f32, Dt::f32, w1T.data(),
                 b1.data(), true),
          MatMul(d, tile, width, width, Dt::f32, Dt::f32, Dt::f32, w2T.data(),
                 b2.data(), true),
          MatMul(d, tile, width, outW, Dt::f32, Dt::f32, Dt::f32, w3T.data(),
                 b3.data(), false),
          std::vector<float>(size_t(tile) * width),
          std::vector<float>(size_t(tile) * width)}));
      Tiled *t = tiled.back().get();
      contenders.push_back([&, t, tile] {
        for (uint32_t b = 0; b < n; b += tile) {
          t->l1.run(d, x.data() + size_t(b) * width, t->t1.data());
          t->l2.run(d, t->t1.data(), t->t2.data());
          t->l3.run(d, t->t2.data(), yd.data() + size_t(b) * outW);
        }
      });
    }
    auto med = interleavedMedianMs(contenders, 3);
    double tF32 = med[0], tF16 = med[1], tI8 = med[2], tBf16 = med[3];
    double tWhole = med[4];
    double tTiled = 1e30;
    uint32_t bestTile = 0;
    for (size_t i = 0; i < 3; ++i)
      if (med[5 + i] < tTiled)
        tTiled = med[5 + i], bestTile = tiles[i];
    // yd holds the last tiled run; every oneDNN variant computes the same.
    float maxErr = 0, maxErrBf16 = 0;
    for (size_t i = 0; i < y.size(); ++i) {
      check(std::fabs(y[i] - yd[i]) < 1e-3f && std::fabs(y[i] - yh[i]) < 1e-2f,
            "mlp f32/f16");
      maxErr = std::max(maxErr, std::fabs(y[i] - yq[i]));
      maxErrBf16 = std::max(maxErrBf16, std::fabs(y[i] - yb[i]));
    }
    double best = std::min(tWhole, tTiled);
    double gflops = flops / (tF32 * 1e6);
    const Peaks &peaks = threads == 1 ? peaks1 : peaks2;
    auto ofPeak = [&](double ms, double peak) {
      return peak > 0 ? std::to_string(
                            int(100.0 * flops / (ms * 1e6) / peak + 0.5)) +
                            "%"
                      : std::string("-");
    };
    std::printf(
        "| %d | %.1f | %.1f | %.0f%% | %.1f | %.1f (tile %u) | %.2fx | "
        "%.1f | %.1f | %.2fx | %s | %.3g | %.1f | %.2fx | %s | %.3g |\n",
        threads, tF32, gflops, 100.0 * gflops / peaks.fma, tWhole, tTiled,
        bestTile, best / tF32, tF16, tI8, best / tI8,
        ofPeak(tI8, peaks.vnni).c_str(), maxErr, tBf16, best / tBf16,
        ofPeak(tBf16, peaks.bf16).c_str(), maxErrBf16);
  }
}

/// Each product streams its matrix from DRAM; the triad, and a plain read of
/// each matrix (plainRead), run interleaved with them (interleavedMedianMs),
/// so that all see the same machine.
/// Before every timed run a 64 MiB read leaves the caches full of clean
/// lines: otherwise whatever follows the triad pays for writing back the
/// dirty lines it leaves in the L3.
void benchLarge() {
  std::printf("\n## One 4096x4096 matvec (batch 1, InferencingOptimal) vs "
              "triad bandwidth measured interleaved with it\n\n");
  std::printf("| matrix | threads | ms | GB/s | triad GB/s | of triad | "
              "plain read GB/s | of read |\n|---|---|---|---|---|---|---|---|\n");
  const uint32_t m = 4096, k = 4096;
  std::vector<float> w = randomFloats(size_t(m) * k);
  std::vector<float> x = randomFloats(k), y(m);
  std::vector<int8_t> xq(k);
  for (uint32_t i = 0; i < k; ++i)
    xq[i] = int8_t(std::lrint(x[i] * 127));
  const uint32_t interps[3] = {COOPVEC_TYPE_F32, COOPVEC_TYPE_F16,
                               COOPVEC_TYPE_I8};
  const char *names[3] = {"F32", "F16", "I8"};
  // Enough copies of each matrix to exceed the 32 MiB L3, cycled so each
  // run streams its matrix from DRAM.
  std::vector<std::vector<uint8_t>> mats[3];
  for (int t = 0; t < 3; ++t) {
    uint32_t es = t == 0 ? 4 : t == 1 ? 2 : 1;
    std::vector<uint8_t> raw(size_t(m) * k * es);
    for (size_t i = 0; i < size_t(m) * k; ++i) {
      if (es == 4)
        std::memcpy(&raw[4 * i], &w[i], 4);
      else if (es == 2) {
        uint16_t h = toHalf(w[i]);
        std::memcpy(&raw[2 * i], &h, 2);
      } else
        raw[i] = uint8_t(int8_t(std::lrint(w[i] * 127)));
    }
    size_t copies = std::max<size_t>(2, (160u << 20) / raw.size());
    for (size_t c = 0; c < copies; ++c)
      mats[t].push_back(toOptimal(raw.data(), m, k, es));
  }
  Triad triad;
  struct Clean {
    std::vector<uint64_t> lines = std::vector<uint64_t>(size_t(8) << 20, 1);
    uint64_t sum() const {
      uint64_t s = 0;
      for (size_t i = 0; i < lines.size(); i += 8)
        s += lines[i];
      return s;
    }
  } clean;
  volatile uint64_t cleanSum = 0;
  for (int threads : {1, 2}) {
    size_t next[3] = {0, 0, 0}, nextRead[3] = {0, 0, 0};
    std::vector<std::function<void()>> contenders{
        [&] { triad.run(threads); }};
    for (int t = 0; t < 3; ++t)
      contenders.push_back([&, t] {
        const std::vector<uint8_t> &mat = mats[t][next[t]++ % mats[t].size()];
        if (t == 2)
          coopvecMatVecMul(y.data(), COOPVEC_TYPE_I32, 0, xq.data(),
                           COOPVEC_TYPE_I8, COOPVEC_TYPE_I8, 0, 1, mat.data(),
                           0, interps[t], m, k, 2, 0, 0, threads);
        else
          coopvecMatVecMul(y.data(), COOPVEC_TYPE_F32, 0, x.data(),
                           COOPVEC_TYPE_F32, COOPVEC_TYPE_F32, 0, 1,
                           mat.data(), 0, interps[t], m, k, 2, 0, 0, threads);
      });
    for (int t = 0; t < 3; ++t)
      contenders.push_back([&, t] {
        const std::vector<uint8_t> &mat =
            mats[t][nextRead[t]++ % mats[t].size()];
        cleanSum += plainRead(mat.data(), mat.size(), threads);
      });
    std::vector<double> med =
        interleavedMedianMs(contenders, 15, [&] { cleanSum += clean.sum(); });
    double triadGbs = Triad::bytes / (med[0] * 1e6);
    for (int t = 0; t < 3; ++t) {
      double gbs = double(mats[t][0].size()) / (med[t + 1] * 1e6);
      double readGbs = double(mats[t][0].size()) / (med[t + 4] * 1e6);
      std::printf("| %s | %d | %.2f | %.1f | %.1f | %.0f%% | %.1f | %.0f%% |\n",
                  names[t], threads, med[t + 1], gbs, triadGbs,
                  100.0 * gbs / triadGbs, readGbs, 100.0 * gbs / readGbs);
    }
  }
}

/// What the thread pool costs calls too small to share: f32 matvecs at 1
/// and 2 threads, issued back to back and after a 1 ms pause (the helper
/// asleep, its vCPU possibly halted), median of 300 calls each.
void benchCalls() {
  std::printf("\n## Call overhead: f32 matvec (InferencingOptimal), 1 vs 2 "
              "threads, us per call\n\n");
  std::printf("| shape | batch | issued | 1 thread | 2 threads | 2 / 1 |\n"
              "|---|---|---|---|---|---|\n");
  for (uint32_t m : {256u, 1024u})
    for (uint32_t batch : {1u, 16u}) {
      uint32_t k = m;
      std::vector<float> w = randomFloats(size_t(m) * k);
      std::vector<uint8_t> wOpt = toOptimal(w.data(), m, k, 4);
      std::vector<float> x = randomFloats(size_t(batch) * k),
                         y(size_t(batch) * m);
      for (bool pause : {false, true}) {
        double us[2];
        for (int threads : {1, 2}) {
          std::vector<double> t;
          for (int i = 0; i < 300; ++i) {
            if (pause)
              std::this_thread::sleep_for(std::chrono::milliseconds(1));
            auto t0 = std::chrono::steady_clock::now();
            coopvecMatVecMul(y.data(), COOPVEC_TYPE_F32, 0, x.data(),
                             COOPVEC_TYPE_F32, COOPVEC_TYPE_F32, 0, batch,
                             wOpt.data(), 0, COOPVEC_TYPE_F32, m, k, 2, 0, 0,
                             threads);
            auto t1 = std::chrono::steady_clock::now();
            t.push_back(
                std::chrono::duration<double, std::micro>(t1 - t0).count());
          }
          std::sort(t.begin(), t.end());
          us[threads - 1] = t[t.size() / 2];
        }
        std::printf("| %ux%u | %u | %s | %.1f | %.1f | %.2f |\n", m, k, batch,
                    pause ? "after 1 ms" : "back to back", us[0], us[1],
                    us[1] / us[0]);
      }
    }
}

} // namespace

int main(int argc, char **argv) {
  if (const char *r = std::getenv("COOPVEC_BENCH_REPS"))
    gReps = std::max(1, std::atoi(r));
  std::string mode = argc > 1 ? argv[1] : "";
  if (argc > 2 || (mode != "" && mode != "--mlp" && mode != "--kernels" &&
                   mode != "--large" && mode != "--batched" &&
                   mode != "--calls" && mode != "--tuning")) {
    std::fprintf(stderr,
                 "usage: coopvec-bench-cpu [--kernels | --batched | --large "
                 "| --calls | --tuning | --mlp]\n  (no option: every section; "
                 "COOPVEC_BENCH_REPS sets the repetitions)\n");
    return 2;
  }
  bool mlpOnly = mode == "--mlp", kernelsOnly = mode == "--kernels";
  bool largeOnly = mode == "--large", batchedOnly = mode == "--batched";
  std::printf("# coopvec CPU benchmark (isa %s, CPU tuning %s, default "
              "threads %u)\n",
              coopvecKernelsIsa(), coopvecKernelsCpuTuning(),
              coopvecKernelsDefaultThreads());
  printLoad("start");
  if (mode == "--calls") {
    benchCalls();
    printLoad("end");
    return 0;
  }
  Peaks peaks1(1), peaks2(2);
  double peak1 = peaks1.fma, peak2 = peaks2.fma;
  double triad1 = triadGBs(1), triad2 = triadGBs(2);
  std::printf("\nFMA peak (%d-bit vfmadd): %.1f GFLOP/s (1 thread), %.1f (2 "
              "threads); triad: %.1f GB/s (1 thread), %.1f (2 threads)\n",
              peaks1.fmaBits, peak1, peak2, triad1, triad2);
  if (peaks1.vnni > 0)
    std::printf("int8 dot-product peak (vpdpbusd): %.1f GOP/s (1 thread), "
                "%.1f (2 threads)\n",
                peaks1.vnni, peaks2.vnni);
  if (peaks1.bf16 > 0)
    std::printf("bf16 dot-product peak (vdpbf16ps): %.1f GFLOP/s (1 thread), "
                "%.1f (2 threads)\n",
                peaks1.bf16, peaks2.bf16);
  Dnnl d;
  if (largeOnly || batchedOnly || mode == "--tuning") {
    if (largeOnly)
      benchLarge();
    else if (mode == "--tuning")
      benchTuning(d);
    else {
      benchMatVecF32(d);
      benchMatVecI8(d);
    }
    printLoad("end");
    return 0;
  }
  if (kernelsOnly) {
    benchKernelsAlone(d, peaks1);
    printLoad("end");
    return 0;
  }
  if (!mlpOnly) {
    benchKernelsAlone(d, peaks1);
    benchMatVecF32(d);
    benchMatVecI8(d);
    benchTuning(d);
    benchLarge();
    benchCalls();
  }
  benchMlp(d, peaks1, peaks2);
  printLoad("end");
  return 0;
}
