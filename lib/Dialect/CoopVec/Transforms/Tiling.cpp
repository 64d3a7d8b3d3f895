//===- Tiling.cpp - coopvec.batch_matvec to the tile level ----------------===//
//
// --coopvec-tile: one batch_matvec becomes tile_pack + a loop nest over
// (row tiles, batch tiles, K tiles) around coopvec.tile_mma. Everything
// around the tile op is upstream vector/scf/memref/arith, so a target only
// has to map tile_pack and tile_mma.
//
//===----------------------------------------------------------------------===//

#include "LinAlgCoop/Dialect/CoopVec/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/Support/MathExtras.h"

#include <limits>

namespace mlir::coopvec {
#define GEN_PASS_DEF_COOPVECTILE
#include "LinAlgCoop/Dialect/CoopVec/Transforms/Passes.h.inc"
} // namespace mlir::coopvec

using namespace mlir;
using namespace mlir::coopvec;

namespace {

bool isIntMatrix(InterpKind kind) {
  return kind == InterpKind::I8 || kind == InterpKind::U8 ||
         kind == InterpKind::I4 || kind == InterpKind::U4;
}
bool isFloatMatrix(InterpKind kind) {
  return kind == InterpKind::F16 || kind == InterpKind::F32 ||
         kind == InterpKind::BF16;
}
bool isPackedInput(InterpKind kind) {
  return kind == InterpKind::PackedS8x32 || kind == InterpKind::PackedU8x32;
}

/// What one tiled batch_matvec is made of, worked out once.
struct TiledForm {
  bool integer;
  InterpKind input;
  Type aType, bType, accType;
  /// The tiles' fidelity (no packer settings), for a fidelity product.
  MathFidelityAttr fidelity = {};
  /// For a fidelity product whose packer converts or accumulates: the
  /// clause of the tile_pack_dst after each K block (no k_block), and the
  /// K tiles per block (all of them without k_block).
  MathFidelityAttr packer = {};
  int64_t tilesPerBlock = 0;
};

FailureOr<TiledForm> classify(BatchMatVecOp op, TileShape shape,
                              std::string &why) {
  llvm::raw_string_ostream os(why);
  if (shape.m < 1 || shape.n < 1 || shape.k < 1) {
    os << "tile sizes must be positive";
    return failure();
  }
  if (op.isQuantized()) {
    os << "the quantized form (zero points, grouped scales, reductions) has "
          "no tiled form";
    return failure();
  }
  if (op.getInputExponents()) {
    os << "a " << op.getInputInterp().getName()
       << " input has no tiled form (its rows are stored bytes with shared "
          "exponents, not tile elements)";
    return failure();
  }
  MLIRContext *ctx = op.getContext();
  if (MathFidelityAttr fidelity = op.getFidelityAttr()) {
    // Each tile_mma with fidelity is one matrix-unit step onto Dst, and a
    // chain of them over the K tiles of a K block, from a zero Dst, is the
    // untiled op's Dst block. A packer that converts or accumulates (a pack
    // format other than Dst's, l1_acc, and so k_block and a bias) adds a
    // tile_pack_dst per block, which carries the L1 values.
    if (op.getMatrixDesc().isBlockScaled()) {
      os << "a " << op.getMatrixDesc().getInterpretation().getName()
         << " matrix has no tiled form (tile_pack takes no block scales)";
      return failure();
    }
    if (shape.k % 32) {
      os << "math fidelity needs tile-k to be a multiple of 32 (the matrix "
            "unit's K tile), not "
         << shape.k;
      return failure();
    }
    int64_t k = op.getMatrixDesc().getCols();
    int64_t kBlock = fidelity.getKBlock();
    if (kBlock && kBlock < k && kBlock % shape.k) {
      os << "math fidelity with k_block = " << kBlock
         << " needs tile-k to divide it (a K tile would straddle two L1 "
            "blocks), not "
         << shape.k;
      return failure();
    }
    // The verifier has made the input interpretation the matrix's, BF16 or
    // F32, the inputs floats and the results f32.
    Builder b(ctx);
    MatrixDescAttr desc = op.getMatrixDesc();
    Type src = desc.getInterpretation().getKind() == InterpKind::BF16
                   ? Type(b.getBF16Type())
                   : Type(b.getF32Type());
    TiledForm form{false,
                   op.getInputInterp().getKind(),
                   TilePackOp::getDecodedType(desc),
                   src,
                   b.getF32Type(),
                   MathFidelityAttr::get(ctx, fidelity.getFidelity(),
                                         fidelity.getDst(), Type(), false, 0)};
    if (fidelity.getL1Acc() || fidelity.getL1Format() != fidelity.getDst()) {
      form.packer =
          MathFidelityAttr::get(ctx, fidelity.getFidelity(), fidelity.getDst(),
                                fidelity.getPack(), fidelity.getL1Acc(), 0);
      int64_t colTiles = llvm::divideCeil(k, shape.k);
      form.tilesPerBlock = kBlock && kBlock < k ? kBlock / shape.k : colTiles;
    }
    return form;
  }
  MatrixDescAttr desc = op.getMatrixDesc();
  InterpKind matrix = desc.getInterpretation().getKind();
  InterpKind input = op.getInputInterp().getKind();
  Type inElt = op.getInputs().getType().getElementType();
  Type outElt = op.getOutputs().getType().getElementType();
  std::optional<InterpKind> bias;
  if (op.getBias())
    bias = op.getBiasInterpAttr().getKind();
  auto combination = [&]() -> llvm::raw_ostream & {
    return os << "no tiled form for a " << desc.getInterpretation().getName()
              << " matrix with " << op.getInputInterp().getName() << " "
              << inElt << " inputs";
  };
  if (op.getOutputUnsigned()) {
    os << "an unsigned result saturates; it has no tiled form";
    return failure();
  }
  Builder b(ctx);
  if (isIntMatrix(matrix)) {
    bool ok = false;
    if (isPackedInput(input))
      ok = inElt.isInteger(32);
    else if (input == InterpKind::I8 || input == InterpKind::U8)
      ok = inElt.isInteger(8) || inElt.isInteger(32) || inElt.isF32() ||
           inElt.isF16();
    if (!ok) {
      combination();
      return failure();
    }
    if (isPackedInput(input) && shape.k % 4) {
      os << "packed inputs need tile-k to be a multiple of 4, not "
         << shape.k;
      return failure();
    }
    if (bias && *bias != InterpKind::I32) {
      combination() << " and a " << op.getBiasInterpAttr().getName()
                    << " bias";
      return failure();
    }
    if (!outElt.isInteger(32) && !outElt.isF32()) {
      combination() << " and " << outElt << " results";
      return failure();
    }
    // The tiles sum in i32: K must keep every exact sum of 8-bit products
    // inside it.
    int64_t maxW = desc.getInterpretation().getIsUnsigned() ? 255 : 128;
    int64_t maxX = input == InterpKind::U8 || input == InterpKind::PackedU8x32
                       ? 255
                       : 128;
    if (desc.getCols() * maxW * maxX > INT32_MAX) {
      os << "K = " << desc.getCols()
         << " could take the i32 sums of the tiles out of range";
      return failure();
    }
    return TiledForm{true, input, b.getI8Type(), b.getI8Type(),
                     b.getI32Type()};
  }
  if (isFloatMatrix(matrix)) {
    bool ok = (input == InterpKind::F32 || input == InterpKind::F16) &&
              (inElt.isF32() || inElt.isF16());
    if (!ok) {
      combination();
      return failure();
    }
    if (bias && *bias != InterpKind::F32 && *bias != InterpKind::F16) {
      combination() << " and a " << op.getBiasInterpAttr().getName()
                    << " bias";
      return failure();
    }
    if (!outElt.isF32() && !outElt.isF16()) {
      combination() << " and " << outElt << " results";
      return failure();
    }
    Type bType = input == InterpKind::F16 ? Type(b.getF16Type())
                                          : Type(b.getF32Type());
    return TiledForm{false, input, TilePackOp::getDecodedType(desc), bType,
                     b.getF32Type()};
  }
  combination();
  return failure();
}

Value constIndex(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

/// A masked read of `type` from `source` at `indices` (masked-off and
/// out-of-bounds lanes are `pad`, never accessed).
Value maskedRead(OpBuilder &b, Location loc, VectorType type, Value source,
                 ValueRange indices, Value pad, Value mask) {
  auto map = AffineMap::getMinorIdentityMap(
      cast<MemRefType>(source.getType()).getRank(), type.getRank(),
      b.getContext());
  SmallVector<bool> inBounds(type.getRank(), false);
  return vector::TransferReadOp::create(b, loc, type, source, indices,
                                        AffineMapAttr::get(map), pad, mask,
                                        b.getBoolArrayAttr(inBounds));
}

/// The masked write matching maskedRead.
void maskedWrite(OpBuilder &b, Location loc, Value vector, Value dest,
                 ValueRange indices, Value mask) {
  auto type = cast<VectorType>(vector.getType());
  auto map = AffineMap::getMinorIdentityMap(
      cast<MemRefType>(dest.getType()).getRank(), type.getRank(),
      b.getContext());
  SmallVector<bool> inBounds(type.getRank(), false);
  vector::TransferWriteOp::create(b, loc, Type(), vector, dest, indices,
                                  AffineMapAttr::get(map), mask,
                                  b.getBoolArrayAttr(inBounds));
}

/// A float `x` read as I8/U8: NaN to 0, round to nearest even, saturate
/// (the rule of Kernels.h for (F32, I8|U8) inputs), then the byte.
Value floatToByte(OpBuilder &b, Location loc, Value x, bool toUnsigned) {
  auto type = cast<VectorType>(x.getType());
  auto f32Type = type.clone(b.getF32Type());
  if (!type.getElementType().isF32())
    x = arith::ExtFOp::create(b, loc, f32Type, x);
  auto splat = [&](double v) {
    return arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(f32Type, b.getF32FloatAttr(v)));
  };
  Value isNan =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, x, x);
  x = arith::SelectOp::create(b, loc, isNan, splat(0.0), x);
  x = math::RoundEvenOp::create(b, loc, x);
  x = arith::MaximumFOp::create(b, loc, x, splat(toUnsigned ? 0.0 : -128.0));
  x = arith::MinimumFOp::create(b, loc, x, splat(toUnsigned ? 255.0 : 127.0));
  Value wide = arith::FPToSIOp::create(b, loc, type.clone(b.getI32Type()), x);
  return arith::TruncIOp::create(b, loc, type.clone(b.getI8Type()), wide);
}

/// An i32 `x` (unsigned where `fromUnsigned`) read as I8/U8: saturated.
Value intToByte(OpBuilder &b, Location loc, Value x, bool fromUnsigned,
                bool toUnsigned) {
  auto type = cast<VectorType>(x.getType());
  auto splat = [&](int64_t v) {
    return arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(type, b.getI32IntegerAttr(v)));
  };
  int64_t hi = toUnsigned ? 255 : 127;
  if (fromUnsigned) {
    x = arith::MinUIOp::create(b, loc, x, splat(hi));
  } else {
    x = arith::MaxSIOp::create(b, loc, x, splat(toUnsigned ? 0 : -128));
    x = arith::MinSIOp::create(b, loc, x, splat(hi));
  }
  return arith::TruncIOp::create(b, loc, type.clone(b.getI8Type()), x);
}

/// f32 `x` truncated to `eltType` (f16, bf16) by the DXIL rule of the
/// runtime (Numerics.h, coopvecDxilConvert): RTNE, a finite value beyond
/// the range gives +-MAX_NORM, +-inf and NaN stay. arith.truncf alone
/// overflows to inf.
Value truncFloatSaturating(OpBuilder &b, Location loc, Value x, Type eltType) {
  auto type = cast<VectorType>(x.getType());
  auto narrow = type.clone(eltType);
  if (!eltType.isF16())
    return arith::TruncFOp::create(b, loc, narrow, x);
  auto splat = [&](double v) {
    return arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(type, b.getF32FloatAttr(v)));
  };
  // Clamping to +-65504 first leaves every in-range rounding unchanged
  // (65504 is the largest f16); NaN passes minimumf/maximumf unchanged.
  Value clamped = arith::MaximumFOp::create(
      b, loc, arith::MinimumFOp::create(b, loc, x, splat(65504.0)),
      splat(-65504.0));
  Value magnitude = math::AbsFOp::create(b, loc, x);
  Value isInf = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ,
                                      magnitude,
                                      splat(std::numeric_limits<double>::infinity()));
  Value kept = arith::SelectOp::create(b, loc, isInf, x, clamped);
  return arith::TruncFOp::create(b, loc, narrow, kept);
}

/// A float input tile as the Wormhole model reads its L1 values (the CPU
/// runtime's readAsInterp: coopvecConvert to the interpretation, RN, no
/// saturation): extended to f32, NaN as the quiet NaN of its sign (the
/// Src unpacker reads a NaN's mantissa as significand bits), then for BF16
/// rounded to nearest even in integer arithmetic, subnormals included
/// (f32 values just below 2^-126 round up to it, a normal the unpacker
/// keeps; arith.truncf may become vcvtneps2bf16, which reads them as 0).
Value fidelityInput(OpBuilder &b, Location loc, Value x, Type srcType) {
  auto type = cast<VectorType>(x.getType());
  auto f32Type = type.clone(b.getF32Type());
  if (!type.getElementType().isF32())
    x = arith::ExtFOp::create(b, loc, f32Type, x);
  auto i32Type = type.clone(b.getI32Type());
  auto splat = [&](int64_t v) {
    return arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(i32Type, b.getI32IntegerAttr(v)));
  };
  Value bits = arith::BitcastOp::create(b, loc, i32Type, x);
  Value sign = arith::AndIOp::create(b, loc, bits, splat(INT32_MIN));
  Value quiet = arith::BitcastOp::create(
      b, loc, f32Type, arith::OrIOp::create(b, loc, sign, splat(0x7FC00000)));
  Value isNan = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, x, x);
  x = arith::SelectOp::create(b, loc, isNan, quiet, x);
  if (srcType.isF32())
    return x;
  // (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16: ties to even, overflow to
  // inf, the canonical NaN stays 0x7FC0 (0xFFC0).
  bits = arith::BitcastOp::create(b, loc, i32Type, x);
  Value odd = arith::AndIOp::create(
      b, loc, arith::ShRUIOp::create(b, loc, bits, splat(16)), splat(1));
  Value rounded = arith::ShRUIOp::create(
      b, loc,
      arith::AddIOp::create(b, loc, bits,
                            arith::AddIOp::create(b, loc, odd, splat(0x7FFF))),
      splat(16));
  Value half =
      arith::TruncIOp::create(b, loc, type.clone(b.getI16Type()), rounded);
  return arith::BitcastOp::create(b, loc, type.clone(srcType), half);
}

/// Input tile `x` (tn x columns, as read) to the rhs element type.
Value convertInput(OpBuilder &b, Location loc, Value x, BatchMatVecOp op,
                   const TiledForm &form, TileShape shape) {
  auto type = cast<VectorType>(x.getType());
  Type elt = type.getElementType();
  if (form.fidelity)
    return fidelityInput(b, loc, x, form.bType);
  if (form.integer) {
    if (isPackedInput(form.input))
      return vector::BitCastOp::create(
          b, loc, VectorType::get({shape.n, shape.k}, b.getI8Type()), x);
    bool toUnsigned = form.input == InterpKind::U8;
    if (elt.isInteger(8))
      return x;
    if (elt.isInteger(32))
      return intToByte(b, loc, x, op.getInputUnsigned(), toUnsigned);
    return floatToByte(b, loc, x, toUnsigned);
  }
  if (elt == form.bType)
    return x;
  if (form.bType.isF32())
    return arith::ExtFOp::create(b, loc, type.clone(form.bType), x);
  // f32 read as F16: rounded to nearest even first.
  return truncFloatSaturating(b, loc, x, form.bType);
}

} // namespace

std::string mlir::coopvec::checkTileable(BatchMatVecOp op, TileShape shape) {
  std::string why;
  (void)classify(op, shape, why);
  return why;
}

LogicalResult mlir::coopvec::tileBatchMatVec(RewriterBase &rewriter,
                                             BatchMatVecOp op,
                                             TileShape shape) {
  std::string why;
  FailureOr<TiledForm> maybeForm = classify(op, shape, why);
  if (failed(maybeForm))
    return failure();
  const TiledForm &form = *maybeForm;
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(op);
  Location loc = op.getLoc();
  MatrixDescAttr desc = op.getMatrixDesc();
  int64_t m = desc.getRows(), k = desc.getCols();
  int64_t rowTiles = llvm::divideCeil(m, shape.m);
  int64_t colTiles = llvm::divideCeil(k, shape.k);
  bool packed = isPackedInput(form.input);
  // Input columns of a tile and of a row: words when packed.
  int64_t tileCols = packed ? shape.k / 4 : shape.k;
  int64_t rowCols = packed ? llvm::divideCeil(k, 4) : k;

  Value inputs = op.getInputs(), outputs = op.getOutputs();
  MemRefType inType = op.getInputs().getType();
  MemRefType outType = op.getOutputs().getType();
  Value c0 = constIndex(rewriter, loc, 0), c1 = constIndex(rewriter, loc, 1);

  // 1. The matrix, decoded into tiles.
  auto tilesType = MemRefType::get({rowTiles, colTiles, shape.m, shape.k},
                                   form.aType);
  Value tiles = memref::AllocOp::create(rewriter, loc, tilesType,
                                        rewriter.getI64IntegerAttr(64));
  // An optimal layout ignores a batch_matvec's stride (which may be given);
  // tile_pack takes none for it.
  TilePackOp::create(rewriter, loc, op.getMatrix(), op.getMatrixOffset(),
                     desc.isStrided() ? op.getMatrixStride() : Value(), desc,
                     tiles);

  // 2. The loop nest.
  Value batch = memref::DimOp::create(rewriter, loc, inputs, c0);
  auto rowLoop = scf::ForOp::create(rewriter, loc, c0,
                                    constIndex(rewriter, loc, rowTiles), c1);
  rewriter.setInsertionPointToStart(rowLoop.getBody());
  Value rowTile = rowLoop.getInductionVar();
  Value m0 = arith::MulIOp::create(rewriter, loc, rowTile,
                                   constIndex(rewriter, loc, shape.m));
  Value rowsLeft =
      arith::SubIOp::create(rewriter, loc, constIndex(rewriter, loc, m), m0);

  // The bias of the row tile, as the accumulator type, read from its bytes
  // (little-endian, as every buffer of the dialect) and masked at row M.
  Value biasTile;
  if (op.getBias()) {
    InterpretationAttr biasInterp = op.getBiasInterpAttr();
    int64_t bytes = biasInterp.getStorageBits() / 8;
    Type biasType = biasInterp.getElementType();
    Value start = arith::AddIOp::create(
        rewriter, loc, op.getBiasOffset(),
        arith::MulIOp::create(rewriter, loc, m0,
                              constIndex(rewriter, loc, bytes)));
    auto byteVec = VectorType::get({shape.m * bytes}, rewriter.getI8Type());
    Value mask = vector::CreateMaskOp::create(
        rewriter, loc, byteVec.clone(rewriter.getI1Type()),
        ValueRange{arith::MulIOp::create(rewriter, loc, rowsLeft,
                                         constIndex(rewriter, loc, bytes))});
    Value pad = arith::ConstantOp::create(rewriter, loc,
                                          rewriter.getI8IntegerAttr(0));
    Value raw = maskedRead(rewriter, loc, byteVec, op.getBias(),
                           ValueRange{start}, pad, mask);
    if (form.packer && biasType.isBF16()) {
      // The L1 start as the packer reads it: the bf16 bits widened (an
      // arith.extf may quiet a NaN pattern, which the packer reads as a
      // magnitude of the 2^128 binade).
      auto half = VectorType::get({shape.m}, rewriter.getI16Type());
      auto word = VectorType::get({shape.m}, rewriter.getI32Type());
      Value bits = arith::ExtUIOp::create(
          rewriter, loc, word,
          vector::BitCastOp::create(rewriter, loc, half, raw));
      Value sixteen = arith::ConstantOp::create(
          rewriter, loc,
          DenseElementsAttr::get(word,
                                 rewriter.getI32IntegerAttr(16).getValue()));
      biasTile = arith::BitcastOp::create(
          rewriter, loc, VectorType::get({shape.m}, form.accType),
          arith::ShLIOp::create(rewriter, loc, bits, sixteen));
    } else {
      biasTile = vector::BitCastOp::create(
          rewriter, loc, VectorType::get({shape.m}, biasType), raw);
      if (biasType != form.accType)
        biasTile = arith::ExtFOp::create(
            rewriter, loc, VectorType::get({shape.m}, form.accType), biasTile);
    }
  }

  auto batchLoop = scf::ForOp::create(rewriter, loc, c0, batch,
                                      constIndex(rewriter, loc, shape.n));
  rewriter.setInsertionPointToStart(batchLoop.getBody());
  Value n0 = batchLoop.getInductionVar();
  Value vectorsLeft = arith::SubIOp::create(rewriter, loc, batch, n0);
  auto accType = VectorType::get({shape.m, shape.n}, form.accType);
  Value zero = arith::ConstantOp::create(rewriter, loc,
                                         rewriter.getZeroAttr(accType));
  // The chain of tile_mma over the K tiles [lb, ub), from a zero
  // accumulator (Dst, with fidelity).
  auto kChain = [&](Value lb, Value ub) -> Value {
    auto kLoop =
        scf::ForOp::create(rewriter, loc, lb, ub, c1, ValueRange{zero});
    OpBuilder::InsertionGuard kGuard(rewriter);
    rewriter.setInsertionPointToStart(kLoop.getBody());
    Value kTile = kLoop.getInductionVar();
    Value acc = kLoop.getRegionIterArgs()[0];
    Value aPad = arith::ConstantOp::create(rewriter, loc,
                                           rewriter.getZeroAttr(form.aType));
    Value a = vector::TransferReadOp::create(
        rewriter, loc, VectorType::get({shape.m, shape.k}, form.aType), tiles,
        ValueRange{rowTile, kTile, c0, c0}, aPad,
        ArrayRef<bool>{true, true});
    // The input tile: tn rows of the batch, masked past the last vector and
    // past the row's K elements (words), read as stored and then converted.
    Value col0 = arith::MulIOp::create(rewriter, loc, kTile,
                                       constIndex(rewriter, loc, tileCols));
    Value colsLeft = arith::SubIOp::create(
        rewriter, loc, constIndex(rewriter, loc, rowCols), col0);
    auto xType = VectorType::get({shape.n, tileCols}, inType.getElementType());
    Value xMask = vector::CreateMaskOp::create(
        rewriter, loc, xType.clone(rewriter.getI1Type()),
        ValueRange{vectorsLeft, colsLeft});
    Value xPad = arith::ConstantOp::create(
        rewriter, loc, rewriter.getZeroAttr(inType.getElementType()));
    Value x = maskedRead(rewriter, loc, xType, inputs, ValueRange{n0, col0},
                         xPad, xMask);
    x = convertInput(rewriter, loc, x, op, form, shape);
    Value bTile = vector::TransposeOp::create(rewriter, loc, x,
                                              ArrayRef<int64_t>{1, 0});
    bool lhsUnsigned = desc.getInterpretation().getIsUnsigned();
    bool rhsUnsigned = form.input == InterpKind::U8 ||
                       form.input == InterpKind::PackedU8x32;
    auto mma = TileMmaOp::create(rewriter, loc, accType, a, lhsUnsigned, bTile,
                                 rhsUnsigned, acc, form.fidelity);
    scf::YieldOp::create(rewriter, loc, mma.getResult());
    return kLoop.getResult(0);
  };
  Value product;
  if (!form.packer) {
    product = kChain(c0, constIndex(rewriter, loc, colTiles));
  } else {
    // Math fidelity with a packer that converts or accumulates: per K block
    // a chain from a zero Dst, then tile_pack_dst onto the L1 values, which
    // start from the bias (the verifier allows one only with l1_acc).
    Value l1 = zero;
    if (biasTile)
      l1 = vector::TransposeOp::create(
          rewriter, loc,
          vector::BroadcastOp::create(
              rewriter, loc, VectorType::get({shape.n, shape.m}, form.accType),
              biasTile),
          ArrayRef<int64_t>{1, 0});
    bool accumulate = form.packer.getL1Acc();
    auto packBlock = [&](Value dst, Value l1Values) -> Value {
      return TilePackDstOp::create(rewriter, loc, accType, dst,
                                   accumulate ? l1Values : Value(),
                                   form.packer);
    };
    int64_t blocks = llvm::divideCeil(colTiles, form.tilesPerBlock);
    if (blocks == 1) {
      product = packBlock(kChain(c0, constIndex(rewriter, loc, colTiles)), l1);
    } else {
      auto blockLoop = scf::ForOp::create(rewriter, loc, c0,
                                          constIndex(rewriter, loc, blocks), c1,
                                          ValueRange{l1});
      OpBuilder::InsertionGuard blockGuard(rewriter);
      rewriter.setInsertionPointToStart(blockLoop.getBody());
      Value per = constIndex(rewriter, loc, form.tilesPerBlock);
      Value lb = arith::MulIOp::create(rewriter, loc,
                                       blockLoop.getInductionVar(), per);
      Value ub = arith::MinUIOp::create(
          rewriter, loc, arith::AddIOp::create(rewriter, loc, lb, per),
          constIndex(rewriter, loc, colTiles));
      scf::YieldOp::create(
          rewriter, loc,
          packBlock(kChain(lb, ub), blockLoop.getRegionIterArgs()[0]));
      product = blockLoop.getResult(0);
    }
  }

  // 3. Bias, one conversion to the output type, the masked store of the
  // tn x tm block of results. With a packer the bias was the L1 start.
  if (form.packer)
    biasTile = Value();
  Value y = vector::TransposeOp::create(rewriter, loc, product,
                                        ArrayRef<int64_t>{1, 0});
  auto yType = cast<VectorType>(y.getType());
  Type outElt = outType.getElementType();
  if (biasTile && form.integer) {
    // The i32 sums are exact (checkTileable bounds K); sum + bias is taken
    // in i64, then saturated to an i32 result or rounded once to an f32
    // one, as the reference does.
    auto wide = yType.clone(rewriter.getI64Type());
    Value bias = vector::BroadcastOp::create(rewriter, loc, yType, biasTile);
    y = arith::AddIOp::create(
        rewriter, loc, arith::ExtSIOp::create(rewriter, loc, wide, y),
        arith::ExtSIOp::create(rewriter, loc, wide, bias));
    if (outElt.isInteger(32)) {
      auto bound = [&](int64_t v) {
        return arith::ConstantOp::create(
            rewriter, loc, DenseElementsAttr::get(wide, rewriter.getI64IntegerAttr(v).getValue()));
      };
      y = arith::MaxSIOp::create(rewriter, loc, y, bound(INT32_MIN));
      y = arith::MinSIOp::create(rewriter, loc, y, bound(INT32_MAX));
      y = arith::TruncIOp::create(rewriter, loc, yType, y);
    } else {
      y = arith::SIToFPOp::create(rewriter, loc, yType.clone(outElt), y);
    }
  } else {
    if (biasTile) {
      Value bias = vector::BroadcastOp::create(rewriter, loc, yType, biasTile);
      y = form.integer ? Value(arith::AddIOp::create(rewriter, loc, y, bias))
                       : Value(arith::AddFOp::create(rewriter, loc, y, bias));
    }
      if (outElt != form.accType) {
      auto outVec = yType.clone(outElt);
      y = form.integer
              ? Value(arith::SIToFPOp::create(rewriter, loc, outVec, y))
              : truncFloatSaturating(rewriter, loc, y, outElt);
    }
  }
  Value yMask = vector::CreateMaskOp::create(
      rewriter, loc, yType.clone(rewriter.getI1Type()),
      ValueRange{vectorsLeft, rowsLeft});
  maskedWrite(rewriter, loc, y, outputs, ValueRange{n0, m0}, yMask);

  rewriter.setInsertionPointAfter(rowLoop);
  memref::DeallocOp::create(rewriter, loc, tiles);
  rewriter.eraseOp(op);
  return success();
}

namespace {
struct CoopVecTilePass
    : public coopvec::impl::CoopVecTileBase<CoopVecTilePass> {
  using Base::Base;

  void runOnOperation() override {
    TileShape optionShape{tileM, tileN, tileK};
    SmallVector<BatchMatVecOp> ops;
    getOperation()->walk([&](BatchMatVecOp op) { ops.push_back(op); });
    IRRewriter rewriter(&getContext());
    for (BatchMatVecOp op : ops) {
      // The module's target decides the tile shape where its profile rows
      // give shapes for the op's types: the first one the op can be tiled
      // with. Otherwise the options do.
      SmallVector<TileShape> candidates;
      if (auto module = op->getParentOfType<ModuleOp>())
        if (ProfileAttr profile = resolveProfile(
                module->getAttr(CoopVecDialect::getProfileAttrName())))
          for (ArrayRef<int64_t> s : getTileShapes(profile, op))
            candidates.push_back(TileShape{s[0], s[1], s[2]});
      bool fromProfile = !candidates.empty();
      if (!fromProfile)
        candidates.push_back(optionShape);
      std::optional<TileShape> shape;
      std::string why;
      for (const TileShape &candidate : candidates) {
        why = checkTileable(op, candidate);
        if (why.empty()) {
          shape = candidate;
          break;
        }
      }
      if (!shape) {
        op.emitRemark() << "not tiled: " << why
                        << (fromProfile ? " (with every tile shape of the "
                                          "target's profile)"
                                        : "");
        continue;
      }
      if (failed(tileBatchMatVec(rewriter, op, *shape))) {
        op.emitError("tiling failed after checkTileable accepted the op");
        return signalPassFailure();
      }
    }
  }
};
} // namespace
