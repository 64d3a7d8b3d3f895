//===- RuntimeCalls.h - building calls of the CPU runtime -------*- C++ -*-===//
//
// What every CPU lowering pattern (CoopVecToCPU.cpp, TilesToCPU.cpp) uses to
// call the runtime: the element codes of interpretations, a builder of the
// IR around one call (constants, buffer pointers, stack slots, the status
// check) and the parameter structs of RuntimeFunctions.def.
//
//===----------------------------------------------------------------------===//

#ifndef LINALGCOOP_LIB_CONVERSION_COOPVECTOCPU_RUNTIMECALLS_H
#define LINALGCOOP_LIB_CONVERSION_COOPVECTOCPU_RUNTIMECALLS_H

#include "RuntimeAbi.h"

#include "LinAlgCoop/Dialect/CoopVec/IR/CoopVecOps.h"
#include "LinAlgCoop/Dialect/CoopVec/Transforms/Passes.h"
#include "LinAlgCoop/Runtime/CpuTarget.h"
#include "LinAlgCoop/Runtime/Kernels.h"
#include "LinAlgCoop/Runtime/Layout.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::coopvec::cpu_lowering {
using cpu_abi::AbiStruct;
using cpu_abi::RuntimeFn;

/// The runtime's element code (CoopVecComponentType, Kernels.h) of an
/// interpretation.
constexpr int64_t runtimeElementCode(InterpKind kind) {
  switch (kind) {
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
  case InterpKind::BFP8:
    return COOPVEC_TYPE_BFP8;
  case InterpKind::BFP4:
    return COOPVEC_TYPE_BFP4;
  }
  return -1; // Not a constant expression's answer: see below.
}

/// Every interpretation has its own element code (a kind added to the
/// dialect without a runtime code fails here).
constexpr bool elementCodesAreDistinct() {
  for (unsigned i = 0; i < kNumInterpKinds; ++i) {
    int64_t code = runtimeElementCode(static_cast<InterpKind>(i));
    if (code <= 0)
      return false;
    for (unsigned j = 0; j < i; ++j)
      if (runtimeElementCode(static_cast<InterpKind>(j)) == code)
        return false;
  }
  return true;
}
static_assert(elementCodesAreDistinct(),
              "each interpretation needs its own CoopVecComponentType code");

/// The Wormhole model's Dst or L1 format (CoopVecFormat) of a fidelity
/// attribute's `dst` or `pack` type: BF16 or F32.
inline unsigned wormholeFormat(Type type) {
  return type.isBF16() ? COOPVEC_FMT_BF16 : COOPVEC_FMT_F32;
}

/// The Src format operands of `type` (bf16 or f32 elements) unpack to:
/// BF16, or TF32 for f32.
inline unsigned wormholeSrcFormat(ShapedType type) {
  return type.getElementType().isBF16() ? COOPVEC_FMT_BF16 : COOPVEC_FMT_TF32;
}

//===----------------------------------------------------------------------===//
// Runtime calls
//===----------------------------------------------------------------------===//

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
        MemRefType::get({type.getNumElements()}, type.getElementType());
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
    vector::StoreOp::create(rewriter, loc, flatten(vector), slot,
                            ValueRange{constIndex(0)});
    return slot;
  }

  Value slotPointer(Value slot) { return bufferPointer(slot); }

  Value load(VectorType type, Value slot) {
    Value flat = vector::LoadOp::create(rewriter, loc, flatType(type), slot,
                                        ValueRange{constIndex(0)});
    return flat.getType() == type
               ? flat
               : vector::ShapeCastOp::create(rewriter, loc, type, flat);
  }

  /// A float vector extended to f32 (exact), or itself if already f32.
  Value extendToF32(Value vector) {
    auto type = cast<VectorType>(vector.getType());
    if (type.getElementType().isF32())
      return vector;
    return arith::ExtFOp::create(rewriter, loc,
                                 type.clone(rewriter.getF32Type()), vector);
  }

  /// A vector's elements in row-major order, as one dimension (a slot
  /// holds an n-D vector that way: the LLVM lowering stores 1-D vectors).
  VectorType flatType(VectorType type) {
    return VectorType::get({type.getNumElements()}, type.getElementType());
  }
  Value flatten(Value vector) {
    auto type = cast<VectorType>(vector.getType());
    return type.getRank() == 1 ? vector
                               : vector::ShapeCastOp::create(
                                     rewriter, loc, flatType(type), vector);
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
    vector::StoreOp::create(rewriter, loc, flatten(codes), slot,
                            ValueRange{constIndex(0)});
  }

  /// The type of a kind of RuntimeFunctions.def (null for Void).
  Type abiType(cpu_abi::Kind kind) {
    switch (cpu_abi::llvmKind(kind)) {
    case cpu_abi::Ptr:
      return ptrType;
    case cpu_abi::I32:
      return i32();
    case cpu_abi::I64:
      return i64();
    case cpu_abi::F32:
      return rewriter.getF32Type();
    default:
      return nullptr;
    }
  }

  /// Calls the runtime function `fn`, declaring it on first use with its
  /// signature from RuntimeFunctions.def (func.call then verifies the
  /// arguments against it).
  func::CallOp call(RuntimeFn fn, ValueRange args) {
    const cpu_abi::FunctionInfo &info = cpu_abi::getFunctionInfo(fn);
    SmallVector<Type> params, results;
    for (cpu_abi::Kind kind : info.params)
      params.push_back(abiType(kind));
    if (Type result = abiType(info.result))
      results.push_back(result);
    auto module = op->getParentOfType<ModuleOp>();
    if (!module.lookupSymbol<func::FuncOp>(info.name)) {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(module.getBody());
      auto decl = func::FuncOp::create(
          rewriter, loc, info.name, rewriter.getFunctionType(params, results));
      decl.setPrivate();
    }
    return func::CallOp::create(rewriter, loc, info.name, results, args);
  }

  /// Calls `fn`, which returns a CoopVecStatus, and reports a non-zero
  /// status through coopvecCpuReportError, which does not return.
  void callChecked(RuntimeFn fn, ValueRange args) {
    checkStatus(call(fn, args).getResult(0));
  }

  /// A stack slot for `count` parameter structs of `fields`, allocated once
  /// in the entry block (see stackSlot). Returns the slot and its LLVM type.
  std::pair<Value, LLVM::LLVMStructType>
  structSlot(ArrayRef<cpu_abi::FieldInfo> fields, int64_t count) {
    SmallVector<Type> types;
    for (const cpu_abi::FieldInfo &field : fields)
      types.push_back(abiType(field.kind));
    auto type = LLVM::LLVMStructType::getLiteral(op->getContext(), types);
    OpBuilder::InsertionGuard guard(rewriter);
    if (auto func = op->getParentOfType<FunctionOpInterface>())
      if (!func.getFunctionBody().empty())
        rewriter.setInsertionPointToStart(&func.getFunctionBody().front());
    Value size = LLVM::ConstantOp::create(rewriter, loc, i64(),
                                          rewriter.getI64IntegerAttr(count));
    Value slot = LLVM::AllocaOp::create(rewriter, loc, ptrType, type, size,
                                        /*alignment=*/8);
    return {slot, type};
  }

  /// Stores `values` into the fields of struct `index` of `slot`, one GEP
  /// and store per field. A field left unset or given a value of another
  /// type is a bug in a pattern: it stops the compiler here rather than
  /// hand the runtime a half-filled struct.
  void storeStruct(Value slot, LLVM::LLVMStructType type, int64_t index,
                   StringRef structName, ArrayRef<cpu_abi::FieldInfo> fields,
                   ArrayRef<Value> values) {
    for (auto [i, field, value] : llvm::enumerate(fields, values)) {
      if (!value || value.getType() != type.getBody()[i])
        llvm::report_fatal_error(llvm::Twine("convert-coopvec-to-cpu: field ") +
                                 field.name + " of " + structName +
                                 (value ? " has the wrong type" : " is not set"));
      Value address = LLVM::GEPOp::create(
          rewriter, loc, ptrType, type, slot,
          ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(index),
                                 static_cast<int32_t>(i)});
      LLVM::StoreOp::create(rewriter, loc, value, address);
    }
  }

  void checkStatus(Value status) {
    Value failed = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ne,
                                         status, constI32(0));
    auto ifOp = scf::IfOp::create(rewriter, loc, failed, /*else=*/false);
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(&ifOp.getThenRegion().front());
    call(RuntimeFn::coopvecCpuReportError, {status, siteString()});
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
    if (!site)
      site = createSiteString(rewriter, op, loc, "__coopvec_site_");
    return LLVM::AddressOfOp::create(rewriter, loc, site);
  }

  ConversionPatternRewriter &rewriter;
  Operation *op;
  Location loc;
  Type ptrType;
  LLVM::GlobalOp site;
  llvm::DenseMap<std::pair<int64_t, Type>, Value> constants;
};

/// The fields of one parameter struct of RuntimeFunctions.def, set by name
/// (`p.set(F::bias, ...)`) and stored into a stack slot by build().
template <typename Struct> class Params {
public:
  using Field = typename AbiStruct<Struct>::Field;

  Params() : values(AbiStruct<Struct>::fields().size()) {}

  Params &set(Field field, Value value) {
    values[static_cast<unsigned>(field)] = value;
    return *this;
  }

  /// Stores the fields into element `index` of a slot of structs.
  void store(RuntimeCallBuilder &b, Value slot, LLVM::LLVMStructType type,
             int64_t index) const {
    b.storeStruct(slot, type, index, AbiStruct<Struct>::name,
                  AbiStruct<Struct>::fields(), values);
  }

  /// A stack slot holding the struct: the argument of its entry point.
  Value build(RuntimeCallBuilder &b) const {
    auto [slot, type] = b.structSlot(AbiStruct<Struct>::fields(), 1);
    store(b, slot, type, 0);
    return slot;
  }

private:
  SmallVector<Value> values;
};

/// A byte buffer the runtime can address as contiguous bytes: unit stride.
inline LogicalResult checkByteBuffer(ConversionPatternRewriter &rewriter,
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
inline int64_t value(InterpretationAttr interp) {
  return runtimeElementCode(interp.getKind());
}

/// The runtime's element code of a physical vector element.
inline int64_t physicalType(Type elementType, bool isUnsigned) {
  FailureOr<InterpretationAttr> interp =
      getPhysicalInterpretation(elementType, isUnsigned);
  // The verifier admits only 16/32-bit ints and floats, which all map.
  return succeeded(interp) ? value(*interp) : 0;
}

/// Bytes of an `n`-element vector of `interp` in memory (4-bit elements two
/// to a byte).
inline int64_t vectorBytes(InterpretationAttr interp, int64_t n) {
  return llvm::divideCeil(n * interp.getStorageBits(), 8);
}
inline int64_t value(MatrixLayout layout) { return static_cast<int64_t>(layout); }

/// Emits the bounds check of a matrix at `offset` in `buffer`: the runtime
/// compares the layout's footprint with the buffer size.
inline void checkMatrixBounds(RuntimeCallBuilder &b, Value buffer, Value offset,
                       MatrixDescAttr desc, Value stride) {
  b.callChecked(RuntimeFn::coopvecCpuCheckMatrix,
                {b.bufferBytes(buffer), b.indexAs(offset, b.i64()),
                 b.constI32(value(desc.getLayout())),
                 b.constI32(desc.getStoredRows()),
                 b.constI32(desc.getStoredUnitCols()),
                 b.constI32(desc.getElementBytes()),
                 b.indexAs(stride, b.i32())});
}

/// Emits the bounds check of `bytes` contiguous bytes at `offset`.
inline void checkRangeBounds(RuntimeCallBuilder &b, Value buffer, Value offset,
                      int64_t bytes) {
  b.callChecked(RuntimeFn::coopvecCpuCheckRange,
                {b.bufferBytes(buffer), b.indexAs(offset, b.i64()),
                 b.constI64(bytes)});
}

} // namespace mlir::coopvec::cpu_lowering

#endif // LINALGCOOP_LIB_CONVERSION_COOPVECTOCPU_RUNTIMECALLS_H
