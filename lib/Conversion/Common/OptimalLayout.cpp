//===- OptimalLayout.cpp - Matrix element addresses in arith --------------===//

#include "LinAlgCoop/Conversion/OptimalLayout.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::coopvec;

namespace {
/// optimalLayoutOffset's builder for arith index arithmetic.
struct IndexArith {
  OpBuilder &b;
  Location loc;
  Value c(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value mul(Value x, Value y) { return arith::MulIOp::create(b, loc, x, y); }
  Value div(Value x, Value y) { return arith::DivUIOp::create(b, loc, x, y); }
  Value rem(Value x, Value y) { return arith::RemUIOp::create(b, loc, x, y); }
};
} // namespace

Value mlir::coopvec::matrixElementByte(OpBuilder &b, Location loc,
                                       MatrixDescAttr desc, Value offset,
                                       Value stride, Value row, Value col,
                                       unsigned bytes, bool nibbles) {
  if (desc.isOptimal()) {
    IndexArith c{b, loc};
    Value r = desc.getTranspose() ? col : row;
    Value s = desc.getTranspose() ? row : col;
    if (nibbles)
      s = c.div(s, c.c(2));
    return arith::AddIOp::create(b, loc, offset,
                                 optimalLayoutOffset(c, desc.getLayout(),
                                                     desc.getStoredUnitCols(),
                                                     bytes, r, s));
  }
  // No transpose in the strided layouts (the verifier's rule).
  if (nibbles)
    col = arith::DivUIOp::create(b, loc, col,
                                 arith::ConstantIndexOp::create(b, loc, 2));
  bool columnMajor = desc.getLayout() == MatrixLayout::ColumnMajor;
  Value major = columnMajor ? col : row;
  Value minor = columnMajor ? row : col;
  Value start = arith::AddIOp::create(
      b, loc, offset, arith::MulIOp::create(b, loc, major, stride));
  if (bytes != 1)
    minor = arith::MulIOp::create(
        b, loc, minor, arith::ConstantIndexOp::create(b, loc, bytes));
  return arith::AddIOp::create(b, loc, start, minor);
}

Value mlir::coopvec::storedNibble(OpBuilder &b, Location loc,
                                  MatrixDescAttr desc, Value byte, Value row,
                                  Value col) {
  Type i32 = b.getI32Type();
  Value stored = desc.getTranspose() ? row : col;
  Value odd = arith::IndexCastUIOp::create(
      b, loc, i32,
      arith::RemUIOp::create(b, loc, stored,
                             arith::ConstantIndexOp::create(b, loc, 2)));
  return arith::ShRUIOp::create(
      b, loc, byte,
      arith::MulIOp::create(b, loc, odd,
                            arith::ConstantIntOp::create(b, loc, i32, 4)));
}
