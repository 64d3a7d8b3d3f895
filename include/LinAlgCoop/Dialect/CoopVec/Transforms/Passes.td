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

#endif // LINALGCOOP_DIALECT_COOPVEC_TRANSFORMS_PASSES_TD
