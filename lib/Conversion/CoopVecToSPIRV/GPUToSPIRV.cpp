//===- GPUToSPIRV.cpp - convert-gpu-to-spirv with compare-and-swap loops --===//
//
// Upstream convert-gpu-to-spirv (Vulkan: a spirv.module beside each
// gpu.module) takes no extra patterns, and MemRefToSPIRV has none for
// memref.generic_atomic_rmw, which is how convert-coopvec-to-spirv writes a
// float atomic add: core Vulkan 1.3 has 32-bit integer atomics only. This
// pass is upstream's conversion, for Vulkan, with one more pattern: a
// generic_atomic_rmw on a 32-bit element becomes a loop around
// OpAtomicCompareExchange.
//
//===----------------------------------------------------------------------===//

#include "LinAlgCoop/Conversion/CoopVecToSPIRV/CoopVecToSPIRV.h"

#include "mlir/Conversion/ArithToSPIRV/ArithToSPIRV.h"
#include "mlir/Conversion/FuncToSPIRV/FuncToSPIRV.h"
#include "mlir/Conversion/GPUToSPIRV/GPUToSPIRV.h"
#include "mlir/Conversion/MemRefToSPIRV/MemRefToSPIRV.h"
#include "mlir/Conversion/SCFToSPIRV/SCFToSPIRV.h"
#include "mlir/Conversion/VectorToSPIRV/VectorToSPIRV.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Dialect/SPIRV/IR/TargetAndABI.h"
#include "mlir/Dialect/SPIRV/Transforms/SPIRVConversion.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::coopvec {
#define GEN_PASS_DEF_COOPVECCONVERTGPUTOSPIRV
#include "LinAlgCoop/Conversion/Passes.h.inc"
} // namespace mlir::coopvec

using namespace mlir;
using namespace mlir::coopvec;

namespace {

/// memref.generic_atomic_rmw on a 32-bit element, as a spirv.mlir.loop:
///
///   old = load p
///   header(old): new = body(old); got = AtomicCompareExchange(p, new, old)
///                got == old ? merge : continue(got) -> header(got)
///
/// Device scope, relaxed (the op promises atomicity, not ordering). The
/// result is the value the successful exchange replaced.
struct GenericAtomicRMWToSPIRV
    : OpConversionPattern<memref::GenericAtomicRMWOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(memref::GenericAtomicRMWOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    MemRefType memrefType = op.getMemRefType();
    if (memrefType.getElementTypeBitWidth() != 32)
      return rewriter.notifyMatchFailure(op, "not a 32-bit element");
    const auto &converter = *getTypeConverter<SPIRVTypeConverter>();
    Type element = converter.convertType(memrefType.getElementType());
    if (!element)
      return rewriter.notifyMatchFailure(op, "element type");
    Location loc = op.getLoc();
    Value ptr = spirv::getElementPtr(converter, memrefType, adaptor.getMemref(),
                                     adaptor.getIndices(), loc, rewriter);
    if (!ptr)
      return rewriter.notifyMatchFailure(op, "no element pointer");
    Value initial = spirv::LoadOp::create(rewriter, loc, ptr);
    // spirv.mlir.loop: entry -> header(old) -> merge (exchanged) or
    // continue(got) -> header(got).
    auto loop = spirv::LoopOp::create(rewriter, loc, TypeRange{element},
                                      spirv::LoopControl::None);
    Region &body = loop.getBody();
    Block *entry = rewriter.createBlock(&body);
    Block *header = rewriter.createBlock(&body, body.end(), {element}, {loc});
    Block *next = rewriter.createBlock(&body, body.end(), {element}, {loc});
    Block *merge = rewriter.createBlock(&body, body.end());

    rewriter.setInsertionPointToEnd(entry);
    spirv::BranchOp::create(rewriter, loc, header, ValueRange{initial});

    rewriter.setInsertionPointToEnd(header);
    Value old = header->getArgument(0);
    IRMapping mapping;
    mapping.map(op.getCurrentValue(), old);
    Value desired;
    for (Operation &nested : op.getRegion().front()) {
      if (auto yield = dyn_cast<memref::AtomicYieldOp>(nested)) {
        desired = mapping.lookupOrNull(yield.getResult());
        // A value from outside the body: the converted one (the exchange
        // is legal already, so nothing would remap its operand).
        if (!desired)
          desired = rewriter.getRemappedValue(yield.getResult());
        break;
      }
      rewriter.clone(nested, mapping);
    }
    Value got = spirv::AtomicCompareExchangeOp::create(
        rewriter, loc, ptr, spirv::Scope::Device,
        spirv::MemorySemantics::None, spirv::MemorySemantics::None, desired,
        old);
    Value exchanged = spirv::IEqualOp::create(rewriter, loc, got, old);
    spirv::BranchConditionalOp::create(rewriter, loc, exchanged, merge,
                                       ValueRange(), next, ValueRange{got});

    rewriter.setInsertionPointToEnd(next);
    spirv::BranchOp::create(rewriter, loc, header,
                            ValueRange{next->getArgument(0)});

    // The header dominates the merge block: its `old` is the value the
    // successful exchange replaced.
    rewriter.setInsertionPointToEnd(merge);
    spirv::MergeOp::create(rewriter, loc, ValueRange{old});

    rewriter.setInsertionPointAfter(loop);
    rewriter.replaceOp(op, loop.getResults());
    return success();
  }
};

struct CoopVecConvertGPUToSPIRVPass
    : coopvec::impl::CoopVecConvertGPUToSPIRVBase<
          CoopVecConvertGPUToSPIRVPass> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    ModuleOp module = getOperation();
    // As upstream for Vulkan: convert a copy of each gpu.module, placed
    // before it (gpu.launch_func still names the original).
    SmallVector<Operation *> copies;
    OpBuilder builder(context);
    module.walk([&](gpu::GPUModuleOp device) {
      builder.setInsertionPoint(device);
      copies.push_back(builder.clone(*device));
    });
    for (Operation *copy : copies) {
      WalkResult bf16 = copy->walk([&](Operation *op) {
        if (!isBF16Arithmetic(op))
          return WalkResult::advance();
        op->emitOpError("computes on bf16, which coopvec-convert-gpu-to-spirv "
                        "does not lower (Vulkan 1.3 has no bf16: bf16 values "
                        "are carried as their 16 bits, through loads, stores, "
                        "arith.bitcast and arith.select only)");
        return WalkResult::interrupt();
      });
      if (bf16.wasInterrupted())
        return signalPassFailure();
      spirv::TargetEnvAttr targetAttr = spirv::lookupTargetEnvOrDefault(copy);
      spirv::MemorySpaceToStorageClassConverter storage(
          spirv::mapMemorySpaceToVulkanStorageClass);
      spirv::convertMemRefTypesAndAttrs(copy, storage);
      std::unique_ptr<ConversionTarget> storageTarget =
          spirv::getMemorySpaceToStorageClassTarget(*context);
      WalkResult walk = copy->walk([&](Operation *op) {
        if (storageTarget->isIllegal(op)) {
          op->emitOpError("failed to legalize memory space");
          return WalkResult::interrupt();
        }
        return WalkResult::advance();
      });
      if (walk.wasInterrupted())
        return signalPassFailure();

      std::unique_ptr<ConversionTarget> target =
          SPIRVConversionTarget::get(targetAttr);
      SPIRVTypeConverter typeConverter(targetAttr, SPIRVConversionOptions());
      // bf16 as its 16 bits (i16): MLIR 22's converter would make a bf16
      // memref an array of 4-byte f32, against the host's 2-byte elements.
      // Its memref and vector conversions do not consult added scalar
      // conversions, so those types are converted as their i16 forms.
      auto i16 = IntegerType::get(context, 16);
      typeConverter.addConversion([i16](BFloat16Type) -> Type { return i16; });
      typeConverter.addConversion(
          [&typeConverter, i16](ShapedType type) -> std::optional<Type> {
            if (!isa<MemRefType, VectorType>(type) ||
                !type.getElementType().isBF16())
              return std::nullopt;
            return typeConverter.convertType(type.clone(i16));
          });
      RewritePatternSet patterns(context);
      populateGPUToSPIRVPatterns(typeConverter, patterns);
      ScfToSPIRVContext scfContext;
      populateSCFToSPIRVPatterns(typeConverter, scfContext, patterns);
      arith::populateArithToSPIRVPatterns(typeConverter, patterns);
      populateMemRefToSPIRVPatterns(typeConverter, patterns);
      populateFuncToSPIRVPatterns(typeConverter, patterns);
      populateVectorToSPIRVPatterns(typeConverter, patterns);
      patterns.add<GenericAtomicRMWToSPIRV>(typeConverter, context);
      if (failed(applyFullConversion(copy, *target, std::move(patterns))))
        return signalPassFailure();
    }
  }
};

} // namespace

bool mlir::coopvec::isBF16Arithmetic(Operation *op) {
  if (!isa<arith::ArithDialect, math::MathDialect>(op->getDialect()) ||
      isa<arith::BitcastOp, arith::SelectOp>(op))
    return false;
  auto isBF16 = [](Type type) { return getElementTypeOrSelf(type).isBF16(); };
  return llvm::any_of(op->getOperandTypes(), isBF16) ||
         llvm::any_of(op->getResultTypes(), isBF16);
}
