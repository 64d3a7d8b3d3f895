//===- QuantizedInKernel.h - Quantized batch_matvec in kernels -*- C++ -*-===//
//
// The quantized form of coopvec.batch_matvec (zero points, grouped scales,
// precomputed reductions) inside a GPU kernel, as integer and f32 loops in
// the reference's order (lib/Runtime/Reference/Quantized.cpp): shared by
// convert-coopvec-to-spirv and convert-coopvec-to-nvvm, which differ only
// in how an f32 product or sum keeps its single rounding (SPIR-V:
// NoContraction; NVPTX: mul.rn/add.rn for arith ops without `contract`).
//
//===----------------------------------------------------------------------===//

#ifndef LINALGCOOP_CONVERSION_QUANTIZEDINKERNEL_H
#define LINALGCOOP_CONVERSION_QUANTIZEDINKERNEL_H

#include "LinAlgCoop/Dialect/CoopVec/IR/CoopVecOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"

#include <string>

namespace mlir::coopvec {

/// What the in-kernel emitters build with: the builder, the location, and
/// constants and types.
struct KernelBuilder {
  OpBuilder &b;
  Location loc;

  Type i8() { return b.getI8Type(); }
  Type i16() { return b.getI16Type(); }
  Type i32() { return b.getI32Type(); }
  Type i64() { return b.getI64Type(); }
  Type f32() { return b.getF32Type(); }
  Value index(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value int32(int64_t v) {
    return arith::ConstantIntOp::create(b, loc, i32(), v);
  }
  Value int64(int64_t v) {
    return arith::ConstantIntOp::create(b, loc, i64(), v);
  }
  Value float32(float v) {
    return arith::ConstantFloatOp::create(b, loc, b.getF32Type(), APFloat(v));
  }
};

/// A 1-D i8 memref with the identity layout (a kernel's byte buffer).
bool isByteBuffer(Value buffer);

/// An f32 op of `x` and `y` rounded once, never fused with another.
using ExactFloatOp =
    function_ref<Value(OpBuilder &b, Location loc, Value x, Value y)>;

/// Why the in-kernel form cannot lower the quantized `op`, or "": its
/// matrix, bias and weight-side buffers must be byte buffers. (Results and
/// input-side memrefs take every element type the verifier allows, bf16
/// included: bf16 elements are read and written as their 16 bits.)
std::string whyQuantizedNotInKernel(BatchMatVecOp op);

/// Replaces the quantized `op` (whyQuantizedNotInKernel(op) == "") with
/// loops over batch rows [0, `rows`): per row and output, per compute group
/// the exact i64 sum, then f32(acc) * sx * sw added in group order with
/// `mulF`/`addF`, the bias, one rounding to the result type (f16 and bf16
/// as the CPU runtime's coopvecConvertF32: nearest even, NaN quieted); i32
/// results the exact total plus the I32 bias, saturated. `rows` is built before
/// `op`.
void emitQuantizedInKernel(BatchMatVecOp op, Value rows, ExactFloatOp mulF,
                           ExactFloatOp addF);

} // namespace mlir::coopvec

#endif // LINALGCOOP_CONVERSION_QUANTIZEDINKERNEL_H
