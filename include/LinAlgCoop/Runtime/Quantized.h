//===- Quantized.h - Quantized matrix product, row quantization ---*- C -*-===//
//
// The semantics of coopvec.batch_matvec's quantized form (oneDNN's int8
// matmul with zero points, grouped scales and precomputed reductions) and of
// coopvec.quantize_rows, as a C ABI over the parameter structs of
// RuntimeFunctions.def. Terms: the batch has `batch` rows `b` (oneDNN's M),
// the matrix `m` rows `n` (oneDNN's N, the outputs) of `k` elements.
//
// For output (b, n), with zx/zw/sx/sw the zero points and scales whose
// group holds k (0 and 1 where absent) and compute groups j the blocks of
// the finer scale grouping (all of K without scales):
//
//   acc(j) = sum_{k in j} (x(b,k) - zx(b,k)) * (w(n,k) - zw(n,k))     exact
//   with reductions R (group r):
//   acc(j) = sum_{k in j} (x(b,k) - zx(b,k)) * w(n,k)
//            - sum_{g in j} zw(n,g) * (R(b,g) - sum_{k in g} zx(b,k))
//   y = ((f32(acc(0)) * sx(b,0)) * sw(n,0) + f32(acc(1)) * ...) + bias(n)
//
// in f32, left to right, never fused; one rounding to F16/BF16 at the end
// (to nearest even, overflow to inf). A NaN result (NaN or infinite scales
// or bias) has no specified sign or f32 payload: where two NaNs meet, which
// one an add or multiply returns depends on the operand order the compiler
// picks. F16 and BF16 results give NaN its canonical quiet form.
// An I32 output takes no scales: the exact sum of acc(j) plus an I32 bias,
// saturated.
//
// Row quantization: per row and block of `group` elements, in f32:
// I8 (symmetric): s = max|x| / 127, q = clamp(rtne(x / s), -127, 127);
// U8 (asymmetric): lo = min(min x, 0), hi = max(max x, 0),
// s = (hi - lo) / 255, z = clamp(rtne(-lo / s), 0, 255),
// q = clamp(rtne(x / s) + z, 0, 255). s is rounded to the scale type before
// it is used; a zero block has s = 1, z = 0; NaN quantizes to 0.
// reductions = sum of the block's q (i32).
//
//===----------------------------------------------------------------------===//

#ifndef LINALGCOOP_RUNTIME_QUANTIZED_H
#define LINALGCOOP_RUNTIME_QUANTIZED_H

#include "LinAlgCoop/Runtime/ParamStructs.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The reference semantics, element by element. Returns COOPVEC_OK or a
/// CoopVecStatus for an unsupported combination or a null pointer; bounds
/// are the caller's.
int32_t coopvecReferenceQuantizedMatMul(const CoopVecQuantMatMulParams *p);

/// The checks of coopvecReferenceQuantizedMatMul alone: COOPVEC_OK if the
/// parameters describe a product it computes.
int32_t coopvecQuantizedMatMulCheck(const CoopVecQuantMatMulParams *p);

/// The kernels (x86-64: AMX-INT8 tiles, AVX-512 VNNI or AVX2): COOPVEC_OK,
/// or COOPVEC_ERROR_UNSUPPORTED_TYPE where they do not take the parameters
/// (nothing written). Results are bit-identical to the reference's.
int32_t coopvecKernelsQuantizedMatMul(const CoopVecQuantMatMulParams *p);

/// Whether coopvecKernelsQuantizedMatMul computes on AMX tiles at the
/// avx512 kernel level, where the CPU has AMX-INT8 (Intel Sapphire Rapids
/// and later) and the OS grants the tile data: `allow` 1 lets it (the
/// default, unless the environment sets COOPVEC_QUANT_I8=vpdpbusd), 0 keeps
/// it on vpdpbusd, -1 only asks. Returns 1 if calls now use the tiles. Both
/// give the same results to the bit.
int32_t coopvecKernelsQuantizedAmx(int32_t allow);

/// Quantizes rows, value by value: the reference semantics of
/// coopvec.quantize_rows. Returns COOPVEC_OK or a CoopVecStatus for an
/// unsupported combination or a null pointer.
int32_t coopvecReferenceQuantizeRows(const CoopVecQuantizeRowsParams *p);

/// The checks of coopvecReferenceQuantizeRows alone.
int32_t coopvecQuantizeRowsCheck(const CoopVecQuantizeRowsParams *p);

/// Quantizes rows with AVX-512 or AVX2 (16 or 8 values per step, blocks of
/// rows in parallel): COOPVEC_OK, the reference's status for parameters it
/// rejects, or COOPVEC_ERROR_UNSUPPORTED_TYPE at the portable kernel level
/// (nothing written). Bit-identical to coopvecReferenceQuantizeRows.
int32_t coopvecKernelsQuantizeRows(const CoopVecQuantizeRowsParams *p);

#ifdef __cplusplus
} // extern "C"
#endif

#endif // LINALGCOOP_RUNTIME_QUANTIZED_H
