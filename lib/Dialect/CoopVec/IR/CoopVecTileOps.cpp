//===- CoopVecTileOps.cpp - verifiers of the tile-level ops ---------------===//

#include "LinAlgCoop/Dialect/CoopVec/IR/CoopVecOps.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::coopvec;

//===----------------------------------------------------------------------===//
// TilePackOp
//===----------------------------------------------------------------------===//

Type TilePackOp::getDecodedType(MatrixDescAttr desc) {
  InterpretationAttr interp = desc.getInterpretation();
  if (interp.getPacked())
    return {};
  Type type = interp.getElementType();
  // Integers narrower than a byte are widened to one: a tile element is
  // addressable, and the value (and its signedness) is unchanged.
  if (auto intType = dyn_cast<IntegerType>(type))
    return IntegerType::get(type.getContext(),
                            std::max(8u, intType.getWidth()));
  return type;
}

LogicalResult TilePackOp::verify() {
  MatrixDescAttr desc = getMatrixDesc();
  MemRefType packed = getPacked().getType();
  if (packed.getRank() != 4)
    return emitOpError() << "packed buffer must have rank 4 (row tiles, "
                            "column tiles, tile rows, tile columns), not "
                         << packed.getRank();
  ArrayRef<int64_t> shape = packed.getShape();
  int64_t rowTiles = llvm::divideCeil(desc.getRows(), shape[2]);
  int64_t colTiles = llvm::divideCeil(desc.getCols(), shape[3]);
  if (shape[0] != rowTiles || shape[1] != colTiles)
    return emitOpError() << "packed buffer of " << shape[2] << "x" << shape[3]
                         << " tiles of a " << desc.getRows() << "x"
                         << desc.getCols() << " matrix must have " << rowTiles
                         << "x" << colTiles << " of them, not " << shape[0]
                         << "x" << shape[1];
  // Block scales live in a buffer of their own, which tile_pack does not
  // take (nor do the tiles: tile_mma multiplies plain elements).
  if (desc.isBlockScaled())
    return emitOpError() << "does not take block-scaled matrices (only "
                            "coopvec.matvec and coopvec.batch_matvec read "
                            "scales)";
  Type decoded = getDecodedType(desc);
  if (packed.getElementType() != decoded)
    return emitOpError() << "packed buffer elements must be " << decoded
                         << " (the decoded "
                         << desc.getInterpretation().getName() << "), not "
                         << packed.getElementType();
  if (desc.isStrided() != static_cast<bool>(getMatrixStride()))
    return emitOpError() << (desc.isStrided()
                                 ? "a RowMajor or ColumnMajor matrix needs a "
                                   "stride"
                                 : "an optimal layout takes no stride");
  return success();
}

//===----------------------------------------------------------------------===//
// TileMmaOp
//===----------------------------------------------------------------------===//

LogicalResult TileMmaOp::verify() {
  VectorType lhs = getLhs().getType(), rhs = getRhs().getType(),
             acc = getAcc().getType();
  if (lhs.getDimSize(1) != rhs.getDimSize(0))
    return emitOpError() << "lhs has " << lhs.getDimSize(1)
                         << " columns but rhs has " << rhs.getDimSize(0)
                         << " rows";
  if (acc.getDimSize(0) != lhs.getDimSize(0) ||
      acc.getDimSize(1) != rhs.getDimSize(1))
    return emitOpError() << "accumulator must be " << lhs.getDimSize(0) << "x"
                         << rhs.getDimSize(1) << " (lhs rows x rhs columns), "
                         << "not " << acc.getDimSize(0) << "x"
                         << acc.getDimSize(1);
  Type a = lhs.getElementType(), b = rhs.getElementType(),
       c = acc.getElementType();
  auto smallInt = [](Type t) {
    return t.isSignlessInteger() && t.getIntOrFloatBitWidth() <= 16;
  };
  auto smallFloat = [](Type t) {
    return isa<FloatType>(t) && t.getIntOrFloatBitWidth() <= 32;
  };
  if (smallInt(a) && smallInt(b)) {
    if (!c.isSignlessInteger(32))
      return emitOpError() << "integer tiles accumulate in i32, not " << c;
    return success();
  }
  if (smallFloat(a) && smallFloat(b)) {
    if (!c.isF32())
      return emitOpError() << "float tiles accumulate in f32, not " << c;
    if (getLhsUnsigned() || getRhsUnsigned())
      return emitOpError() << "'unsigned' applies to integer tiles only";
    return verifyFidelity();
  }
  return emitOpError() << "operands must both be integers of at most 16 bits "
                          "or both floats of at most 32 bits, not "
                       << a << " and " << b;
}

LogicalResult TileMmaOp::verifyFidelity() {
  MathFidelityAttr fidelity = getFidelityAttr();
  if (!fidelity)
    return success();
  Type a = getLhs().getType().getElementType(),
       b = getRhs().getType().getElementType();
  if (a != b || !(a.isBF16() || a.isF32()))
    return emitOpError() << "math fidelity needs both tiles bf16 or both f32 "
                            "(one Src format), not "
                         << a << " and " << b;
  int64_t k = getLhs().getType().getDimSize(1);
  if (k % 32)
    return emitOpError() << "math fidelity needs K to be a multiple of 32 (the "
                            "matrix unit's tile), not "
                         << k;
  if (fidelity.hasPackerSettings())
    return emitOpError("math fidelity of a tile takes no packer settings "
                       "(pack, l1_acc, k_block): the tile ends in Dst");
  return success();
}

//===----------------------------------------------------------------------===//
// TilePackDstOp
//===----------------------------------------------------------------------===//

LogicalResult TilePackDstOp::verify() {
  return verifyPackerOperands(*this, getFidelity(), getAcc() != nullptr,
                              "the K blocks of a tile are the ops around it");
}
