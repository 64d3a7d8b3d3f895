//===- KernelsAvx512Bf16.cpp - The fused MLP on AVX-512 BF16 --------------===//
//
// KernelBody.inc once more, under the target attributes of KernelsAvx512.cpp
// plus AVX512_BF16, with the BF16 weight policy (vdpbf16ps) enabled. Only its
// mlpTask is reached, for networks with BF16 weights, after Kernels.cpp
// checked __builtin_cpu_supports for every feature here (a CPU may have
// AVX-512 without BF16: Skylake-X, Ice Lake).
//
//===----------------------------------------------------------------------===//

#include "Plan.h"

#include "Convert.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <immintrin.h>
#include <vector>

#if defined(__x86_64__) || defined(__i386__)

#if defined(__clang__)
#pragma clang attribute push(                                                  \
    __attribute__((target("avx512f,avx512bw,avx512vl,avx512dq,avx512vnni,"     \
                          "avx512bf16,avx2,fma,f16c"))),                       \
    apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target(                                                            \
    "avx512f,avx512bw,avx512vl,avx512dq,avx512vnni,avx512bf16,avx2,fma,f16c")
#endif

#include "SimdAvx512.h"

namespace coopvec {
namespace kernels {
namespace avx512bf16 {
namespace {

/// The AVX-512 Isa plus the bf16 operations of Bf16Weights and
/// FloatSink<FloatOut::Bf16>.
struct Isa : avx512::Isa {
  /// The pair of bf16 at p in every 32-bit lane.
  static WideI bcastPair16(const uint16_t *p) {
    uint32_t v;
    std::memcpy(&v, p, 4);
    return _mm512_set1_epi32(int(v));
  }
  /// acc[i] += w.bf16[2i+1] * x.bf16[2i+1] + w.bf16[2i] * x.bf16[2i].
  static WideF dpbf16(WideF acc, WideI w, WideI x) {
    return _mm512_dpbf16_ps(acc, (__m512bh)w, (__m512bh)x);
  }
  /// toBf16Wide, with one vcvtneps2bf16 unless a lane would differ
  /// (cvtBf16Differs; MlpAmx.cpp's toBf16Pair makes the same test).
  static __m256i toBf16Fast(WideF v) {
    if (cvtBf16Differs(v))
      return toBf16Wide(v);
    return (__m256i)_mm512_cvtneps_pbh(v);
  }
  static void storeWideBf16(void *p, WideF v) {
    _mm256_storeu_si256(static_cast<__m256i *>(p), toBf16Fast(v));
  }
  static void storeBf16(void *p, F v) {
    _mm_storeu_si128(
        static_cast<__m128i *>(p),
        _mm256_castsi256_si128(toBf16Fast(_mm512_zextps256_ps512(v))));
  }
};

} // namespace

#define COOPVEC_KERNELS_AVX512 1
#define COOPVEC_KERNELS_BF16 1
#include "KernelBody.inc"
#undef COOPVEC_KERNELS_BF16
#undef COOPVEC_KERNELS_AVX512

} // namespace avx512bf16
} // namespace kernels
} // namespace coopvec

#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif

#endif
