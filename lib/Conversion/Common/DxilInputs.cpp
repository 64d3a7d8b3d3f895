//===- DxilInputs.cpp - DXIL input conversions in arith -------------------===//

#include "LinAlgCoop/Conversion/DxilInputs.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;

Value mlir::coopvec::dxilInputToByte(OpBuilder &b, Location loc, Value x,
                                     bool signedTarget, bool elementsUnsigned,
                                     function_ref<Value(Value, Value)> addF32,
                                     function_ref<Value(Value, Value)> subF32) {
  Type i32 = b.getI32Type(), i64 = b.getI64Type();
  int64_t lo = signedTarget ? -128 : 0;
  int64_t hi = signedTarget ? 127 : 255;
  if (x.getType().isF32()) {
    auto f32 = [&](double v) {
      return arith::ConstantFloatOp::create(b, loc, b.getF32Type(),
                                            APFloat(float(v)));
    };
    Value bounded = arith::MinimumFOp::create(
        b, loc, arith::MaximumFOp::create(b, loc, x, f32(-1024)), f32(1024));
    Value magic = f32(12582912.0);
    Value rounded = subF32(addF32(bounded, magic), magic);
    Value clamped = arith::MinimumFOp::create(
        b, loc, arith::MaximumFOp::create(b, loc, rounded, f32(lo)), f32(hi));
    Value value = arith::FPToSIOp::create(b, loc, i32, clamped);
    Value isNaN =
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, x, x);
    return arith::SelectOp::create(
        b, loc, isNaN, arith::ConstantIntOp::create(b, loc, i32, 0), value);
  }
  Value wide = elementsUnsigned
                   ? Value(arith::ExtUIOp::create(b, loc, i64, x))
                   : Value(arith::ExtSIOp::create(b, loc, i64, x));
  Value clamped = arith::MinSIOp::create(
      b, loc,
      arith::MaxSIOp::create(b, loc, wide,
                             arith::ConstantIntOp::create(b, loc, i64, lo)),
      arith::ConstantIntOp::create(b, loc, i64, hi));
  return arith::TruncIOp::create(b, loc, i32, clamped);
}
