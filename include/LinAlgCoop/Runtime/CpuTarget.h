//===- CpuTarget.h - CPU target glue: checks, errors, conversion -*- C -*-===//
//
// The entry points --convert-coopvec-to-cpu calls besides the kernels
// (Kernels.h): bounds checks of buffers against the sizes memrefs carry,
// matrix conversion (convert_matrix), and the reporter of a failed status.
// Exported by libcoopvec_runtime.so together with Kernels.h, Layout.h and
// Numerics.h.
//
// Errors. Lowered code checks the CoopVecStatus of every call; a non-zero
// status calls coopvecCpuReportError with a constant string naming the op
// and its source location. It prints one line
//   coopvec runtime error: <site>: <status name> (<code>)
// to stderr and then calls the handler installed with
// coopvecCpuSetErrorHandler, or aborts if none is (a host such as coopvec-run
// installs one that exits cleanly). Lowered code never continues after an
// error, so a failed kernel call cannot yield garbage.
//
//===----------------------------------------------------------------------===//

#ifndef LINALGCOOP_RUNTIME_CPUTARGET_H
#define LINALGCOOP_RUNTIME_CPUTARGET_H

#include "LinAlgCoop/Runtime/Layout.h"
#include "LinAlgCoop/Runtime/ParamStructs.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The enumerator name of a CoopVecStatus ("COOPVEC_ERROR_UNSUPPORTED_TYPE"),
/// or "unknown status" for other values.
const char *coopvecStatusName(int32_t status);

/// Called after the error line is printed; must not return to lowered code
/// (exit, longjmp or abort). NULL restores the default (abort).
typedef void (*CoopVecCpuErrorHandler)(int32_t status, const char *site);
void coopvecCpuSetErrorHandler(CoopVecCpuErrorHandler handler);

/// Reports a failed status of the op described by `site` (see above). Does
/// not return.
void coopvecCpuReportError(int32_t status, const char *site);

/// Bytes a stored matrix spans from its first byte: up to the end of the
/// last element for RowMajor/ColumnMajor, the padded size
/// (coopvecLayoutDestinationSize) for the optimal layouts, whose padding the
/// kernels may read. The stride is ignored for the optimal layouts. 0 for an
/// invalid matrix (coopvecLayoutValidate).
uint64_t coopvecCpuMatrixFootprint(uint32_t layout, uint32_t rows,
                                   uint32_t cols, uint32_t elemSize,
                                   uint32_t stride);

/// COOPVEC_OK if the `rows` x `cols` matrix stored at byte `offset` lies in a
/// buffer of `bufferBytes` bytes, COOPVEC_ERROR_BUFFER_TOO_SMALL if not, or
/// the coopvecLayoutValidate error of an invalid matrix.
int32_t coopvecCpuCheckMatrix(uint64_t bufferBytes, uint64_t offset,
                              uint32_t layout, uint32_t rows, uint32_t cols,
                              uint32_t elemSize, uint32_t stride);

/// COOPVEC_OK if bytes [offset, offset + bytes) lie in the buffer, else
/// COOPVEC_ERROR_BUFFER_TOO_SMALL.
int32_t coopvecCpuCheckRange(uint64_t bufferBytes, uint64_t offset,
                             uint64_t bytes);

// The wide entry points take one parameter struct (ParamStructs.h; fields
// declared in RuntimeFunctions.def), which lowered code fills on its stack.

/// coopvecMatVecMulAdd (Kernels.h) on the fields of `params`, completed for
/// every combination the dialect accepts: where the kernels answer
/// COOPVEC_ERROR_UNSUPPORTED_TYPE (FP8, 16- and 32-bit integer matrices,
/// 16-bit inputs, unsigned results, ...), each vector of the batch goes
/// through the reference semantics (coopvecReferenceMatVecMulAdd, Dxil.h)
/// instead. With `fidelity` set, the Wormhole model (coopvecWormholeMatmul,
/// Numerics.h) computes the product instead; any layout and transpose.
int32_t coopvecCpuMatVecMulAdd(const CoopVecMatVecParams *params);

/// coopvecOuterProductAccumulate and coopvecVectorAccumulate (Kernels.h),
/// completed like coopvecCpuMatVecMulAdd: integer vectors and accumulators
/// the lock-free kernels do not take go through the reference semantics
/// (coopvecReferenceOuterProductAccumulate / VectorAccumulate, Dxil.h),
/// vector by vector of the batch.
int32_t
coopvecCpuOuterProductAccumulate(const CoopVecOuterProductParams *params);
int32_t
coopvecCpuVectorAccumulate(const CoopVecVectorAccumulateParams *params);

/// Copies a rows x cols matrix from (src + srcOffset, srcInterp, srcLayout,
/// srcStride) to (dst + dstOffset, dstInterp, dstLayout, dstStride),
/// converting each element with coopvecDxilConvert (RTNE; a float beyond the
/// destination's range saturates to its largest finite value) when the
/// interpretations differ. Interpretations are DXIL ComponentType values
/// (Kernels.h); any non-packed one is accepted. Padding of an optimal
/// destination is zeroed. Both footprints are checked against the buffer
/// sizes (srcBytes, dstBytes) and must not overlap; nothing is written on
/// failure.
int32_t coopvecCpuConvertMatrix(const CoopVecConvertMatrixParams *params);

/// coopvecMlpForward (Kernels.h) on the fields of `params`.
int32_t coopvecCpuMlpForward(const CoopVecMlpParams *params);

/// The quantized matrix product (Quantized.h): the AMX, AVX-512 VNNI or
/// AVX2 kernels where they take the parameters
/// (coopvecKernelsQuantizedMatMul: row-major I8/U8/I4/U4 matrices, not
/// transposed, K and groups multiples of 4), the reference semantics
/// otherwise; bit-identical either way.
int32_t coopvecCpuQuantizedMatMul(const CoopVecQuantMatMulParams *params);

/// Dynamic row quantization (Quantized.h): coopvecKernelsQuantizeRows at the
/// avx512 and avx2 kernel levels, coopvecReferenceQuantizeRows otherwise;
/// bit-identical either way.
int32_t coopvecCpuQuantizeRows(const CoopVecQuantizeRowsParams *params);

/// coopvec.tile_mma with a fidelity clause: acc[m x n] += lhs[m x k] @
/// rhs[k x n] (row-major f32 values of the bf16 or f32 operands) as one
/// Wormhole matrix-unit step onto a live Dst (coopvecWormholeTileMma:
/// `lhs` in SrcA, `rhs` in SrcB; srcFormat COOPVEC_FMT_BF16 or _TF32,
/// dstFormat COOPVEC_FMT_F32 or _BF16, fidelity a CoopVecFidelity).
/// COOPVEC_ERROR_INVALID_ARGUMENT for a configuration the model rejects or
/// k not a multiple of 32.
int32_t coopvecCpuTileMmaFidelity(uint32_t fidelity, uint32_t srcFormat,
                                  uint32_t dstFormat, const float *lhs,
                                  const float *rhs, float *acc, uint64_t m,
                                  uint64_t n, uint64_t k);

/// coopvec.tile_pack_dst: l1[i] = pack(dst[i]) for i < n, the Wormhole
/// packer (coopvecWormholePack) from a Dst of dstFormat to L1 values of
/// packFormat (COOPVEC_FMT_F32 or _BF16); with l1Acc the datum is
/// accumulated onto l1[i]. COOPVEC_ERROR_INVALID_ARGUMENT for a
/// configuration the model rejects.
int32_t coopvecCpuTilePackDstFidelity(uint32_t dstFormat, uint32_t packFormat,
                                      uint32_t l1Acc, const float *dst,
                                      float *l1, uint64_t n);

/// coopvec.eltwise_mul: out[i] = pack(lhs[i] * rhs[i]) for i < n, the
/// Wormhole ELWMUL with `lhs` in SrcA and `rhs` in SrcB
/// (coopvecWormholeEltwiseMul); with l1Acc the datum is accumulated onto
/// out[i] (the L1 values). Formats as coopvecCpuTileMmaFidelity's, plus
/// packFormat (COOPVEC_FMT_F32 or _BF16). COOPVEC_ERROR_INVALID_ARGUMENT for
/// a configuration the model rejects.
int32_t coopvecCpuEltwiseMulFidelity(uint32_t fidelity, uint32_t srcFormat,
                                     uint32_t dstFormat, uint32_t packFormat,
                                     uint32_t l1Acc, const float *lhs,
                                     const float *rhs, float *out, uint64_t n);

#ifdef __cplusplus
} // extern "C"
#endif

#endif // LINALGCOOP_RUNTIME_CPUTARGET_H
