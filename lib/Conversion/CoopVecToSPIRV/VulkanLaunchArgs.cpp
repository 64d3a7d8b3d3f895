//===- VulkanLaunchArgs.cpp - gpu.launch_func arguments for Vulkan --------===//
//
// coopvec-vulkan-launch-args: each argument of a launch of a SPIR-V kernel
// becomes the pair (tag, value) of i64s that libcoopvec_vulkan_runtime.so
// binds as storage buffer `i` of descriptor set 0 (VulkanRuntime.h): a
// memref's byte size and address, or -4/-8 and a scalar's bits.
//
//===----------------------------------------------------------------------===//

#include "LinAlgCoop/Conversion/CoopVecToSPIRV/CoopVecToSPIRV.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::coopvec {
#define GEN_PASS_DEF_COOPVECVULKANLAUNCHARGS
#include "LinAlgCoop/Conversion/Passes.h.inc"
} // namespace mlir::coopvec

using namespace mlir;
using namespace mlir::coopvec;

namespace {

/// Whether `binary` holds a SPIR-V object.
bool isSPIRVBinary(gpu::BinaryOp binary) {
  return llvm::any_of(binary.getObjects(), [](Attribute object) {
    auto gpuObject = dyn_cast<gpu::ObjectAttr>(object);
    return gpuObject && isa<spirv::TargetEnvAttr>(gpuObject.getTarget());
  });
}

/// Appends the (tag, value) pair of `arg` to `out`, or reports why it
/// cannot be passed.
LogicalResult lowerArgument(OpBuilder &b, gpu::LaunchFuncOp launch,
                            unsigned position, Value arg,
                            SmallVectorImpl<Value> &out) {
  Location loc = launch.getLoc();
  Type i64 = b.getI64Type();
  auto constant = [&](int64_t v) {
    return arith::ConstantIntOp::create(b, loc, i64, v);
  };
  auto fail = [&](const Twine &why) {
    launch.emitOpError("argument ")
        << position << " cannot be passed to a Vulkan kernel: " << why;
    return failure();
  };
  Type type = arg.getType();
  if (auto memref = dyn_cast<MemRefType>(type)) {
    Type element = memref.getElementType();
    if (!element.isIntOrFloat() || element.getIntOrFloatBitWidth() % 8) {
      std::string name;
      llvm::raw_string_ostream(name) << element;
      return fail("a memref of " + name +
                  " (the kernel's index is 32-bit; elements must be whole "
                  "bytes)");
    }
    if (!memref.getLayout().isIdentity() && !memref.isLastDimUnitStride())
      return fail("a strided memref whose last dimension is not contiguous");
    int64_t bytes = element.getIntOrFloatBitWidth() / 8;
    // Extent: 1 + sum (size_d - 1) * stride_d elements from the offset (0
    // when a size is 0).
    auto metadata = memref::ExtractStridedMetadataOp::create(b, loc, arg);
    Value c0 = arith::ConstantIndexOp::create(b, loc, 0);
    Value c1 = arith::ConstantIndexOp::create(b, loc, 1);
    Value span = c1, empty = arith::ConstantIntOp::create(b, loc, 0, 1);
    for (auto [size, stride] :
         llvm::zip(metadata.getSizes(), metadata.getStrides())) {
      Value last = arith::SubIOp::create(b, loc, size, c1);
      span = arith::AddIOp::create(b, loc, span,
                                   arith::MulIOp::create(b, loc, last, stride));
      empty = arith::OrIOp::create(
          b, loc, empty,
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, size, c0));
    }
    span = arith::SelectOp::create(b, loc, empty, c0, span);
    Value size = arith::MulIOp::create(
        b, loc, span, arith::ConstantIndexOp::create(b, loc, bytes));
    Value base = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, arg);
    Value address = arith::AddIOp::create(
        b, loc, base,
        arith::MulIOp::create(b, loc, metadata.getOffset(),
                              arith::ConstantIndexOp::create(b, loc, bytes)));
    out.push_back(arith::IndexCastUIOp::create(b, loc, i64, size));
    out.push_back(arith::IndexCastUIOp::create(b, loc, i64, address));
    return success();
  }
  if (type.isIndex()) {
    // The kernel's index is i32 (convert-gpu-to-spirv's default).
    Value narrow = arith::IndexCastOp::create(b, loc, b.getI32Type(), arg);
    out.push_back(constant(-4));
    out.push_back(arith::ExtUIOp::create(b, loc, i64, narrow));
    return success();
  }
  if (type.isIntOrFloat() && (type.getIntOrFloatBitWidth() == 32 ||
                              type.getIntOrFloatBitWidth() == 64)) {
    unsigned width = type.getIntOrFloatBitWidth();
    Value bits = arg;
    if (isa<FloatType>(type))
      bits = arith::BitcastOp::create(b, loc, b.getIntegerType(width), arg);
    out.push_back(constant(-int64_t(width / 8)));
    out.push_back(width == 64 ? bits
                              : Value(arith::ExtUIOp::create(b, loc, i64, bits)));
    return success();
  }
  std::string name;
  llvm::raw_string_ostream(name) << type;
  return fail("a " + name +
              " (scalars are index, i32, f32, i64 or f64)");
}

struct CoopVecVulkanLaunchArgsPass
    : coopvec::impl::CoopVecVulkanLaunchArgsBase<CoopVecVulkanLaunchArgsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    bool failedAny = false;
    module.walk([&](gpu::LaunchFuncOp launch) {
      auto binary =
          symbols.lookup<gpu::BinaryOp>(launch.getKernelModuleName());
      if (!binary || !isSPIRVBinary(binary))
        return;
      OpBuilder b(launch);
      SmallVector<Value> args;
      bool ok = true;
      for (auto [position, arg] : llvm::enumerate(launch.getKernelOperands()))
        ok &= succeeded(lowerArgument(b, launch, position, arg, args));
      if (ok)
        launch.getKernelOperandsMutable().assign(args);
      failedAny |= !ok;
    });
    if (failedAny)
      signalPassFailure();
  }
};

} // namespace
