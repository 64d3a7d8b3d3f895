//===- CoopVecToRISCV.cpp - int8 matrix products as vqmacc C ---------------===//
//
// func.func -> emitc.func (memrefs as pointer + first dimension) and
// coopvec.batch_matvec -> C loops that pack 4x4 tiles and run Nuclei's
// xl.vqmacc* intrinsics over them. The instruction's semantics, operand
// roles and LMUL pairings: docs/RISCV.md.
//
//===----------------------------------------------------------------------===//

#include "LinAlgCoop/Conversion/CoopVecToRISCV/CoopVecToRISCV.h"

#include "MatVecPlan.h"

#include "LinAlgCoop/Dialect/CoopVec/IR/CoopVecOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/EmitC/IR/EmitC.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

#include <functional>

namespace mlir::coopvec {
#define GEN_PASS_DEF_CONVERTCOOPVECTORISCV
#include "LinAlgCoop/Conversion/Passes.h.inc"
} // namespace mlir::coopvec

using namespace mlir;
using namespace mlir::coopvec;
using namespace mlir::coopvec::riscv;

namespace {

constexpr int64_t kTile = 4; // xl.vqmacc 4x4x4

} // namespace

FailureOr<MatVecPlan>
mlir::coopvec::riscv::planMatVec(BatchMatVecOp op, std::string &why) {
  MatrixDescAttr desc = op.getMatrixDesc();
  MatVecPlan p;
  InterpretationAttr mi = desc.getInterpretation();
  auto isByte = [](InterpretationAttr i) {
    return i && !i.getPacked() && i.getElementType().isInteger(8);
  };
  if (op.isQuantized() || op.getScales()) {
    why = "quantized and block-scaled products are not lowered to RISC-V yet";
    return failure();
  }
  if (!isByte(mi)) {
    why = "the RISC-V vqmacc lowering takes I8 and U8 matrices";
    return failure();
  }
  InterpretationAttr ii = op.getInputInterp();
  if (!ii || !ii.getElementType().isInteger(8)) {
    why = "the RISC-V vqmacc lowering takes I8, U8, PackedS8x32 and "
          "PackedU8x32 input interpretations";
    return failure();
  }
  auto inType = cast<MemRefType>(op.getInputs().getType());
  auto outType = cast<MemRefType>(op.getOutputs().getType());
  if (!inType.getElementType().isInteger(32) ||
      !outType.getElementType().isInteger(32) || op.getOutputUnsigned()) {
    why = "the RISC-V vqmacc lowering takes i32 inputs and signed i32 results";
    return failure();
  }
  if (!inType.getLayout().isIdentity() || !outType.getLayout().isIdentity()) {
    why = "the RISC-V lowering takes contiguous input and output batches";
    return failure();
  }
  if (desc.getTranspose() || (desc.getLayout() != MatrixLayout::RowMajor &&
                              desc.getLayout() != MatrixLayout::ColumnMajor)) {
    why = "the RISC-V vqmacc lowering takes RowMajor and ColumnMajor "
          "matrices, not transposed";
    return failure();
  }
  std::optional<int64_t> offset = getConstantIntValue(op.getMatrixOffset());
  std::optional<int64_t> stride =
      op.getMatrixStride() ? getConstantIntValue(op.getMatrixStride())
                           : std::nullopt;
  if (!offset || !stride) {
    why = "the RISC-V lowering needs a constant matrix offset and stride";
    return failure();
  }
  p.m = desc.getRows();
  p.k = desc.getCols();
  p.matrixOffset = *offset;
  bool rowMajor = desc.getLayout() == MatrixLayout::RowMajor;
  p.rowStep = rowMajor ? *stride : 1;
  p.colStep = rowMajor ? 1 : *stride;
  p.footprint = (p.m - 1) * p.rowStep + (p.k - 1) * p.colStep + 1;
  p.matrixUnsigned = mi.getIsUnsigned();
  // The tiles accumulate in int32 (as the instruction does); the sum is the
  // exact one, as on every other target, while K * max|product| fits.
  int64_t maxProduct = (mi.getIsUnsigned() ? 255 : 128) *
                       (ii.getIsUnsigned() ? 255 : 128);
  if (p.k > INT32_MAX / maxProduct) {
    why = llvm::formatv("K = {0} can overflow the int32 accumulators "
                        "(at most {1} for these signs)",
                        p.k, INT32_MAX / maxProduct)
              .str();
    return failure();
  }
  p.inputUnsignedInterp = ii.getIsUnsigned();
  p.inputPacked = ii.getPacked();
  p.inputUnsignedValue = op.getInputUnsigned();
  p.hasBias = static_cast<bool>(op.getBias());
  p.biasOffset = 0;
  if (p.hasBias) {
    InterpretationAttr bi = op.getBiasInterpAttr();
    std::optional<int64_t> boff = getConstantIntValue(op.getBiasOffset());
    if (!bi || bi.getPacked() || !bi.getElementType().isInteger(32) ||
        bi.getIsUnsigned() || !boff) {
      why = "the RISC-V lowering takes an I32 bias at a constant offset";
      return failure();
    }
    p.biasOffset = *boff;
  }
  if (!inType.isDynamicDim(0))
    p.staticBatch = inType.getDimSize(0);
  return p;
}

StringRef mlir::coopvec::riscv::vqmaccName(bool aUnsigned, bool bUnsigned) {
  if (aUnsigned)
    return bUnsigned ? "vqmaccu" : "vqmaccus";
  return bUnsigned ? "vqmaccsu" : "vqmacc";
}

namespace {

/// Builds EmitC statements with int64_t arithmetic.
class CBuilder {
public:
  CBuilder(OpBuilder &b, Location loc)
      : b(b), loc(loc), ctx(b.getContext()), i64(b.getI64Type()) {}

  Type opaque(StringRef name) { return emitc::OpaqueType::get(ctx, name); }
  Type ptr(Type t) { return emitc::PointerType::get(t); }
  Value c(int64_t v) {
    return emitc::ConstantOp::create(b, loc, i64, b.getI64IntegerAttr(v));
  }
  Value add(Value x, Value y) {
    return emitc::AddOp::create(b, loc, x.getType(), x, y);
  }
  Value sub(Value x, Value y) { return emitc::SubOp::create(b, loc, i64, x, y); }
  Value mul(Value x, Value y) { return emitc::MulOp::create(b, loc, i64, x, y); }
  Value div(Value x, Value y) { return emitc::DivOp::create(b, loc, i64, x, y); }
  Value rem(Value x, Value y) { return emitc::RemOp::create(b, loc, i64, x, y); }
  Value cmp(emitc::CmpPredicate pred, Value x, Value y) {
    return emitc::CmpOp::create(b, loc, b.getI1Type(), pred, x, y);
  }
  Value select(Value cond, Value x, Value y) {
    return emitc::ConditionalOp::create(b, loc, x.getType(), cond, x, y);
  }
  Value castTo(Type t, Value v) { return emitc::CastOp::create(b, loc, t, v); }
  Value load(Value pointer, Value index) {
    auto lv = emitc::SubscriptOp::create(
        b, loc, cast<TypedValue<emitc::PointerType>>(pointer), index);
    return emitc::LoadOp::create(b, loc, lv.getType().getValueType(), lv);
  }
  void store(Value pointer, Value index, Value value) {
    auto lv = emitc::SubscriptOp::create(
        b, loc, cast<TypedValue<emitc::PointerType>>(pointer), index);
    emitc::AssignOp::create(b, loc, lv, value);
  }
  Value call(Type result, StringRef callee, ValueRange args,
             ArrayAttr literalArgs = {}) {
    auto op = emitc::CallOpaqueOp::create(
        b, loc, result ? TypeRange{result} : TypeRange{}, callee, args,
        literalArgs);
    return result ? op.getResult(0) : Value();
  }
  /// `for (iv = lb; iv < ub; iv += step)`; the body builder runs inside.
  void loop(Value lb, Value ub, Value step,
            llvm::function_ref<void(Value)> body) {
    auto forOp = emitc::ForOp::create(b, loc, lb, ub, step);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(forOp.getBody()->getTerminator());
    body(forOp.getInductionVar());
  }
  /// `if (cond) coopvec_rv_error(site, what);`
  void check(Value failed, StringRef site, StringRef what) {
    auto ifOp = emitc::IfOp::create(b, loc, failed, /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(b);
    Block &then = ifOp.getThenRegion().front();
    if (then.empty() || !then.back().hasTrait<OpTrait::IsTerminator>()) {
      b.setInsertionPointToEnd(&then);
      emitc::YieldOp::create(b, loc);
    }
    b.setInsertionPoint(then.getTerminator());
    auto quote = [&](StringRef s) {
      std::string q = "\"";
      for (char ch : s)
        q += (ch == '"' || ch == '\\') ? std::string("\\") + ch
                                       : std::string(1, ch);
      return emitc::OpaqueAttr::get(ctx, q + "\"");
    };
    call(Type(), "coopvec_rv_error", {},
         b.getArrayAttr({quote(site), quote(what)}));
  }
  /// A typed buffer of `count` zeroed elements (calloc).
  Value zeroed(Type elt, Value count, int64_t eltBytes) {
    // One element more: calloc(0) may return NULL, which is no error here.
    Value raw = call(ptr(opaque("void")), "calloc",
                     {add(count, c(1)), c(eltBytes)});
    Value p = castTo(ptr(elt), raw);
    check(cmp(emitc::CmpPredicate::eq, raw,
              emitc::LiteralOp::create(b, loc, raw.getType(), "NULL")),
          "calloc", "out of memory");
    return p;
  }
  Value variable(Type t) {
    return emitc::VariableOp::create(b, loc, emitc::LValueType::get(t),
                                     emitc::OpaqueAttr::get(ctx, ""));
  }

  OpBuilder &b;
  Location loc;
  MLIRContext *ctx;
  Type i64;
};

/// memref<... x T> -> (T *, int64_t first dimension).
void addMemRefConversion(TypeConverter &converter) {
  converter.addConversion([](Type t) -> std::optional<Type> {
    if (isa<MemRefType>(t))
      return std::nullopt;
    return t;
  });
  converter.addConversion(
      [](MemRefType t, SmallVectorImpl<Type> &results) -> LogicalResult {
        if (t.getRank() < 1 || !t.getElementType().isIntOrIndexOrFloat())
          return failure();
        results.push_back(emitc::PointerType::get(t.getElementType()));
        results.push_back(IntegerType::get(t.getContext(), 64));
        return success();
      });
}

class FuncOpLowering : public OpConversionPattern<func::FuncOp> {
public:
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(func::FuncOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (op.isExternal() || op.getNumResults() != 0)
      return rewriter.notifyMatchFailure(op, "needs a body and no results");
    FunctionType type = op.getFunctionType();
    TypeConverter::SignatureConversion sig(type.getNumInputs());
    for (auto [i, t] : llvm::enumerate(type.getInputs()))
      if (failed(getTypeConverter()->convertSignatureArg(i, t, sig)))
        return rewriter.notifyMatchFailure(op, "argument type");
    auto func = emitc::FuncOp::create(
        rewriter, op.getLoc(), ("coopvec_" + op.getSymName()).str(),
        FunctionType::get(op.getContext(), sig.getConvertedTypes(), {}));
    rewriter.inlineRegionBefore(op.getBody(), func.getBody(), func.end());
    rewriter.applySignatureConversion(&func.getBody().front(), sig,
                                      getTypeConverter());
    rewriter.eraseOp(op);
    return success();
  }
};

class ReturnOpLowering : public OpConversionPattern<func::ReturnOp> {
public:
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(func::ReturnOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<emitc::ReturnOp>(op, Value());
    return success();
  }
};

/// coopvec.batch_matvec -> packing, the vqmacc (or generic RVV) loop nest,
/// bias and saturation (the steps of the pass description).
class BatchMatVecOpLowering : public OpConversionPattern<BatchMatVecOp> {
public:
  BatchMatVecOpLowering(const TypeConverter &converter, MLIRContext *ctx,
                        bool generic, unsigned lmul, unsigned minVlen)
      : OpConversionPattern(converter, ctx), generic(generic), lmul(lmul),
        minVlen(minVlen) {}

  LogicalResult
  matchAndRewrite(BatchMatVecOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    std::string why;
    FailureOr<MatVecPlan> plan = planMatVec(op, why);
    if (failed(plan))
      return rewriter.notifyMatchFailure(op, why);
    const MatVecPlan &p = *plan;
    unsigned l = chooseLmul(p);
    std::string site = "coopvec.batch_matvec";
    if (auto fl = dyn_cast<FileLineColLoc>(op.getLoc()))
      site += llvm::formatv(" at {0}:{1}:{2}", fl.getFilename().getValue(),
                            fl.getLine(), fl.getColumn())
                  .str();
    CBuilder c(rewriter, op.getLoc());
    MLIRContext *ctx = op.getContext();
    Value x = adaptor.getInputs()[0], n = adaptor.getInputs()[1];
    Value w = adaptor.getMatrix()[0], wBytes = adaptor.getMatrix()[1];
    Value y = adaptor.getOutputs()[0], yRows = adaptor.getOutputs()[1];
    using P = emitc::CmpPredicate;

    // Checks: the batch, the buffers, whole tiles at this LMUL.
    c.check(c.cmp(P::ne, n, yRows), site,
            "input and output batches differ in rows");
    c.check(c.cmp(P::gt, c.c(p.matrixOffset + p.footprint), wBytes), site,
            "matrix out of bounds");
    if (p.hasBias)
      c.check(c.cmp(P::gt, c.c(p.biasOffset + 4 * p.m), adaptor.getBias()[1]),
              site, "bias out of bounds");
    std::string lm = "m" + std::to_string(l);
    Value vlmax = c.call(c.i64, "__riscv_vsetvlmax_e32" + lm, {});
    if (!generic)
      c.check(c.cmp(P::lt, vlmax, c.c(16)), site,
              "VLEN too small for whole 4x4 tiles at LMUL " +
                  std::to_string(l));

    Value c0 = c.c(0), c1 = c.c(1);
    Type i32 = rewriter.getI32Type();
    // W[m][k] through the layout, and X[n][k] saturated to the input
    // interpretation (as int64_t).
    auto matrixAt = [&](Value m, Value k) {
      Value at = c.add(c.c(p.matrixOffset), c.add(c.mul(m, c.c(p.rowStep)),
                                                  c.mul(k, c.c(p.colStep))));
      return c.load(w, at);
    };
    int64_t lo = p.inputUnsignedInterp ? 0 : -128;
    int64_t hi = p.inputUnsignedInterp ? 255 : 127;
    Type u32 = IntegerType::get(ctx, 32, IntegerType::Unsigned);
    int64_t rowWords = p.inputPacked ? llvm::divideCeil(p.k, 4) : p.k;
    auto inputAt = [&](Value row, Value k) {
      if (p.inputPacked) {
        // Byte k % 4 of word k / 4, the first in the low bits.
        Value word = c.castTo(
            u32, c.load(x, c.add(c.mul(row, c.c(rowWords)), c.div(k, c.c(4)))));
        Value shift = c.castTo(u32, c.mul(c.rem(k, c.c(4)), c.c(8)));
        Value byte = c.castTo(
            IntegerType::get(ctx, 8, p.inputUnsignedInterp
                                         ? IntegerType::Unsigned
                                         : IntegerType::Signed),
            emitc::BitwiseRightShiftOp::create(rewriter, op.getLoc(), u32, word,
                                               shift));
        return c.castTo(c.i64, byte);
      }
      Value raw = c.load(x, c.add(c.mul(row, c.c(p.k)), k));
      Value v = p.inputUnsignedValue ? c.castTo(c.i64, c.castTo(u32, raw))
                                     : c.castTo(c.i64, raw);
      Value vlo = c.c(lo), vhi = c.c(hi);
      v = c.select(c.cmp(P::lt, v, vlo), vlo, v);
      return c.select(c.cmp(P::gt, v, vhi), vhi, v);
    };
    Type aElt = IntegerType::get(ctx, 8, p.matrixUnsigned
                                             ? IntegerType::Unsigned
                                             : IntegerType::Signed);

    // The int32 sums, and where sum (m, row) lies in them.
    Value cp;
    std::function<Value(Value, Value)> sumIndex;
    SmallVector<Value> scratch;
    if (generic) {
      // Vectors over the batch: x16[k][n] (int16, so that one signed
      // widening multiply-add covers every sign pair), sums[m][n].
      Type i16 = rewriter.getI16Type();
      Value x16 = c.zeroed(i16, c.mul(c.c(p.k), n), 2);
      cp = c.zeroed(i32, c.mul(c.c(p.m), n), 4);
      scratch = {x16, cp};
      c.loop(c0, n, c1, [&](Value row) {
        c.loop(c0, c.c(p.k), c1, [&](Value k) {
          c.store(x16, c.add(c.mul(k, n), row), c.castTo(i16, inputAt(row, k)));
        });
      });
      std::string hm = l == 1 ? "mf2" : "m" + std::to_string(l / 2);
      std::string cVec = "vint32" + lm + "_t", xVec = "vint16" + hm + "_t";
      c.loop(c0, c.c(p.m), c1, [&](Value m) {
        c.loop(c0, n, vlmax, [&](Value j) {
          Value vl = c.call(c.i64, "__riscv_vsetvl_e32" + lm, {c.sub(n, j)});
          Value acc = c.variable(c.opaque(cVec));
          emitc::AssignOp::create(
              rewriter, op.getLoc(), acc,
              c.call(c.opaque(cVec), "__riscv_vmv_v_x_i32" + lm,
                     {c.castTo(i32, c0), vl}));
          c.loop(c0, c.c(p.k), c1, [&](Value k) {
            Value wk = c.castTo(i16, c.castTo(aElt, matrixAt(m, k)));
            Value xk = c.call(c.opaque(xVec), "__riscv_vle16_v_i16" + hm,
                              {c.add(x16, c.add(c.mul(k, n), j)), vl});
            Value cur = emitc::LoadOp::create(rewriter, op.getLoc(),
                                              c.opaque(cVec), acc);
            emitc::AssignOp::create(
                rewriter, op.getLoc(), acc,
                c.call(c.opaque(cVec), "__riscv_vwmacc_vx_i32" + lm,
                       {cur, wk, xk, vl}));
          });
          Value fin =
              emitc::LoadOp::create(rewriter, op.getLoc(), c.opaque(cVec), acc);
          c.call(Type(), "__riscv_vse32_v_i32" + lm,
                 {c.add(cp, c.add(c.mul(m, n), j)), fin, vl});
        });
      });
      sumIndex = [&](Value m, Value row) { return c.add(c.mul(m, n), row); };
    } else {
      int64_t mt = llvm::divideCeil(p.m, kTile);
      int64_t kt = llvm::divideCeil(p.k, kTile);
      Value c4 = c.c(kTile), c16 = c.c(16);
      Value bt = c.div(c.add(n, c.c(kTile - 1)), c4);
      Type bElt = IntegerType::get(ctx, 8, p.inputUnsignedInterp
                                               ? IntegerType::Unsigned
                                               : IntegerType::Signed);
      Value ap = c.zeroed(aElt, c.c(mt * kt * 16), 1);
      Value bp = c.zeroed(bElt, c.mul(c.c(kt * 16), bt), 1);
      cp = c.zeroed(i32, c.mul(c.c(mt * 16), bt), 4);
      scratch = {ap, bp, cp};
      // Tile-major index of element (r, q) of a matrix cut in 4x4 tiles,
      // `tilesPerRow` tiles to a tile row.
      auto tileIndex = [&c, c4, c16](Value r, Value q, Value tilesPerRow) {
        Value tile = c.add(c.mul(c.div(r, c4), tilesPerRow), c.div(q, c4));
        return c.add(c.mul(tile, c16),
                     c.add(c.mul(c.rem(r, c4), c4), c.rem(q, c4)));
      };
      // A tiles: W[m][k]; B tiles: X[n][k] at B[k][n]; padding stays 0.
      c.loop(c0, c.c(p.m), c1, [&](Value m) {
        c.loop(c0, c.c(p.k), c1, [&](Value k) {
          c.store(ap, tileIndex(m, k, c.c(kt)),
                  c.castTo(aElt, matrixAt(m, k)));
        });
      });
      c.loop(c0, n, c1, [&](Value row) {
        c.loop(c0, c.c(p.k), c1, [&](Value k) {
          c.store(bp, tileIndex(k, row, bt), c.castTo(bElt, inputAt(row, k)));
        });
      });
      // C tiles += A x B: per row tile, one vqmacc per K tile over vl / 16
      // batch tiles.
      std::string aVec = p.matrixUnsigned ? "vuint8m1_t" : "vint8m1_t";
      std::string bLmul = l == 1 ? "mf4" : l == 2 ? "mf2" : l == 4 ? "m1" : "m2";
      std::string bVec =
          std::string(p.inputUnsignedInterp ? "vuint8" : "vint8") + bLmul + "_t";
      std::string cVec = "vint32" + lm + "_t";
      std::string aLoad =
          p.matrixUnsigned ? "__riscv_vle8_v_u8m1" : "__riscv_vle8_v_i8m1";
      std::string bLoad =
          std::string(p.inputUnsignedInterp ? "__riscv_vle8_v_u8"
                                            : "__riscv_vle8_v_i8") +
          bLmul;
      std::string callee =
          ("__riscv_xl_" + vqmaccName(p.matrixUnsigned, p.inputUnsignedInterp) +
           "_4x4x4_i32" + lm)
              .str();
      Value tilesPerVl = c.div(vlmax, c16);
      c.loop(c0, c.c(mt), c1, [&](Value r) {
        c.loop(c0, bt, tilesPerVl, [&](Value j) {
          Value vl = c.call(c.i64, "__riscv_vsetvl_e32" + lm,
                            {c.mul(c.sub(bt, j), c16)});
          Value acc = c.variable(c.opaque(cVec));
          emitc::AssignOp::create(
              rewriter, op.getLoc(), acc,
              c.call(c.opaque(cVec), "__riscv_vmv_v_x_i32" + lm,
                     {c.castTo(i32, c0), vl}));
          c.loop(c0, c.c(kt), c1, [&](Value q) {
            Value a = c.call(
                c.opaque(aVec), aLoad,
                {c.add(ap, c.mul(c.add(c.mul(r, c.c(kt)), q), c16)), c16});
            Value b = c.call(c.opaque(bVec), bLoad,
                             {c.add(bp, c.mul(c.add(c.mul(q, bt), j), c16)),
                              vl});
            Value cur = emitc::LoadOp::create(rewriter, op.getLoc(),
                                              c.opaque(cVec), acc);
            emitc::AssignOp::create(
                rewriter, op.getLoc(), acc,
                c.call(c.opaque(cVec), callee, {cur, a, b, vl}));
          });
          Value fin =
              emitc::LoadOp::create(rewriter, op.getLoc(), c.opaque(cVec), acc);
          c.call(Type(), "__riscv_vse32_v_i32" + lm,
                 {c.add(cp, c.mul(c.add(c.mul(r, bt), j), c16)), fin, vl});
        });
      });
      sumIndex = [tileIndex, bt](Value m, Value row) {
        return tileIndex(m, row, bt);
      };
    }

    // Y[n][m] = sat_i32(sum(m, n) + bias[m]).
    Value biasWords;
    if (p.hasBias)
      biasWords = c.castTo(c.ptr(i32),
                           c.add(adaptor.getBias()[0], c.c(p.biasOffset)));
    c.loop(c0, n, c1, [&](Value row) {
      c.loop(c0, c.c(p.m), c1, [&](Value m) {
        Value s = c.castTo(c.i64, c.load(cp, sumIndex(m, row)));
        if (p.hasBias)
          s = c.add(s, c.castTo(c.i64, c.load(biasWords, m)));
        Value smin = c.c(INT32_MIN), smax = c.c(INT32_MAX);
        s = c.select(c.cmp(P::lt, s, smin), smin, s);
        s = c.select(c.cmp(P::gt, s, smax), smax, s);
        c.store(y, c.add(c.mul(row, c.c(p.m)), m), c.castTo(i32, s));
      });
    });
    for (Value buffer : scratch)
      c.call(Type(), "free", {buffer});
    rewriter.eraseOp(op);
    return success();
  }

private:
  /// The smallest LMUL that holds, at minVlen, a whole tile (vqmacc) and,
  /// for a static batch, every batch tile (vqmacc) or row (generic); 8 for a
  /// dynamic batch.
  unsigned chooseLmul(const MatVecPlan &p) const {
    if (lmul)
      return lmul;
    if (!p.staticBatch)
      return 8;
    unsigned atLeast =
        generic ? 1 : std::max<unsigned>(1, 512 / std::max(minVlen, 1u));
    // Elements of the int32 group needed: 16 per batch tile, or one a row.
    int64_t elements =
        generic ? *p.staticBatch : 16 * llvm::divideCeil(*p.staticBatch, kTile);
    unsigned want = 1;
    while (want < 8 && int64_t(minVlen) * want / 32 < elements)
      want *= 2;
    return std::min(8u, std::max(want, atLeast));
  }

  bool generic;
  unsigned lmul, minVlen;
};

/// Located errors for what the lowering does not take, before converting.
LogicalResult checkSupported(ModuleOp module) {
  bool ok = true;
  module.walk([&](Operation *op) {
    if (isa<ModuleOp, func::ReturnOp, arith::ConstantOp>(op))
      return;
    if (auto func = dyn_cast<func::FuncOp>(op)) {
      if (func.isExternal() || func.getNumResults() != 0) {
        func.emitError("the RISC-V C target takes functions with a body and "
                       "no results");
        ok = false;
      }
      for (Type t : func.getArgumentTypes())
        if (!isa<MemRefType>(t)) {
          func.emitError("the RISC-V C target takes memref arguments only, "
                         "got ")
              << t;
          ok = false;
          break;
        }
      return;
    }
    if (auto mv = dyn_cast<BatchMatVecOp>(op)) {
      std::string why;
      if (failed(planMatVec(mv, why))) {
        mv.emitError(why);
        ok = false;
      }
      return;
    }
    op->emitError("'") << op->getName()
                       << "' is not lowered by --convert-coopvec-to-riscv";
    ok = false;
  });
  return success(ok);
}

struct ConvertCoopVecToRISCVPass
    : public coopvec::impl::ConvertCoopVecToRISCVBase<
          ConvertCoopVecToRISCVPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (lmul != 0 && lmul != 1 && lmul != 2 && lmul != 4 && lmul != 8) {
      module.emitError("lmul must be 0, 1, 2, 4 or 8, got ")
          << static_cast<unsigned>(lmul);
      return signalPassFailure();
    }
    bool sifive = isa == "xsfvqmacc-4x8x4" || isa == "xsfvqmacc-2x8x2";
    if (isa != "xxlvqmacc" && isa != "rvv" && !sifive) {
      module.emitError("isa must be xxlvqmacc, rvv, xsfvqmacc-4x8x4 or "
                       "xsfvqmacc-2x8x2, got '")
          << isa << "'";
      return signalPassFailure();
    }
    if (emulateSiFive && !sifive) {
      module.emitError("emulate-sifive applies to the xsfvqmacc isas only");
      return signalPassFailure();
    }
    if (minVlen < 128 || minVlen > 65536 || !llvm::isPowerOf2_32(minVlen)) {
      module.emitError("min-vlen must be a power of two in [128, 65536], got ")
          << static_cast<unsigned>(minVlen);
      return signalPassFailure();
    }
    if (sifive) {
      if (failed(
              lowerToSiFiveVQMacc(module, isa, lmul, minVlen, emulateSiFive)))
        signalPassFailure();
      return;
    }
    if (failed(checkSupported(module)))
      return signalPassFailure();
    MLIRContext *ctx = &getContext();
    TypeConverter converter;
    populateCoopVecToRISCVTypeConversions(converter);
    RewritePatternSet patterns(ctx);
    populateCoopVecToRISCVPatterns(converter, patterns, isa == "rvv", lmul,
                                   minVlen);
    ConversionTarget target(*ctx);
    target.addLegalDialect<emitc::EmitCDialect>();
    target.addLegalOp<ModuleOp, arith::ConstantOp>();
    if (failed(applyFullConversion(module, target, std::move(patterns))))
      return signalPassFailure();
    // The constants the ops read are folded into the C; drop the rest.
    module.walk([](arith::ConstantOp op) {
      if (op->use_empty())
        op.erase();
    });
    OpBuilder b(ctx);
    b.setInsertionPointToStart(module.getBody());
    emitc::IncludeOp::create(b, module.getLoc(), "coopvec_riscv.h");
  }
};

} // namespace

void mlir::coopvec::populateCoopVecToRISCVTypeConversions(
    TypeConverter &converter) {
  addMemRefConversion(converter);
}

void mlir::coopvec::populateCoopVecToRISCVPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns, bool generic,
    unsigned lmul, unsigned minVlen) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<FuncOpLowering, ReturnOpLowering>(converter, ctx);
  patterns.add<BatchMatVecOpLowering>(converter, ctx, generic, lmul, minVlen);
}
