//===- Passes.h - coopvec transformation passes -----------------*- C++ -*-===//

#ifndef LINALGCOOP_DIALECT_COOPVEC_TRANSFORMS_PASSES_H
#define LINALGCOOP_DIALECT_COOPVEC_TRANSFORMS_PASSES_H

#include "LinAlgCoop/Dialect/CoopVec/IR/CoopVecOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/Pass.h"

namespace mlir::coopvec {

#define GEN_PASS_DECL
#include "LinAlgCoop/Dialect/CoopVec/Transforms/Passes.h.inc"

/// Names of the builtin support profiles, in a stable order.
ArrayRef<StringRef> getBuiltinProfileNames();
/// The builtin profile called `name`, or null if there is none.
ProfileAttr getBuiltinProfile(MLIRContext *ctx, StringRef name);

/// Patterns of --coopvec-batch: per-invocation network loops become
/// coopvec.batch_matvec, or coopvec.mlp when `fuse` is set.
void populateCoopVecBatchingPatterns(RewritePatternSet &patterns, bool fuse);

/// Why `op` cannot run under `profile`, or an empty string if it can.
std::string checkSupport(Operation *op, ProfileAttr profile);

#define GEN_PASS_REGISTRATION
#include "LinAlgCoop/Dialect/CoopVec/Transforms/Passes.h.inc"

} // namespace mlir::coopvec

#endif // LINALGCOOP_DIALECT_COOPVEC_TRANSFORMS_PASSES_H
