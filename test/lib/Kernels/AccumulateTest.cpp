//===- AccumulateTest.cpp - Outer-product and vector accumulate, threads --===//
//
// Values are small integers (and halves) so every sum is exact in f16 and
// f32 whatever order the atomics take: results must match exactly. Several
// std::threads accumulating into one buffer must not lose updates.
//
//===----------------------------------------------------------------------===//

#include "LinAlgCoop/Runtime/Kernels.h"
#include "TestUtil.h"

#include <memory>
#include <thread>
#include <vector>

using namespace cvtest;

namespace {

enum : uint32_t { F16 = COOPVEC_TYPE_F16, F32 = COOPVEC_TYPE_F32 };

/// Reads element (r, c) of an accumulator matrix as a double.
double readElem(const std::vector<uint8_t> &buf, uint64_t off, uint32_t es) {
  if (es == 4) {
    float f;
    std::memcpy(&f, &buf[off], 4);
    return f;
  }
  uint16_t h;
  std::memcpy(&h, &buf[off], 2);
  return halfValue(h);
}

void writeElem(std::vector<uint8_t> &buf, uint64_t off, uint32_t es, float v) {
  if (es == 4) {
    std::memcpy(&buf[off], &v, 4);
  } else {
    uint16_t h = halfFromFloat(v);
    std::memcpy(&buf[off], &h, 2);
  }
}

/// Vectors of small multiples of 0.5 in f16 or f32 storage.
struct Vecs {
  std::vector<uint8_t> bytes;
  std::vector<double> values;
};

Vecs makeVecs(uint32_t type, uint32_t batch, uint32_t n, std::mt19937 &rng) {
  Vecs v;
  uint32_t es = type == F32 ? 4 : 2;
  v.bytes.resize(uint64_t(batch) * n * es);
  v.values.resize(uint64_t(batch) * n);
  for (uint64_t i = 0; i < v.values.size(); ++i) {
    float f = 0.5f * float(int(rng() % 9) - 4);
    v.values[i] = f;
    writeElem(v.bytes, i * es, es, f);
  }
  return v;
}

void checkOuterProduct(Checker &ck, std::mt19937 &rng) {
  const uint32_t shapes[][2] = {{1, 1}, {3, 5}, {8, 8}, {13, 17}, {64, 64}};
  for (uint32_t accum : {F16, F32})
    for (uint32_t inType : {F16, F32})
      for (uint32_t layout = 0; layout < 4; ++layout)
        for (auto &shape : shapes)
          for (uint32_t batch : {1u, 5u})
            for (uint32_t threads : {1u, 2u}) {
              uint32_t m = shape[0], n = shape[1], es = accum == F32 ? 4 : 2;
              uint32_t stride = layout == 0 ? n * es + 4 : layout == 1 ? m * es + 4 : 0;
              uint64_t size = refSize(layout, m, n, es, stride);
              uint64_t offset = 128;
              std::vector<uint8_t> buf(offset + size, 0);
              std::vector<double> expect(uint64_t(m) * n);
              for (uint32_t r = 0; r < m; ++r)
                for (uint32_t c = 0; c < n; ++c) {
                  float init = float(int(rng() % 11) - 5);
                  writeElem(buf, offset + refOffset(layout, m, n, es, stride, r, c),
                            es, init);
                  expect[uint64_t(r) * n + c] = init;
                }
              Vecs a = makeVecs(inType, batch, m, rng);
              Vecs b = makeVecs(inType, batch, n, rng);
              for (uint32_t s = 0; s < batch; ++s)
                for (uint32_t r = 0; r < m; ++r)
                  for (uint32_t c = 0; c < n; ++c)
                    expect[uint64_t(r) * n + c] +=
                        a.values[uint64_t(s) * m + r] * b.values[uint64_t(s) * n + c];
              int32_t st = coopvecOuterProductAccumulate(
                  a.bytes.data(), inType, 0, b.bytes.data(), inType, 0, batch,
                  m, n, buf.data(), offset, accum, layout, stride, threads);
              bool ok = st == COOPVEC_OK;
              for (uint32_t r = 0; ok && r < m; ++r)
                for (uint32_t c = 0; c < n; ++c)
                  ok &= readElem(buf, offset + refOffset(layout, m, n, es, stride, r, c),
                                 es) == expect[uint64_t(r) * n + c];
              ck.check(ok, "opa accum=%u in=%u layout=%u %ux%u batch=%u "
                           "threads=%u status=%d",
                       accum, inType, layout, m, n, batch, threads, st);
            }
}

void checkVectorAccumulate(Checker &ck, std::mt19937 &rng) {
  for (uint32_t accum : {F16, F32})
    for (uint32_t inType : {F16, F32})
      for (uint32_t n : {1u, 2u, 3u, 7u, 64u, 5000u})
        for (uint32_t offset : {0u, 2u, 64u}) {
          uint32_t es = accum == F32 ? 4 : 2;
          if (offset % es)
            continue;
          uint32_t batch = 3;
          std::vector<uint8_t> buf(offset + uint64_t(n) * es + 8, 0);
          std::vector<double> expect(n);
          for (uint32_t i = 0; i < n; ++i) {
            float init = float(int(rng() % 11) - 5);
            writeElem(buf, offset + uint64_t(i) * es, es, init);
            expect[i] = init;
          }
          // Sentinels around the vector must survive the paired CAS.
          std::vector<uint8_t> before = buf;
          Vecs v = makeVecs(inType, batch, n, rng);
          for (uint32_t s = 0; s < batch; ++s)
            for (uint32_t i = 0; i < n; ++i)
              expect[i] += v.values[uint64_t(s) * n + i];
          int32_t st = coopvecVectorAccumulate(v.bytes.data(), inType, 0, batch,
                                               n, buf.data(), offset, accum, 2);
          bool ok = st == COOPVEC_OK;
          for (uint32_t i = 0; ok && i < n; ++i)
            ok &= readElem(buf, offset + uint64_t(i) * es, es) == expect[i];
          for (uint64_t i = 0; ok && i < buf.size(); ++i)
            if (i < offset || i >= offset + uint64_t(n) * es)
              ok &= buf[i] == before[i];
          ck.check(ok, "vacc accum=%u in=%u n=%u offset=%u status=%d", accum,
                   inType, n, offset, st);
        }
}

/// Four application threads hammer the same f16 and f32 buffers.
void checkConcurrent(Checker &ck) {
  for (uint32_t accum : {F16, F32})
    for (uint32_t layout : {0u, 3u}) {
      uint32_t m = 16, n = 24, es = accum == F32 ? 4 : 2;
      uint32_t stride = layout == 0 ? n * es : 0;
      std::vector<uint8_t> mat(refSize(layout, m, n, es, stride), 0);
      std::vector<uint8_t> vec(uint64_t(n) * es, 0);
      std::vector<uint16_t> a(m), b(n);
      for (auto &h : a)
        h = halfFromFloat(1.0f);
      for (auto &h : b)
        h = halfFromFloat(0.5f);
      const int kThreads = 4, kIters = 200;
      std::vector<std::thread> pool;
      for (int t = 0; t < kThreads; ++t)
        pool.emplace_back([&] {
          for (int i = 0; i < kIters; ++i) {
            coopvecOuterProductAccumulate(a.data(), F16, 0, b.data(), F16, 0, 1,
                                          m, n, mat.data(), 0, accum, layout,
                                          stride, 1);
            coopvecVectorAccumulate(b.data(), F16, 0, 1, n, vec.data(), 0,
                                    accum, 1);
          }
        });
      for (auto &t : pool)
        t.join();
      double want = 0.5 * kThreads * kIters; // 400: exact in f16
      bool ok = true;
      for (uint32_t r = 0; r < m; ++r)
        for (uint32_t c = 0; c < n; ++c)
          ok &= readElem(mat, refOffset(layout, m, n, es, stride, r, c), es) == want;
      for (uint32_t i = 0; i < n; ++i)
        ok &= readElem(vec, uint64_t(i) * es, es) == want;
      ck.check(ok, "concurrent accum=%u layout=%u", accum, layout);
    }
}

void checkInvalid(Checker &ck) {
  std::vector<uint8_t> buf(4096);
  ck.check(coopvecOuterProductAccumulate(buf.data(), F16, 0, buf.data(), F16, 0,
                                         1, 4, 4, buf.data() + 1, 0, F16, 3, 0,
                                         1) == COOPVEC_ERROR_INVALID_ARGUMENT,
           "misaligned f16 matrix");
  ck.check(coopvecOuterProductAccumulate(buf.data(), COOPVEC_TYPE_I8, 0,
                                         buf.data(), F16, 0, 1, 4, 4,
                                         buf.data(), 0, F16, 3, 0, 1) ==
               COOPVEC_ERROR_UNSUPPORTED_TYPE, "int8 inputs");
  ck.check(coopvecOuterProductAccumulate(buf.data(), F16, 0, buf.data(), F16, 0,
                                         1, 0, 4, buf.data(), 0, F16, 3, 0,
                                         1) == COOPVEC_ERROR_INVALID_DIMENSIONS,
           "M = 0");
  ck.check(coopvecVectorAccumulate(buf.data(), F16, 0, 1, 4, buf.data(), 1,
                                   F16, 1) == COOPVEC_ERROR_INVALID_ARGUMENT,
           "misaligned vector");
  ck.check(coopvecVectorAccumulate(buf.data(), F16, 2, 2, 4, buf.data(), 0,
                                   F16, 1) == COOPVEC_ERROR_INVALID_STRIDE,
           "input stride too small");
}

/// An f16 array whose last element is the low half of a 32-bit word that
/// ends past the array: the update must not touch the bytes beyond it
/// (an exactly sized heap block, which the sanitizer build checks).
void checkOddF16Array(Checker &ck) {
  constexpr uint32_t n = 3;
  auto array = std::make_unique<uint16_t[]>(n);
  auto input = std::make_unique<uint16_t[]>(n);
  for (uint32_t i = 0; i < n; ++i) {
    array[i] = halfFromFloat(1.0f);
    input[i] = halfFromFloat(0.5f * float(i));
  }
  ck.check(coopvecVectorAccumulate(input.get(), F16, 0, 1, n, array.get(), 0,
                                   F16, 1) == COOPVEC_OK,
           "odd f16 array accepted");
  bool ok = true;
  for (uint32_t i = 0; i < n; ++i)
    ok &= halfValue(array[i]) == 1.0 + 0.5 * i;
  ck.check(ok, "odd f16 array sums");
}

} // namespace

int main() {
  Checker ck;
  std::mt19937 rng(5);
  // The 2-thread cases split even these small shapes across the pool.
  coopvecKernelsSetParallelThreshold(0);
  checkOuterProduct(ck, rng);
  checkVectorAccumulate(ck, rng);
  checkConcurrent(ck);
  checkInvalid(ck);
  checkOddF16Array(ck);
  return ck.finish("accumulate");
}
