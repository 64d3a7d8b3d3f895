//===- BatchToGPU.cpp - host batch_matvec as a GPU launch -----------------===//
//
// A coopvec.batch_matvec multiplies every row of a batch by one matrix. On a
// GPU that is one thread per row, each multiplying its own cooperative
// vector (seed 000): the rows of a warp then share the matrix, which is the
// case the target lowerings turn into a tensor-core product. This pass
// writes that program: device copies of the buffers, a gpu.launch whose
// threads each run a coopvec.matvec on their row (a coopvec.mlp: its chain
// of matvecs, BatchesInKernels.h; the quantized form of batch_matvec: the
// op itself on one-row views), the results copied back.
//
//===----------------------------------------------------------------------===//

#include "LinAlgCoop/Dialect/CoopVec/Transforms/BatchesInKernels.h"
#include "LinAlgCoop/Dialect/CoopVec/Transforms/Passes.h"
#include "LinAlgCoop/Runtime/Layout.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

namespace mlir::coopvec {
#define GEN_PASS_DEF_COOPVECBATCHTOGPU
#include "LinAlgCoop/Dialect/CoopVec/Transforms/Passes.h.inc"
} // namespace mlir::coopvec

using namespace mlir;
using namespace mlir::coopvec;

namespace {

/// The alignment in bytes (up to 16) of every row of a `gpu.alloc`ed
/// identity-layout batch: the row size's largest power-of-two factor.
int64_t rowAlignment(MemRefType batch) {
  int64_t bytes = batch.getDimSize(1) * batch.getElementTypeBitWidth() / 8;
  return std::min<int64_t>(16, bytes & -bytes);
}

/// Why `op` (a batch_matvec or mlp in `root`) cannot run as a GPU launch,
/// or "".
std::string checkBatch(Operation *op, ModuleOp root) {
  if (auto batch = dyn_cast<BatchMatVecOp>(op)) {
    if (batch.getInputExponents())
      return "a block-float input's exponents are not copied to the GPU (no "
             "GPU target here reads block-float inputs)";
  }
  if (op->getParentOfType<ModuleOp>() != root)
    return "it is in a nested module (gpu-kernel-outlining puts kernels in "
           "the top-level module, where a launch in a nested module does "
           "not find them)";
  for (Value v : op->getOperands()) {
    auto type = dyn_cast<MemRefType>(v.getType());
    if (type && !type.getLayout().isIdentity())
      return "its buffers and batches must have the identity layout (they "
             "are copied to gpu.alloc buffers of the same type)";
  }
  return "";
}

struct CoopVecBatchToGPUPass
    : coopvec::impl::CoopVecBatchToGPUBase<CoopVecBatchToGPUPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (blockSize < 32 || blockSize > 1024 || blockSize % 32 != 0) {
      module.emitError("coopvec-batch-to-gpu: block-size must be a multiple "
                       "of 32 from 32 to 1024, not ")
          << static_cast<int64_t>(blockSize);
      return signalPassFailure();
    }
    SmallVector<Operation *> batches;
    bool failedAny = false;
    module.walk([&](Operation *op) {
      // Batches already in GPU code are the target lowering's (it runs them
      // per thread), so a program may mix them with host ones.
      if (!isa<BatchMatVecOp, MLPOp>(op) ||
          op->getParentOfType<gpu::GPUModuleOp>() ||
          op->getParentOfType<gpu::LaunchOp>())
        return;
      std::string why = checkBatch(op, module);
      if (!why.empty()) {
        op->emitOpError("cannot run on a GPU: ") << why;
        failedAny = true;
        return;
      }
      batches.push_back(op);
    });
    if (failedAny)
      return signalPassFailure();
    if (batches.empty())
      return;
    module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                    UnitAttr::get(&getContext()));
    for (Operation *op : batches)
      rewrite(op);
  }

  /// Reports COOPVEC_ERROR_INVALID_DIMENSIONS through the CPU runtime's
  /// coopvecCpuReportError (which does not return) unless the batches have
  /// the same number of rows, as the CPU lowering does: the verifier
  /// compares static row counts only.
  void checkSameRows(OpBuilder &b, Operation *op, Value inputs, Value outputs,
                     Value rows, Value outputRows) {
    auto inType = cast<MemRefType>(inputs.getType());
    auto outType = cast<MemRefType>(outputs.getType());
    if (!inType.isDynamicDim(0) && !outType.isDynamicDim(0))
      return;
    Location loc = op->getLoc();
    auto module = op->getParentOfType<ModuleOp>();
    auto ptrType = LLVM::LLVMPointerType::get(b.getContext());
    constexpr StringLiteral kReport = "coopvecCpuReportError";
    if (!module.lookupSymbol(kReport)) {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(module.getBody());
      func::FuncOp::create(b, loc, kReport,
                           b.getFunctionType({b.getI32Type(), ptrType}, {}))
          .setPrivate();
    }
    // The site, as the CPU lowering names it.
    LLVM::GlobalOp site = createSiteString(b, op, loc, "__coopvec_gpu_site_");
    Value differ = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, rows,
                                         outputRows);
    auto ifDiffer = scf::IfOp::create(b, loc, differ, /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifDiffer.thenBlock());
    Value status = arith::ConstantIntOp::create(
        b, loc, b.getI32Type(), COOPVEC_ERROR_INVALID_DIMENSIONS);
    func::CallOp::create(
        b, loc, kReport, TypeRange{},
        ValueRange{status, LLVM::AddressOfOp::create(b, loc, site)});
  }

  void rewrite(Operation *op) {
    OpBuilder b(op);
    Location loc = op->getLoc();
    auto index = [&](int64_t v) {
      return arith::ConstantIndexOp::create(b, loc, v).getResult();
    };
    auto batch = dyn_cast<BatchMatVecOp>(op);
    auto mlp = dyn_cast<MLPOp>(op);
    Value hostInputs = batch ? batch.getInputs() : mlp.getInputs();
    Value hostOutputs = batch ? batch.getOutputs() : mlp.getOutputs();
    Value c0 = index(0);
    Value rows = memref::DimOp::create(b, loc, hostInputs, 0);
    checkSameRows(b, op, hostInputs, hostOutputs, rows,
                  memref::DimOp::create(b, loc, hostOutputs, 0));

    // Device copies: the read operands copied in (each buffer once, however
    // many operands name it), the outputs allocated.
    SmallVector<Value> deviceBuffers;
    IRMapping device;
    auto deviceCopy = [&](Value host, bool copyIn) {
      if (!host || device.contains(host))
        return;
      auto type = cast<MemRefType>(host.getType());
      SmallVector<Value> sizes;
      for (int64_t d = 0; d < type.getRank(); ++d)
        if (type.isDynamicDim(d))
          sizes.push_back(memref::DimOp::create(b, loc, host, d));
      Value copy = gpu::AllocOp::create(b, loc, type, /*asyncToken=*/Type(),
                                        ValueRange{}, sizes, ValueRange{})
                       .getMemref();
      if (copyIn)
        gpu::MemcpyOp::create(b, loc, TypeRange{}, ValueRange{}, copy, host);
      deviceBuffers.push_back(copy);
      device.map(host, copy);
    };
    for (Value operand : op->getOperands())
      if (isa<MemRefType>(operand.getType()))
        deviceCopy(operand, operand != hostOutputs);
    Value inputs = device.lookup(hostInputs);
    Value outputs = device.lookup(hostOutputs);

    // One thread per row; an empty batch launches one block that does
    // nothing (a grid of zero blocks is an invalid launch).
    Value threads = index(blockSize);
    Value grid = arith::MaxUIOp::create(
        b, loc,
        arith::DivUIOp::create(
            b, loc, arith::AddIOp::create(b, loc, rows, index(blockSize - 1)),
            threads),
        index(1));
    Value one = index(1);
    auto launch =
        gpu::LaunchOp::create(b, loc, grid, one, one, threads, one, one);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(&launch.getBody().front());
      Value row = arith::AddIOp::create(
          b, loc,
          arith::MulIOp::create(b, loc, launch.getBlockIds().x, threads),
          launch.getThreadIds().x);
      Value live =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, row, rows);
      auto ifLive = scf::IfOp::create(b, loc, live, /*withElseRegion=*/false);
      b.setInsertionPointToStart(ifLive.thenBlock());
      if (batch && batch.isQuantized()) {
        // The quantized form has no per-row matvec: the op itself on the
        // thread's row (one-row views of the batches and of the input-side
        // values grouped along K, which have a row per batch row), which
        // the target lowers as its quantized form in a kernel.
        IRMapping rowOperands = device;
        auto rowView = [&](Value host) {
          Value whole = device.lookup(host);
          auto type = cast<MemRefType>(whole.getType());
          SmallVector<OpFoldResult> offsets = {row, b.getIndexAttr(0)};
          SmallVector<OpFoldResult> sizes = {
              b.getIndexAttr(1), b.getIndexAttr(type.getDimSize(1))};
          SmallVector<OpFoldResult> strides = {b.getIndexAttr(1),
                                               b.getIndexAttr(1)};
          rowOperands.map(host, memref::SubViewOp::create(
                                    b, loc, whole, offsets, sizes, strides));
        };
        rowView(hostInputs);
        rowView(hostOutputs);
        for (const auto &clause : batch.getInputSideClauses())
          if (clause.values && clause.group && clause.group.getInt() != 0)
            rowView(clause.values);
        b.clone(*op, rowOperands);
      } else {
        auto inType = cast<MemRefType>(inputs.getType());
        auto outType = cast<MemRefType>(outputs.getType());
        auto inVector =
            VectorType::get({inType.getDimSize(1)}, inType.getElementType());
        Value vector = vector::LoadOp::create(
            b, loc, inVector, inputs, ValueRange{row, c0},
            /*nontemporal=*/false, llvm::MaybeAlign(rowAlignment(inType)));
        Value result;
        if (batch) {
          result =
              createRowMatVec(b, batch, vector, /*exponents=*/Value(), &device);
        } else {
          result = emitMlpRow(b, mlp, vector, loadF32Bytes, &device);
        }
        vector::StoreOp::create(b, loc, result, outputs, ValueRange{row, c0},
                                /*nontemporal=*/false,
                                llvm::MaybeAlign(rowAlignment(outType)));
      }
      b.setInsertionPointToEnd(&launch.getBody().front());
      gpu::TerminatorOp::create(b, loc);
    }

    gpu::MemcpyOp::create(b, loc, TypeRange{}, ValueRange{}, hostOutputs,
                          outputs);
    for (Value copy : deviceBuffers)
      gpu::DeallocOp::create(b, loc, /*asyncToken=*/Type(), ValueRange{}, copy);
    op->erase();
  }
};

} // namespace
