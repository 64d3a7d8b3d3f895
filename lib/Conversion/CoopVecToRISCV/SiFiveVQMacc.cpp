//===- SiFiveVQMacc.cpp - int8 matrix products as SiFive sf.vqmacc --------===//
//
// The xsfvqmacc-4x8x4 / xsfvqmacc-2x8x2 isas of --convert-coopvec-to-riscv:
// coopvec.matvec (a batch of one row, vectors passed as memrefs) and
// coopvec.batch_matvec, the quantized form included -> scf/arith/memref
// loops that pack A and B tiles into scratch buffers and run
// llvm.riscv.sf.vqmacc* (XSfvqmaccqoq, XSfvqmaccdod) over them, on scalable
// vectors through llvm.call_intrinsic, then the epilogue.
// The upstream LLVM lowerings then give LLVM IR for riscv64. Semantics,
// operand layouts and LMUL pairings: docs/RISCV.md ("SiFive XSfvqmacc").
//
//===----------------------------------------------------------------------===//

#include "LinAlgCoop/Conversion/CoopVecToRISCV/CoopVecToRISCV.h"

#include "MatVecPlan.h"

#include "LinAlgCoop/Conversion/BitConversions.h"
#include "LinAlgCoop/Conversion/DxilInputs.h"
#include "LinAlgCoop/Dialect/CoopVec/IR/CoopVecDialect.h"
#include "LinAlgCoop/Dialect/CoopVec/IR/CoopVecOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

#include <functional>

using namespace mlir;
using namespace mlir::coopvec;
using namespace mlir::coopvec::riscv;

namespace {

/// vsetvli's vtype encodings (RVV 1.0: vsew, vlmul).
constexpr int64_t kSewE8 = 0;
int64_t vlmulCode(unsigned eighths) { // LMUL in eighths: 2 = mf4 ... 64 = m8
  switch (eighths) {
  case 2:
    return 6; // mf4
  case 4:
    return 7; // mf2
  case 8:
    return 0;
  case 16:
    return 1;
  case 32:
    return 2;
  default:
    return 3; // m8
  }
}

/// sf.vqmacc*.4x8x4 and .2x8x2: C (tm x tn, int32, row-major) += A (tm x 8
/// int8, row-major, in vs1) x B (8 x tn int8, row-major, in vs2), for
/// every B tile of vs2.
struct TileShape {
  StringRef name; // 4x8x4
  int64_t tm, tn;
  static constexpr int64_t tk = 8;
  int64_t aBytes() const { return tm * tk; }
  int64_t bBytes() const { return tk * tn; }
  int64_t cElements() const { return tm * tn; }
  /// vs2's LMUL in eighths for vd's LMUL `l`: as many tiles in both, so
  /// half of it for 4x8x4 (32 B bytes per 16 C words), the same for 2x8x2
  /// (16 bytes per 4 words).
  unsigned bEighths(unsigned l) const {
    return 8 * l * bBytes() / (4 * cElements());
  }
};

TileShape tileShape(StringRef isa) {
  assert((isa == "xsfvqmacc-4x8x4" || isa == "xsfvqmacc-2x8x2") &&
         "the pass validates the isa");
  if (isa == "xsfvqmacc-4x8x4")
    return {"4x8x4", 4, 4};
  return {"2x8x2", 2, 2};
}

/// The smallest LMUL of vd that holds, at `minVlen`, a whole C tile and, for
/// a static batch, every batch tile's C tile; 8 for a dynamic batch.
unsigned chooseLmul(const TileShape &s, const MatVecPlan &p, unsigned lmul,
                    unsigned minVlen) {
  if (lmul)
    return lmul;
  if (!p.staticBatch)
    return 8;
  // 4x8x4 needs VLEN >= 256 for its 32-byte A tile in one register.
  int64_t vlen = std::max<int64_t>(minVlen, s.aBytes() * 8);
  int64_t elements =
      s.cElements() *
      std::max<int64_t>(1, llvm::divideCeil(*p.staticBatch, s.tn));
  unsigned want = 1;
  while (want < 8 && vlen * want / 32 < elements)
    want *= 2;
  return want;
}

/// Builds the loops with index arithmetic (`b` inserts at the current point).
struct Builder {
  ImplicitLocOpBuilder &b;
  Type i8, i32, i64, idx, ptr;

  explicit Builder(ImplicitLocOpBuilder &b)
      : b(b), i8(b.getI8Type()), i32(b.getI32Type()), i64(b.getI64Type()),
        idx(b.getIndexType()), ptr(LLVM::LLVMPointerType::get(b.getContext())) {
  }

  Value c(int64_t v) { return arith::ConstantIndexOp::create(b, v); }
  Value ci(Type t, int64_t v) {
    return arith::ConstantOp::create(b,
                                     cast<TypedAttr>(b.getIntegerAttr(t, v)));
  }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, x, y); }
  Value sub(Value x, Value y) { return arith::SubIOp::create(b, x, y); }
  Value mul(Value x, Value y) { return arith::MulIOp::create(b, x, y); }
  Value div(Value x, Value y) { return arith::DivUIOp::create(b, x, y); }
  Value rem(Value x, Value y) { return arith::RemUIOp::create(b, x, y); }
  Value cmp(arith::CmpIPredicate p, Value x, Value y) {
    return arith::CmpIOp::create(b, p, x, y);
  }
  Value toI64(Value index) { return arith::IndexCastOp::create(b, i64, index); }
  Value clamp(Value v, int64_t lo, int64_t hi) {
    Value l = ci(v.getType(), lo), h = ci(v.getType(), hi);
    return arith::MinSIOp::create(b, arith::MaxSIOp::create(b, v, l), h);
  }
  /// The i64 `v` as an f16: saturated to f16's finite range (the CPU
  /// runtime's integer to f16 rule: nearest even, satfinite), exact as an
  /// f32 (|v| < 2^17), then rounded once to nearest even on the f32's bits
  /// (BitConversions::dxilToF16), since f16 arithmetic would need Zfh or a
  /// libcall libgcc 12 lacks.
  Value toF16(Value v) {
    Value f =
        arith::SIToFPOp::create(b, b.getF32Type(), clamp(v, -65504, 65504));
    return BitConversions{b, b.getLoc()}.dxilToF16(f);
  }
  /// `for (iv = lb; iv < ub; iv += step) body(iv)`.
  void loop(Value lb, Value ub, Value step,
            llvm::function_ref<void(Value)> body) {
    auto forOp = scf::ForOp::create(b, lb, ub, step);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(forOp.getBody()->getTerminator());
    body(forOp.getInductionVar());
  }
  /// The address of byte `byteOffset` of `buffer` (past the memref's own
  /// offset, a subview's) as an !llvm.ptr.
  Value address(Value buffer, Value byteOffset) {
    Value base = memref::ExtractAlignedPointerAsIndexOp::create(b, buffer);
    auto type = cast<MemRefType>(buffer.getType());
    int64_t offset;
    SmallVector<int64_t> strides;
    if (failed(type.getStridesAndOffset(strides, offset)) || offset != 0) {
      Value elements =
          memref::ExtractStridedMetadataOp::create(b, buffer).getOffset();
      base = add(base, mul(elements,
                           c(type.getElementTypeBitWidth() / 8)));
    }
    return LLVM::IntToPtrOp::create(b, ptr, add(toI64(base), byteOffset));
  }
  Value intrinsic(Type result, StringRef name, ValueRange args) {
    if (!result) {
      LLVM::CallIntrinsicOp::create(b, b.getStringAttr(name), args);
      return Value();
    }
    return LLVM::CallIntrinsicOp::create(b, result, b.getStringAttr(name), args)
        .getResult(0);
  }
};

/// A private declaration `@name : type` in `module` (created once).
func::FuncOp declare(OpBuilder &b, ModuleOp module, StringRef name,
                     FunctionType type) {
  if (auto f = module.lookupSymbol<func::FuncOp>(name))
    return f;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToEnd(module.getBody());
  auto f = func::FuncOp::create(b, module.getLoc(), name, type);
  f.setPrivate();
  return f;
}

/// The address of a private NUL-terminated global of `module` holding
/// `text` (one global per text).
Value globalString(ImplicitLocOpBuilder &b, ModuleOp module, StringRef text) {
  std::string bytes = (text + Twine('\0')).str();
  StringRef name;
  unsigned count = 0;
  for (auto g : module.getOps<LLVM::GlobalOp>()) {
    if (!g.getSymName().starts_with("coopvec_rv_str"))
      continue;
    ++count;
    if (auto v = dyn_cast_or_null<StringAttr>(g.getValueOrNull());
        v && v.getValue() == bytes)
      name = g.getSymName();
  }
  std::string fresh;
  if (name.empty()) {
    fresh = llvm::formatv("coopvec_rv_str{0}", count).str();
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(module.getBody());
    LLVM::GlobalOp::create(
        b, LLVM::LLVMArrayType::get(b.getI8Type(), bytes.size()),
        /*isConstant=*/true, LLVM::Linkage::Private, fresh,
        b.getStringAttr(bytes));
    name = fresh;
  }
  return LLVM::AddressOfOp::create(
      b, LLVM::LLVMPointerType::get(b.getContext()), name);
}

/// `if (failed) coopvec_rv_error(site, what);` (the hook does not return).
void check(ImplicitLocOpBuilder &b, ModuleOp module, Value failed,
           StringRef site, StringRef what) {
  Type ptr = LLVM::LLVMPointerType::get(b.getContext());
  func::FuncOp hook =
      declare(b, module, "coopvec_rv_error", b.getFunctionType({ptr, ptr}, {}));
  auto ifOp = scf::IfOp::create(b, failed, /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
  func::CallOp::create(
      b, hook,
      ValueRange{globalString(b, module, site), globalString(b, module, what)});
}

/// What the quantized form's steps take from the lowering of the product.
struct ProductSteps {
  /// Writes the int32 sums of K block `blk` (an index).
  std::function<void(Value)> product;
  /// The current block's sum (m, row), as i64.
  std::function<Value(Value, Value)> sumAt;
  /// W[m][k] and X[row][k] as stored, as i64 of their signedness.
  std::function<Value(Value, Value)> matrixValue, inputValue;
  /// The f32 of an F32, F16 or BF16 value (or an i16 of the 16-bit ones'
  /// bits) of the given type.
  std::function<Value(Value, Type)> realOf;
  /// The bias of output m: I32 as i64, float as f32.
  std::function<Value(Value)> biasAt;
  /// Stores Y[row][m] from an i64 total (i32 results) or an f32 value.
  std::function<void(Value, Value, Value)> storeResult;
  /// A zeroed scratch buffer of `count` elements of the type (of the given
  /// bytes), freed at the end of the product.
  std::function<Value(Type, Value, int64_t)> zeroed;
};

/// The quantized form after the packing (docs/RISCV.md, "The quantized
/// form"; the C path's emitMatVec builds the same steps in C): per K block,
/// the sf.vqmacc sums P, then sum (x - zx)(w - zw) = P - zw Sx - zx Sw +
/// block zx zw in i64 (with reductions, - zw R at the first block of each
/// reduction group instead of - zw Sx), the compute group's f32 steps
/// y += (f32(acc) * sx) * sw, and the epilogue (bias, one rounding).
void emitQuantized(Builder &c, const MatVecPlan &p,
                   BatchMatVecOp::Adaptor adaptor, Value n, int64_t blocks,
                   const ProductSteps &steps) {
  ImplicitLocOpBuilder &ib = c.b;
  using P = arith::CmpIPredicate;
  Type f32 = ib.getF32Type();
  Value c0 = c.c(0), c1 = c.c(1);
  const QuantClause &zw = p.weightZeroPoints, &zx = p.inputZeroPoints,
                    &sw = p.weightScales, &sx = p.inputScales,
                    &red = p.reductions;
  // A weight-side value for output m at column k0: dense [M][K/G] at the
  // clause's byte offset of its buffer (per tensor, the one value).
  auto weightAt = [&](const QuantClause &q, Value buffer, Value m, Value k0) {
    Value index =
        q.group ? c.add(c.mul(m, c.c(q.perRow(p.k))), c.div(k0, c.c(q.group)))
                : c0;
    Value at =
        c.toI64(c.add(c.c(q.offset), c.mul(index, c.c(valueBytes(q.interp)))));
    Type t = q.interp.getElementType();
    Type load = t.isInteger() || t.isF32()
                    ? t
                    : Type(IntegerType::get(ib.getContext(), 16));
    return LLVM::LoadOp::create(ib, load, c.address(buffer, at), 1).getResult();
  };
  // An input-side value for batch row `row` at column k0: [B][K/G] (per
  // tensor, element (0, 0)).
  auto inputAt = [&](const QuantClause &q, Value values, Value row,
                     Value k0) -> Value {
    if (!q.group)
      return memref::LoadOp::create(ib, values, ValueRange{c0, c0});
    return memref::LoadOp::create(ib, values,
                                  ValueRange{row, c.div(k0, c.c(q.group))});
  };
  auto integer = [&](const QuantClause &q, Value v) -> Value {
    if (v.getType().isInteger(32) || !q.interp.getIsUnsigned())
      return arith::ExtSIOp::create(ib, c.i64, v);
    return arith::ExtUIOp::create(ib, c.i64, v);
  };
  auto real = [&](const QuantClause &q, Value v) {
    return steps.realOf(v, q.interp.getElementType());
  };
  auto load = [&](Value buffer, Value i) {
    return memref::LoadOp::create(ib, buffer, i).getResult();
  };
  auto store = [&](Value v, Value buffer, Value i) {
    memref::StoreOp::create(ib, v, buffer, i);
  };

  // The i64 sum of the current compute group, per output; the block's sums
  // of stored inputs and weights where a zero point needs them; the f32
  // sums of a float result.
  Value nm = c.mul(n, c.c(p.m));
  Value acc = steps.zeroed(c.i64, nm, 8);
  bool needInputSums = zw && !red, needWeightSums = static_cast<bool>(zx);
  Value inputSums, weightSums, yf;
  if (needInputSums)
    inputSums = steps.zeroed(c.i64, n, 8);
  if (needWeightSums)
    weightSums = steps.zeroed(c.i64, c.c(p.m), 8);
  if (p.floatOutput)
    yf = steps.zeroed(f32, nm, 4);
  auto yIndex = [&](Value row, Value m) {
    return c.add(c.mul(row, c.c(p.m)), m);
  };
  auto sumInto = [&](Value buffer, Value i, Value v) {
    store(c.add(load(buffer, i), v), buffer, i);
  };

  auto block = [&](Value blk) {
    steps.product(blk);
    Value k0 = c.mul(blk, c.c(p.block)), k1 = c.add(k0, c.c(p.block));
    if (needInputSums)
      c.loop(c0, n, c1, [&](Value row) {
        store(c.ci(c.i64, 0), inputSums, row);
        c.loop(k0, k1, c1, [&](Value k) {
          sumInto(inputSums, row, steps.inputValue(row, k));
        });
      });
    if (needWeightSums)
      c.loop(c0, c.c(p.m), c1, [&](Value m) {
        store(c.ci(c.i64, 0), weightSums, m);
        c.loop(k0, k1, c1, [&](Value k) {
          sumInto(weightSums, m, steps.matrixValue(m, k));
        });
      });
    c.loop(c0, n, c1, [&](Value row) {
      c.loop(c0, c.c(p.m), c1, [&](Value m) {
        Value t = steps.sumAt(m, row);
        Value zxv, zwv;
        if (zx) {
          zxv = integer(zx, inputAt(zx, adaptor.getInputZeroPoints(), row, k0));
          t = c.sub(t, c.mul(zxv, load(weightSums, m)));
        }
        if (zw) {
          zwv = integer(zw, weightAt(zw, adaptor.getWeightZeroPoints(), m, k0));
          if (red) {
            // - zw R at the first block of each reduction group; the zero
            // point cross term below gives + zw sum(zx) of the group.
            Value term = c.mul(
                zwv,
                integer(red, inputAt(red, adaptor.getReductions(), row, k0)));
            if (red.group != p.block)
              term = arith::SelectOp::create(
                  ib, c.cmp(P::eq, c.rem(k0, c.c(red.group)), c0), term,
                  c.ci(c.i64, 0));
            t = c.sub(t, term);
          } else {
            t = c.sub(t, c.mul(zwv, load(inputSums, row)));
          }
          if (zx)
            t = c.add(t, c.mul(c.ci(c.i64, p.block), c.mul(zxv, zwv)));
        }
        Value at = yIndex(row, m);
        sumInto(acc, at, t);
        if (!p.floatOutput)
          return;
        // The end of a compute group: y += f32(acc) * sx * sw, in this
        // order (LLVM fuses nothing without the contract flag).
        auto fold = [&] {
          Value a = arith::SIToFPOp::create(ib, f32, load(acc, at));
          if (sx)
            a = arith::MulFOp::create(
                ib, a,
                real(sx, inputAt(sx, adaptor.getInputScales(), row, k0)));
          if (sw)
            a = arith::MulFOp::create(
                ib, a,
                real(sw, weightAt(sw, adaptor.getWeightScales(), m, k0)));
          store(arith::AddFOp::create(ib, load(yf, at), a), yf, at);
          store(c.ci(c.i64, 0), acc, at);
        };
        if (p.computeGroup == p.block)
          return fold();
        auto ifOp = scf::IfOp::create(
            ib, c.cmp(P::eq, c.rem(k1, c.c(p.computeGroup)), c0),
            /*withElseRegion=*/false);
        OpBuilder::InsertionGuard guard(ib);
        ib.setInsertionPoint(ifOp.thenBlock()->getTerminator());
        fold();
      });
    });
  };
  if (blocks == 1)
    block(c0);
  else
    c.loop(c0, c.c(blocks), c1, block);

  // The epilogue: an i32 result is the exact total plus the I32 bias,
  // saturated; a float one gets the bias added in f32, then one rounding
  // (to nearest even) to f16/bf16.
  c.loop(c0, n, c1, [&](Value row) {
    c.loop(c0, c.c(p.m), c1, [&](Value m) {
      Value at = yIndex(row, m);
      Value v = load(p.floatOutput ? yf : acc, at);
      if (p.hasBias)
        v = p.floatOutput ? Value(arith::AddFOp::create(ib, v, steps.biasAt(m)))
                          : c.add(v, steps.biasAt(m));
      steps.storeResult(row, m, v);
    });
  });
}

/// coopvec.batch_matvec -> packing, the sf.vqmacc loop nest, bias and
/// saturation (the steps of the pass description).
class BatchMatVecToSiFive : public OpConversionPattern<BatchMatVecOp> {
public:
  BatchMatVecToSiFive(MLIRContext *ctx, TileShape shape, unsigned lmul,
                      unsigned minVlen, bool emulate)
      : OpConversionPattern(ctx), shape(shape), lmul(lmul), minVlen(minVlen),
        emulate(emulate) {}

  LogicalResult
  matchAndRewrite(BatchMatVecOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    std::string why;
    FailureOr<MatVecPlan> plan = planMatVec(op, why);
    if (failed(plan))
      return rewriter.notifyMatchFailure(op, why);
    const MatVecPlan &p = *plan;
    const TileShape &s = shape;
    unsigned l = chooseLmul(s, p, lmul, minVlen);
    unsigned bEighths = s.bEighths(l);
    // A matvec rewritten as a batch of one (matVecsAsBatches) keeps its
    // name in the location: the errors name the op the user wrote.
    std::string site = "coopvec.batch_matvec";
    Location where = op.getLoc();
    if (auto named = dyn_cast<NameLoc>(where)) {
      site = named.getName().str();
      where = named.getChildLoc();
    }
    if (auto fl = dyn_cast<FileLineColLoc>(where))
      site += llvm::formatv(" at {0}:{1}:{2}", fl.getFilename().getValue(),
                            fl.getLine(), fl.getColumn())
                  .str();
    ImplicitLocOpBuilder ib(op.getLoc(), rewriter);
    Builder c(ib);
    MLIRContext *ctx = op.getContext();
    auto module = op->getParentOfType<ModuleOp>();
    using P = arith::CmpIPredicate;
    Value x = adaptor.getInputs(), w = adaptor.getMatrix(),
          y = adaptor.getOutputs();
    Value n = memref::DimOp::create(ib, x, 0);

    // Checks: the batch, the buffers, whole tiles at this VLEN and LMUL.
    check(ib, module, c.cmp(P::ne, n, memref::DimOp::create(ib, y, 0)), site,
          "input and output batches differ in rows");
    check(ib, module,
          c.cmp(P::ugt, c.c(p.matrixOffset + p.footprint),
                memref::DimOp::create(ib, w, 0)),
          site, "matrix out of bounds");
    if (p.hasBias)
      check(ib, module,
            c.cmp(P::ugt, c.c(p.biasOffset + valueBytes(p.biasInterp) * p.m),
                  memref::DimOp::create(ib, adaptor.getBias(), 0)),
            site, "bias out of bounds");
    // The quantized form's clauses: weight side [M][K/G] values at their
    // byte offsets, input side a row per batch row (one per tensor).
    auto checkWeightSide = [&](const QuantClause &q, Value buffer,
                               StringRef what) {
      if (!q)
        return;
      int64_t values = q.group ? p.m * q.perRow(p.k) : 1;
      check(ib, module,
            c.cmp(P::ugt, c.c(q.offset + valueBytes(q.interp) * values),
                  memref::DimOp::create(ib, buffer, 0)),
            site, what);
    };
    checkWeightSide(p.weightZeroPoints, adaptor.getWeightZeroPoints(),
                    "weight zero points out of bounds");
    checkWeightSide(p.weightScales, adaptor.getWeightScales(),
                    "weight scales out of bounds");
    auto checkInputSide = [&](const QuantClause &q, Value values,
                              StringRef what) {
      if (q)
        check(ib, module,
              c.cmp(P::ult, memref::DimOp::create(ib, values, 0),
                    q.group ? n : c.c(1)),
              site, what);
    };
    checkInputSide(p.inputZeroPoints, adaptor.getInputZeroPoints(),
                   "input zero points have fewer rows than the batch");
    checkInputSide(p.inputScales, adaptor.getInputScales(),
                   "input scales have fewer rows than the batch");
    checkInputSide(p.reductions, adaptor.getReductions(),
                   "reductions have fewer rows than the batch");
    auto vlmax = [&](unsigned eighths) {
      return c.intrinsic(
          c.i64, "llvm.riscv.vsetvlimax",
          {c.ci(c.i64, kSewE8), c.ci(c.i64, vlmulCode(eighths))});
    };
    Value vlenb = vlmax(8), bBytesMax = vlmax(bEighths);
    // vs1 holds the whole A tile; vs2 at least one B tile (then vd holds its
    // C tile: the pairing gives both the same tile count).
    check(
        ib, module,
        arith::OrIOp::create(ib, c.cmp(P::slt, vlenb, c.ci(c.i64, s.aBytes())),
                             c.cmp(P::slt, bBytesMax, c.ci(c.i64, s.bBytes()))),
        site,
        llvm::formatv("VLEN too small for whole {0} tiles at LMUL {1}", s.name,
                      l)
            .str());

    // K in blocks of p.block columns (one block without the quantized
    // form), each packed as its own run of K tiles (a block that is not a
    // multiple of 8 is zero-padded to whole tiles) and summed separately:
    // column k packs at (k / block) * blockTiles * 8 + k % block.
    int64_t blocks = p.k / p.block;
    int64_t blockTiles = llvm::divideCeil(p.block, TileShape::tk);
    int64_t mt = llvm::divideCeil(p.m, s.tm);
    int64_t kt = blocks * blockTiles;
    Value c0 = c.c(0), c1 = c.c(1), c8 = c.c(TileShape::tk);
    Value cTm = c.c(s.tm), cTn = c.c(s.tn);
    Value bt = c.div(c.add(n, c.c(s.tn - 1)), cTn);
    auto packedK = [&](Value k) {
      if (blocks == 1)
        return k;
      return c.add(
          c.mul(c.div(k, c.c(p.block)), c.c(blockTiles * TileShape::tk)),
          c.rem(k, c.c(p.block)));
    };
    // Scratch: A tiles [mt][kt], B tiles [kt][bt] (zero padding: memset),
    // C tiles [mt][bt] (every one written by the loop nest). One element
    // more than needed: an empty batch still allocates.
    SmallVector<Value> scratch;
    auto zeroed = [&](Type elt, Value count, int64_t eltBytes) {
      Value buffer = memref::AllocOp::create(
          ib, MemRefType::get({ShapedType::kDynamic}, elt), ValueRange{count});
      LLVM::MemsetOp::create(ib, c.address(buffer, c.ci(c.i64, 0)),
                             c.ci(c.i8, 0),
                             c.toI64(c.mul(count, c.c(eltBytes))),
                             /*isVolatile=*/false);
      scratch.push_back(buffer);
      return buffer;
    };
    Value ap = zeroed(c.i8, c.c(mt * kt * s.aBytes()), 1);
    Value bp = zeroed(c.i8, c.add(c.mul(c.c(kt * s.bBytes()), bt), c1), 1);
    Value cp = zeroed(c.i32, c.add(c.mul(c.c(mt * s.cElements()), bt), c1), 4);

    // W[m][k] as its int8 value: the byte, or for I4/U4 nibble
    // storedCol % 2 of it (stored columns 2j and 2j + 1 share byte j, the
    // even one in the low nibble; the stored columns are k, or m when
    // transposed), sign-extended for I4 as (v ^ 8) - 8.
    auto matrixAt = [&](Value m, Value k) -> Value {
      if (!p.matrixNibbles)
        return memref::LoadOp::create(ib, w, matrixByte(c, p, m, k));
      Value storedCol = p.transpose ? m : k;
      Value at = p.transpose ? matrixByte(c, p, c.div(m, c.c(2)), k)
                             : matrixByte(c, p, m, c.div(k, c.c(2)));
      Value shift = arith::IndexCastOp::create(
          ib, c.i8, c.mul(c.rem(storedCol, c.c(2)), c.c(4)));
      Value nibble = arith::AndIOp::create(
          ib,
          arith::ShRUIOp::create(ib, memref::LoadOp::create(ib, w, at), shift),
          c.ci(c.i8, 15));
      if (p.matrixUnsigned)
        return nibble;
      return c.sub(arith::XOrIOp::create(ib, nibble, c.ci(c.i8, 8)),
                   c.ci(c.i8, 8));
    };
    // X[n][k] as a byte of the input interpretation: byte k of the packed
    // row, the i8 of the quantized form, i32 saturated or f32 converted.
    auto inputAt = [&](Value row, Value k) -> Value {
      if (p.inputPacked) {
        Value word =
            memref::LoadOp::create(ib, x, ValueRange{row, c.div(k, c.c(4))});
        Value shift = arith::IndexCastOp::create(
            ib, c.i32, c.mul(c.rem(k, c.c(4)), c.c(8)));
        return arith::TruncIOp::create(ib, c.i8,
                                       arith::ShRUIOp::create(ib, word, shift));
      }
      Value raw = memref::LoadOp::create(ib, x, ValueRange{row, k});
      if (p.inputElt.isInteger(8))
        return raw;
      // i32 saturated, f32 by DXIL's rule (NaN 0, nearest even,
      // saturated), as the GPU lowerings and coopvec_rv_f32_to_int read it.
      return arith::TruncIOp::create(
          ib, c.i8,
          dxilInputToByte(
              ib, ib.getLoc(), raw, !p.inputUnsignedInterp,
              p.inputUnsignedValue,
              [&](Value l, Value r) { return arith::AddFOp::create(ib, l, r); },
              [&](Value l, Value r) {
                return arith::SubFOp::create(ib, l, r);
              }));
    };
    // An int8 value as i64, by its signedness.
    auto widen = [&](Value byte, bool isUnsigned) -> Value {
      if (isUnsigned)
        return arith::ExtUIOp::create(ib, c.i64, byte);
      return arith::ExtSIOp::create(ib, c.i64, byte);
    };

    // A tiles: W[m][k] at byte (m % tm) * 8 + k % 8 of tile (m / tm, k' / 8)
    // (k' the packed column).
    c.loop(c0, c.c(p.m), c1, [&](Value m) {
      c.loop(c0, c.c(p.k), c1, [&](Value k) {
        Value pk = packedK(k);
        Value tile = c.add(c.mul(c.div(m, cTm), c.c(kt)), c.div(pk, c8));
        Value in = c.add(c.mul(c.rem(m, cTm), c8), c.rem(pk, c8));
        memref::StoreOp::create(ib, matrixAt(m, k), ap,
                                c.add(c.mul(tile, c.c(s.aBytes())), in));
      });
    });
    // B tiles: X[n][k] at byte (k' % 8) * tn + n % tn of tile (k' / 8,
    // n / tn): an 8 x tn tile stored row by row (docs/RISCV.md, checked
    // against QEMU's helper), each batch row one of its columns.
    c.loop(c0, n, c1, [&](Value row) {
      c.loop(c0, c.c(p.k), c1, [&](Value k) {
        Value pk = packedK(k);
        Value tile = c.add(c.mul(c.div(pk, c8), bt), c.div(row, cTn));
        Value in = c.add(c.mul(c.rem(pk, c8), cTn), c.rem(row, cTn));
        memref::StoreOp::create(ib, inputAt(row, k), bp,
                                c.add(c.mul(tile, c.c(s.bBytes())), in));
      });
    });

    // C tiles = A x B over block `blk`: per row tile, one sf.vqmacc per K
    // tile of the block over as many batch tiles as vs2 holds; vl counts
    // vs2's bytes (SEW 8 at its LMUL).
    auto cVec =
        VectorType::get({int64_t(2 * l)}, c.i32, /*scalableDims=*/{true});
    auto aVec = VectorType::get({8}, c.i8, {true});
    auto bVec = VectorType::get({int64_t(bEighths)}, c.i8, {true});
    std::string form =
        vqmaccName(p.matrixUnsigned, p.inputUnsignedInterp).str();
    func::FuncOp emulation;
    if (emulate)
      emulation = declare(
          ib, module,
          llvm::formatv("coopvec_sf_{0}_{1}_i32m{2}", form, s.name, l).str(),
          FunctionType::get(ctx, {cVec, aVec, bVec, c.i64}, {cVec}));
    std::string intrinsicName = ("llvm.riscv.sf." + form + "." + s.name).str();
    Value tilesPerVl = arith::IndexCastOp::create(
        ib, c.idx,
        arith::DivUIOp::create(ib, bBytesMax, c.ci(c.i64, s.bBytes())));
    auto product = [&](Value blk) {
      Value q0 = c.mul(blk, c.c(blockTiles));
      c.loop(c0, c.c(mt), c1, [&](Value r) {
        c.loop(c0, bt, tilesPerVl, [&](Value j) {
          Value count = arith::MinUIOp::create(ib, c.sub(bt, j), tilesPerVl);
          Value vlB = c.toI64(c.mul(count, c.c(s.bBytes())));
          Value vlC = c.toI64(c.mul(count, c.c(s.cElements())));
          Value acc0 = c.intrinsic(
              cVec, "llvm.riscv.vmv.v.x",
              {LLVM::PoisonOp::create(ib, cVec), c.ci(c.i32, 0), vlC});
          auto kLoop = scf::ForOp::create(ib, q0, c.add(q0, c.c(blockTiles)),
                                          c1, ValueRange{acc0});
          {
            OpBuilder::InsertionGuard guard(ib);
            ib.setInsertionPointToStart(kLoop.getBody());
            Value q = kLoop.getInductionVar();
            Value acc = kLoop.getRegionIterArgs()[0];
            Value aAt = c.mul(c.add(c.mul(r, c.c(kt)), q), c.c(s.aBytes()));
            Value a = c.intrinsic(aVec, "llvm.riscv.vle",
                                  {LLVM::PoisonOp::create(ib, aVec),
                                   c.address(ap, c.toI64(aAt)),
                                   c.ci(c.i64, s.aBytes())});
            Value bAt = c.mul(c.add(c.mul(q, bt), j), c.c(s.bBytes()));
            Value bv = c.intrinsic(bVec, "llvm.riscv.vle",
                                   {LLVM::PoisonOp::create(ib, bVec),
                                    c.address(bp, c.toI64(bAt)), vlB});
            Value next;
            if (emulate)
              next = func::CallOp::create(ib, emulation,
                                          ValueRange{acc, a, bv, vlB})
                         .getResult(0);
            else // policy 3: tail and mask agnostic, as the intrinsic's
                 // plain form
              next = c.intrinsic(cVec, intrinsicName,
                                 {acc, a, bv, vlB, c.ci(c.i64, 3)});
            scf::YieldOp::create(ib, next);
          }
          Value cAt = c.mul(c.add(c.mul(r, bt), j), c.c(4 * s.cElements()));
          c.intrinsic(Type(), "llvm.riscv.vse",
                      {kLoop.getResult(0), c.address(cp, c.toI64(cAt)), vlC});
        });
      });
    };
    // C(m, n) of the current block as i64: element (m % tm) * tn + n % tn
    // of tile (m / tm, n / tn).
    auto sumAt = [&](Value m, Value row) -> Value {
      Value tile = c.add(c.mul(c.div(m, cTm), bt), c.div(row, cTn));
      Value in = c.add(c.mul(c.rem(m, cTm), cTn), c.rem(row, cTn));
      return arith::ExtSIOp::create(
          ib, c.i64,
          memref::LoadOp::create(ib, cp,
                                 c.add(c.mul(tile, c.c(s.cElements())), in)));
    };
    BitConversions bits{ib, ib.getLoc()};
    Type f32 = ib.getF32Type(), i16 = ib.getI16Type();
    // The f32 value of an F32, F16 or BF16 value `v` (of that type, or an
    // i16 holding the bits of the 16-bit ones).
    auto realOf = [&](Value v, Type interpType) -> Value {
      if (interpType.isF32())
        return v;
      if (!v.getType().isInteger(16))
        v = arith::BitcastOp::create(ib, i16, v);
      Value wide = arith::ExtUIOp::create(ib, c.i32, v);
      return interpType.isF16() ? bits.f16ToF32(wide) : bits.bf16ToF32(wide);
    };
    // The bias of output m: I32 as i64, F32/F16/BF16 as f32.
    auto biasAt = [&](Value m) -> Value {
      Type type = p.biasInterp.getElementType();
      Value at = c.toI64(
          c.add(c.c(p.biasOffset), c.mul(m, c.c(valueBytes(p.biasInterp)))));
      Value address = c.address(adaptor.getBias(), at);
      if (type.isInteger(32))
        return arith::ExtSIOp::create(
            ib, c.i64, LLVM::LoadOp::create(ib, c.i32, address, 1));
      return realOf(
          LLVM::LoadOp::create(ib, type.isF32() ? f32 : i16, address, 1), type);
    };
    // The result of an i64 total (i32, saturated) or an f32 value.
    auto storeResult = [&](Value row, Value m, Value v) {
      Value result;
      if (!p.floatOutput)
        result = arith::TruncIOp::create(ib, c.i32,
                                         c.clamp(v, INT32_MIN, INT32_MAX));
      else if (p.outputElt.isF32())
        result = v;
      else
        result = p.outputElt.isF16() ? bits.toF16(v) : bits.toBF16(v);
      memref::StoreOp::create(ib, result, y, ValueRange{row, m});
    };

    if (!p.quantized) {
      product(c0);
      // Y[n][m] = sat_i32(C(m, n) + bias[m]); f32 of the exact sum (rounded
      // once, to nearest even); f16, see toF16.
      c.loop(c0, n, c1, [&](Value row) {
        c.loop(c0, c.c(p.m), c1, [&](Value m) {
          Value v = sumAt(m, row);
          if (p.hasBias)
            v = c.add(v, biasAt(m));
          if (p.outputElt.isF16())
            memref::StoreOp::create(ib, c.toF16(v), y, ValueRange{row, m});
          else
            storeResult(row, m,
                        p.floatOutput ? arith::SIToFPOp::create(ib, f32, v)
                                      : v);
        });
      });
    } else {
      ProductSteps steps;
      steps.product = product;
      steps.sumAt = sumAt;
      steps.matrixValue = [&](Value m, Value k) {
        return widen(matrixAt(m, k), p.matrixUnsigned);
      };
      steps.inputValue = [&](Value row, Value k) {
        return widen(inputAt(row, k), p.inputUnsignedInterp);
      };
      steps.realOf = realOf;
      steps.biasAt = biasAt;
      steps.storeResult = storeResult;
      steps.zeroed = zeroed;
      emitQuantized(c, p, adaptor, n, blocks, steps);
    }
    for (Value buffer : scratch)
      memref::DeallocOp::create(ib, buffer);
    rewriter.eraseOp(op);
    return success();
  }

private:
  TileShape shape;
  unsigned lmul, minVlen;
  bool emulate;
};

/// A one-dimensional vector of integers or floats (a memref of its length
/// in this path's calling convention).
bool isPlainVector(Type t) {
  auto v = dyn_cast<VectorType>(t);
  return v && v.getRank() == 1 && !v.isScalable() &&
         v.getElementType().isIntOrFloat();
}

/// Located errors for what this path does not take, before rewriting: the
/// batch_matvec and matvec rules of the EmitC path (MatVecPlan), no other
/// coopvec op, and vectors only where a memref can stand
/// for them (one-dimensional arguments and results of functions nothing
/// calls).
LogicalResult checkSupported(ModuleOp module) {
  bool ok = true;
  module.walk([&](Operation *op) {
    if (auto func = dyn_cast<func::FuncOp>(op)) {
      auto types = llvm::concat<const Type>(func.getArgumentTypes(),
                                            func.getResultTypes());
      bool vectors = llvm::any_of(types, llvm::IsaPred<VectorType>);
      if (llvm::any_of(types, [](Type t) {
            return isa<VectorType>(t) && !isPlainVector(t);
          })) {
        func.emitError("the SiFive isas take one-dimensional vectors of "
                       "integers or floats as arguments and results");
        ok = false;
      } else if (vectors && !func.isExternal() &&
                 !SymbolTable::symbolKnownUseEmpty(func, module)) {
        func.emitError("a function with vector arguments or results is not "
                       "called in the SiFive isas' code (they become "
                       "memrefs)");
        ok = false;
      } else if (vectors && !func.isExternal() &&
                 !llvm::all_of(func.getResultTypes(), isPlainVector)) {
        func.emitError("a function with vector arguments or results returns "
                       "vectors only in the SiFive isas' code (they become "
                       "memref arguments)");
        ok = false;
      }
      return;
    }
    if (auto mv = dyn_cast<BatchMatVecOp>(op)) {
      std::string why;
      if (succeeded(planMatVec(mv, why)))
        return;
      mv.emitError(why);
      ok = false;
      return;
    }
    if (auto mv = dyn_cast<MatVecOp>(op)) {
      // Its stack buffers go at the entry of its function.
      std::string why;
      if (!mv->getParentOfType<func::FuncOp>()) {
        mv.emitError("the SiFive isas take coopvec.matvec inside func.func");
        ok = false;
      } else if (failed(planMatVec(mv, why))) {
        mv.emitError(why);
        ok = false;
      }
      return;
    }
    if (isa<CoopVecDialect>(op->getDialect())) {
      op->emitError("'") << op->getName()
                         << "' is not lowered by the SiFive isas of "
                            "--convert-coopvec-to-riscv";
      ok = false;
    }
  });
  return success(ok);
}

/// Each coopvec.matvec as a batch_matvec of one row: its input stored in a
/// 1 x K buffer, its result loaded from a 1 x M one (both on the stack,
/// allocated once at the function's entry). The batch_matvec's location
/// names the matvec (NameLoc) for the runtime errors.
void matVecsAsBatches(ModuleOp module) {
  IRRewriter rewriter(module.getContext());
  module.walk([&](MatVecOp op) {
    Location loc = op.getLoc();
    auto inType = cast<VectorType>(op.getInput().getType());
    auto outType = cast<VectorType>(op.getResult().getType());
    auto rows = [](VectorType t) {
      return MemRefType::get({1, t.getDimSize(0)}, t.getElementType());
    };
    Block &entry = op->getParentOfType<func::FuncOp>().front();
    rewriter.setInsertionPointToStart(&entry);
    Value in = memref::AllocaOp::create(rewriter, loc, rows(inType));
    Value out = memref::AllocaOp::create(rewriter, loc, rows(outType));
    rewriter.setInsertionPoint(op);
    Value c0 = arith::ConstantIndexOp::create(rewriter, loc, 0);
    vector::StoreOp::create(rewriter, loc, op.getInput(), in,
                            ValueRange{c0, c0});
    // A block-float input's exponents travel as a 1 x ceil(K/16) batch (the
    // batch lowering then rejects the fidelity product with its reason).
    Value exponents;
    if (Value e = op.getInputExponents()) {
      rewriter.setInsertionPointToStart(&entry);
      exponents = memref::AllocaOp::create(rewriter, loc,
                                           rows(cast<VectorType>(e.getType())));
      rewriter.setInsertionPoint(op);
      vector::StoreOp::create(rewriter, loc, e, exponents, ValueRange{c0, c0});
    }
    BatchMatVecOp::create(
        rewriter,
        NameLoc::get(rewriter.getStringAttr(op->getName().getStringRef()), loc),
        in, op.getInputInterpAttr(), op.getInputUnsignedAttr(), op.getMatrix(),
        op.getMatrixOffset(), op.getMatrixStride(), op.getMatrixDescAttr(),
        op.getBias(), op.getBiasOffset(), op.getBiasInterpAttr(),
        op.getOutputUnsignedAttr(), out, op.getScales(), op.getScalesOffset(),
        /*weight_zero_points=*/Value(), Value(), nullptr, nullptr,
        /*weight_scales=*/Value(), Value(), nullptr, nullptr,
        /*input_zero_points=*/Value(), nullptr, nullptr,
        /*input_scales=*/Value(), nullptr, nullptr,
        /*reductions=*/Value(), nullptr, nullptr, op.getFidelityAttr(),
        exponents);
    rewriter.replaceOpWithNewOp<vector::LoadOp>(op, outType, out,
                                                ValueRange{c0, c0});
  });
}

/// The calling convention of the EmitC path, for memrefs: a vector argument
/// becomes a memref of its length (loaded at the entry), and each vector
/// result one more memref argument after the others, stored at each
/// return.
void vectorsAsMemRefs(func::FuncOp func) {
  if (func.isExternal())
    return;
  FunctionType type = func.getFunctionType();
  if (!llvm::any_of(
          llvm::concat<const Type>(type.getInputs(), type.getResults()),
          llvm::IsaPred<VectorType>))
    return;
  auto asMemRef = [](Type t) {
    auto v = cast<VectorType>(t);
    return MemRefType::get({v.getDimSize(0)}, v.getElementType());
  };
  IRRewriter rewriter(func.getContext());
  Block &entry = func.front();
  rewriter.setInsertionPointToStart(&entry);
  Location loc = func.getLoc();
  Value c0 = arith::ConstantIndexOp::create(rewriter, loc, 0);
  SmallVector<Type> inputs;
  for (BlockArgument arg : entry.getArguments()) {
    auto v = dyn_cast<VectorType>(arg.getType());
    if (!v) {
      inputs.push_back(arg.getType());
      continue;
    }
    arg.setType(asMemRef(v));
    inputs.push_back(arg.getType());
    auto load = vector::LoadOp::create(rewriter, loc, v, arg, ValueRange{c0});
    rewriter.replaceAllUsesExcept(arg, load.getResult(), load);
  }
  SmallVector<Value> outs;
  for (Type t : type.getResults()) {
    inputs.push_back(asMemRef(t));
    outs.push_back(entry.addArgument(inputs.back(), loc));
  }
  func.walk([&](func::ReturnOp ret) {
    rewriter.setInsertionPoint(ret);
    for (auto [value, out] : llvm::zip(ret.getOperands(), outs))
      vector::StoreOp::create(rewriter, ret.getLoc(), value, out,
                              ValueRange{c0});
    rewriter.replaceOpWithNewOp<func::ReturnOp>(ret);
  });
  func.setFunctionType(FunctionType::get(func.getContext(), inputs, {}));
}

} // namespace

void mlir::coopvec::populateCoopVecToSiFiveVQMaccPatterns(
    RewritePatternSet &patterns, StringRef isa, unsigned lmul, unsigned minVlen,
    bool emulate) {
  patterns.add<BatchMatVecToSiFive>(patterns.getContext(), tileShape(isa), lmul,
                                    minVlen, emulate);
}

LogicalResult mlir::coopvec::riscv::lowerToSiFiveVQMacc(ModuleOp module,
                                                        StringRef isa,
                                                        unsigned lmul,
                                                        unsigned minVlen,
                                                        bool emulate) {
  if (failed(checkSupported(module)))
    return failure();
  matVecsAsBatches(module);
  for (auto func : module.getOps<func::FuncOp>())
    vectorsAsMemRefs(func);
  MLIRContext *ctx = module.getContext();
  RewritePatternSet patterns(ctx);
  populateCoopVecToSiFiveVQMaccPatterns(patterns, isa, lmul, minVlen, emulate);
  ConversionTarget target(*ctx);
  target.addIllegalOp<BatchMatVecOp>();
  target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
  if (failed(applyPartialConversion(module, target, std::move(patterns))))
    return failure();
  // The C names of the EmitC path: coopvec_<name>, callable from C with
  // each memref expanded (allocated and aligned pointer, offset, sizes,
  // strides), and the module marked for riscv64.
  for (auto func : llvm::to_vector(module.getOps<func::FuncOp>())) {
    if (func.isExternal())
      continue;
    auto name = StringAttr::get(ctx, "coopvec_" + func.getSymName());
    if (failed(SymbolTable::replaceAllSymbolUses(func, name, module)))
      return func.emitError("cannot rename to ") << name;
    func.setSymName(name);
  }
  module->setAttr(LLVM::LLVMDialect::getTargetTripleAttrName(),
                  StringAttr::get(ctx, "riscv64-unknown-linux-gnu"));
  return success();
}
