//===- CoopVecToRISCV.cpp - int8 matrix products as vqmacc C ---------------===//
//
// func.func -> emitc.func (memrefs as pointer + first dimension, vectors as
// pointers, vector results as pointer arguments after the others), and
// coopvec.batch_matvec, coopvec.matvec (a batch of one) and the quantized
// form -> C loops that pack 4x4 tiles and run Nuclei's xl.vqmacc* intrinsics
// (or RVV 1.0 vwmacc) over them, then the epilogue. The instruction's
// semantics, operand roles, LMUL pairings and the quantized blocks:
// docs/RISCV.md.
//
//===----------------------------------------------------------------------===//

#include "LinAlgCoop/Conversion/CoopVecToRISCV/CoopVecToRISCV.h"

#include "MatVecPlan.h"

#include "LinAlgCoop/Dialect/CoopVec/IR/CoopVecOps.h"
#include "LinAlgCoop/Runtime/Layout.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/EmitC/IR/EmitC.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

#include <functional>
#include <numeric>

namespace mlir::coopvec {
#define GEN_PASS_DEF_CONVERTCOOPVECTORISCV
#include "LinAlgCoop/Conversion/Passes.h.inc"
} // namespace mlir::coopvec

using namespace mlir;
using namespace mlir::coopvec;
using namespace mlir::coopvec::riscv;

namespace {

constexpr int64_t kTile = 4; // xl.vqmacc 4x4x4

/// The checks shared by matvec and batch_matvec.
template <typename OpT>
LogicalResult planCommon(OpT op, Type inElt, Type outElt, MatVecPlan &p,
                         std::string &why, bool quantized = false) {
  MatrixDescAttr desc = op.getMatrixDesc();
  InterpretationAttr mi = desc.getInterpretation();
  // 8-bit matrices, and the quantized form's 4-bit ones (read into the
  // int8 tiles).
  auto isByte = [&](InterpretationAttr i) {
    return i && !i.getPacked() &&
           (i.getElementType().isInteger(8) ||
            (quantized && i.getElementType().isInteger(4)));
  };
  if (op.getScales()) {
    why = "block-scaled products are not lowered to RISC-V";
    return failure();
  }
  if (op.getFidelity()) {
    why = "math fidelity products are not lowered to RISC-V";
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
  // The quantized form reads i8 rows (the verifier's rule) and may write
  // f16/bf16; the plain product writes i32, f32 or f16.
  if (!(quantized || inElt.isInteger(32) || inElt.isF32()) ||
      !(outElt.isInteger(32) || outElt.isF32() || outElt.isF16() ||
        (quantized && outElt.isBF16())) ||
      op.getOutputUnsigned()) {
    why = "the RISC-V vqmacc lowering takes i32 or f32 inputs and signed i32, "
          "f32 or f16 results (bf16 too in the quantized form)";
    return failure();
  }
  p.layout = desc.getLayout();
  p.transpose = desc.getTranspose();
  bool linear = p.layout == MatrixLayout::RowMajor ||
                p.layout == MatrixLayout::ColumnMajor;
  p.matrixNibbles = mi.getElementType().isInteger(4);
  // The optimal layouts ignore the stride (the verifier's rule).
  std::optional<int64_t> offset = getConstantIntValue(op.getMatrixOffset());
  std::optional<int64_t> stride =
      !linear ? std::optional<int64_t>(0)
      : op.getMatrixStride() ? getConstantIntValue(op.getMatrixStride())
                             : std::nullopt;
  if (!offset || !stride) {
    why = "the RISC-V lowering needs a constant matrix offset and stride";
    return failure();
  }
  p.m = desc.getRows();
  p.k = desc.getCols();
  p.matrixOffset = *offset;
  bool rowMajor = p.layout == MatrixLayout::RowMajor;
  p.rowStep = rowMajor ? *stride : 1;
  p.colStep = rowMajor ? 1 : *stride;
  // The optimal layouts' formulas run on the byte matrix: for I4/U4 that of
  // the stored column pairs, as the CPU runtime stores them.
  p.storedCols = desc.getStoredUnitCols();
  if (linear) {
    // Never transposed (the verifier's rule); byte columns for I4/U4.
    p.footprint = (desc.getStoredRows() - 1) * p.rowStep +
                  (desc.getStoredUnitCols() - 1) * p.colStep + 1;
  } else {
    // What the CPU runtime requires of an optimal matrix: the layout's
    // destination size (Layout.h), so that both report the same buffers.
    p.footprint = static_cast<int64_t>(coopvecLayoutDestinationSize(
        static_cast<uint32_t>(p.layout), desc.getStoredRows(),
        desc.getStoredUnitCols(), desc.getElementBytes(), /*stride=*/0));
  }
  p.matrixUnsigned = mi.getIsUnsigned();
  p.inputUnsignedInterp = ii.getIsUnsigned();
  p.inputPacked = ii.getPacked();
  p.inputUnsignedValue = op.getInputUnsigned();
  p.inputElt = inElt;
  p.floatOutput = isa<FloatType>(outElt);
  p.outputElt = outElt;
  p.hasBias = static_cast<bool>(op.getBias());
  p.biasOffset = 0;
  p.block = p.computeGroup = p.k;
  if (p.hasBias) {
    InterpretationAttr bi = op.getBiasInterpAttr();
    std::optional<int64_t> boff = getConstantIntValue(op.getBiasOffset());
    // A quantized product with float results takes an F32, F16 or BF16
    // bias (the verifier's rule); every other one here an I32 bias.
    bool floatBias = quantized && p.floatOutput;
    if (!bi || (!floatBias && (bi.getPacked() ||
                               !bi.getElementType().isInteger(32) ||
                               bi.getIsUnsigned())) ||
        !boff) {
      why = "the RISC-V lowering takes an I32 bias (F32, F16 or BF16 for "
            "quantized float results) at a constant offset";
      return failure();
    }
    p.biasInterp = bi;
    p.biasOffset = *boff;
  }
  return success();
}

/// The int32 accumulators are exact while a block's sum cannot overflow.
LogicalResult checkBlockFits(MatVecPlan &p, std::string &why) {
  int64_t maxProduct = (p.matrixUnsigned ? 255 : 128) *
                       (p.inputUnsignedInterp ? 255 : 128);
  if (p.block > INT32_MAX / maxProduct) {
    why = p.quantized
              ? llvm::formatv("blocks of {0} columns (the gcd of K and the "
                              "group sizes) can overflow the int32 "
                              "accumulators (at most {1} for these signs)",
                              p.block, INT32_MAX / maxProduct)
                    .str()
              : llvm::formatv("K = {0} can overflow the int32 accumulators "
                              "(at most {1} for these signs)",
                              p.block, INT32_MAX / maxProduct)
                    .str();
    return failure();
  }
  return success();
}

} // namespace

FailureOr<MatVecPlan> mlir::coopvec::riscv::planMatVec(MatVecOp op,
                                                       std::string &why) {
  MatVecPlan p;
  auto inType = cast<VectorType>(op.getInput().getType());
  auto outType = cast<VectorType>(op.getResult().getType());
  if (failed(planCommon(op, inType.getElementType(), outType.getElementType(),
                        p, why)) ||
      failed(checkBlockFits(p, why)))
    return failure();
  p.staticBatch = 1;
  return p;
}

namespace {

/// The quantized clauses of `op` into `p`.
LogicalResult planQuantized(BatchMatVecOp op, MatVecPlan &p,
                            std::string &why) {
  Type outElt = cast<MemRefType>(op.getOutputs().getType()).getElementType();
  auto inType = cast<MemRefType>(op.getInputs().getType());
  // The verifier has checked the clauses' types and groups; this takes the
  // offsets and the memref shapes.
  if (failed(planCommon(op, inType.getElementType(), outElt, p, why,
                        /*quantized=*/true)))
    return failure();
  p.quantized = true;
  auto weightSide = [&](QuantClause &c, InterpretationAttr interp,
                        std::optional<uint64_t> group, Value offset) {
    if (!interp)
      return success();
    std::optional<int64_t> off = getConstantIntValue(offset);
    if (!off) {
      why = "the RISC-V lowering needs constant weight zero point and scale "
            "offsets";
      return failure();
    }
    c.interp = interp;
    c.group = group.value_or(0);
    c.offset = *off;
    return success();
  };
  auto inputSide = [&](QuantClause &c, InterpretationAttr interp,
                       std::optional<uint64_t> group, Value values) {
    if (!interp)
      return success();
    auto type = cast<MemRefType>(values.getType());
    if (!type.getLayout().isIdentity()) {
      why = "the RISC-V lowering takes contiguous input zero points, scales "
            "and reductions";
      return failure();
    }
    c.interp = interp;
    c.group = group.value_or(0);
    c.cols = type.getDimSize(1);
    return success();
  };
  if (failed(weightSide(p.weightZeroPoints, op.getWeightZeroPointsInterpAttr(),
                        op.getWeightZeroPointsGroup(),
                        op.getWeightZeroPointsOffset())) ||
      failed(weightSide(p.weightScales, op.getWeightScalesInterpAttr(),
                        op.getWeightScalesGroup(),
                        op.getWeightScalesOffset())) ||
      failed(inputSide(p.inputZeroPoints, op.getInputZeroPointsInterpAttr(),
                       op.getInputZeroPointsGroup(),
                       op.getInputZeroPoints())) ||
      failed(inputSide(p.inputScales, op.getInputScalesInterpAttr(),
                       op.getInputScalesGroup(), op.getInputScales())) ||
      failed(inputSide(p.reductions, op.getReductionsInterpAttr(),
                       op.getReductionsGroup(), op.getReductions())))
    return failure();
  int64_t sx = p.inputScales && p.inputScales.group ? p.inputScales.group
                                                     : p.k;
  int64_t sw = p.weightScales && p.weightScales.group ? p.weightScales.group
                                                       : p.k;
  p.computeGroup = std::min(sx, sw);
  p.block = p.k;
  for (const QuantClause *c :
       {&p.weightZeroPoints, &p.weightScales, &p.inputZeroPoints,
        &p.inputScales, &p.reductions})
    if (*c && c->group)
      p.block = std::gcd(p.block, c->group);
  return checkBlockFits(p, why);
}

} // namespace

FailureOr<MatVecPlan> mlir::coopvec::riscv::planMatVec(BatchMatVecOp op,
                                                       std::string &why) {
  MatVecPlan p;
  auto inType = cast<MemRefType>(op.getInputs().getType());
  auto outType = cast<MemRefType>(op.getOutputs().getType());
  if (!inType.getLayout().isIdentity() || !outType.getLayout().isIdentity()) {
    why = "the RISC-V lowering takes contiguous input and output batches";
    return failure();
  }
  if (op.isQuantized()) {
    if (failed(planQuantized(op, p, why)))
      return failure();
  } else if (failed(planCommon(op, inType.getElementType(),
                               outType.getElementType(), p, why)) ||
             failed(checkBlockFits(p, why))) {
    return failure();
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
  /// `if (cond) { body }`.
  void ifThen(Value cond, llvm::function_ref<void()> body) {
    auto ifOp = emitc::IfOp::create(b, loc, cond, /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(b);
    Block &then = ifOp.getThenRegion().front();
    if (then.empty() || !then.back().hasTrait<OpTrait::IsTerminator>()) {
      b.setInsertionPointToEnd(&then);
      emitc::YieldOp::create(b, loc);
    }
    b.setInsertionPoint(then.getTerminator());
    body();
  }
  /// `if (cond) coopvec_rv_error(site, what);`
  void check(Value failed, StringRef site, StringRef what) {
    ifThen(failed, [&] { error(site, what); });
  }
  void error(StringRef site, StringRef what) {
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

/// memref<... x T> -> (T *, int64_t first dimension); vector<N x T> -> T *
/// (N elements).
void addMemRefConversion(TypeConverter &converter) {
  converter.addConversion([](Type t) -> std::optional<Type> {
    if (isa<MemRefType, VectorType>(t))
      return std::nullopt;
    return t;
  });
  converter.addConversion([](VectorType t) -> std::optional<Type> {
    if (t.getRank() != 1 || t.isScalable() ||
        !t.getElementType().isIntOrFloat())
      return std::nullopt;
    return emitc::PointerType::get(t.getElementType());
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

/// func.func -> `void coopvec_<name>(arguments..., results...)`: each
/// vector result becomes a pointer argument after the others, which the
/// caller provides and func.return fills.
class FuncOpLowering : public OpConversionPattern<func::FuncOp> {
public:
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(func::FuncOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (op.isExternal())
      return rewriter.notifyMatchFailure(op, "needs a body");
    FunctionType type = op.getFunctionType();
    TypeConverter::SignatureConversion sig(type.getNumInputs());
    for (auto [i, t] : llvm::enumerate(type.getInputs()))
      if (failed(getTypeConverter()->convertSignatureArg(i, t, sig)))
        return rewriter.notifyMatchFailure(op, "argument type");
    for (Type t : type.getResults()) {
      Type converted = getTypeConverter()->convertType(t);
      if (!converted || !isa<VectorType>(t))
        return rewriter.notifyMatchFailure(op, "result type");
      sig.addInputs(converted);
    }
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

/// func.return -> copies of the returned vectors into the result pointers
/// (the last arguments of the function).
class ReturnOpLowering : public OpConversionPattern<func::ReturnOp> {
public:
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(func::ReturnOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Block &entry = op->getParentRegion()->front();
    unsigned results = op.getNumOperands();
    if (entry.getNumArguments() < results)
      return rewriter.notifyMatchFailure(op, "result pointers");
    CBuilder c(rewriter, op.getLoc());
    unsigned first = entry.getNumArguments() - results;
    for (auto [i, value] : llvm::enumerate(op.getOperands())) {
      Value from = adaptor.getOperands()[i][0];
      Value to = entry.getArgument(first + i);
      int64_t size = cast<VectorType>(value.getType()).getNumElements();
      c.loop(c.c(0), c.c(size), c.c(1),
             [&](Value e) { c.store(to, e, c.load(from, e)); });
    }
    rewriter.replaceOpWithNewOp<emitc::ReturnOp>(op, Value());
    return success();
  }
};

/// The converted operands of one product: data pointers and first
/// dimensions (rows of a batch, bytes of a buffer). Null where absent; a
/// null `yRows` skips the batch check (matvec: one row each side).
struct MatVecOperands {
  Value x, n, w, wBytes, y, yRows, bias, biasBytes;
  Value weightZeroPoints, weightZeroPointsBytes, weightScales,
      weightScalesBytes, inputZeroPoints, inputZeroPointsRows, inputScales,
      inputScalesRows, reductions, reductionsRows;
};

/// The smallest LMUL that holds, at minVlen, a whole tile (vqmacc) and,
/// for a static batch, every batch tile (vqmacc) or row (generic); 8 for a
/// dynamic batch.
unsigned chooseLmul(const MatVecPlan &p, bool generic, unsigned lmul,
                    unsigned minVlen) {
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

/// Emits the C of one product (the steps of the pass description) at the
/// rewriter's insertion point: checks, packing, the vqmacc (or generic RVV)
/// loop nest per block of K, and the epilogue (bias and saturation, or the
/// quantized form's zero points, reductions and f32 scaling).
void emitMatVec(ConversionPatternRewriter &rewriter, Location loc,
                const MatVecPlan &p, const MatVecOperands &o, StringRef opName,
                bool generic, unsigned l) {
  std::string site = opName.str();
  if (auto fl = dyn_cast<FileLineColLoc>(loc))
    site += llvm::formatv(" at {0}:{1}:{2}", fl.getFilename().getValue(),
                          fl.getLine(), fl.getColumn())
                .str();
  CBuilder c(rewriter, loc);
  MLIRContext *ctx = rewriter.getContext();
  Value x = o.x, n = o.n, w = o.w, y = o.y;
  using P = emitc::CmpPredicate;

  // Checks: the batch, the buffers, whole tiles at this LMUL.
  if (o.yRows)
    c.check(c.cmp(P::ne, n, o.yRows), site,
            "input and output batches differ in rows");
  c.check(c.cmp(P::gt, c.c(p.matrixOffset + p.footprint), o.wBytes), site,
          "matrix out of bounds");
  if (p.hasBias)
    c.check(c.cmp(P::gt, c.c(p.biasOffset + valueBytes(p.biasInterp) * p.m),
                  o.biasBytes),
            site, "bias out of bounds");
  auto checkWeightSide = [&](const QuantClause &q, Value bytes,
                             StringRef what) {
    if (!q)
      return;
    int64_t values = q.group ? p.m * q.perRow(p.k) : 1;
    c.check(c.cmp(P::gt, c.c(q.offset + valueBytes(q.interp) * values), bytes),
            site, what);
  };
  checkWeightSide(p.weightZeroPoints, o.weightZeroPointsBytes,
                  "weight zero points out of bounds");
  checkWeightSide(p.weightScales, o.weightScalesBytes,
                  "weight scales out of bounds");
  auto checkInputSide = [&](const QuantClause &q, Value rows, StringRef what) {
    if (q)
      c.check(c.cmp(P::lt, rows, q.group ? n : c.c(1)), site, what);
  };
  checkInputSide(p.inputZeroPoints, o.inputZeroPointsRows,
                 "input zero points have fewer rows than the batch");
  checkInputSide(p.inputScales, o.inputScalesRows,
                 "input scales have fewer rows than the batch");
  checkInputSide(p.reductions, o.reductionsRows,
                 "reductions have fewer rows than the batch");
  std::string lm = "m" + std::to_string(l);
  Value vlmax = c.call(c.i64, "__riscv_vsetvlmax_e32" + lm, {});
  if (!generic)
    c.check(c.cmp(P::lt, vlmax, c.c(16)), site,
            "VLEN too small for whole 4x4 tiles at LMUL " + std::to_string(l));

  Value c0 = c.c(0), c1 = c.c(1);
  Type i32 = rewriter.getI32Type(), f32 = rewriter.getF32Type();
  Type u8 = IntegerType::get(ctx, 8, IntegerType::Unsigned);
  Type s8 = IntegerType::get(ctx, 8, IntegerType::Signed);
  Type u16 = IntegerType::get(ctx, 16, IntegerType::Unsigned);
  Type u32 = IntegerType::get(ctx, 32, IntegerType::Unsigned);
  Type aElt = p.matrixUnsigned ? u8 : s8;
  // W[m][k] through the layout (as the matrix's int8 type).
  auto matrixAt = [&](Value m, Value k) {
    if (!p.matrixNibbles)
      return c.castTo(aElt, c.load(w, matrixByte(c, p, m, k)));
    // I4/U4: stored columns 2j and 2j + 1 share byte j, the even one in the
    // low nibble; the stored columns are k, or m when transposed (an
    // optimal layout's K x M matrix).
    Value storedCol = p.transpose ? m : k;
    Value at = p.transpose ? matrixByte(c, p, c.div(m, c.c(2)), k)
                           : matrixByte(c, p, m, c.div(k, c.c(2)));
    // Nibble storedCol % 2 of the byte, sign-extended for I4: (v ^ 8) - 8.
    Value byte = c.castTo(c.i64, c.castTo(u8, c.load(w, at)));
    Value nibble = emitc::BitwiseAndOp::create(
        rewriter, loc, c.i64,
        emitc::BitwiseRightShiftOp::create(
            rewriter, loc, c.i64, byte,
            c.mul(c.rem(storedCol, c.c(2)), c.c(4))),
        c.c(15));
    if (!p.matrixUnsigned)
      nibble = c.sub(emitc::BitwiseXorOp::create(rewriter, loc, c.i64, nibble,
                                                 c.c(8)),
                     c.c(8));
    return c.castTo(aElt, nibble);
  };
  // X[n][k] read as the input interpretation (as int64_t): bytes of packed
  // words, i8 rows of the quantized form, i32 saturated, f32 rounded to
  // nearest even and saturated (NaN 0).
  int64_t lo = p.inputUnsignedInterp ? 0 : -128;
  int64_t hi = p.inputUnsignedInterp ? 255 : 127;
  Type bElt = p.inputUnsignedInterp ? u8 : s8;
  int64_t rowWords = p.inputPacked ? llvm::divideCeil(p.k, 4) : p.k;
  auto inputAt = [&](Value row, Value k) -> Value {
    if (p.inputPacked) {
      // Byte k % 4 of word k / 4, the first in the low bits.
      Value word = c.castTo(
          u32, c.load(x, c.add(c.mul(row, c.c(rowWords)), c.div(k, c.c(4)))));
      Value shift = c.castTo(u32, c.mul(c.rem(k, c.c(4)), c.c(8)));
      Value byte = c.castTo(bElt, emitc::BitwiseRightShiftOp::create(
                                      rewriter, loc, u32, word, shift));
      return c.castTo(c.i64, byte);
    }
    Value raw = c.load(x, c.add(c.mul(row, c.c(p.k)), k));
    if (p.inputElt.isInteger(8))
      return c.castTo(c.i64, c.castTo(bElt, raw));
    if (p.inputElt.isF32())
      return c.call(c.i64, "coopvec_rv_f32_to_int", {raw, c.c(lo), c.c(hi)});
    Value v = p.inputUnsignedValue ? c.castTo(c.i64, c.castTo(u32, raw))
                                   : c.castTo(c.i64, raw);
    Value vlo = c.c(lo), vhi = c.c(hi);
    v = c.select(c.cmp(P::lt, v, vlo), vlo, v);
    return c.select(c.cmp(P::gt, v, vhi), vhi, v);
  };

  // K in blocks of p.block columns (one block without the quantized form),
  // each summed separately in int32.
  int64_t blocks = p.k / p.block;
  auto forBlocks = [&](llvm::function_ref<void(Value)> body) {
    if (blocks == 1)
      return body(c0);
    c.loop(c0, c.c(blocks), c1, body);
  };

  // The int32 sums of one block, and where sum (m, row) lies in them.
  Value cp;
  std::function<Value(Value, Value)> sumIndex;
  std::function<void(Value)> product; // the sums of block `blk`
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
    product = [&, i16, x16, cVec, xVec, hm](Value blk) {
      Value k0 = c.mul(blk, c.c(p.block));
      c.loop(c0, c.c(p.m), c1, [&](Value m) {
        c.loop(c0, n, vlmax, [&](Value j) {
          Value vl = c.call(c.i64, "__riscv_vsetvl_e32" + lm, {c.sub(n, j)});
          Value acc = c.variable(c.opaque(cVec));
          emitc::AssignOp::create(rewriter, loc, acc,
                                  c.call(c.opaque(cVec),
                                         "__riscv_vmv_v_x_i32" + lm,
                                         {c.castTo(i32, c0), vl}));
          c.loop(k0, c.add(k0, c.c(p.block)), c1, [&](Value k) {
            Value wk = c.castTo(i16, matrixAt(m, k));
            Value xk = c.call(c.opaque(xVec), "__riscv_vle16_v_i16" + hm,
                              {c.add(x16, c.add(c.mul(k, n), j)), vl});
            Value cur =
                emitc::LoadOp::create(rewriter, loc, c.opaque(cVec), acc);
            emitc::AssignOp::create(
                rewriter, loc, acc,
                c.call(c.opaque(cVec), "__riscv_vwmacc_vx_i32" + lm,
                       {cur, wk, xk, vl}));
          });
          Value fin = emitc::LoadOp::create(rewriter, loc, c.opaque(cVec), acc);
          c.call(Type(), "__riscv_vse32_v_i32" + lm,
                 {c.add(cp, c.add(c.mul(m, n), j)), fin, vl});
        });
      });
    };
    sumIndex = [&](Value m, Value row) { return c.add(c.mul(m, n), row); };
  } else {
    // Each block padded to whole K tiles: column k packs at
    // (k / block) * blockTiles * 4 + k % block.
    int64_t blockTiles = llvm::divideCeil(p.block, kTile);
    int64_t mt = llvm::divideCeil(p.m, kTile);
    int64_t kt = blocks * blockTiles;
    Value c4 = c.c(kTile), c16 = c.c(16);
    Value bt = c.div(c.add(n, c.c(kTile - 1)), c4);
    Value ap = c.zeroed(aElt, c.c(mt * kt * 16), 1);
    Value bp = c.zeroed(bElt, c.mul(c.c(kt * 16), bt), 1);
    cp = c.zeroed(i32, c.mul(c.c(mt * 16), bt), 4);
    scratch = {ap, bp, cp};
    auto packedK = [&c, &p, blocks, blockTiles](Value k) {
      if (blocks == 1)
        return k;
      return c.add(c.mul(c.div(k, c.c(p.block)), c.c(blockTiles * kTile)),
                   c.rem(k, c.c(p.block)));
    };
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
        c.store(ap, tileIndex(m, packedK(k), c.c(kt)), matrixAt(m, k));
      });
    });
    c.loop(c0, n, c1, [&](Value row) {
      c.loop(c0, c.c(p.k), c1, [&](Value k) {
        c.store(bp, tileIndex(packedK(k), row, bt),
                c.castTo(bElt, inputAt(row, k)));
      });
    });
    // C tiles += A x B: per row tile, one vqmacc per K tile of the block
    // over vl / 16 batch tiles.
    std::string aVec = p.matrixUnsigned ? "vuint8m1_t" : "vint8m1_t";
    std::string bLmul = l == 1 ? "mf4" : l == 2 ? "mf2" : l == 4 ? "m1" : "m2";
    std::string bVec =
        std::string(p.inputUnsignedInterp ? "vuint8" : "vint8") + bLmul + "_t";
    std::string cVec = "vint32" + lm + "_t";
    std::string aLoad =
        p.matrixUnsigned ? "__riscv_vle8_v_u8m1" : "__riscv_vle8_v_i8m1";
    std::string bLoad = std::string(p.inputUnsignedInterp ? "__riscv_vle8_v_u8"
                                                          : "__riscv_vle8_v_i8") +
                        bLmul;
    std::string callee =
        ("__riscv_xl_" + vqmaccName(p.matrixUnsigned, p.inputUnsignedInterp) +
         "_4x4x4_i32" + lm)
            .str();
    Value tilesPerVl = c.div(vlmax, c16);
    product = [&, ap, bp, bt, c16, tilesPerVl, aVec, bVec, cVec, aLoad, bLoad,
               callee, blockTiles, mt, kt](Value blk) {
      Value q0 = c.mul(blk, c.c(blockTiles));
      c.loop(c0, c.c(mt), c1, [&](Value r) {
        c.loop(c0, bt, tilesPerVl, [&](Value j) {
          Value vl = c.call(c.i64, "__riscv_vsetvl_e32" + lm,
                            {c.mul(c.sub(bt, j), c16)});
          Value acc = c.variable(c.opaque(cVec));
          emitc::AssignOp::create(rewriter, loc, acc,
                                  c.call(c.opaque(cVec),
                                         "__riscv_vmv_v_x_i32" + lm,
                                         {c.castTo(i32, c0), vl}));
          c.loop(q0, c.add(q0, c.c(blockTiles)), c1, [&](Value q) {
            Value a = c.call(
                c.opaque(aVec), aLoad,
                {c.add(ap, c.mul(c.add(c.mul(r, c.c(kt)), q), c16)), c16});
            Value b = c.call(
                c.opaque(bVec), bLoad,
                {c.add(bp, c.mul(c.add(c.mul(q, bt), j), c16)), vl});
            Value cur =
                emitc::LoadOp::create(rewriter, loc, c.opaque(cVec), acc);
            emitc::AssignOp::create(
                rewriter, loc, acc,
                c.call(c.opaque(cVec), callee, {cur, a, b, vl}));
          });
          Value fin = emitc::LoadOp::create(rewriter, loc, c.opaque(cVec), acc);
          c.call(Type(), "__riscv_vse32_v_i32" + lm,
                 {c.add(cp, c.mul(c.add(c.mul(r, bt), j), c16)), fin, vl});
        });
      });
    };
    sumIndex = [tileIndex, bt](Value m, Value row) {
      return tileIndex(m, row, bt);
    };
  }

  // The bias of output m: I32 as int64_t, or F32/F16/BF16 as float.
  auto biasAt = [&](Value m) -> Value {
    Value at = c.add(o.bias, c.c(p.biasOffset));
    Type bt = p.biasInterp.getElementType();
    if (bt.isInteger(32))
      return c.castTo(c.i64, c.load(c.castTo(c.ptr(i32), at), m));
    if (bt.isF32())
      return c.load(c.castTo(c.ptr(f32), at), m);
    return c.call(f32, bt.isF16() ? "coopvec_rv_f16_to_f32"
                                  : "coopvec_rv_bf16_to_f32",
                  {c.load(c.castTo(c.ptr(u16), at), m)});
  };
  auto yIndex = [&](Value row, Value m) {
    return c.add(c.mul(row, c.c(p.m)), m);
  };

  if (!p.quantized) {
    product(c0);
    // Y[n][m] = sat_i32(sum(m, n) + bias[m]); f32 of the exact sum; or f16
    // of it saturated to f16's finite range (the CPU runtime's integer to
    // f16 rule: nearest even, satfinite), exact in f32 before the one
    // rounding.
    c.loop(c0, n, c1, [&](Value row) {
      c.loop(c0, c.c(p.m), c1, [&](Value m) {
        Value s = c.castTo(c.i64, c.load(cp, sumIndex(m, row)));
        if (p.hasBias)
          s = c.add(s, biasAt(m));
        if (p.outputElt.isF16()) {
          Value hmin = c.c(-65504), hmax = c.c(65504);
          s = c.select(c.cmp(P::lt, s, hmin), hmin, s);
          s = c.select(c.cmp(P::gt, s, hmax), hmax, s);
          Value bits = c.call(u16, "coopvec_rv_f32_to_f16", {c.castTo(f32, s)});
          c.store(c.castTo(c.ptr(u16), y), yIndex(row, m), bits);
          return;
        }
        if (p.floatOutput) {
          c.store(y, yIndex(row, m), c.castTo(f32, s));
          return;
        }
        Value smin = c.c(INT32_MIN), smax = c.c(INT32_MAX);
        s = c.select(c.cmp(P::lt, s, smin), smin, s);
        s = c.select(c.cmp(P::gt, s, smax), smax, s);
        c.store(y, yIndex(row, m), c.castTo(i32, s));
      });
    });
    for (Value buffer : scratch)
      c.call(Type(), "free", {buffer});
    return;
  }

  // The quantized form. A zero point, scale or reduction value for (row,
  // k0): weight side dense [M][K/G] at its byte offset, input side [B][K/G]
  // memrefs; per tensor, the one value.
  auto valueIndex = [&](const QuantClause &q, Value row, Value k0,
                        int64_t cols) -> Value {
    if (!q.group)
      return c0;
    return c.add(c.mul(row, c.c(cols)), c.div(k0, c.c(q.group)));
  };
  auto integerAt = [&](const QuantClause &q, Value base, Value index) {
    Type t = q.interp.getElementType();
    Type elt = t.isInteger(32) ? i32 : q.interp.getIsUnsigned() ? u8 : s8;
    return c.castTo(c.i64, c.load(c.castTo(c.ptr(elt), base), index));
  };
  auto realAt = [&](const QuantClause &q, Value base, Value index) -> Value {
    Type t = q.interp.getElementType();
    if (t.isF32())
      return c.load(c.castTo(c.ptr(f32), base), index);
    return c.call(f32,
                  t.isF16() ? "coopvec_rv_f16_to_f32" : "coopvec_rv_bf16_to_f32",
                  {c.load(c.castTo(c.ptr(u16), base), index)});
  };
  auto weightBase = [&](const QuantClause &q, Value buffer) {
    return c.add(buffer, c.c(q.offset));
  };
  const QuantClause &zw = p.weightZeroPoints, &zx = p.inputZeroPoints,
                    &sw = p.weightScales, &sx = p.inputScales,
                    &red = p.reductions;
  // The int64 sum of the current compute group, per output.
  Value acc = c.zeroed(c.i64, c.mul(n, c.c(p.m)), 8);
  scratch.push_back(acc);
  bool needInputSums = zw && !red, needWeightSums = static_cast<bool>(zx);
  Value inputSums, weightSums;
  if (needInputSums) {
    inputSums = c.zeroed(c.i64, n, 8);
    scratch.push_back(inputSums);
  }
  if (needWeightSums) {
    weightSums = c.zeroed(c.i64, c.c(p.m), 8);
    scratch.push_back(weightSums);
  }
  // The f32 sums: the result itself, or (f16/bf16 results) a buffer
  // rounded once at the end.
  Value yf = y;
  bool halfOutput = p.floatOutput && !p.outputElt.isF32();
  if (halfOutput) {
    yf = c.zeroed(f32, c.mul(n, c.c(p.m)), 4);
    scratch.push_back(yf);
  } else if (p.floatOutput) {
    Value zero = emitc::ConstantOp::create(rewriter, loc, f32,
                                           rewriter.getF32FloatAttr(0.0f));
    c.loop(c0, n, c1, [&](Value row) {
      c.loop(c0, c.c(p.m), c1,
             [&](Value m) { c.store(y, yIndex(row, m), zero); });
    });
  }
  auto sumInto = [&](Value buffer, Value i, Value v) {
    c.store(buffer, i, c.add(c.load(buffer, i), v));
  };
  forBlocks([&](Value blk) {
    product(blk);
    Value k0 = c.mul(blk, c.c(p.block)), k1 = c.add(k0, c.c(p.block));
    // Sums over the block of the stored inputs and weights, for the zero
    // point terms: sum (x - zx)(w - zw) = P - zw Sx - zx Sw + block zx zw.
    if (needInputSums)
      c.loop(c0, n, c1, [&](Value row) {
        c.store(inputSums, row, c0);
        c.loop(k0, k1, c1,
               [&](Value k) { sumInto(inputSums, row, inputAt(row, k)); });
      });
    if (needWeightSums)
      c.loop(c0, c.c(p.m), c1, [&](Value m) {
        c.store(weightSums, m, c0);
        c.loop(k0, k1, c1, [&](Value k) {
          sumInto(weightSums, m, c.castTo(c.i64, matrixAt(m, k)));
        });
      });
    c.loop(c0, n, c1, [&](Value row) {
      c.loop(c0, c.c(p.m), c1, [&](Value m) {
        Value t = c.castTo(c.i64, c.load(cp, sumIndex(m, row)));
        Value zxv, zwv;
        if (zx) {
          zxv = integerAt(zx, o.inputZeroPoints,
                          valueIndex(zx, row, k0, zx.cols));
          t = c.sub(t, c.mul(zxv, c.load(weightSums, m)));
        }
        if (zw) {
          zwv = integerAt(zw, weightBase(zw, o.weightZeroPoints),
                          valueIndex(zw, m, k0, zw.perRow(p.k)));
          if (red) {
            // - zw R at the first block of each reduction group; the zero
            // point cross term below gives + zw sum(zx) of the group.
            Value term = c.mul(zwv, integerAt(red, o.reductions,
                                              valueIndex(red, row, k0,
                                                         red.cols)));
            if (red.group != p.block)
              term = c.select(c.cmp(P::eq, c.rem(k0, c.c(red.group)), c0),
                              term, c0);
            t = c.sub(t, term);
          } else {
            t = c.sub(t, c.mul(zwv, c.load(inputSums, row)));
          }
          if (zx)
            t = c.add(t, c.mul(c.c(p.block), c.mul(zxv, zwv)));
        }
        Value at = yIndex(row, m);
        sumInto(acc, at, t);
        if (!p.floatOutput)
          return;
        // The end of a compute group: y += f32(acc) * sx * sw, in this
        // order, never fused (the C is compiled with -ffp-contract=off).
        auto fold = [&] {
          Value a = c.castTo(f32, c.load(acc, at));
          if (sx)
            a = emitc::MulOp::create(
                rewriter, loc, f32, a,
                realAt(sx, o.inputScales, valueIndex(sx, row, k0, sx.cols)));
          if (sw)
            a = emitc::MulOp::create(
                rewriter, loc, f32, a,
                realAt(sw, weightBase(sw, o.weightScales),
                       valueIndex(sw, m, k0, sw.perRow(p.k))));
          c.store(yf, at, c.add(c.load(yf, at), a));
          c.store(acc, at, c0);
        };
        if (p.computeGroup == p.block)
          return fold();
        c.ifThen(c.cmp(P::eq, c.rem(k1, c.c(p.computeGroup)), c0), fold);
      });
    });
  });
  // The epilogue: an i32 result is the exact sum plus the I32 bias,
  // saturated; a float one gets the bias added in f32, then one rounding
  // (to nearest even) to f16/bf16.
  if (!p.floatOutput || p.hasBias || halfOutput)
    c.loop(c0, n, c1, [&](Value row) {
      c.loop(c0, c.c(p.m), c1, [&](Value m) {
        Value at = yIndex(row, m);
        if (p.floatOutput) {
          Value v = c.load(yf, at);
          if (p.hasBias)
            v = c.add(v, biasAt(m));
          if (!halfOutput)
            return c.store(y, at, v);
          Value bits = c.call(u16,
                              p.outputElt.isF16() ? "coopvec_rv_f32_to_f16"
                                                  : "coopvec_rv_f32_to_bf16",
                              {v});
          c.store(c.castTo(c.ptr(u16), y), at, bits);
          return;
        }
        Value s = c.load(acc, at);
        if (p.hasBias)
          s = c.add(s, biasAt(m));
        Value smin = c.c(INT32_MIN), smax = c.c(INT32_MAX);
        s = c.select(c.cmp(P::lt, s, smin), smin, s);
        s = c.select(c.cmp(P::gt, s, smax), smax, s);
        c.store(y, at, c.castTo(i32, s));
      });
    });
  for (Value buffer : scratch)
    c.call(Type(), "free", {buffer});
}

/// A product pattern with the pass's vector unit choices.
template <typename OpT>
class ProductLowering : public OpConversionPattern<OpT> {
public:
  ProductLowering(const TypeConverter &converter, MLIRContext *ctx,
                  bool generic, unsigned lmul, unsigned minVlen)
      : OpConversionPattern<OpT>(converter, ctx), generic(generic), lmul(lmul),
        minVlen(minVlen) {}

protected:
  bool generic;
  unsigned lmul, minVlen;
};

/// coopvec.batch_matvec -> the product over its memrefs.
class BatchMatVecOpLowering : public ProductLowering<BatchMatVecOp> {
public:
  using ProductLowering::ProductLowering;

  LogicalResult
  matchAndRewrite(BatchMatVecOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    std::string why;
    FailureOr<MatVecPlan> plan = planMatVec(op, why);
    if (failed(plan))
      return rewriter.notifyMatchFailure(op, why);
    MatVecOperands o;
    auto take = [](ValueRange converted, Value &data, Value &size) {
      if (converted.empty())
        return;
      data = converted[0];
      size = converted[1];
    };
    take(adaptor.getInputs(), o.x, o.n);
    take(adaptor.getMatrix(), o.w, o.wBytes);
    take(adaptor.getOutputs(), o.y, o.yRows);
    take(adaptor.getBias(), o.bias, o.biasBytes);
    take(adaptor.getWeightZeroPoints(), o.weightZeroPoints,
         o.weightZeroPointsBytes);
    take(adaptor.getWeightScales(), o.weightScales, o.weightScalesBytes);
    take(adaptor.getInputZeroPoints(), o.inputZeroPoints,
         o.inputZeroPointsRows);
    take(adaptor.getInputScales(), o.inputScales, o.inputScalesRows);
    take(adaptor.getReductions(), o.reductions, o.reductionsRows);
    emitMatVec(rewriter, op.getLoc(), *plan, o, "coopvec.batch_matvec",
               generic, chooseLmul(*plan, generic, lmul, minVlen));
    rewriter.eraseOp(op);
    return success();
  }
};

/// coopvec.matvec -> a batch of one: the input vector as one row, the
/// result in a local array (`T v[M]`) whose address stands for the vector.
class MatVecOpLowering : public ProductLowering<MatVecOp> {
public:
  using ProductLowering::ProductLowering;

  LogicalResult
  matchAndRewrite(MatVecOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    std::string why;
    FailureOr<MatVecPlan> plan = planMatVec(op, why);
    if (failed(plan))
      return rewriter.notifyMatchFailure(op, why);
    auto resultType = cast<VectorType>(op.getResult().getType());
    Location loc = op.getLoc();
    CBuilder c(rewriter, loc);
    auto array = emitc::VariableOp::create(
        rewriter, loc,
        emitc::ArrayType::get({resultType.getNumElements()},
                              resultType.getElementType()),
        emitc::OpaqueAttr::get(op.getContext(), ""));
    auto first = emitc::SubscriptOp::create(
        rewriter, loc, cast<TypedValue<emitc::ArrayType>>(array.getResult()),
        ValueRange{c.c(0)});
    Value result = emitc::ApplyOp::create(
        rewriter, loc, c.ptr(resultType.getElementType()), "&", first);
    MatVecOperands o;
    o.x = adaptor.getInput()[0];
    o.n = c.c(1);
    o.w = adaptor.getMatrix()[0];
    o.wBytes = adaptor.getMatrix()[1];
    o.y = result;
    if (!adaptor.getBias().empty()) {
      o.bias = adaptor.getBias()[0];
      o.biasBytes = adaptor.getBias()[1];
    }
    emitMatVec(rewriter, loc, *plan, o, "coopvec.matvec", generic,
               chooseLmul(*plan, generic, lmul, minVlen));
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// Located errors for what the lowering does not take, before converting.
LogicalResult checkSupported(ModuleOp module) {
  bool ok = true;
  module.walk([&](Operation *op) {
    // Constants are folded into the C where an op reads them; a vector
    // constant has no C form here.
    if (auto cst = dyn_cast<arith::ConstantOp>(op)) {
      if (isa<ShapedType>(cst.getType())) {
        cst.emitError("vector constants are not lowered by "
                      "--convert-coopvec-to-riscv");
        ok = false;
      }
      return;
    }
    if (isa<ModuleOp, func::ReturnOp>(op))
      return;
    if (auto func = dyn_cast<func::FuncOp>(op)) {
      if (func.isExternal()) {
        func.emitError("the RISC-V C target takes functions with a body");
        ok = false;
      }
      // Vectors: one-dimensional, of integers or floats (T * in C).
      auto isVector = [](Type t) {
        auto v = dyn_cast<VectorType>(t);
        return v && v.getRank() == 1 && !v.isScalable() &&
               v.getElementType().isIntOrFloat();
      };
      for (Type t : func.getArgumentTypes())
        if (!isa<MemRefType>(t) && !isVector(t)) {
          func.emitError("the RISC-V C target takes memref and vector "
                         "arguments only, got ")
              << t;
          ok = false;
          break;
        }
      for (Type t : func.getResultTypes())
        if (!isVector(t)) {
          func.emitError("the RISC-V C target takes vector results only, "
                         "got ")
              << t;
          ok = false;
          break;
        }
      return;
    }
    auto reject = [&](Operation *op, FailureOr<MatVecPlan> plan,
                      const std::string &why) {
      if (failed(plan)) {
        op->emitError(why);
        ok = false;
      }
    };
    if (auto mv = dyn_cast<BatchMatVecOp>(op)) {
      std::string why;
      reject(op, planMatVec(mv, why), why);
      return;
    }
    if (auto mv = dyn_cast<MatVecOp>(op)) {
      std::string why;
      reject(op, planMatVec(mv, why), why);
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
  patterns.add<BatchMatVecOpLowering, MatVecOpLowering>(converter, ctx,
                                                        generic, lmul, minVlen);
}
