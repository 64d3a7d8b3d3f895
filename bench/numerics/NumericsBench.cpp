//===- NumericsBench.cpp - Throughput of bulk conversion and MX quantization ===//
//
// One run prints, for f32 -> e4m3 (rn, satfinite), f32 -> e2m1x2 (rn,
// satfinite) and MX quantization to MXFP8 (E4M3) and MXFP4 (E2M1), the
// conversions per second of the vectorized and the scalar path and their
// traffic as a fraction of this machine's copy bandwidth, measured in the
// same run with memcpy on buffers far larger than the caches.
//
// Bytes are counted the same way everywhere: bytes read plus bytes written
// (memcpy of S bytes moves 2S; f32 -> e4m3 of n values moves 4n + n; MXFP4
// moves 4n + n/2 + n/32). Every figure is the median of repeated runs on one
// thread.
//
//===----------------------------------------------------------------------===//

#include "LinAlgCoop/Runtime/Numerics.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <vector>

namespace {

double medianSeconds(unsigned reps, const std::function<void()> &fn) {
  std::vector<double> t;
  fn(); // warm-up: page faults, dispatch initialisation
  for (unsigned i = 0; i < reps; ++i) {
    auto start = std::chrono::steady_clock::now();
    fn();
    auto stop = std::chrono::steady_clock::now();
    t.push_back(std::chrono::duration<double>(stop - start).count());
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

struct Row {
  const char *name;
  double bytesPerValue; // read + written
  std::function<void()> run;
};

} // namespace

int main(int argc, char **argv) {
  // 2^25 f32 values = 128 MiB of input: far beyond any last-level cache.
  size_t n = size_t(1) << 25;
  unsigned reps = 9, scalarReps = 3;
  if (argc > 1)
    n = size_t(std::strtoull(argv[1], nullptr, 0));
  if (argc > 2)
    reps = unsigned(std::atoi(argv[2]));

  std::vector<float> src(n);
  uint64_t state = 0x1234567;
  for (size_t i = 0; i < n; ++i) {
    // Normal-ish values over a few binades, both signs.
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    float u = float(int32_t(state >> 32)) * 0x1p-31f;
    src[i] = u * float(1 << ((state >> 20) & 7));
  }
  std::vector<uint8_t> out(n + n / 16 + 64, 1), scales(n / 32 + 1, 1);
  std::vector<uint8_t> copyDst(n * 4, 1);

  double copySec = medianSeconds(reps, [&] {
    std::memcpy(copyDst.data(), src.data(), n * 4);
  });
  double copyBw = 2.0 * double(n) * 4 / copySec;

  // Dequantization inputs: the MX encodings of the source.
  std::vector<uint8_t> e4m3(n), e2m1(n / 2 + 1);
  std::vector<float> back(n);
  coopvecMxQuantize(COOPVEC_FMT_E4M3, src.data(), n, e4m3.data(),
                    scales.data());
  coopvecMxQuantize(COOPVEC_FMT_E2M1, src.data(), n, e2m1.data(),
                    scales.data());

  const unsigned RN = COOPVEC_RND_RN, SAT = COOPVEC_CVT_SATFINITE;
  std::vector<Row> rows = {
      {"f32->e4m3 rn.satfinite", 5.0,
       [&] {
         coopvecConvertF32Buffer(COOPVEC_FMT_E4M3, src.data(), out.data(), n,
                                 RN, SAT, nullptr);
       }},
      {"f32->e2m1x2 rn.satfinite", 4.5,
       [&] {
         coopvecConvertF32Buffer(COOPVEC_FMT_E2M1, src.data(), out.data(), n,
                                 RN, SAT, nullptr);
       }},
      {"MXFP8 (E4M3) quantize", 4.0 + 1.0 + 1.0 / 32,
       [&] {
         coopvecMxQuantize(COOPVEC_FMT_E4M3, src.data(), n, out.data(),
                           scales.data());
       }},
      {"MXFP4 (E2M1) quantize", 4.0 + 0.5 + 1.0 / 32,
       [&] {
         coopvecMxQuantize(COOPVEC_FMT_E2M1, src.data(), n, out.data(),
                           scales.data());
       }},
      {"MXFP8 (E4M3) dequantize", 1.0 + 1.0 / 32 + 4.0,
       [&] {
         coopvecMxDequantize(COOPVEC_FMT_E4M3, e4m3.data(), scales.data(), n,
                             back.data());
       }},
      {"MXFP4 (E2M1) dequantize", 0.5 + 1.0 / 32 + 4.0,
       [&] {
         coopvecMxDequantize(COOPVEC_FMT_E2M1, e2m1.data(), scales.data(), n,
                             back.data());
       }},
  };

  std::printf("coopvec numerics benchmark: n = %zu f32 values (%.0f MiB), "
              "median of %u runs (scalar: %u), one thread\n",
              n, double(n) * 4 / (1 << 20), reps, scalarReps);
  std::printf("copy bandwidth (memcpy, read+write): %.2f GB/s\n", copyBw / 1e9);
  // The SIMD levels this CPU has, best first, then the scalar path.
  std::vector<int> levels;
  for (int level : {COOPVEC_NUMERICS_AVX512, COOPVEC_NUMERICS_AVX2}) {
    coopvecNumericsCapSimd(level);
    if (coopvecNumericsUsingSimd() == level)
      levels.push_back(level);
  }
  levels.push_back(COOPVEC_NUMERICS_SCALAR_PATH);
  coopvecNumericsCapSimd(-1);
  std::printf("%-26s", "");
  for (int level : levels)
    std::printf(" %8s Gconv/s %7s %8s", coopvecNumericsSimdName(level),
                "GB/s", "of copy");
  std::printf("\n");
  for (Row &row : rows) {
    std::printf("%-26s", row.name);
    for (int level : levels) {
      coopvecNumericsCapSimd(level);
      double sec = medianSeconds(
          level == COOPVEC_NUMERICS_SCALAR_PATH ? scalarReps : reps, row.run);
      double rate = sec > 0 ? double(n) / sec : 0.0;
      double bw = rate * row.bytesPerValue;
      std::printf(" %16.3f %7.2f %7.0f%%", rate / 1e9, bw / 1e9,
                  100 * bw / copyBw);
    }
    std::printf("\n");
  }
  coopvecNumericsCapSimd(-1);
  // Keep the outputs observable.
  unsigned sum = 0;
  for (size_t i = 0; i < n; i += 4096)
    sum += out[i] + copyDst[i];
  std::printf("(checksum %u)\n", sum);
  return 0;
}
