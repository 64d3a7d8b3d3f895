//===- LayoutTest.cpp - Checks the layout size, offset and conversion ABI --===//

#include "LinAlgCoop/Runtime/Layout.h"
#include "TestUtil.h"

#include <vector>

using namespace cvtest;

namespace {

/// Valid strides to try for a row/column-major matrix, 0 for optimal.
std::vector<uint32_t> stridesFor(uint32_t layout, uint32_t rows, uint32_t cols,
                                 uint32_t es) {
  if (layout >= 2)
    return {0, 48}; // Ignored: both must give the same layout.
  uint32_t line = (layout == 0 ? cols : rows) * es;
  return {line, line + es, (line + 15) / 16 * 16 + 16};
}

void checkSizesAndOffsets(Checker &ck) {
  const uint32_t dims[] = {1, 2, 3, 7, 8, 9, 15, 16, 17, 33, 64};
  for (uint32_t layout = 0; layout < 4; ++layout)
    for (uint32_t es : {1u, 2u, 4u})
      for (uint32_t rows : dims)
        for (uint32_t cols : dims)
          for (uint32_t stride : stridesFor(layout, rows, cols, es)) {
            uint64_t size =
                coopvecLayoutDestinationSize(layout, rows, cols, es, stride);
            ck.check(size == refSize(layout, rows, cols, es, stride) &&
                         size % 16 == 0,
                     "size layout=%u %ux%u es=%u stride=%u: %llu", layout, rows,
                     cols, es, stride, (unsigned long long)size);
            // Every element inside the buffer, no two elements overlapping.
            std::vector<uint8_t> used(size, 0);
            bool ok = true;
            for (uint32_t r = 0; r < rows; ++r)
              for (uint32_t c = 0; c < cols; ++c) {
                int64_t off = coopvecLayoutElementOffset(layout, rows, cols, es,
                                                         stride, r, c);
                ok &= off >= 0 && uint64_t(off) ==
                                      refOffset(layout, rows, cols, es,
                                                stride, r, c);
                for (uint32_t i = 0; ok && i < es; ++i) {
                  ok &= uint64_t(off) + i < size && !used[off + i];
                  if (ok)
                    used[off + i] = 1;
                }
              }
            ck.check(ok, "offsets layout=%u %ux%u es=%u stride=%u", layout,
                     rows, cols, es, stride);
            ck.check(coopvecLayoutElementOffset(layout, rows, cols, es, stride,
                                                rows, 0) == -1 &&
                         coopvecLayoutElementOffset(layout, rows, cols, es,
                                                    stride, 0, cols) == -1,
                     "out-of-range element accepted layout=%u", layout);
          }
}

void checkRoundTrips(Checker &ck) {
  std::mt19937 rng(7);
  const uint32_t shapes[][2] = {{1, 1}, {3, 5}, {8, 8}, {13, 7}, {9, 33}, {64, 3}};
  for (auto &shape : shapes)
    for (uint32_t es : {1u, 2u, 4u})
      for (uint32_t from = 0; from < 4; ++from)
        for (uint32_t to = 0; to < 4; ++to) {
          uint32_t rows = shape[0], cols = shape[1];
          uint32_t sFrom = stridesFor(from, rows, cols, es).back();
          uint32_t sTo = stridesFor(to, rows, cols, es)[1];
          uint64_t nFrom = coopvecLayoutDestinationSize(from, rows, cols, es, sFrom);
          uint64_t nTo = coopvecLayoutDestinationSize(to, rows, cols, es, sTo);
          std::vector<uint8_t> src(nFrom), mid(nTo, 0xcd), back(nFrom, 0xee);
          for (auto &b : src)
            b = uint8_t(rng());
          int32_t st1 = coopvecLayoutConvert(mid.data(), mid.size(), to, sTo,
                                             src.data(), src.size(), from,
                                             sFrom, rows, cols, es);
          int32_t st2 = coopvecLayoutConvert(back.data(), back.size(), from,
                                             sFrom, mid.data(), mid.size(), to,
                                             sTo, rows, cols, es);
          bool ok = st1 == COOPVEC_OK && st2 == COOPVEC_OK;
          for (uint32_t r = 0; ok && r < rows; ++r)
            for (uint32_t c = 0; ok && c < cols; ++c) {
              uint64_t a = refOffset(from, rows, cols, es, sFrom, r, c);
              uint64_t m = refOffset(to, rows, cols, es, sTo, r, c);
              ok &= std::memcmp(&src[a], &back[a], es) == 0 &&
                    std::memcmp(&src[a], &mid[m], es) == 0;
            }
          // Optimal destinations have zeroed padding: count the non-element
          // bytes that are not zero.
          if (ok && to >= 2) {
            std::vector<uint8_t> isElem(nTo, 0);
            for (uint32_t r = 0; r < rows; ++r)
              for (uint32_t c = 0; c < cols; ++c)
                std::memset(&isElem[refOffset(to, rows, cols, es, sTo, r, c)],
                            1, es);
            for (uint64_t i = 0; i < nTo; ++i)
              ok &= isElem[i] || mid[i] == 0;
          }
          ck.check(ok, "round trip %u->%u %ux%u es=%u (status %d %d)", from,
                   to, rows, cols, es, st1, st2);
        }
}

void checkInvalid(Checker &ck) {
  auto size = coopvecLayoutDestinationSize;
  ck.check(size(0, 0, 4, 4, 16) == 0, "zero rows");
  ck.check(size(2, 4, 0, 4, 0) == 0, "zero cols");
  ck.check(size(4, 4, 4, 4, 16) == 0, "layout 4");
  ck.check(size(0, 4, 4, 3, 12) == 0, "element size 3");
  ck.check(size(2, 4, 4, 8, 0) == 0, "element size 8");
  ck.check(size(0, 4, 4, 4, 12) == 0, "row stride too small");
  ck.check(size(1, 4, 4, 4, 12) == 0, "column stride too small");
  ck.check(size(0, 4, 4, 4, 18) == 0, "stride not a multiple of element");
  ck.check(size(0, 4, 4, 4, 0) == 0, "row-major stride 0");
  ck.check(size(2, 0xffffffffu, 0xffffffffu, 4, 0) == 0, "overflow optimal");
  ck.check(size(3, 0xffffffffu, 0xffffffffu, 4, 0) == 0, "overflow tiles");
  ck.check(size(0, 0xffffffffu, 1, 4, 0xfffffff0u) == 0, "overflow row-major");
  ck.check(size(0, 0x10000, 0x10000, 4, 0x40000) != 0, "large but valid");
  ck.check(coopvecLayoutValidate(0, 4, 4, 4, 18) == COOPVEC_ERROR_INVALID_STRIDE,
           "validate reason");
  ck.check(coopvecLayoutElementOffset(0, 4, 4, 4, 8, 0, 0) == -1,
           "offset with bad stride");
  std::vector<uint8_t> a(4096), b(4096);
  ck.check(coopvecLayoutConvert(b.data(), 64, 0, 64, a.data(), 4096, 0, 64, 8,
                                16, 4) == COOPVEC_ERROR_BUFFER_TOO_SMALL,
           "dst too small");
  ck.check(coopvecLayoutConvert(b.data(), 4096, 2, 0, a.data(), 100, 0, 64, 8,
                                16, 4) == COOPVEC_ERROR_BUFFER_TOO_SMALL,
           "src too small");
  ck.check(coopvecLayoutConvert(a.data() + 64, 2048, 2, 0, a.data(), 2048, 0,
                                64, 8, 16, 4) == COOPVEC_ERROR_OVERLAP,
           "overlap");
  ck.check(coopvecLayoutConvert(nullptr, 4096, 2, 0, a.data(), 4096, 0, 64, 8,
                                16, 4) == COOPVEC_ERROR_NULL_POINTER,
           "null dst");
  ck.check(coopvecLayoutConvert(b.data(), 4096, 2, 0, a.data(), 4096, 0, 60, 8,
                                16, 4) == COOPVEC_ERROR_INVALID_STRIDE,
           "bad src stride");
}

} // namespace

int main() {
  Checker ck;
  checkSizesAndOffsets(ck);
  checkRoundTrips(ck);
  checkInvalid(ck);
  return ck.finish("layout");
}
