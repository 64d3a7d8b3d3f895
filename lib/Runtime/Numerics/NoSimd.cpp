//===- NoSimd.cpp - The SIMD hooks of Bulk.cpp and MX.cpp without SIMD ----===//
//
// Built on architectures without a SIMD folder (x86_64/ holds the x86
// kernels): every bulk conversion and MX quantization takes the scalar loop.
//
//===----------------------------------------------------------------------===//

#include "NumericsInternal.h"

namespace coopvec {
namespace numerics {

bool cpuHasAvx2() { return false; }
bool cpuHasAvx512() { return false; }
bool avx2ConvertF32(unsigned, const SimdParams &, unsigned, const float *,
                    void *, size_t) {
  return false;
}
bool avx2WidenF16(const uint16_t *, float *, size_t) { return false; }
size_t avx2MxQuantize(unsigned, const SimdParams &, int, const float *, size_t,
                      uint8_t *, uint8_t *) {
  return 0;
}
size_t avx2MxDequantize(unsigned, const float *, const void *,
                        const uint8_t *, size_t, float *) {
  return 0;
}
size_t avx512MxDequantize(unsigned, const float *, const void *,
                          const uint8_t *, size_t, float *) {
  return 0;
}
bool avx512ConvertF32(unsigned, const SimdParams &, unsigned, const float *,
                      void *, size_t) {
  return false;
}
bool avx512WidenF16(const uint16_t *, float *, size_t) { return false; }
size_t avx512MxQuantize(unsigned, const SimdParams &, int, const float *,
                        size_t, uint8_t *, uint8_t *) {
  return 0;
}

} // namespace numerics
} // namespace coopvec
