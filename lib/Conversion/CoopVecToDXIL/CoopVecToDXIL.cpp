//===- CoopVecToDXIL.cpp - coopvec ops to SM 6.9 dx.op calls --------------===//
//
// Rewrites the cooperative-vector shader operations into the DXIL operations
// MatVecMul (305), MatVecMulAdd (306), OuterProductAccumulate (307) and
// VectorAccumulate (308) with the opcodes, overload names and argument order
// of the shipped compiler (see the errata in shared/seeds/README.md).
//
//===----------------------------------------------------------------------===//

#include "LinAlgCoop/Conversion/CoopVecToDXIL/CoopVecToDXIL.h"

#include "LinAlgCoop/Dialect/CoopVec/IR/CoopVecOps.h"
#include "LinAlgCoop/Dialect/CoopVec/Transforms/Passes.h"
#include "LinAlgCoop/Runtime/Layout.h"

#include "mlir/Conversion/LLVMCommon/MemRefBuilder.h"
#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/FormatVariadic.h"

namespace mlir::coopvec {
#define GEN_PASS_DEF_CONVERTCOOPVECTODXIL
#include "LinAlgCoop/Conversion/Passes.h.inc"
} // namespace mlir::coopvec

using namespace mlir;
using namespace mlir::coopvec;

//===----------------------------------------------------------------------===//
// What DXIL can express
//===----------------------------------------------------------------------===//

namespace {
/// DXIL opcodes of the SM 6.9 cooperative-vector operations.
enum class DxOpcode : int32_t {
  MatVecMul = 305,
  MatVecMulAdd = 306,
  OuterProductAccumulate = 307,
  VectorAccumulate = 308,
};

/// SM 6.9 long vectors hold at most this many elements.
constexpr int64_t kMaxDxilVectorLength = 1024;
} // namespace

static std::optional<int64_t> getConstantIndex(Value value) {
  APInt constant;
  if (value && matchPattern(value, m_ConstantInt(&constant)))
    return constant.getSExtValue();
  return std::nullopt;
}

/// Why the byte buffer `buffer` cannot become a %dx.types.Handle, or "".
static std::string getBufferRejection(Value buffer, StringRef role) {
  auto type = cast<MemRefType>(buffer.getType());
  if (Attribute space = type.getMemorySpace()) {
    auto intSpace = dyn_cast<IntegerAttr>(space);
    if (!intSpace || intSpace.getInt() != 0)
      return llvm::formatv("its {0} buffer is in memory space {1}; a DXIL "
                           "raw buffer is a host-visible resource in the "
                           "default memory space",
                           role, space)
          .str();
  }
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)) || strides.size() != 1)
    return llvm::formatv("its {0} buffer has no strided layout", role).str();
  if (strides[0] != 1)
    return llvm::formatv("its {0} buffer has stride {1}; a DXIL raw buffer "
                         "is contiguous bytes (stride 1)",
                         role,
                         ShapedType::isDynamic(strides[0])
                             ? std::string("?")
                             : std::to_string(strides[0]))
        .str();
  return "";
}

/// Why the byte count `value` cannot be DXIL's i32 operand `what`, or "".
static std::string getI32Rejection(Value value, StringRef what) {
  std::optional<int64_t> constant = getConstantIndex(value);
  if (constant && (*constant < 0 || *constant > INT32_MAX))
    return llvm::formatv("its {0} {1} does not fit DXIL's i32 operand", what,
                         *constant)
        .str();
  return "";
}

static std::string getVectorRejection(VectorType type, StringRef role) {
  if (type.getNumElements() > kMaxDxilVectorLength)
    return llvm::formatv("its {0} vector has {1} elements; DXIL vectors hold "
                         "at most {2}",
                         role, type.getNumElements(), kMaxDxilVectorLength)
        .str();
  return "";
}

/// The first non-empty reason of `reasons`, or "".
static std::string firstOf(std::initializer_list<std::string> reasons) {
  for (const std::string &reason : reasons)
    if (!reason.empty())
      return reason;
  return "";
}

/// The DXIL ComponentType number of an interpretation (the shipped
/// numbering, see the seeds' errata), if DXIL SM 6.9 has one.
static std::optional<int32_t> getComponentType(InterpretationAttr interp) {
  switch (interp.getKind()) {
  case InterpKind::I16:
    return 2;
  case InterpKind::U16:
    return 3;
  case InterpKind::I32:
    return 4;
  case InterpKind::U32:
    return 5;
  case InterpKind::F16:
    return 8;
  case InterpKind::F32:
    return 9;
  case InterpKind::PackedS8x32:
    return 17;
  case InterpKind::PackedU8x32:
    return 18;
  case InterpKind::U8:
    return 19;
  case InterpKind::I8:
    return 20;
  case InterpKind::F8_E4M3:
    return 21;
  case InterpKind::F8_E5M2:
    return 22;
  case InterpKind::BF16:
  case InterpKind::F6_E2M3:
  case InterpKind::F6_E3M2:
  case InterpKind::F4_E2M1:
  case InterpKind::I4:
  case InterpKind::U4:
  case InterpKind::BFP8:
  case InterpKind::BFP4:
    return std::nullopt;
  }
  llvm_unreachable("unknown interpretation");
}

static std::string getInterpRejection(InterpretationAttr interp,
                                      StringRef role) {
  if (!interp || interp.isDxil())
    return "";
  return llvm::formatv("its {0} interpretation {1} has no DXIL ComponentType "
                       "(SM 6.9 has I16, U16, I32, U32, F16, F32, "
                       "PackedS8x32, PackedU8x32, U8, I8, F8_E4M3, F8_E5M2)",
                       role, interp.getName())
      .str();
}

static std::string getRejection(MatVecOp op) {
  if (op.getFidelityAttr())
    return "DXIL SM 6.9 has no math fidelity (a Tenstorrent Wormhole "
           "compute configuration); lower the op with "
           "--convert-coopvec-to-cpu, which runs the Wormhole model";
  if (op.getMatrixDesc().isBlockScaled())
    return "DXIL SM 6.9 has no block-scaled matrices (the matrix has "
           "block scales)";
  std::string reason = firstOf(
      {getInterpRejection(op.getInputInterp(), "input"),
       getInterpRejection(op.getMatrixDesc().getInterpretation(), "matrix"),
       getInterpRejection(op.getBiasInterpAttr(), "bias"),
       getVectorRejection(op.getInput().getType(), "input"),
       getVectorRejection(op.getResult().getType(), "result"),
       getBufferRejection(op.getMatrix(), "matrix"),
       getI32Rejection(op.getMatrixOffset(), "matrix offset"),
       getI32Rejection(op.getMatrixStride(), "matrix stride")});
  if (!reason.empty() || !op.hasBias())
    return reason;
  return firstOf({getBufferRejection(op.getBias(), "bias"),
                  getI32Rejection(op.getBiasOffset(), "bias offset")});
}

static std::string getRejection(OuterProductAccumulateOp op) {
  MatrixDescAttr desc = op.getMatrixDesc();
  if (std::string reason =
          getInterpRejection(desc.getInterpretation(), "matrix");
      !reason.empty())
    return reason;
  // The shipped validator's rule: what the outer product writes must be in
  // the layout the driver chose for training, which ignores the stride.
  if (desc.getLayout() != MatrixLayout::TrainingOptimal)
    return llvm::formatv("DXIL accumulates outer products only into "
                         "TrainingOptimal matrices, but the matrix is {0}",
                         stringifyMatrixLayout(desc.getLayout()))
        .str();
  if (Value stride = op.getMatrixStride()) {
    std::optional<int64_t> constant = getConstantIndex(stride);
    if (!constant || *constant != 0)
      return "DXIL accumulates outer products only with stride 0";
  }
  return firstOf({getVectorRejection(op.getLhs().getType(), "first input"),
                  getVectorRejection(op.getRhs().getType(), "second input"),
                  getBufferRejection(op.getMatrix(), "matrix"),
                  getI32Rejection(op.getMatrixOffset(), "matrix offset")});
}

static std::string getRejection(VectorAccumulateOp op) {
  return firstOf({getVectorRejection(op.getInput().getType(), "input"),
                  getBufferRejection(op.getBuffer(), "output array"),
                  getI32Rejection(op.getOffset(), "offset")});
}

static std::string getRejection(MatrixSizeOp op) {
  if (std::string reason =
          getInterpRejection(op.getDesc().getInterpretation(), "matrix");
      !reason.empty())
    return reason;
  if (op.getStride() && !getConstantIndex(op.getStride()))
    return "its stride is not a constant, and DXIL has no size query "
           "(GetLinearAlgebraMatrixConversionDestinationInfo is a host API "
           "call: use coopvecDxGetLinearAlgebraMatrixConversionDestinationInfo)";
  return "";
}

/// Why `op` cannot be lowered to DXIL, or "" if it can.
static std::string getDXILRejection(Operation *op) {
  return llvm::TypeSwitch<Operation *, std::string>(op)
      .Case([](MatVecOp op) { return getRejection(op); })
      .Case([](OuterProductAccumulateOp op) { return getRejection(op); })
      .Case([](VectorAccumulateOp op) { return getRejection(op); })
      .Case([](MatrixSizeOp op) { return getRejection(op); })
      .Case([](ConvertMatrixOp) {
        return std::string(
            "it is the D3D12 API call ConvertLinearAlgebraMatrix, not a "
            "shader operation; convert matrices on the host with "
            "coopvecDxConvertLinearAlgebraMatrix (LinAlgCoop/Runtime/Dxil.h)");
      })
      .Case<ConvertOp, PackOp, MXQuantizeOp, MXDequantizeOp>([](Operation *) {
        return std::string("DXIL SM 6.9 has no low-precision conversion or "
                           "block-scale operation; convert on the host or "
                           "use an interpretation (F8_E4M3, F8_E5M2)");
      })
      .Case<BatchMatVecOp, MLPOp>([](Operation *) {
        return std::string("DXIL expresses one invocation's product; the "
                           "batched and fused forms are for the CPU target "
                           "(do not run --coopvec-batch before this pass)");
      })
      .Default([](Operation *op) {
        return isa<CoopVecDialect>(op->getDialect())
                   ? std::string("it has no DXIL lowering")
                   : std::string();
      });
}

//===----------------------------------------------------------------------===//
// Shared lowering helpers
//===----------------------------------------------------------------------===//

/// The DXIL overload-name part of a vector type: `v4f32`, `v8i32`, `v16f16`.
static std::string getOverloadName(VectorType type) {
  Type elem = type.getElementType();
  std::string elemName;
  if (elem.isF16())
    elemName = "f16";
  else if (elem.isF32())
    elemName = "f32";
  else
    elemName = "i" + std::to_string(elem.getIntOrFloatBitWidth());
  return "v" + std::to_string(type.getNumElements()) + elemName;
}

/// %dx.types.Handle; the pass checks first that the input has not given
/// the name another body.
static LLVM::LLVMStructType getHandleType(MLIRContext *ctx) {
  auto type = LLVM::LLVMStructType::getIdentified(ctx, "dx.types.Handle");
  if (!type.isInitialized())
    (void)type.setBody({LLVM::LLVMPointerType::get(ctx)}, /*isPacked=*/false);
  return type;
}

static Value createI32(OpBuilder &builder, Location loc, int64_t value) {
  return LLVM::ConstantOp::create(builder, loc, builder.getI32Type(),
                                  builder.getI32IntegerAttr(value));
}

/// The ComponentType operand of an interpretation the rejection admitted.
static Value createComponentType(OpBuilder &b, Location loc,
                                 InterpretationAttr interp) {
  return createI32(b, loc, *getComponentType(interp));
}

static Value createI1(OpBuilder &builder, Location loc, bool value) {
  return LLVM::ConstantOp::create(builder, loc, builder.getI1Type(),
                                  builder.getBoolAttr(value));
}

/// DXIL's i32 operand for the index `original` (converted: `converted`):
/// constants stay constants so the call text shows them (the pattern rejects
/// those outside [0, INT32_MAX]). A dynamic value outside that range has no
/// operand: it becomes 0xFFFFFFFF, an odd offset and stride that no buffer
/// accepts, so the driver reports the call instead of running it at a
/// wrapped-around offset.
static Value createI32Operand(OpBuilder &builder, Location loc, Value original,
                              Value converted) {
  if (!original)
    return createI32(builder, loc, 0);
  if (std::optional<int64_t> constant = getConstantIndex(original))
    return createI32(builder, loc, *constant);
  Type type = converted.getType();
  Value max = LLVM::ConstantOp::create(
      builder, loc, type, builder.getIntegerAttr(type, INT32_MAX));
  // Unsigned: negative values are out of range too.
  Value inRange = LLVM::ICmpOp::create(builder, loc, LLVM::ICmpPredicate::ule,
                                       converted, max);
  Value truncated =
      LLVM::TruncOp::create(builder, loc, builder.getI32Type(), converted);
  return LLVM::SelectOp::create(builder, loc, inRange, truncated,
                                createI32(builder, loc, -1));
}

/// Wraps the converted memref descriptor `descriptor` in a %dx.types.Handle
/// whose pointer addresses a host buffer descriptor {ptr base, i64 size}
/// (CoopVecDxBuffer). The slot is allocated in the entry block of the
/// enclosing function so that ops in loops do not grow the stack.
static Value createHandle(OpBuilder &builder, Location loc, Operation *op,
                          Value descriptor) {
  MLIRContext *ctx = builder.getContext();
  auto ptrType = LLVM::LLVMPointerType::get(ctx);
  Type i64 = builder.getI64Type();
  auto bufferType = LLVM::LLVMStructType::getLiteral(ctx, {ptrType, i64});

  Value slot;
  {
    OpBuilder::InsertionGuard guard(builder);
    auto func = op->getParentOfType<FunctionOpInterface>();
    if (func && !func.getFunctionBody().empty())
      builder.setInsertionPointToStart(&func.getFunctionBody().front());
    Value one = LLVM::ConstantOp::create(builder, loc, i64,
                                         builder.getI64IntegerAttr(1));
    slot = LLVM::AllocaOp::create(builder, loc, ptrType, bufferType, one,
                                  /*alignment=*/8);
  }

  MemRefDescriptor memref(descriptor);
  Value base = LLVM::GEPOp::create(builder, loc, ptrType, builder.getI8Type(),
                                   memref.alignedPtr(builder, loc),
                                   ValueRange{memref.offset(builder, loc)});
  Value buffer = LLVM::PoisonOp::create(builder, loc, bufferType);
  buffer = LLVM::InsertValueOp::create(builder, loc, buffer, base,
                                       ArrayRef<int64_t>{0});
  buffer = LLVM::InsertValueOp::create(builder, loc, buffer,
                                       memref.size(builder, loc, 0),
                                       ArrayRef<int64_t>{1});
  LLVM::StoreOp::create(builder, loc, buffer, slot);

  Value handle = LLVM::PoisonOp::create(builder, loc, getHandleType(ctx));
  return LLVM::InsertValueOp::create(builder, loc, handle, slot,
                                     ArrayRef<int64_t>{0});
}

/// The declaration of the dx.op function `name`, created if needed.
static FailureOr<LLVM::LLVMFuncOp>
getOrCreateDxOp(OpBuilder &builder, Operation *op, StringRef name,
                Type resultType, ArrayRef<Value> operands) {
  auto module = op->getParentOfType<ModuleOp>();
  if (!module)
    return failure();
  SmallVector<Type> argTypes;
  for (Value operand : operands)
    argTypes.push_back(operand.getType());
  auto type = LLVM::LLVMFunctionType::get(resultType, argTypes);
  if (Operation *existing = module.lookupSymbol(name)) {
    auto func = dyn_cast<LLVM::LLVMFuncOp>(existing);
    if (!func || func.getFunctionType() != type)
      return failure();
    return func;
  }
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(module.getBody());
  return LLVM::LLVMFuncOp::create(builder, module.getLoc(), name, type);
}

/// Calls the dx.op function `name` (declared on first use) in place of `op`,
/// whose results it replaces; fails if `name` exists with another type.
static LogicalResult replaceWithDxCall(ConversionPatternRewriter &rewriter,
                                       Operation *op, StringRef name,
                                       Type resultType,
                                       ArrayRef<Value> operands) {
  FailureOr<LLVM::LLVMFuncOp> callee =
      getOrCreateDxOp(rewriter, op, name, resultType, operands);
  if (failed(callee))
    return rewriter.notifyMatchFailure(op, "conflicting symbol " + name);
  auto call = LLVM::CallOp::create(rewriter, op->getLoc(), *callee, operands);
  if (op->getNumResults())
    rewriter.replaceOp(op, call.getResult());
  else
    rewriter.eraseOp(op);
  return success();
}

//===----------------------------------------------------------------------===//
// Patterns
//===----------------------------------------------------------------------===//

namespace {
/// coopvec.matvec -> dx.op.matVecMul (305) / dx.op.matVecMulAdd (306).
struct MatVecOpLowering : public ConvertOpToLLVMPattern<MatVecOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(MatVecOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (std::string reason = getDXILRejection(op); !reason.empty())
      return rewriter.notifyMatchFailure(op, reason);
    Location loc = op.getLoc();
    MatrixDescAttr desc = op.getMatrixDesc();
    bool hasBias = op.hasBias();
    DxOpcode opcode = hasBias ? DxOpcode::MatVecMulAdd : DxOpcode::MatVecMul;

    SmallVector<Value> operands = {
        createI32(rewriter, loc, static_cast<int32_t>(opcode)),
        adaptor.getInput(),
        createI1(rewriter, loc, op.getInputUnsigned()),
        createComponentType(rewriter, loc, op.getInputInterp()),
        createHandle(rewriter, loc, op, adaptor.getMatrix()),
        createI32Operand(rewriter, loc, op.getMatrixOffset(),
                         adaptor.getMatrixOffset()),
        createComponentType(rewriter, loc, desc.getInterpretation()),
        createI32(rewriter, loc, desc.getRows()),
        createI32(rewriter, loc, desc.getCols()),
        createI32(rewriter, loc, static_cast<int32_t>(desc.getLayout())),
        createI1(rewriter, loc, desc.getTranspose()),
        createI32Operand(rewriter, loc, op.getMatrixStride(),
                         adaptor.getMatrixStride())};
    if (hasBias) {
      operands.push_back(createHandle(rewriter, loc, op, adaptor.getBias()));
      operands.push_back(createI32Operand(rewriter, loc, op.getBiasOffset(),
                                          adaptor.getBiasOffset()));
      operands.push_back(
          createComponentType(rewriter, loc, op.getBiasInterpAttr()));
    }
    operands.push_back(createI1(rewriter, loc, op.getOutputUnsigned()));

    VectorType resultType = op.getResult().getType();
    std::string name =
        llvm::formatv("dx.op.{0}.{1}.{2}",
                      hasBias ? "matVecMulAdd" : "matVecMul",
                      getOverloadName(resultType),
                      getOverloadName(op.getInput().getType()))
            .str();
    return replaceWithDxCall(rewriter, op, name, resultType, operands);
  }
};

/// coopvec.outer_product_accumulate -> dx.op.outerProductAccumulate (307).
struct OuterProductAccumulateOpLowering
    : public ConvertOpToLLVMPattern<OuterProductAccumulateOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(OuterProductAccumulateOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (std::string reason = getDXILRejection(op); !reason.empty())
      return rewriter.notifyMatchFailure(op, reason);
    Location loc = op.getLoc();
    MatrixDescAttr desc = op.getMatrixDesc();
    SmallVector<Value> operands = {
        createI32(rewriter, loc,
                  static_cast<int32_t>(DxOpcode::OuterProductAccumulate)),
        adaptor.getLhs(),
        adaptor.getRhs(),
        createHandle(rewriter, loc, op, adaptor.getMatrix()),
        createI32Operand(rewriter, loc, op.getMatrixOffset(),
                         adaptor.getMatrixOffset()),
        createComponentType(rewriter, loc, desc.getInterpretation()),
        createI32(rewriter, loc, static_cast<int32_t>(desc.getLayout())),
        createI32Operand(rewriter, loc, op.getMatrixStride(),
                         adaptor.getMatrixStride())};
    std::string name = llvm::formatv("dx.op.outerProductAccumulate.{0}.{1}",
                                     getOverloadName(op.getLhs().getType()),
                                     getOverloadName(op.getRhs().getType()))
                           .str();
    return replaceWithDxCall(rewriter, op, name,
                             LLVM::LLVMVoidType::get(getContext()), operands);
  }
};

/// coopvec.vector_accumulate -> dx.op.vectorAccumulate (308).
struct VectorAccumulateOpLowering
    : public ConvertOpToLLVMPattern<VectorAccumulateOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(VectorAccumulateOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (std::string reason = getDXILRejection(op); !reason.empty())
      return rewriter.notifyMatchFailure(op, reason);
    Location loc = op.getLoc();
    SmallVector<Value> operands = {
        createI32(rewriter, loc,
                  static_cast<int32_t>(DxOpcode::VectorAccumulate)),
        adaptor.getInput(),
        createHandle(rewriter, loc, op, adaptor.getBuffer()),
        createI32Operand(rewriter, loc, op.getOffset(), adaptor.getOffset())};
    std::string name = "dx.op.vectorAccumulate." +
                       getOverloadName(op.getInput().getType());
    return replaceWithDxCall(rewriter, op, name,
                             LLVM::LLVMVoidType::get(getContext()), operands);
  }
};

/// coopvec.matrix_size with a constant stride -> its value: the optimal
/// layouts' sizes are a compile-time fact of the driver (Layout.h).
struct MatrixSizeOpLowering : public ConvertOpToLLVMPattern<MatrixSizeOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(MatrixSizeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (std::string reason = getDXILRejection(op); !reason.empty())
      return rewriter.notifyMatchFailure(op, reason);
    MatrixDescAttr desc = op.getDesc();
    int64_t stride = op.getStride() ? *getConstantIndex(op.getStride()) : 0;
    if (stride < 0 || stride > UINT32_MAX)
      return rewriter.notifyMatchFailure(op, "stride out of range");
    uint64_t size = coopvecLayoutDestinationSize(
        static_cast<uint32_t>(desc.getLayout()), desc.getRows(),
        desc.getCols(), desc.getElementBytes(), static_cast<uint32_t>(stride));
    if (size == 0 || size > static_cast<uint64_t>(INT64_MAX))
      return rewriter.notifyMatchFailure(op, "invalid matrix");
    rewriter.replaceOpWithNewOp<arith::ConstantIndexOp>(
        op, static_cast<int64_t>(size));
    return success();
  }
};
} // namespace

void mlir::coopvec::populateCoopVecToDXILPatterns(LLVMTypeConverter &converter,
                                                  RewritePatternSet &patterns) {
  patterns.add<MatVecOpLowering, OuterProductAccumulateOpLowering,
               VectorAccumulateOpLowering, MatrixSizeOpLowering>(converter);
}

//===----------------------------------------------------------------------===//
// Pass
//===----------------------------------------------------------------------===//

namespace {
struct ConvertCoopVecToDXILPass
    : public coopvec::impl::ConvertCoopVecToDXILBase<ConvertCoopVecToDXILPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();

    // The target's support set applies before anything is lowered.
    OpPassManager checkPipeline(ModuleOp::getOperationName());
    CoopVecCheckSupportOptions checkOptions;
    checkOptions.profile = profile;
    checkOptions.emulate = emulate;
    checkPipeline.addPass(createCoopVecCheckSupport(checkOptions));
    if (failed(runPipeline(checkPipeline, module)))
      return signalPassFailure();

    // Report everything DXIL cannot express at once, before rewriting.
    bool rejected = false;
    Operation *firstBufferOp = nullptr; // The first op that takes a handle.
    module.walk([&](Operation *op) {
      if (!firstBufferOp &&
          isa<MatVecOp, OuterProductAccumulateOp, VectorAccumulateOp>(op))
        firstBufferOp = op;
      std::string reason = getDXILRejection(op);
      if (reason.empty())
        return;
      op->emitError() << "'" << op->getName()
                      << "' cannot be lowered to DXIL: " << reason;
      rejected = true;
    });
    if (rejected)
      return signalPassFailure();

    // Identified structs are context-wide: the input may already have given
    // "dx.types.Handle" another body.
    auto handle =
        LLVM::LLVMStructType::getIdentified(&getContext(), "dx.types.Handle");
    Type ptr = LLVM::LLVMPointerType::get(&getContext());
    if (firstBufferOp && handle.isInitialized() &&
        (handle.isPacked() || handle.getBody() != ArrayRef<Type>(ptr))) {
      firstBufferOp->emitError()
          << "'" << firstBufferOp->getName()
          << "' cannot be lowered to DXIL: the input defines " << handle
          << ", but DXIL's handle is a struct of one pointer";
      return signalPassFailure();
    }

    LLVMTypeConverter converter(&getContext());
    RewritePatternSet patterns(&getContext());
    populateCoopVecToDXILPatterns(converter, patterns);
    ConversionTarget target(getContext());
    target.addLegalDialect<LLVM::LLVMDialect, arith::ArithDialect>();
    target.addIllegalOp<MatVecOp, OuterProductAccumulateOp, VectorAccumulateOp,
                        MatrixSizeOp, ConvertMatrixOp>();
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
