//===- CoopVecToCPU.cpp - coopvec ops to CPU runtime calls ----------------===//
//
// Each coopvec op becomes a call into the C ABI of libcoopvec_runtime.so
// (Kernels.h, Layout.h, CpuTarget.h) followed by a status check. The calls
// are emitted with func/arith/memref/vector/scf ops and a few LLVM pointer
// ops, so the rest of the CPU pipeline is the upstream LLVM lowering.
//
//===----------------------------------------------------------------------===//

#include "LinAlgCoop/Conversion/CoopVecToCPU/CoopVecToCPU.h"

#include "LinAlgCoop/Dialect/CoopVec/IR/CoopVecDialect.h"
#include "LinAlgCoop/Dialect/CoopVec/IR/CoopVecOps.h"
#include "LinAlgCoop/Runtime/CpuTarget.h"
#include "LinAlgCoop/Runtime/Kernels.h"
#include "LinAlgCoop/Runtime/Layout.h"
#include "LinAlgCoop/Runtime/Numerics.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::coopvec {
#define GEN_PASS_DEF_CONVERTCOOPVECTOCPU
#include "LinAlgCoop/Conversion/Passes.h.inc"
} // namespace mlir::coopvec

using namespace mlir;
using namespace mlir::coopvec;

//===----------------------------------------------------------------------===//
// Runtime ABI
//===----------------------------------------------------------------------===//

namespace {

/// Builds the IR around one runtime call: constants, buffer pointers, stack
/// slots for vectors, the external declaration and the status check.
class RuntimeCallBuilder {
public:
  RuntimeCallBuilder(ConversionPatternRewriter &rewriter, Operation *op)
      : rewriter(rewriter), op(op), loc(op->getLoc()),
        ptrType(LLVM::LLVMPointerType::get(op->getContext())) {}

  Type ptr() const { return ptrType; }
  Type i32() const { return rewriter.getI32Type(); }
  Type i64() const { return rewriter.getI64Type(); }

  Value constI8(int64_t value) {
    return constant(value, rewriter.getI8Type());
  }
  Value constI32(int64_t value) { return constant(value, i32()); }
  Value constI64(int64_t value) { return constant(value, i64()); }
  Value constIndex(int64_t value) {
    return constant(value, rewriter.getIndexType());
  }
  Value nullPtr() { return LLVM::ZeroOp::create(rewriter, loc, ptrType); }

  /// An index value as i64 (offsets and sizes) or i32 (strides); a missing
  /// value is 0, what an omitted stride means.
  Value indexAs(Value index, Type type) {
    if (!index)
      return constant(0, type);
    return arith::IndexCastOp::create(rewriter, loc, type, index);
  }

  /// The address of element 0 of a 1-D memref, as `!llvm.ptr`. A strided
  /// byte buffer adds its own offset; its stride must be 1 (checked by the
  /// pattern before anything is built).
  Value bufferPointer(Value memref) {
    auto type = cast<MemRefType>(memref.getType());
    Value base =
        memref::ExtractAlignedPointerAsIndexOp::create(rewriter, loc, memref);
    if (!type.getLayout().isIdentity()) {
      auto metadata =
          memref::ExtractStridedMetadataOp::create(rewriter, loc, memref);
      base = arith::AddIOp::create(rewriter, loc, base,
                                   toBytes(metadata.getOffset(), type));
    }
    Value address = arith::IndexCastOp::create(rewriter, loc, i64(), base);
    return LLVM::IntToPtrOp::create(rewriter, loc, ptrType, address);
  }

  /// A batch: a 2-D memref whose rows are vectors. Returns the address of
  /// row 0, the byte distance between rows (i64) and the row count (i32).
  /// The rows must be contiguous (unit column stride, checked before).
  std::tuple<Value, Value, Value> batchRows(Value memref) {
    auto type = cast<MemRefType>(memref.getType());
    auto metadata =
        memref::ExtractStridedMetadataOp::create(rewriter, loc, memref);
    Value base =
        memref::ExtractAlignedPointerAsIndexOp::create(rewriter, loc, memref);
    base = arith::AddIOp::create(rewriter, loc, base,
                                 toBytes(metadata.getOffset(), type));
    Value address = arith::IndexCastOp::create(rewriter, loc, i64(), base);
    Value pointer = LLVM::IntToPtrOp::create(rewriter, loc, ptrType, address);
    Value rowStride = arith::IndexCastOp::create(
        rewriter, loc, i64(), toBytes(metadata.getStrides()[0], type));
    Value rows = arith::IndexCastOp::create(rewriter, loc, i32(),
                                            metadata.getSizes()[0]);
    return {pointer, rowStride, rows};
  }

  /// Reports COOPVEC_ERROR_INVALID_DIMENSIONS unless two batches have the
  /// same number of rows. The verifier compares static row counts; dynamic
  /// ones are checked here, before anything is written.
  void checkSameRows(Value rows, Value otherRows) {
    Value same = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                       rows, otherRows);
    checkStatus(arith::SelectOp::create(
        rewriter, loc, same, constI32(COOPVEC_OK),
        constI32(COOPVEC_ERROR_INVALID_DIMENSIONS)));
  }

  /// An `!llvm.ptr` as an i64 word.
  Value pointerWord(Value pointer) {
    return LLVM::PtrToIntOp::create(rewriter, loc, i64(), pointer);
  }

  Value indexToI64(Value index) { return indexAs(index, i64()); }

  /// The size of a 1-D memref in bytes, as i64.
  Value bufferBytes(Value memref) {
    auto type = cast<MemRefType>(memref.getType());
    Value elems = memref::DimOp::create(rewriter, loc, memref, constIndex(0));
    return arith::IndexCastOp::create(rewriter, loc, i64(),
                                      toBytes(elems, type));
  }

  /// A stack slot for a vector, allocated once in the entry block of the
  /// enclosing function so that an op inside a loop does not grow the stack
  /// on every iteration (scf.for and scf.parallel bodies are not allocation
  /// scopes once lowered to branches). Concurrent callers (coopvec-run
  /// --invocations) each have their own frame, so one slot per op suffices;
  /// the pipeline outlines scf.parallel bodies (async-parallel-for) before
  /// this pass, so a loop's workers each get their own frame too.
  Value stackSlot(VectorType type) {
    auto memrefType =
        MemRefType::get(type.getShape(), type.getElementType());
    OpBuilder::InsertionGuard guard(rewriter);
    if (auto func = op->getParentOfType<FunctionOpInterface>())
      if (!func.getFunctionBody().empty())
        rewriter.setInsertionPointToStart(&func.getFunctionBody().front());
    return memref::AllocaOp::create(rewriter, loc, memrefType,
                                    rewriter.getI64IntegerAttr(64));
  }

  /// Stores `vector` to a fresh stack slot and returns the slot.
  Value spill(Value vector) {
    auto type = cast<VectorType>(vector.getType());
    Value slot = stackSlot(type);
    vector::StoreOp::create(rewriter, loc, vector, slot,
                            ValueRange{constIndex(0)});
    return slot;
  }

  Value slotPointer(Value slot) { return bufferPointer(slot); }

  Value load(VectorType type, Value slot) {
    return vector::LoadOp::create(rewriter, loc, type, slot,
                                  ValueRange{constIndex(0)});
  }

  /// The integers of `type`'s shape and element width: the codes of a
  /// float vector as the runtime's buffers hold them (8, 16 or 32 bits).
  VectorType codesType(VectorType type) {
    return VectorType::get(
        type.getShape(),
        rewriter.getIntegerType(type.getElementTypeBitWidth()));
  }

  /// The vector of `type` whose codes are at `slot`, and the inverse.
  Value loadCodes(VectorType type, Value slot) {
    return arith::BitcastOp::create(rewriter, loc, type,
                                    load(codesType(type), slot));
  }
  void storeCodes(Value vector, Value slot) {
    auto type = cast<VectorType>(vector.getType());
    Value codes =
        arith::BitcastOp::create(rewriter, loc, codesType(type), vector);
    vector::StoreOp::create(rewriter, loc, codes, slot,
                            ValueRange{constIndex(0)});
  }

  /// Calls the runtime function `name`, declaring it on first use.
  func::CallOp call(StringRef name, TypeRange results, ValueRange args) {
    auto module = op->getParentOfType<ModuleOp>();
    auto fnType = rewriter.getFunctionType(args.getTypes(), results);
    if (!module.lookupSymbol<func::FuncOp>(name)) {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(module.getBody());
      auto decl = func::FuncOp::create(rewriter, loc, name, fnType);
      decl.setPrivate();
    }
    return func::CallOp::create(rewriter, loc, name, results, args);
  }

  /// Calls `name`, which returns a CoopVecStatus, and reports a non-zero
  /// status through coopvecCpuReportError, which does not return.
  void callChecked(StringRef name, ValueRange args) {
    Value status = call(name, i32(), args).getResult(0);
    checkStatus(status);
  }

  void checkStatus(Value status) {
    Value failed = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ne,
                                         status, constI32(0));
    auto ifOp = scf::IfOp::create(rewriter, loc, failed, /*else=*/false);
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(&ifOp.getThenRegion().front());
    call("coopvecCpuReportError", {}, {status, siteString()});
  }

private:
  /// One constant per (value, type) at the op: the calls read better and
  /// every use is dominated, since all are built in the op's block.
  Value constant(int64_t value, Type type) {
    Value &cached = constants[{value, type}];
    if (!cached)
      cached = arith::ConstantOp::create(
          rewriter, loc, type, rewriter.getIntegerAttr(type, value));
    return cached;
  }

  /// `elems` elements of a memref as bytes.
  Value toBytes(Value elems, MemRefType type) {
    unsigned bytes = type.getElementTypeBitWidth() / 8;
    if (bytes == 1)
      return elems;
    return arith::MulIOp::create(rewriter, loc, elems, constIndex(bytes));
  }

  /// A constant C string naming the op and where it comes from, for the
  /// runtime's error message; one global per op.
  Value siteString() {
    if (!site) {
      std::string text;
      llvm::raw_string_ostream os(text);
      os << op->getName() << " at ";
      if (auto fileLoc = loc->findInstanceOf<FileLineColLoc>())
        os << fileLoc.getFilename().getValue() << ":" << fileLoc.getLine()
           << ":" << fileLoc.getColumn();
      else
        os << loc;
      text.push_back('\0');

      auto module = op->getParentOfType<ModuleOp>();
      std::string name;
      for (unsigned i = 0;; ++i) {
        name = "__coopvec_site_" + std::to_string(i);
        if (!module.lookupSymbol(name))
          break;
      }
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(module.getBody());
      auto arrayType =
          LLVM::LLVMArrayType::get(rewriter.getI8Type(), text.size());
      site = LLVM::GlobalOp::create(rewriter, loc, arrayType,
                                    /*isConstant=*/true,
                                    LLVM::Linkage::Internal, name,
                                    rewriter.getStringAttr(text));
    }
    return LLVM::AddressOfOp::create(rewriter, loc, site);
  }

  ConversionPatternRewriter &rewriter;
  Operation *op;
  Location loc;
  Type ptrType;
  LLVM::GlobalOp site;
  llvm::DenseMap<std::pair<int64_t, Type>, Value> constants;
};

/// A byte buffer the runtime can address as contiguous bytes: unit stride.
LogicalResult checkByteBuffer(ConversionPatternRewriter &rewriter,
                              Operation *op, Value buffer) {
  if (!buffer)
    return success();
  auto type = cast<MemRefType>(buffer.getType());
  int64_t offset;
  SmallVector<int64_t> strides;
  if (succeeded(type.getStridesAndOffset(strides, offset)) &&
      strides.size() == 1 && strides[0] == 1)
    return success();
  return rewriter.notifyMatchFailure(op, [&](Diagnostic &diag) {
    diag << "byte buffer " << type << " must have unit stride";
  });
}

/// The runtime's element code (CoopVecComponentType) of an interpretation.
int64_t value(InterpretationAttr interp) {
  switch (interp.getKind()) {
  case InterpKind::I16:
    return COOPVEC_TYPE_I16;
  case InterpKind::U16:
    return COOPVEC_TYPE_U16;
  case InterpKind::I32:
    return COOPVEC_TYPE_I32;
  case InterpKind::U32:
    return COOPVEC_TYPE_U32;
  case InterpKind::F16:
    return COOPVEC_TYPE_F16;
  case InterpKind::F32:
    return COOPVEC_TYPE_F32;
  case InterpKind::PackedS8x32:
    return COOPVEC_TYPE_PACKED_S8X32;
  case InterpKind::PackedU8x32:
    return COOPVEC_TYPE_PACKED_U8X32;
  case InterpKind::U8:
    return COOPVEC_TYPE_U8;
  case InterpKind::I8:
    return COOPVEC_TYPE_I8;
  case InterpKind::F8_E4M3:
    return COOPVEC_TYPE_F8_E4M3;
  case InterpKind::F8_E5M2:
    return COOPVEC_TYPE_F8_E5M2;
  case InterpKind::BF16:
    return COOPVEC_TYPE_BF16;
  case InterpKind::F6_E2M3:
    return COOPVEC_TYPE_F6_E2M3;
  case InterpKind::F6_E3M2:
    return COOPVEC_TYPE_F6_E3M2;
  case InterpKind::F4_E2M1:
    return COOPVEC_TYPE_F4_E2M1;
  case InterpKind::I4:
    return COOPVEC_TYPE_I4;
  case InterpKind::U4:
    return COOPVEC_TYPE_U4;
  }
  llvm_unreachable("unknown interpretation");
}

/// The runtime's element code of a physical vector element.
int64_t physicalType(Type elementType, bool isUnsigned) {
  FailureOr<InterpretationAttr> interp =
      getPhysicalInterpretation(elementType, isUnsigned);
  // The verifier admits only 16/32-bit ints and floats, which all map.
  return succeeded(interp) ? value(*interp) : 0;
}

/// Bytes of an `n`-element vector of `interp` in memory (4-bit elements two
/// to a byte).
int64_t vectorBytes(InterpretationAttr interp, int64_t n) {
  return llvm::divideCeil(n * interp.getStorageBits(), 8);
}
int64_t value(MatrixLayout layout) { return static_cast<int64_t>(layout); }

/// Emits the bounds check of a matrix at `offset` in `buffer`: the runtime
/// compares the layout's footprint with the buffer size.
void checkMatrixBounds(RuntimeCallBuilder &b, Value buffer, Value offset,
                       MatrixDescAttr desc, Value stride) {
  b.callChecked("coopvecCpuCheckMatrix",
                {b.bufferBytes(buffer), b.indexAs(offset, b.i64()),
                 b.constI32(value(desc.getLayout())),
                 b.constI32(desc.getStoredRows()),
                 b.constI32(desc.getStoredUnitCols()),
                 b.constI32(desc.getElementBytes()),
                 b.indexAs(stride, b.i32())});
}

/// Emits the bounds check of `bytes` contiguous bytes at `offset`.
void checkRangeBounds(RuntimeCallBuilder &b, Value buffer, Value offset,
                      int64_t bytes) {
  b.callChecked("coopvecCpuCheckRange",
                {b.bufferBytes(buffer), b.indexAs(offset, b.i64()),
                 b.constI64(bytes)});
}

//===----------------------------------------------------------------------===//
// Patterns
//===----------------------------------------------------------------------===//

/// The common base: the thread count and whether to check bounds.
template <typename OpTy>
class RuntimeCallPattern : public OpConversionPattern<OpTy> {
public:
  RuntimeCallPattern(MLIRContext *ctx, unsigned numThreads, bool boundsChecks)
      : OpConversionPattern<OpTy>(ctx), numThreads(numThreads),
        boundsChecks(boundsChecks) {}

protected:
  unsigned numThreads;
  bool boundsChecks;
};

/// The bounds checks of a matrix-vector op's matrix and bias.
template <typename OpTy>
void checkMatVecBounds(RuntimeCallBuilder &b, OpTy op,
                       typename OpTy::Adaptor adaptor) {
  MatrixDescAttr desc = op.getMatrixDesc();
  checkMatrixBounds(b, adaptor.getMatrix(), adaptor.getMatrixOffset(), desc,
                    adaptor.getMatrixStride());
  if (adaptor.getBias())
    checkRangeBounds(b, adaptor.getBias(), adaptor.getBiasOffset(),
                     vectorBytes(op.getBiasInterpAttr(), desc.getRows()));
}

/// Appends the matrix, bias and thread operands of coopvecCpuMatVecMulAdd
/// (everything after the batch count) for coopvec.matvec/batch_matvec.
template <typename OpTy>
void appendMatrixOperands(RuntimeCallBuilder &b, OpTy op,
                          typename OpTy::Adaptor adaptor, unsigned numThreads,
                          SmallVectorImpl<Value> &args) {
  MatrixDescAttr desc = op.getMatrixDesc();
  args.append({b.bufferPointer(adaptor.getMatrix()),
               b.indexAs(adaptor.getMatrixOffset(), b.i64()),
               b.constI32(value(desc.getInterpretation())),
               b.constI32(desc.getRows()), b.constI32(desc.getCols()),
               b.constI32(value(desc.getLayout())),
               b.constI32(desc.getTranspose() ? 1 : 0),
               b.indexAs(adaptor.getMatrixStride(), b.i32())});
  if (adaptor.getBias()) {
    args.push_back(b.bufferPointer(adaptor.getBias()));
    args.push_back(b.indexAs(adaptor.getBiasOffset(), b.i64()));
    args.push_back(b.constI32(value(op.getBiasInterpAttr())));
  } else {
    args.append({b.nullPtr(), b.constI64(0), b.constI32(0)});
  }
  args.push_back(b.constI32(numThreads));
}

/// coopvec.matvec -> coopvecCpuMatVecMulAdd(batch = 1).
class MatVecOpLowering : public RuntimeCallPattern<MatVecOp> {
public:
  using RuntimeCallPattern::RuntimeCallPattern;

  LogicalResult
  matchAndRewrite(MatVecOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(checkByteBuffer(rewriter, op, adaptor.getMatrix())) ||
        failed(checkByteBuffer(rewriter, op, adaptor.getBias())))
      return failure();
    RuntimeCallBuilder b(rewriter, op);
    VectorType inputType = op.getInput().getType();
    VectorType resultType = op.getResult().getType();
    if (boundsChecks)
      checkMatVecBounds(b, op, adaptor);

    Value inputSlot = b.spill(adaptor.getInput());
    Value resultSlot = b.stackSlot(resultType);
    // Operands in the order of coopvecCpuMatVecMulAdd (= coopvecMatVecMulAdd).
    SmallVector<Value> args{
        b.slotPointer(resultSlot),
        b.constI32(physicalType(resultType.getElementType(),
                                op.getOutputUnsigned())),
        b.constI64(0),
        b.slotPointer(inputSlot),
        b.constI32(physicalType(inputType.getElementType(),
                                op.getInputUnsigned())),
        b.constI32(value(op.getInputInterp())),
        b.constI64(0),
        b.constI32(1)};
    appendMatrixOperands(b, op, adaptor, numThreads, args);
    b.callChecked("coopvecCpuMatVecMulAdd", args);
    rewriter.replaceOp(op, b.load(resultType, resultSlot));
    return success();
  }
};

/// coopvec.outer_product_accumulate -> coopvecCpuOuterProductAccumulate.
class OuterProductAccumulateOpLowering
    : public RuntimeCallPattern<OuterProductAccumulateOp> {
public:
  using RuntimeCallPattern::RuntimeCallPattern;

  LogicalResult
  matchAndRewrite(OuterProductAccumulateOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(checkByteBuffer(rewriter, op, adaptor.getMatrix())))
      return failure();
    RuntimeCallBuilder b(rewriter, op);
    MatrixDescAttr desc = op.getMatrixDesc();
    if (boundsChecks)
      checkMatrixBounds(b, adaptor.getMatrix(), adaptor.getMatrixOffset(),
                        desc, adaptor.getMatrixStride());
    Value lhs = b.spill(adaptor.getLhs());
    Value rhs = b.spill(adaptor.getRhs());
    Value elemType =
        b.constI32(physicalType(op.getLhs().getType().getElementType(),
                                /*isUnsigned=*/false));
    b.callChecked(
        "coopvecCpuOuterProductAccumulate",
        {b.slotPointer(lhs), elemType, b.constI64(0), b.slotPointer(rhs),
         elemType, b.constI64(0), b.constI32(1), b.constI32(desc.getRows()),
         b.constI32(desc.getCols()), b.bufferPointer(adaptor.getMatrix()),
         b.indexAs(adaptor.getMatrixOffset(), b.i64()),
         b.constI32(value(desc.getInterpretation())),
         b.constI32(value(desc.getLayout())),
         b.indexAs(adaptor.getMatrixStride(), b.i32()),
         b.constI32(numThreads)});
    rewriter.eraseOp(op);
    return success();
  }
};

/// coopvec.vector_accumulate -> coopvecCpuVectorAccumulate; the array has the
/// element type of the vector.
class VectorAccumulateOpLowering
    : public RuntimeCallPattern<VectorAccumulateOp> {
public:
  using RuntimeCallPattern::RuntimeCallPattern;

  LogicalResult
  matchAndRewrite(VectorAccumulateOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(checkByteBuffer(rewriter, op, adaptor.getBuffer())))
      return failure();
    RuntimeCallBuilder b(rewriter, op);
    VectorType type = op.getInput().getType();
    if (boundsChecks)
      checkRangeBounds(b, adaptor.getBuffer(), adaptor.getOffset(),
                       type.getNumElements() *
                           (type.getElementTypeBitWidth() / 8));
    Value input = b.spill(adaptor.getInput());
    Value elemType =
        b.constI32(physicalType(type.getElementType(), /*isUnsigned=*/false));
    b.callChecked("coopvecCpuVectorAccumulate",
                  {b.slotPointer(input), elemType, b.constI64(0),
                   b.constI32(1), b.constI32(type.getNumElements()),
                   b.bufferPointer(adaptor.getBuffer()),
                   b.indexAs(adaptor.getOffset(), b.i64()), elemType,
                   b.constI32(numThreads)});
    rewriter.eraseOp(op);
    return success();
  }
};

/// coopvec.convert_matrix -> coopvecCpuConvertMatrix, which checks both
/// footprints against the buffer sizes itself.
class ConvertMatrixOpLowering : public RuntimeCallPattern<ConvertMatrixOp> {
public:
  using RuntimeCallPattern::RuntimeCallPattern;

  LogicalResult
  matchAndRewrite(ConvertMatrixOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(checkByteBuffer(rewriter, op, adaptor.getSrc())) ||
        failed(checkByteBuffer(rewriter, op, adaptor.getDst())))
      return failure();
    RuntimeCallBuilder b(rewriter, op);
    MatrixDescAttr src = op.getSrcDesc(), dst = op.getDstDesc();
    b.callChecked(
        "coopvecCpuConvertMatrix",
        {b.bufferPointer(adaptor.getDst()), b.bufferBytes(adaptor.getDst()),
         b.indexAs(adaptor.getDstOffset(), b.i64()),
         b.constI32(value(dst.getInterpretation())),
         b.constI32(value(dst.getLayout())),
         b.indexAs(adaptor.getDstStride(), b.i32()),
         b.bufferPointer(adaptor.getSrc()), b.bufferBytes(adaptor.getSrc()),
         b.indexAs(adaptor.getSrcOffset(), b.i64()),
         b.constI32(value(src.getInterpretation())),
         b.constI32(value(src.getLayout())),
         b.indexAs(adaptor.getSrcStride(), b.i32()),
         b.constI32(src.getRows()), b.constI32(src.getCols())});
    rewriter.eraseOp(op);
    return success();
  }
};

/// coopvec.batch_matvec -> coopvecCpuMatVecMulAdd over all rows: one
/// matrix-matrix product.
class BatchMatVecOpLowering : public RuntimeCallPattern<BatchMatVecOp> {
public:
  BatchMatVecOpLowering(MLIRContext *ctx, unsigned numThreads,
                        bool boundsChecks)
      : RuntimeCallPattern(ctx, numThreads, boundsChecks) {}

  LogicalResult
  matchAndRewrite(BatchMatVecOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(checkByteBuffer(rewriter, op, adaptor.getMatrix())) ||
        failed(checkByteBuffer(rewriter, op, adaptor.getBias())))
      return failure();
    RuntimeCallBuilder b(rewriter, op);
    MemRefType inputType = op.getInputs().getType();
    MemRefType outputType = op.getOutputs().getType();
    if (boundsChecks)
      checkMatVecBounds(b, op, adaptor);
    auto [inputs, inputStride, rows] = b.batchRows(adaptor.getInputs());
    auto [outputs, outputStride, outputRows] =
        b.batchRows(adaptor.getOutputs());
    b.checkSameRows(rows, outputRows);
    SmallVector<Value> args{
        outputs,
        b.constI32(physicalType(outputType.getElementType(),
                                op.getOutputUnsigned())),
        outputStride,
        inputs,
        b.constI32(physicalType(inputType.getElementType(),
                                op.getInputUnsigned())),
        b.constI32(value(op.getInputInterp())),
        inputStride,
        rows};
    appendMatrixOperands(b, op, adaptor, numThreads, args);
    b.callChecked("coopvecCpuMatVecMulAdd", args);
    rewriter.eraseOp(op);
    return success();
  }
};

/// coopvec.mlp -> coopvecCpuMlpForward: the fused network kernel, with the
/// layer table built in a stack slot.
class MLPOpLowering : public RuntimeCallPattern<MLPOp> {
public:
  MLPOpLowering(MLIRContext *ctx, unsigned numThreads, bool boundsChecks)
      : RuntimeCallPattern(ctx, numThreads, boundsChecks) {}

  LogicalResult
  matchAndRewrite(MLPOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    for (Value buffer : adaptor.getWeights())
      if (failed(checkByteBuffer(rewriter, op, buffer)))
        return failure();
    for (Value buffer : adaptor.getBiases())
      if (failed(checkByteBuffer(rewriter, op, buffer)))
        return failure();
    RuntimeCallBuilder b(rewriter, op);
    Location loc = op.getLoc();
    unsigned numLayers = op.getNumLayers();
    auto tableType = MemRefType::get(
        {numLayers * int64_t(COOPVEC_CPU_MLP_LAYER_WORDS)}, b.i64());
    Value table = memref::AllocaOp::create(rewriter, loc, tableType);
    unsigned word = 0;
    auto put = [&](Value v) {
      memref::StoreOp::create(rewriter, loc, v, table,
                              ValueRange{b.constIndex(word++)});
    };
    for (unsigned l = 0; l < numLayers; ++l) {
      MatrixDescAttr desc = op.getLayerDesc(l);
      Value weights = adaptor.getWeights()[l];
      Value offset = adaptor.getWeightOffsets()[l];
      Value stride = adaptor.getWeightStrides()[l];
      if (boundsChecks)
        checkMatrixBounds(b, weights, offset, desc, stride);
      put(b.pointerWord(b.bufferPointer(weights)));
      put(b.indexToI64(offset));
      put(b.constI64(value(desc.getInterpretation())));
      put(b.constI64(desc.getRows()));
      put(b.constI64(desc.getCols()));
      put(b.constI64(value(desc.getLayout())));
      put(b.constI64(desc.getTranspose() ? 1 : 0));
      put(b.indexToI64(stride));
      if (std::optional<unsigned> i = op.getBiasIndex(l)) {
        Value bias = adaptor.getBiases()[*i];
        Value biasOffset = adaptor.getBiasOffsets()[*i];
        if (boundsChecks)
          checkRangeBounds(b, bias, biasOffset, desc.getRows() * 4);
        put(b.pointerWord(b.bufferPointer(bias)));
        put(b.indexToI64(biasOffset));
      } else {
        put(b.constI64(0));
        put(b.constI64(0));
      }
      put(b.constI64(COOPVEC_TYPE_F32));
      put(b.constI64(op.getActivations()[l]));
    }
    auto [inputs, inputStride, rows] = b.batchRows(adaptor.getInputs());
    auto [outputs, outputStride, outputRows] =
        b.batchRows(adaptor.getOutputs());
    b.checkSameRows(rows, outputRows);
    b.callChecked("coopvecCpuMlpForward",
                  {outputs, outputStride, inputs, inputStride, rows,
                   b.slotPointer(table), b.constI32(numLayers),
                   b.constI32(op.getOutputExp() ? 1 : 0),
                   b.constI32(numThreads)});
    rewriter.eraseOp(op);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Numerics ops: through the numerics library, the one definition of every
// conversion (what constant folding computes too), on stack buffers where
// the codes' layout allows, else element by element.
//===----------------------------------------------------------------------===//

/// The bits of a float scalar as a zero-extended i32.
Value floatBitsI32(OpBuilder &b, Location loc, Value value) {
  auto type = cast<FloatType>(value.getType());
  Value bits = arith::BitcastOp::create(
      b, loc, b.getIntegerType(type.getWidth()), value);
  if (type.getWidth() == 32)
    return bits;
  return arith::ExtUIOp::create(b, loc, b.getI32Type(), bits);
}

/// The float of `type` whose bits are the low bits of the i32 `bits`.
Value floatFromBitsI32(OpBuilder &b, Location loc, FloatType type, Value bits) {
  if (type.getWidth() == 32)
    return arith::BitcastOp::create(b, loc, type, bits);
  Value narrow = arith::TruncIOp::create(
      b, loc, b.getIntegerType(type.getWidth()), bits);
  return arith::BitcastOp::create(b, loc, type, narrow);
}

/// Elements of a scalar-or-vector value, and the inverse.
SmallVector<Value> elementsOf(OpBuilder &b, Location loc, Value value) {
  auto vector = dyn_cast<VectorType>(value.getType());
  if (!vector)
    return {value};
  SmallVector<Value> elements;
  for (int64_t i = 0; i < vector.getNumElements(); ++i)
    elements.push_back(vector::ExtractOp::create(b, loc, value, i));
  return elements;
}

Value fromElements(OpBuilder &b, Location loc, Type type,
                   ArrayRef<Value> elements) {
  if (!isa<VectorType>(type))
    return elements.front();
  return vector::FromElementsOp::create(b, loc, cast<VectorType>(type),
                                        elements);
}

unsigned conversionFlags(bool satfinite, bool relu) {
  return (satfinite ? COOPVEC_CVT_SATFINITE : 0) |
         (relu ? COOPVEC_CVT_RELU : 0);
}

/// Whether a vector conversion between these element types can go through
/// coopvecConvertBuffer: both sides must be plain arrays of 8-, 16- or
/// 32-bit codes, as a vector of them is stored (not E2M1, nibble-packed in
/// the runtime's buffers; not 6-bit codes, one per byte there but
/// bit-packed in a stored vector; not TF32, kept as f32 patterns).
bool hasBulkConversion(Type srcType, FloatType dstType) {
  auto plain = [](unsigned width) {
    return width == 8 || width == 16 || width == 32;
  };
  return plain(srcType.getIntOrFloatBitWidth()) && plain(dstType.getWidth());
}

/// coopvec.convert -> one coopvecConvertBuffer over stack buffers for a
/// vector with a bulk form (the runtime's vectorized conversion, bit-exact
/// with the per-element one), else coopvecConvert per element.
class ConvertOpLowering : public RuntimeCallPattern<ConvertOp> {
public:
  using RuntimeCallPattern::RuntimeCallPattern;

  LogicalResult
  matchAndRewrite(ConvertOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RuntimeCallBuilder b(rewriter, op);
    Location loc = op.getLoc();
    Type resultType = op.getResult().getType();
    auto dstType = cast<FloatType>(getElementTypeOrSelf(resultType));
    Type srcType = getElementTypeOrSelf(op.getInput().getType());
    unsigned src = *getNumericsFormat(srcType);
    unsigned dst = *getNumericsFormat(dstType);
    Value rounding = b.constI32(static_cast<int64_t>(op.getRounding()));
    Value flags = b.constI32(conversionFlags(op.getSatfinite(), op.getRelu()));
    if (auto vectorType = dyn_cast<VectorType>(resultType);
        vectorType && hasBulkConversion(srcType, dstType)) {
      int64_t n = vectorType.getNumElements();
      Value in = b.spill(adaptor.getInput());
      Value codes = b.stackSlot(b.codesType(vectorType));
      Value rbits = adaptor.getRbits()
                        ? b.slotPointer(b.spill(adaptor.getRbits()))
                        : b.nullPtr();
      b.call("coopvecConvertBuffer", {},
             {b.constI32(dst), b.constI32(src), b.slotPointer(in),
              b.slotPointer(codes), b.constI64(n), rounding, flags, rbits});
      rewriter.replaceOp(op, b.loadCodes(vectorType, codes));
      return success();
    }
    SmallVector<Value> inputs = elementsOf(rewriter, loc, adaptor.getInput());
    SmallVector<Value> rbits;
    if (adaptor.getRbits())
      rbits = elementsOf(rewriter, loc, adaptor.getRbits());
    SmallVector<Value> results;
    for (auto [i, x] : llvm::enumerate(inputs)) {
      Value bits = b.call("coopvecConvert", b.i32(),
                          {b.constI32(dst), b.constI32(src),
                           floatBitsI32(rewriter, loc, x), rounding, flags,
                           rbits.empty() ? b.constI32(0) : rbits[i]})
                       .getResult(0);
      // The runtime's TF32 is an f32 pattern; the builtin tf32 is 19 bits.
      if (dst == COOPVEC_FMT_TF32)
        bits = arith::ShRUIOp::create(rewriter, loc, bits, b.constI32(13));
      results.push_back(floatFromBitsI32(rewriter, loc, dstType, bits));
    }
    rewriter.replaceOp(op, fromElements(rewriter, loc, resultType, results));
    return success();
  }
};

/// coopvec.pack -> coopvecPackX2 / coopvecPackX4.
class PackOpLowering : public RuntimeCallPattern<PackOp> {
public:
  using RuntimeCallPattern::RuntimeCallPattern;

  LogicalResult
  matchAndRewrite(PackOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RuntimeCallBuilder b(rewriter, op);
    Location loc = op.getLoc();
    SmallVector<Value> args{b.constI32(*getNumericsFormat(op.getFormat()))};
    llvm::append_range(args, adaptor.getInputs());
    args.append({b.constI32(static_cast<int64_t>(op.getRounding())),
                 b.constI32(conversionFlags(op.getSatfinite(), op.getRelu())),
                 adaptor.getRbits() ? adaptor.getRbits() : b.constI32(0)});
    StringRef callee =
        op.getInputs().size() == 2 ? "coopvecPackX2" : "coopvecPackX4";
    Value packed = b.call(callee, b.i32(), args).getResult(0);
    IntegerType type = op.getResult().getType();
    if (type.getWidth() < 32)
      packed = arith::TruncIOp::create(rewriter, loc, type, packed);
    rewriter.replaceOp(op, packed);
    return success();
  }
};

/// Byte storage of block-scaled element codes in the runtime's layout (one
/// byte per element, E2M1 two per byte with element 2i in the low nibble).
int64_t codeStorageBytes(unsigned format, int64_t n) {
  return format == COOPVEC_FMT_E2M1 ? (n + 1) / 2 : n;
}

/// coopvec.mx_quantize -> coopvecMxQuantize / coopvecNvfp4Quantize on stack
/// buffers, then the codes read back into the result vectors.
class MXQuantizeOpLowering : public RuntimeCallPattern<MXQuantizeOp> {
public:
  using RuntimeCallPattern::RuntimeCallPattern;

  LogicalResult
  matchAndRewrite(MXQuantizeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RuntimeCallBuilder b(rewriter, op);
    Location loc = op.getLoc();
    VectorType elementsType = op.getElements().getType();
    VectorType scalesType = op.getScales().getType();
    auto elemType = cast<FloatType>(elementsType.getElementType());
    auto scaleType = cast<FloatType>(scalesType.getElementType());
    unsigned elem = *getNumericsFormat(elemType);
    int64_t n = elementsType.getNumElements();
    int64_t numScales = scalesType.getNumElements();
    Value src = b.spill(adaptor.getInput());
    auto i8 = rewriter.getI8Type();
    Value codes =
        b.stackSlot(VectorType::get({codeStorageBytes(elem, n)}, i8));
    Value scales = b.stackSlot(VectorType::get({numScales}, i8));
    if (isa<Float8E8M0FNUType>(scaleType))
      b.call("coopvecMxQuantize", {},
             {b.constI32(elem), b.slotPointer(src), b.constI64(n),
              b.slotPointer(codes), b.slotPointer(scales)});
    else
      b.call("coopvecNvfp4Quantize", {},
             {b.slotPointer(src), b.constI64(n), b.slotPointer(codes),
              b.slotPointer(scales)});

    // 8-bit codes and the scales as whole vectors; 6- and 4-bit codes (one
    // per byte, or nibble-packed) element by element.
    Value scaleVector = b.loadCodes(scalesType, scales);
    if (elemType.getWidth() == 8) {
      rewriter.replaceOp(op, {b.loadCodes(elementsType, codes), scaleVector});
      return success();
    }
    SmallVector<Value> elements;
    for (int64_t i = 0; i < n; ++i) {
      bool nibble = elem == COOPVEC_FMT_E2M1;
      Value byte = memref::LoadOp::create(
          rewriter, loc, codes, b.constIndex(nibble ? i / 2 : i));
      if (nibble && i % 2)
        byte = arith::ShRUIOp::create(rewriter, loc, byte, b.constI8(4));
      Value code = arith::TruncIOp::create(
          rewriter, loc, rewriter.getIntegerType(elemType.getWidth()), byte);
      elements.push_back(arith::BitcastOp::create(rewriter, loc, elemType, code));
    }
    rewriter.replaceOp(op, {fromElements(rewriter, loc, elementsType, elements),
                            scaleVector});
    return success();
  }
};

/// coopvec.mx_dequantize -> the codes written to stack buffers in the
/// runtime's layout, then coopvecMxDequantize / coopvecNvfp4Dequantize.
class MXDequantizeOpLowering : public RuntimeCallPattern<MXDequantizeOp> {
public:
  using RuntimeCallPattern::RuntimeCallPattern;

  LogicalResult
  matchAndRewrite(MXDequantizeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RuntimeCallBuilder b(rewriter, op);
    Location loc = op.getLoc();
    auto elementsType = cast<VectorType>(op.getElements().getType());
    auto scalesType = cast<VectorType>(op.getScales().getType());
    auto elemType = cast<FloatType>(elementsType.getElementType());
    unsigned elem = *getNumericsFormat(elemType);
    int64_t n = elementsType.getNumElements();
    auto i8 = rewriter.getI8Type();
    Value codes =
        b.stackSlot(VectorType::get({codeStorageBytes(elem, n)}, i8));
    Value scales = b.stackSlot(VectorType::get({scalesType.getNumElements()}, i8));
    // 8-bit codes and the scales as whole vectors; 6- and 4-bit codes
    // element by element.
    b.storeCodes(adaptor.getScales(), scales);
    if (elemType.getWidth() == 8) {
      b.storeCodes(adaptor.getElements(), codes);
    } else {
      // A 6- or 4-bit code widened to a byte.
      auto toByte = [&](Value v, unsigned width) -> Value {
        Value bits = arith::BitcastOp::create(
            rewriter, loc, rewriter.getIntegerType(width), v);
        return arith::ExtUIOp::create(rewriter, loc, i8, bits);
      };
      SmallVector<Value> elements =
          elementsOf(rewriter, loc, adaptor.getElements());
      for (int64_t i = 0; i < n; ++i) {
        Value byte = toByte(elements[i], elemType.getWidth());
        if (elem == COOPVEC_FMT_E2M1) {
          if (i % 2 == 0) {
            // The high nibble is the next element, or 0 after the last.
            Value high =
                i + 1 < n ? toByte(elements[i + 1], 4) : b.constI8(0);
            high = arith::ShLIOp::create(rewriter, loc, high, b.constI8(4));
            byte = arith::OrIOp::create(rewriter, loc, byte, high);
            memref::StoreOp::create(rewriter, loc, byte, codes,
                                    b.constIndex(i / 2));
          }
          continue;
        }
        memref::StoreOp::create(rewriter, loc, byte, codes, b.constIndex(i));
      }
    }
    VectorType resultType = op.getResult().getType();
    Value out = b.stackSlot(resultType);
    if (isa<Float8E8M0FNUType>(scalesType.getElementType()))
      b.call("coopvecMxDequantize", {},
             {b.constI32(elem), b.slotPointer(codes), b.slotPointer(scales),
              b.constI64(n), b.slotPointer(out)});
    else
      b.call("coopvecNvfp4Dequantize", {},
             {b.slotPointer(codes), b.slotPointer(scales), b.constI64(n),
              b.slotPointer(out)});
    rewriter.replaceOp(op, b.load(resultType, out));
    return success();
  }
};

/// coopvec.matrix_size (a dynamic stride: it did not fold) ->
/// coopvecLayoutDestinationSize; its 0 for invalid arguments is reported as
/// an invalid stride, the only operand that is not static.
class MatrixSizeOpLowering : public RuntimeCallPattern<MatrixSizeOp> {
public:
  using RuntimeCallPattern::RuntimeCallPattern;

  LogicalResult
  matchAndRewrite(MatrixSizeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RuntimeCallBuilder b(rewriter, op);
    Location loc = op.getLoc();
    MatrixDescAttr desc = op.getDesc();
    Value size =
        b.call("coopvecLayoutDestinationSize", b.i64(),
               {b.constI32(value(desc.getLayout())),
                b.constI32(desc.getStoredRows()),
                b.constI32(desc.getStoredUnitCols()),
                b.constI32(desc.getElementBytes()),
                b.indexAs(adaptor.getStride(), b.i32())})
            .getResult(0);
    Value invalid = arith::CmpIOp::create(rewriter, loc,
                                          arith::CmpIPredicate::eq, size,
                                          b.constI64(0));
    Value status =
        arith::SelectOp::create(rewriter, loc, invalid,
                                b.constI32(COOPVEC_ERROR_INVALID_STRIDE),
                                b.constI32(COOPVEC_OK));
    b.checkStatus(status);
    rewriter.replaceOp(op, arith::IndexCastOp::create(
                               rewriter, loc, rewriter.getIndexType(), size));
    return success();
  }
};

} // namespace

//===----------------------------------------------------------------------===//
// Pattern population
//===----------------------------------------------------------------------===//

void mlir::coopvec::populateCoopVecToCPUPatterns(RewritePatternSet &patterns,
                                                 unsigned numThreads,
                                                 bool boundsChecks,
                                                 unsigned batchThreads) {
  patterns.add<MatVecOpLowering, OuterProductAccumulateOpLowering,
               VectorAccumulateOpLowering, ConvertMatrixOpLowering,
               MatrixSizeOpLowering, ConvertOpLowering, PackOpLowering,
               MXQuantizeOpLowering, MXDequantizeOpLowering>(
      patterns.getContext(), numThreads, boundsChecks);
  // A batch has the work to keep every core busy.
  patterns.add<BatchMatVecOpLowering, MLPOpLowering>(
      patterns.getContext(), batchThreads, boundsChecks);
  populateCoopVecTileToCPUPatterns(patterns);
}

//===----------------------------------------------------------------------===//
// Pass
//===----------------------------------------------------------------------===//

namespace {
struct ConvertCoopVecToCPUPass
    : public coopvec::impl::ConvertCoopVecToCPUBase<ConvertCoopVecToCPUPass> {
  using Base::Base;

  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    // Name the offending op or buffer rather than let the conversion report
    // a generic "failed to legalize".
    WalkResult walk = getOperation()->walk([](Operation *op) {
      if (!isa<CoopVecDialect>(op->getDialect()))
        return WalkResult::advance();
      if (!isa<MatVecOp, OuterProductAccumulateOp, VectorAccumulateOp,
               ConvertMatrixOp, MatrixSizeOp, BatchMatVecOp, MLPOp, ConvertOp,
               PackOp, MXQuantizeOp, MXDequantizeOp, TilePackOp, TileMmaOp>(
              op)) {
        op->emitOpError("is not supported by the CPU target yet");
        return WalkResult::interrupt();
      }
      for (Value operand : op->getOperands()) {
        auto type = dyn_cast<MemRefType>(operand.getType());
        if (!type || type.isLastDimUnitStride())
          continue;
        op->emitOpError() << (type.getRank() == 1 ? "byte buffer " : "batch ")
                          << type
                          << (type.getRank() == 1
                                  ? " must have unit stride for the CPU runtime"
                                  : " must have contiguous rows (unit stride "
                                    "in its last dimension) for the CPU "
                                    "runtime");
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return signalPassFailure();

    ConversionTarget target(*ctx);
    target.addIllegalDialect<CoopVecDialect>();
    target.addLegalDialect<arith::ArithDialect, func::FuncDialect,
                           LLVM::LLVMDialect, memref::MemRefDialect,
                           scf::SCFDialect, vector::VectorDialect>();
    RewritePatternSet patterns(ctx);
    populateCoopVecToCPUPatterns(patterns, numThreads, boundsChecks,
                                 batchThreads);
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
