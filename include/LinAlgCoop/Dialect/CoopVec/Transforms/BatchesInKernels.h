//===- BatchesInKernels.h - batch ops inside GPU kernels ---------*- C++
//-*-===//
//
// What coopvec.batch_matvec and coopvec.mlp mean inside a GPU kernel: the
// thread (invocation) runs the op on every row of its batch, one
// coopvec.matvec per row and layer, which the target's matvec lowering then
// takes with its own rules. Shared by convert-coopvec-to-nvvm,
// convert-coopvec-to-spirv and coopvec-batch-to-gpu (one row per thread).
//
//===----------------------------------------------------------------------===//

#ifndef LINALGCOOP_DIALECT_COOPVEC_TRANSFORMS_BATCHESINKERNELS_H
#define LINALGCOOP_DIALECT_COOPVEC_TRANSFORMS_BATCHESINKERNELS_H

#include "LinAlgCoop/Dialect/CoopVec/IR/CoopVecOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

namespace mlir::coopvec {

/// The `bytes` little-endian bytes of the byte buffer `buffer` from byte
/// `at`, as an integer of 8 * `bytes` bits (byte loads: what every target
/// reads from a byte buffer).
Value loadBytesLittleEndian(OpBuilder &b, Location loc, Value buffer, Value at,
                            unsigned bytes);

/// The f32 at byte `at` of the byte buffer `buffer` (a requant scale),
/// built the way the target reads its byte buffers.
using LoadF32Fn =
    function_ref<Value(OpBuilder &, Location, Value buffer, Value at)>;

/// A LoadF32Fn for any target: the f32 of four little-endian bytes
/// (loadBytesLittleEndian), which needs no alignment of `at`.
Value loadF32Bytes(OpBuilder &b, Location loc, Value buffer, Value at);

/// The coopvec.matvec that multiplies one row `row` (a vector, with its
/// block-float `exponents` or null) of the non-quantized batch `op`, built
/// at `b`'s insertion point; `buffers` maps the op's buffers to the ones
/// the matvec reads (device copies), if given.
Value createRowMatVec(OpBuilder &b, BatchMatVecOp op, Value row,
                      Value exponents, const IRMapping *buffers = nullptr);

/// Rewrites the non-quantized coopvec.batch_matvec `op` into a loop over
/// rows [0, `rows`) of its batch: vector.load of the row, coopvec.matvec,
/// vector.store of the result (a block-float row's exponents loaded beside
/// it). `rows` is built before `op`.
void expandBatchInKernel(BatchMatVecOp op, Value rows);

/// The chain of `op`'s layers on one row `row` (a vector of the first
/// layer's K f32), in the CPU runtime's order (coopvecMlpForward), built at
/// `b`'s insertion point; returns the result row (the last layer's M f32):
///   * float networks (F32 or F16 weights): layer inputs read as F32, the
///     F32 bias added in f32, ReLU as `x > 0 ? x : 0` (NaN gives 0); BF16
///     weights the same with the inputs read as BF16 (the row and every
///     activation rounded to bf16 by the DXIL rule, as coopvec.mlp says);
///   * I8 networks: the row times `input_scale` in f32, read as I8; each
///     layer's exact i32 sum plus its I32 bias rounded once to f32 (an
///     f32-result matvec), ReLU, times the row's requant scale in f32; a
///     hidden layer's values are read by the next as U8 after a ReLU, else
///     as I8 (the DXIL rule: nearest even, saturated, NaN 0, as the CPU's
///     floatToU8/floatToS8), the last layer's are the results;
///   * `exp` on the results (math.exp: the target's exp, within its
///     precision of the CPU's glibc expf).
/// Every network expands (a BF16 layer is a matvec of a BF16 matrix reading
/// BF16 inputs, which the NVVM and SPIR-V lowerings take). `buffers` maps
/// the op's buffers to the ones the chain reads (device copies), if given.
Value emitMlpRow(OpBuilder &b, MLPOp op, Value row, LoadF32Fn loadF32,
                 const IRMapping *buffers = nullptr);

/// Rewrites `op` (in a kernel) into a loop over rows [0, `rows`) of its
/// batch, each row through emitMlpRow. `rows` is built before `op`.
void expandMlpInKernel(MLPOp op, Value rows, LoadF32Fn loadF32);

} // namespace mlir::coopvec

#endif // LINALGCOOP_DIALECT_COOPVEC_TRANSFORMS_BATCHESINKERNELS_H
