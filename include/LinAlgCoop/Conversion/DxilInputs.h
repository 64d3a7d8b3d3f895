//===- DxilInputs.h - DXIL input conversions in arith ------------*- C++ -*-===//
//
// How a GPU lowering reads one element of a matvec input vector as an 8-bit
// integer (I8/U8 interpretation) with DXIL's conversion rules, in arith ops
// on scalars: shared by convert-coopvec-to-nvvm and convert-coopvec-to-spirv.
//
//===----------------------------------------------------------------------===//

#ifndef LINALGCOOP_CONVERSION_DXILINPUTS_H
#define LINALGCOOP_CONVERSION_DXILINPUTS_H

#include "mlir/IR/Builders.h"

namespace mlir::coopvec {

/// `x` (an f32, i32 or i16 element) read as I8 (`signedTarget`) or U8, as an
/// i32 holding the exact value: floats round to nearest even (as
/// (x + 1.5 2^23) - 1.5 2^23 after clamping to [-1024, 1024], exact there)
/// and saturate, NaN reads as 0; integers (unsigned when
/// `elementsUnsigned`) saturate. `addF32` and `subF32` build the two f32
/// operations, which must round once each and never fuse.
Value dxilInputToByte(OpBuilder &b, Location loc, Value x, bool signedTarget,
                      bool elementsUnsigned,
                      function_ref<Value(Value, Value)> addF32,
                      function_ref<Value(Value, Value)> subF32);

} // namespace mlir::coopvec

#endif // LINALGCOOP_CONVERSION_DXILINPUTS_H
