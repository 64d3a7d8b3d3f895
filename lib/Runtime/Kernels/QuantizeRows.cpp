//===- QuantizeRows.cpp - Dynamic row quantization's kernel driver --------===//
//
// coopvecKernelsQuantizeRows: at the avx512 and avx2 kernel levels, blocks
// of rows in parallel (at most 64 rows or 64 Ki values a block, so a
// block's inputs are still in L1 or L2 for the second sweep); at the
// portable level the kernels decline and the caller runs the reference.
//
//===----------------------------------------------------------------------===//

#include "QuantizeRows.h"
#include "ThreadPool.h"

#include "LinAlgCoop/Runtime/Kernels.h"
#include "LinAlgCoop/Runtime/Quantized.h"

#include <algorithm>
#include <cstring>

using namespace coopvec::kernels;

extern "C" int32_t
coopvecKernelsQuantizeRows(const CoopVecQuantizeRowsParams *p) {
  constexpr int32_t kNotTaken = COOPVEC_ERROR_UNSUPPORTED_TYPE;
#if !defined(__x86_64__)
  (void)p;
  return kNotTaken;
#else
  const char *isa = coopvecKernelsIsa();
  QuantizeRowBlock block =
      std::strcmp(isa, "avx512") == 0 ? avx512::quantizeRowBlock
      : std::strcmp(isa, "avx2") == 0 ? avx2::quantizeRowBlock
                                      : nullptr;
  if (!block)
    return kNotTaken;
  if (int32_t status = coopvecQuantizeRowsCheck(p))
    return status;
  if (p->batch == 0)
    return COOPVEC_OK;
  uint32_t blockRows =
      uint32_t(std::clamp<uint64_t>((uint64_t(1) << 16) / p->n, 1, 64));
  unsigned blocks = unsigned((uint64_t(p->batch) + blockRows - 1) / blockRows);
  unsigned threads = p->numThreads ? p->numThreads : defaultThreadCount();
  // Below 512 Ki values (2 MiB of f32) waking a second thread costs more
  // than it saves (bench/quant: 31 x 2560 and 4096 x 64 ran slower on two).
  if (uint64_t(p->batch) * p->n < (uint64_t(1) << 19))
    threads = 1;
  auto task = [&](unsigned t) {
    thread_local QuantizeRowsScratch scratch;
    uint32_t b0 = t * blockRows;
    block(*p, b0, std::min(p->batch, b0 + blockRows), scratch);
    scratch.trim();
  };
  parallelFor(blocks, std::min(threads, blocks), task);
  return COOPVEC_OK;
#endif
}
