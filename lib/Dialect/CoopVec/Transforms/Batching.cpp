//===- Batching.cpp - per-invocation loops to batched and fused ops -------===//
//
// The "cooperative" in cooperative vectors: when many invocations multiply
// by the same matrix, one matrix-matrix kernel does the work of all of them,
// and a chain of layers runs as one fused kernel.
//
//===----------------------------------------------------------------------===//

#include "LinAlgCoop/Dialect/CoopVec/Transforms/Passes.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::coopvec {
#define GEN_PASS_DEF_COOPVECBATCH
#include "LinAlgCoop/Dialect/CoopVec/Transforms/Passes.h.inc"
} // namespace mlir::coopvec

using namespace mlir;
using namespace mlir::coopvec;

namespace {

/// One layer of a matched chain: a matvec and the activation after it.
struct Layer {
  MatVecOp matvec;
  bool relu = false;
};

/// A loop body that evaluates a network on row `iv` of `input` and stores
/// the result in row `iv` of `output`.
struct Chain {
  Value input, output;
  SmallVector<Layer> layers;
  bool exp = false;
};

bool isZeroIndex(Value v) { return matchPattern(v, m_Zero()); }

/// Whether `v` is a +0.0 splat, the other operand of a ReLU.
bool isZeroSplat(Value v) {
  DenseElementsAttr attr;
  return matchPattern(v, m_Constant(&attr)) && attr.isSplat() &&
         isa<FloatType>(attr.getElementType()) &&
         attr.getSplatValue<APFloat>().isPosZero();
}

/// Whether a row access `base[iv, 0]` reads or writes a whole row.
bool isRowAccess(Value base, ValueRange indices, Value iv, VectorType type,
                 Operation *loop) {
  auto memref = dyn_cast<MemRefType>(base.getType());
  return memref && memref.getRank() == 2 && !memref.isDynamicDim(1) &&
         indices.size() == 2 && indices[0] == iv && isZeroIndex(indices[1]) &&
         type.getRank() == 1 && type.getDimSize(0) == memref.getDimSize(1) &&
         base.getParentRegion()->isProperAncestor(&loop->getRegion(0));
}

/// Matches the body of `loop` (induction variable `iv`) as a network chain.
FailureOr<Chain> matchChain(Operation *loop, Block &body, Value iv) {
  Chain chain;
  auto isInvariant = [&](Value v) {
    return !v || v.getParentRegion()->isProperAncestor(&loop->getRegion(0));
  };
  Value current;
  bool stored = false;
  for (Operation &op : body.without_terminator()) {
    if (stored)
      return failure();
    if (auto cst = dyn_cast<arith::ConstantOp>(op)) {
      (void)cst; // Zero splats and indices used by the chain.
      continue;
    }
    if (auto load = dyn_cast<vector::LoadOp>(op)) {
      if (current || !isRowAccess(load.getBase(), load.getIndices(), iv,
                                  load.getVectorType(), loop))
        return failure();
      chain.input = load.getBase();
      current = load.getResult();
      continue;
    }
    if (!current || !current.hasOneUse())
      return failure();
    if (auto matvec = dyn_cast<MatVecOp>(op)) {
      // A block-float input's exponents would need a batch of their own.
      if (matvec.getInput() != current || chain.exp ||
          matvec.getInputExponents() ||
          !llvm::all_of(matvec->getOperands().drop_front(), isInvariant))
        return failure();
      chain.layers.push_back({matvec});
      current = matvec.getResult();
      continue;
    }
    if (auto max = dyn_cast<arith::MaximumFOp>(op)) {
      Value other = max.getLhs() == current ? max.getRhs() : max.getLhs();
      if (chain.layers.empty() || chain.layers.back().relu || chain.exp ||
          !isZeroSplat(other) ||
          (max.getLhs() != current && max.getRhs() != current))
        return failure();
      chain.layers.back().relu = true;
      current = max.getResult();
      continue;
    }
    if (auto exp = dyn_cast<math::ExpOp>(op)) {
      if (chain.layers.empty() || chain.exp || exp.getOperand() != current)
        return failure();
      chain.exp = true;
      current = exp.getResult();
      continue;
    }
    if (auto store = dyn_cast<vector::StoreOp>(op)) {
      if (store.getValueToStore() != current ||
          !isRowAccess(store.getBase(), store.getIndices(), iv,
                       store.getVectorType(), loop))
        return failure();
      chain.output = store.getBase();
      stored = true;
      continue;
    }
    return failure();
  }
  if (!stored || chain.layers.empty())
    return failure();
  return chain;
}

/// Whether the chain is one the fused f32 network kernel evaluates exactly
/// as the per-invocation ops do.
bool isFusable(const Chain &chain) {
  MatVecOp first = chain.layers.front().matvec;
  InterpKind weights = first.getMatrixDesc().getInterpretation().getKind();
  if (weights != InterpKind::F32 && weights != InterpKind::F16)
    return false;
  return llvm::all_of(chain.layers, [&](const Layer &layer) {
    MatVecOp op = layer.matvec;
    // The fused kernel has no Wormhole model: a fidelity layer stays alone.
    return !op.getFidelityAttr() && op.getInput().getType().getElementType().isF32() &&
           op.getResult().getType().getElementType().isF32() &&
           op.getInputInterp().getKind() == InterpKind::F32 &&
           op.getMatrixDesc().getInterpretation().getKind() == weights &&
           (!op.getBiasInterpAttr() ||
            op.getBiasInterpAttr().getKind() == InterpKind::F32);
  });
}

/// `count` rows of a batch memref from row `lb` on.
Value getRows(OpBuilder &b, Location loc, Value memref, Value lb,
              Value count) {
  int64_t width = cast<MemRefType>(memref.getType()).getDimSize(1);
  SmallVector<OpFoldResult> offsets = {lb, b.getIndexAttr(0)};
  SmallVector<OpFoldResult> sizes = {count, b.getIndexAttr(width)};
  SmallVector<OpFoldResult> strides = {b.getIndexAttr(1), b.getIndexAttr(1)};
  return memref::SubViewOp::create(b, loc, memref, offsets, sizes, strides);
}

/// Replaces `loop` over [lb, ub) with the batched or fused form of `chain`.
LogicalResult rewriteChain(RewriterBase &rewriter, Operation *loop, Value lb,
                           Value ub, const Chain &chain, bool fuse) {
  // A lone product is a matrix-matrix product; a chain needs fusion.
  bool single = chain.layers.size() == 1 && !chain.layers[0].relu && !chain.exp;
  if (!single && !(fuse && isFusable(chain)))
    return rewriter.notifyMatchFailure(loop, "chain is not fusable");

  Location loc = loop->getLoc();
  rewriter.setInsertionPoint(loop);
  // An empty or reversed range processes no rows.
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value count = arith::SubIOp::create(rewriter, loc, ub, lb);
  count = arith::MaxSIOp::create(rewriter, loc, count, zero);
  Value inputs = getRows(rewriter, loc, chain.input, lb, count);
  Value outputs = getRows(rewriter, loc, chain.output, lb, count);

  if (single) {
    MatVecOp op = chain.layers[0].matvec;
    BatchMatVecOp::create(
        rewriter, loc, inputs, op.getInputInterpAttr(),
        op.getInputUnsignedAttr(), op.getMatrix(), op.getMatrixOffset(),
        op.getMatrixStride(), op.getMatrixDescAttr(), op.getBias(),
        op.getBiasOffset(), op.getBiasInterpAttr(), op.getOutputUnsignedAttr(),
        outputs, op.getScales(), op.getScalesOffset(),
        /*weight_zero_points=*/Value(), Value(), nullptr, nullptr,
        /*weight_scales=*/Value(), Value(), nullptr, nullptr,
        /*input_zero_points=*/Value(), nullptr, nullptr,
        /*input_scales=*/Value(), nullptr, nullptr,
        /*reductions=*/Value(), nullptr, nullptr, op.getFidelityAttr(),
        /*input_exponents=*/Value());
    rewriter.eraseOp(loop);
    return success();
  }

  SmallVector<Value> weights, offsets, strides, biases, biasOffsets;
  SmallVector<Attribute> matrices;
  SmallVector<int64_t> biasLayers;
  SmallVector<int32_t> activations;
  for (auto [l, layer] : llvm::enumerate(chain.layers)) {
    MatVecOp op = layer.matvec;
    weights.push_back(op.getMatrix());
    offsets.push_back(op.getMatrixOffset());
    Value stride = op.getMatrixStride();
    if (!stride)
      stride = zero;
    strides.push_back(stride);
    matrices.push_back(op.getMatrixDescAttr());
    if (op.getBias()) {
      biases.push_back(op.getBias());
      biasOffsets.push_back(op.getBiasOffset());
      biasLayers.push_back(l);
    }
    activations.push_back(static_cast<int32_t>(layer.relu ? Activation::Relu
                                                          : Activation::None));
  }
  MLPOp::create(rewriter, loc, inputs, weights, offsets, strides, biases,
                biasOffsets, /*input_scale=*/Value(),
                /*requant_scales=*/ValueRange(),
                /*requant_offsets=*/ValueRange(),
                rewriter.getArrayAttr(matrices),
                rewriter.getDenseI64ArrayAttr(biasLayers),
                rewriter.getDenseI32ArrayAttr(activations),
                chain.exp ? rewriter.getUnitAttr() : UnitAttr(), outputs);
  rewriter.eraseOp(loop);
  return success();
}

bool isUnitStep(Value step) { return matchPattern(step, m_One()); }

struct BatchForLoop : OpRewritePattern<scf::ForOp> {
  BatchForLoop(MLIRContext *ctx, bool fuse)
      : OpRewritePattern(ctx), fuse(fuse) {}
  LogicalResult matchAndRewrite(scf::ForOp loop,
                                PatternRewriter &rewriter) const override {
    if (loop.getNumResults() != 0 || !isUnitStep(loop.getStep()) ||
        !loop.getInductionVar().getType().isIndex())
      return rewriter.notifyMatchFailure(loop, "not a unit-step index loop");
    FailureOr<Chain> chain =
        matchChain(loop, *loop.getBody(), loop.getInductionVar());
    if (failed(chain))
      return rewriter.notifyMatchFailure(loop, "body is not a network chain");
    return rewriteChain(rewriter, loop, loop.getLowerBound(),
                        loop.getUpperBound(), *chain, fuse);
  }
  bool fuse;
};

struct BatchParallelLoop : OpRewritePattern<scf::ParallelOp> {
  BatchParallelLoop(MLIRContext *ctx, bool fuse)
      : OpRewritePattern(ctx), fuse(fuse) {}
  LogicalResult matchAndRewrite(scf::ParallelOp loop,
                                PatternRewriter &rewriter) const override {
    if (loop.getNumLoops() != 1 || loop.getNumResults() != 0 ||
        !isUnitStep(loop.getStep()[0]))
      return rewriter.notifyMatchFailure(loop, "not a 1-D unit-step loop");
    FailureOr<Chain> chain =
        matchChain(loop, *loop.getBody(), loop.getInductionVars()[0]);
    if (failed(chain))
      return rewriter.notifyMatchFailure(loop, "body is not a network chain");
    return rewriteChain(rewriter, loop, loop.getLowerBound()[0],
                        loop.getUpperBound()[0], *chain, fuse);
  }
  bool fuse;
};

struct CoopVecBatchPass
    : public coopvec::impl::CoopVecBatchBase<CoopVecBatchPass> {
  using Base::Base;
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateCoopVecBatchingPatterns(patterns, fuse);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace

void mlir::coopvec::populateCoopVecBatchingPatterns(RewritePatternSet &patterns,
                                                    bool fuse) {
  patterns.add<BatchForLoop, BatchParallelLoop>(patterns.getContext(), fuse);
}
