//===- KernelsAvx2.cpp - The kernels compiled for AVX2 + FMA + F16C -------===//
//
// Every function defined in this file carries target("avx2,fma,f16c") through
// the pragma below instead of a per-file -mavx2: inline functions from
// headers included before the pragma stay baseline code, so the linker can
// never pick an AVX2 copy of them for the portable path. Only reached after
// Kernels.cpp checked __builtin_cpu_supports.
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
#pragma clang attribute push(__attribute__((target("avx2,fma,f16c"))),       \
                             apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx2,fma,f16c")
#endif

#include "SimdAvx2.h"

namespace coopvec {
namespace kernels {
namespace avx2 {
#define COOPVEC_KERNELS_QUADS 1
#include "KernelBody.inc"
#undef COOPVEC_KERNELS_QUADS
} // namespace avx2
} // namespace kernels
} // namespace coopvec

#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif

#endif
