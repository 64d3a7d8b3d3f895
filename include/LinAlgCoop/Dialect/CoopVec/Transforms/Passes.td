//===- Passes.td - coopvec transformation passes ---------------*- tablegen -*-===//

#ifndef LINALGCOOP_DIALECT_COOPVEC_TRANSFORMS_PASSES_TD
#define LINALGCOOP_DIALECT_COOPVEC_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def CoopVecCheckSupport : Pass<"coopvec-check-support", "ModuleOp"> {
  let summary = "Report every coopvec op that a target profile cannot run";
  let description = [{
    Checks every coopvec op against a support profile, the analog of D3D12
    `CheckFeatureSupport`: the tier, the matrix-vector, outer-product and
    vector-accumulate property lists, and the profile's layout rules. Each op
    the profile cannot run gets an error at its location naming the profile
    and the reason, and the pass fails.

    The profile is the `coopvec.profile` attribute of the module if it has
    one, else the builtin profile named by `profile`:

    * `d3d12-tier1.0`: the D3D12 minimum support set for matrix-vector
      products; no outer-product or vector accumulation.
    * `d3d12-tier1.1`: tier 1.0 plus the minimum outer-product (F16 into F16
      or F32) and vector-accumulate (F16) sets.

    Both demand optimal layouts for FP8 matrices, never guarantee transpose,
    and accept outer products only into `TrainingOptimal` with stride 0, as
    the shipped validator does.

    With `emulate`, unsupported ops get a warning instead (the target will
    emulate them) and the pass succeeds.
  }];
  let dependentDialects = ["::mlir::coopvec::CoopVecDialect"];
  let options = [
    Option<"profile", "profile", "std::string", /*default=*/"\"d3d12-tier1.1\"",
           "Builtin profile to check against when the module has no "
           "coopvec.profile attribute (d3d12-tier1.0, d3d12-tier1.1)">,
    Option<"emulate", "emulate", "bool", /*default=*/"false",
           "Warn about unsupported ops instead of failing">
  ];
}

def CoopVecBatch : Pass<"coopvec-batch"> {
  let summary = "Turn per-invocation matrix-vector loops into batched and "
                "fused cooperative ops";
  let description = [{
    Finds loops (`scf.for` or one-dimensional `scf.parallel`, unit step,
    no results) whose body is one invocation of a small network: a row of a
    2-D memref is loaded (`vector.load %in[%i, 0]`), run through a chain of
    `coopvec.matvec` ops whose matrices, biases, offsets and strides are
    loop-invariant, each optionally followed by ReLU
    (`arith.maximumf` with a zero splat), optionally ended by `math.exp`,
    and stored as a row of another memref (`vector.store %v, %out[%i, 0]`).

    * A chain of `f32` layers (input interpretation F32, F32 or F16 weights,
      F32 or no bias) becomes one `coopvec.mlp`: a fused kernel that keeps
      intermediates in registers/L1 instead of memory.
    * Any other single `coopvec.matvec` without activation becomes a
      `coopvec.batch_matvec`: one matrix-matrix product.
    * Other loops are left alone.

    The rows `[lb, ub)` are passed as `memref.subview`s. Like C `restrict`,
    the pass assumes that distinct input and output memrefs do not overlap
    (the same memref, row by row in place, is fine).
  }];
  let dependentDialects = ["::mlir::coopvec::CoopVecDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect"];
  let options = [
    Option<"fuse", "fuse", "bool", /*default=*/"true",
           "Fuse chains of layers into coopvec.mlp (else only single "
           "matrix-vector loops are batched)">
  ];
}

#endif // LINALGCOOP_DIALECT_COOPVEC_TRANSFORMS_PASSES_TD
