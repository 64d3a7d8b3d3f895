//===- KernelsAvx512.cpp - The kernels compiled for AVX-512 + VNNI --------===//
//
// KernelBody.inc once more, under target attributes for AVX-512 F/BW/VL/DQ
// and VNNI (plus the AVX2/FMA/F16C the shared 8-lane code uses), with the
// 512-bit weight policies enabled. As in KernelsAvx2.cpp, the pragma applies
// only to functions defined after it, so the headers included first stay
// baseline code. Only reached after Kernels.cpp checked
// __builtin_cpu_supports for every one of these features.
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
    __attribute__((target(                                                     \
        "avx512f,avx512bw,avx512vl,avx512dq,avx512vnni,avx2,fma,f16c"))),      \
    apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx512f,avx512bw,avx512vl,avx512dq,avx512vnni,avx2,fma,f16c")
#endif

#include "SimdAvx512.h"

#define COOPVEC_KERNELS_AVX512 1
namespace coopvec {
namespace kernels {
namespace avx512 {
#include "KernelBody.inc"
} // namespace avx512
} // namespace kernels
} // namespace coopvec
#undef COOPVEC_KERNELS_AVX512

#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif

#endif
