//===- Passes.h - coopvec transformation passes -----------------*- C++ -*-===//

#ifndef LINALGCOOP_DIALECT_COOPVEC_TRANSFORMS_PASSES_H
#define LINALGCOOP_DIALECT_COOPVEC_TRANSFORMS_PASSES_H

#include "LinAlgCoop/Dialect/CoopVec/IR/CoopVecOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/Pass.h"

namespace mlir::LLVM {
class GlobalOp;
} // namespace mlir::LLVM

namespace mlir::coopvec {

#define GEN_PASS_DECL
#include "LinAlgCoop/Dialect/CoopVec/Transforms/Passes.h.inc"

/// A new constant C string (an internal LLVM global at the start of `op`'s
/// module, named `prefix` and the first free number) naming `op` and where
/// `loc` puts it in the source ("coopvec.matvec at f.mlir:3:5"): the site
/// the CPU runtime's error reports print.
LLVM::GlobalOp createSiteString(OpBuilder &b, Operation *op, Location loc,
                                StringRef prefix);

/// Names of the builtin support profiles, in a stable order.
ArrayRef<StringRef> getBuiltinProfileNames();
/// The builtin profile called `name`, or null if there is none. `cpu-host`
/// is built for the CPU this runs on.
ProfileAttr getBuiltinProfile(MLIRContext *ctx, StringRef name);
/// The profile a `coopvec.profile` attribute names: itself, or the builtin
/// profile of that name (null if unknown).
ProfileAttr resolveProfile(Attribute attr);

/// The `matvec` rows of `profile` that match a MatVec requirement (left-out
/// row fields match anything).
SmallVector<MatVecSupportAttr>
getMatchingMatVecRows(ProfileAttr profile, const SupportRequirement &matVec);
/// The tile shapes [m, n, k] that `profile` executes `op`'s matrix
/// requirements with (rows that match its types and transpose), without
/// duplicates, in profile order: what a tiling pass picks from. Empty for a
/// target without tiles or an op without such requirements.
SmallVector<SmallVector<int64_t, 3>> getTileShapes(ProfileAttr profile,
                                                   Operation *op);

/// Patterns of --coopvec-batch: per-invocation network loops become
/// coopvec.batch_matvec, or coopvec.mlp when `fuse` is set.
void populateCoopVecBatchingPatterns(RewritePatternSet &patterns, bool fuse);

/// The shape of one tile multiply-accumulate: `m` matrix rows, `n` vectors
/// of the batch, `k` matrix columns (lhs m x k, rhs k x n, acc m x n).
struct TileShape {
  int64_t m = 16, n = 8, k = 16;
};

/// Why `op` has no tiled form at `shape` (an unsupported combination of
/// interpretations, an unsigned result, a packed input with `k` not a
/// multiple of 4, a non-positive tile size), or an empty string if it has.
std::string checkTileable(BatchMatVecOp op, TileShape shape);

/// Rewrites `op` into the tile level (--coopvec-tile): coopvec.tile_pack
/// into a fresh tile-major buffer, an scf loop nest over (row tiles, batch
/// tiles, K tiles) around coopvec.tile_mma, bias, output conversion, and
/// the buffer's dealloc. Fails, changing nothing, where checkTileable says
/// why not.
LogicalResult tileBatchMatVec(RewriterBase &rewriter, BatchMatVecOp op,
                              TileShape shape);

/// Why `op` cannot run under `profile`, or an empty string if it can.
std::string checkSupport(Operation *op, ProfileAttr profile);

#define GEN_PASS_REGISTRATION
#include "LinAlgCoop/Dialect/CoopVec/Transforms/Passes.h.inc"

} // namespace mlir::coopvec

#endif // LINALGCOOP_DIALECT_COOPVEC_TRANSFORMS_PASSES_H
