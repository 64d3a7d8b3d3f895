//===- LinkHostDriver.cpp - dx.op bodies that call the software driver ----===//
//
// Gives the dx.op declarations of a lowered module bodies that marshal their
// arguments into the C entry points of lib/Runtime/Dxil, so the exact DXIL
// call text also runs on the host.
//
//===----------------------------------------------------------------------===//

#include "LinAlgCoop/Conversion/CoopVecToDXIL/CoopVecToDXIL.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::coopvec {
#define GEN_PASS_DEF_COOPVECDXILLINKHOSTDRIVER
#include "LinAlgCoop/Conversion/Passes.h.inc"
} // namespace mlir::coopvec

using namespace mlir;
using namespace mlir::coopvec;

namespace {
enum class DxOpKind { MatVecMul, MatVecMulAdd, OuterProduct, VectorAccumulate };

/// Which operation a `dx.op.` name is, by its prefix up to the overloads.
std::optional<DxOpKind> getKind(StringRef name) {
  StringRef base = name.drop_front(StringRef("dx.op.").size()).split('.').first;
  return llvm::StringSwitch<std::optional<DxOpKind>>(base)
      .Case("matVecMul", DxOpKind::MatVecMul)
      .Case("matVecMulAdd", DxOpKind::MatVecMulAdd)
      .Case("outerProductAccumulate", DxOpKind::OuterProduct)
      .Case("vectorAccumulate", DxOpKind::VectorAccumulate)
      .Default(std::nullopt);
}

/// The ComponentType number of a vector element type the driver reads
/// (signedness comes from the op's flags), or 0.
int32_t getElementCode(Type type) {
  auto vector = dyn_cast<VectorType>(type);
  if (!vector || vector.getRank() != 1 || vector.isScalable())
    return 0;
  Type elem = vector.getElementType();
  if (elem.isF16())
    return 8;
  if (elem.isF32())
    return 9;
  if (elem.isInteger(16))
    return 2;
  if (elem.isInteger(32))
    return 4;
  return 0;
}

/// Parameter kinds of the dx.op signatures: V a vector, H a handle,
/// I an i32, B an i1.
bool matchesSignature(LLVM::LLVMFunctionType type, StringRef pattern) {
  if (type.getNumParams() != pattern.size())
    return false;
  for (auto [param, kind] : llvm::zip(type.getParams(), pattern)) {
    bool ok = false;
    switch (kind) {
    case 'V':
      ok = getElementCode(param) != 0;
      break;
    case 'H': {
      auto handle = dyn_cast<LLVM::LLVMStructType>(param);
      ok = handle && handle.isIdentified() &&
           handle.getName() == "dx.types.Handle" && handle.isInitialized() &&
           handle.getBody().size() == 1 &&
           isa<LLVM::LLVMPointerType>(handle.getBody()[0]);
      break;
    }
    case 'I':
      ok = param.isInteger(32);
      break;
    case 'B':
      ok = param.isInteger(1);
      break;
    }
    if (!ok)
      return false;
  }
  return true;
}

/// Builds bodies for the dx.op declarations of one module.
class BodyBuilder {
public:
  BodyBuilder(ModuleOp module)
      : module(module), builder(module.getContext()),
        ptrType(LLVM::LLVMPointerType::get(module.getContext())),
        i32(builder.getI32Type()), i64(builder.getI64Type()) {}

  LogicalResult build(LLVM::LLVMFuncOp func);

private:
  LLVM::LLVMFuncOp getDriverFunction(StringRef name, StringRef kinds);
  Value i32Const(Location loc, int64_t value) {
    return LLVM::ConstantOp::create(builder, loc, i32,
                                    builder.getI32IntegerAttr(value));
  }
  Value toI32(Location loc, Value flag) {
    return LLVM::ZExtOp::create(builder, loc, i32, flag);
  }
  /// Stores `value` into a fresh stack slot and returns its address.
  Value spill(Location loc, Value value) {
    Value one =
        LLVM::ConstantOp::create(builder, loc, i64, builder.getI64IntegerAttr(1));
    // No explicit alignment: the slot gets the vector type's own alignment,
    // which the (unannotated) store assumes; a 32-byte vector in a 16-byte
    // aligned slot faults on aligned AVX stores.
    Value slot =
        LLVM::AllocaOp::create(builder, loc, ptrType, value.getType(), one);
    LLVM::StoreOp::create(builder, loc, value, slot);
    return slot;
  }
  Value descriptorOf(Location loc, Value handle) {
    return LLVM::ExtractValueOp::create(builder, loc, handle,
                                         ArrayRef<int64_t>{0});
  }

  ModuleOp module;
  OpBuilder builder;
  LLVM::LLVMPointerType ptrType;
  Type i32, i64;
  unsigned nameCounter = 0;
};
} // namespace

/// The declaration of a driver entry point whose parameters are `kinds`
/// ('P' pointer, 'I' i32), returning void.
LLVM::LLVMFuncOp BodyBuilder::getDriverFunction(StringRef name,
                                                StringRef kinds) {
  if (auto func = module.lookupSymbol<LLVM::LLVMFuncOp>(name))
    return func;
  SmallVector<Type> params;
  for (char kind : kinds)
    params.push_back(kind == 'P' ? Type(ptrType) : i32);
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(module.getBody());
  return LLVM::LLVMFuncOp::create(
      builder, module.getLoc(), name,
      LLVM::LLVMFunctionType::get(
          LLVM::LLVMVoidType::get(module.getContext()), params));
}

LogicalResult BodyBuilder::build(LLVM::LLVMFuncOp func) {
  StringRef name = func.getName();
  std::optional<DxOpKind> kind = getKind(name);
  LLVM::LLVMFunctionType type = func.getFunctionType();
  static constexpr StringLiteral kSignatures[] = {
      "IVBIHIIIIIBIB", "IVBIHIIIIIBIHIIB", "IVVHIIII", "IVHI"};
  if (!kind || !matchesSignature(type, kSignatures[static_cast<int>(*kind)]) ||
      type.isVarArg()) {
    return func.emitError()
           << "'" << name
           << "' is not a cooperative-vector dx.op the software driver "
              "implements (dx.op.matVecMul, matVecMulAdd, "
              "outerProductAccumulate or vectorAccumulate with the SM 6.9 "
              "signature)";
  }
  bool returnsVector =
      *kind == DxOpKind::MatVecMul || *kind == DxOpKind::MatVecMulAdd;
  if (returnsVector != (getElementCode(type.getReturnType()) != 0))
    return func.emitError() << "'" << name
                            << "' has the wrong result type for its operation";

  if (*kind == DxOpKind::OuterProduct &&
      cast<VectorType>(type.getParams()[1]).getElementType() !=
          cast<VectorType>(type.getParams()[2]).getElementType())
    return func.emitError() << "'" << name
                            << "' has input vectors of different types";

  Location loc = func.getLoc();
  // The name travels with every call so that driver errors name the op.
  Value opName;
  {
    OpBuilder::InsertionGuard guard(builder);
    Block *entry = func.addEntryBlock(builder);
    builder.setInsertionPointToStart(entry);
    opName = LLVM::createGlobalString(
        loc, builder, ("__coopvec_dx_name" + Twine(nameCounter++)).str(),
        (name + Twine('\0')).str(), LLVM::Linkage::Internal);
  }
  builder.setInsertionPointToEnd(&func.getBody().front());
  func.setLinkage(LLVM::Linkage::Internal);
  auto args = func.getArguments();

  auto vectorLength = [](Value v) {
    return cast<VectorType>(v.getType()).getNumElements();
  };

  switch (*kind) {
  case DxOpKind::MatVecMul:
  case DxOpKind::MatVecMulAdd: {
    bool hasBias = *kind == DxOpKind::MatVecMulAdd;
    auto resultType = cast<VectorType>(type.getReturnType());
    Value one = LLVM::ConstantOp::create(builder, loc, i64,
                                         builder.getI64IntegerAttr(1));
    Value result =
        LLVM::AllocaOp::create(builder, loc, ptrType, resultType, one);
    Value input = spill(loc, args[1]);
    Value bias = hasBias ? descriptorOf(loc, args[12])
                         : LLVM::ZeroOp::create(builder, loc, ptrType);
    SmallVector<Value> callArgs = {
        opName,
        result,
        i32Const(loc, getElementCode(resultType)),
        i32Const(loc, resultType.getNumElements()),
        input,
        i32Const(loc, getElementCode(args[1].getType())),
        i32Const(loc, vectorLength(args[1])),
        toI32(loc, args[2]),      // input unsigned
        args[3],                  // input interpretation
        descriptorOf(loc, args[4]),
        args[5],                  // matrix offset
        args[6],                  // matrix interpretation
        args[7],                  // M
        args[8],                  // K
        args[9],                  // layout
        toI32(loc, args[10]),     // transpose
        args[11],                 // stride
        bias,
        hasBias ? Value(args[13]) : i32Const(loc, 0),
        hasBias ? Value(args[14]) : i32Const(loc, 0),
        toI32(loc, args.back())}; // output unsigned
    LLVM::CallOp::create(builder, loc,
                         getDriverFunction("coopvecDxMatVecMulAdd",
                                           "PPIIPIIIIPIIIIIIIPIII"),
                         callArgs);
    Value loaded = LLVM::LoadOp::create(builder, loc, resultType, result);
    LLVM::ReturnOp::create(builder, loc, loaded);
    return success();
  }
  case DxOpKind::OuterProduct: {
    Value a = spill(loc, args[1]);
    Value b = spill(loc, args[2]);
    SmallVector<Value> callArgs = {opName,
                                   a,
                                   i32Const(loc, vectorLength(args[1])),
                                   b,
                                   i32Const(loc, vectorLength(args[2])),
                                   i32Const(loc, getElementCode(args[1].getType())),
                                   descriptorOf(loc, args[3]),
                                   args[4],  // offset
                                   args[5],  // interpretation
                                   args[6],  // layout
                                   args[7]}; // stride
    LLVM::CallOp::create(builder, loc,
                         getDriverFunction("coopvecDxOuterProductAccumulate",
                                           "PPIPIIPIIII"),
                         callArgs);
    LLVM::ReturnOp::create(builder, loc, ValueRange());
    return success();
  }
  case DxOpKind::VectorAccumulate: {
    Value input = spill(loc, args[1]);
    SmallVector<Value> callArgs = {
        opName,
        input,
        i32Const(loc, vectorLength(args[1])),
        i32Const(loc, getElementCode(args[1].getType())),
        descriptorOf(loc, args[2]),
        args[3]};
    LLVM::CallOp::create(builder, loc,
                         getDriverFunction("coopvecDxVectorAccumulate",
                                           "PPIIPI"),
                         callArgs);
    LLVM::ReturnOp::create(builder, loc, ValueRange());
    return success();
  }
  }
  llvm_unreachable("unknown dx.op kind");
}

namespace {
struct CoopVecDXILLinkHostDriverPass
    : public coopvec::impl::CoopVecDXILLinkHostDriverBase<
          CoopVecDXILLinkHostDriverPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<LLVM::LLVMFuncOp> declarations;
    for (auto func : module.getOps<LLVM::LLVMFuncOp>())
      if (func.isExternal() && func.getName().starts_with("dx.op."))
        declarations.push_back(func);
    BodyBuilder bodies(module);
    bool failedAny = false;
    for (LLVM::LLVMFuncOp func : declarations)
      failedAny |= failed(bodies.build(func));
    if (failedAny)
      signalPassFailure();
  }
};
} // namespace
