//===- X86.h - What the AVX2 and AVX-512 numerics kernels share -*- C++ -*-===//
//
// The MXCSR guard both kernel widths run under, the CPU checks and the
// 4-bit code loader (also used by the quantized product's kernels). x86
// only.
//
//===----------------------------------------------------------------------===//

#ifndef LINALGCOOP_LIB_RUNTIME_NUMERICS_X86_64_X86_H
#define LINALGCOOP_LIB_RUNTIME_NUMERICS_X86_64_X86_H

#include <cpuid.h>
#include <cstddef>
#include <cstdint>
#include <immintrin.h>

namespace coopvec {
namespace numerics {
namespace x86 {

/// Runs a kernel under the default MXCSR (round to nearest even, no
/// flush-to-zero or denormals-are-zero, exceptions masked): the subnormal
/// rounding and the MX scaling use the FPU, and the caller's mode must not
/// change the result.
class DefaultMxcsr {
public:
  DefaultMxcsr() : saved(_mm_getcsr()) {
    if (saved != kDefault)
      _mm_setcsr(kDefault);
  }
  ~DefaultMxcsr() {
    if (saved != kDefault)
      _mm_setcsr(saved);
  }
  DefaultMxcsr(const DefaultMxcsr &) = delete;
  DefaultMxcsr &operator=(const DefaultMxcsr &) = delete;

private:
  static constexpr unsigned kDefault = 0x1F80;
  unsigned saved;
};

/// XCR0: the register state the OS saves (bit 1 XMM, 2 YMM, 5-7 AVX-512).
inline unsigned long long xcr0() {
  unsigned lo, hi;
  __asm__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
  return (static_cast<unsigned long long>(hi) << 32) | lo;
}

/// cpuid leaf 7 subleaf 0 EBX (0 when the leaf is missing).
inline unsigned leaf7Ebx() {
  unsigned eax, ebx, ecx, edx;
  if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx))
    return 0;
  return ebx;
}

/// The codes of elements [i, i + 32) (i even), one per byte, in element
/// order: 32 bytes, or 16 bytes of two 4-bit codes each (element 2j in the
/// low nibble). The MX kernels read a block of E2M1 codes with it, the
/// quantized product's kernels a run of I4/U4 weights. SSE2, the x86-64
/// baseline.
inline void load32Codes(const uint8_t *bytes, size_t i, bool nibbles,
                        __m128i &c0, __m128i &c1) {
  if (nibbles) {
    const __m128i low4 = _mm_set1_epi8(0x0F);
    __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i *>(bytes + i / 2));
    __m128i lo = _mm_and_si128(b, low4);
    __m128i hi = _mm_and_si128(_mm_srli_epi16(b, 4), low4);
    c0 = _mm_unpacklo_epi8(lo, hi);
    c1 = _mm_unpackhi_epi8(lo, hi);
  } else {
    c0 = _mm_loadu_si128(reinterpret_cast<const __m128i *>(bytes + i));
    c1 = _mm_loadu_si128(reinterpret_cast<const __m128i *>(bytes + i + 16));
  }
}

} // namespace x86
} // namespace numerics
} // namespace coopvec

#endif // LINALGCOOP_LIB_RUNTIME_NUMERICS_X86_64_X86_H
