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

def CoopVecTile : Pass<"coopvec-tile"> {
  let summary = "Rewrite coopvec.batch_matvec into the tile level: packed "
                "tiles, a loop nest and coopvec.tile_mma";
  let description = [{
    Rewrites every `coopvec.batch_matvec` (an `M`x`K` matrix times the `N`
    rows of a batch) into the target-independent tiled form, with tiles of
    `tile-m` matrix rows, `tile-n` batch rows and `tile-k` columns:

    1. `coopvec.tile_pack` decodes the described matrix (any layout,
       transpose) into a freshly allocated tile-major buffer of
       `ceil(M/tile-m)` x `ceil(K/tile-k)` tiles of `tile-m` x `tile-k`
       elements, zero-padded;
    2. a loop nest over row tiles, batch tiles and `K` tiles reads a matrix
       tile and a transposed input tile (masked at the batch and `K` edges,
       converted to the tile element type as the input interpretation
       says: saturating RTNE for `f32` read as `I8`/`U8`, a byte bitcast
       for packed words) and accumulates them with `coopvec.tile_mma`
       (`i32` for 8-bit matrices, `f32` for float ones), the accumulator
       carried through the `K` loop;
    3. the bias is added and the result converted to the output type once
       (`i32` to `f32` RTNE, `f32` to `f16` RTNE) and written, masked at the
       edges.

    Integer results are bit-identical to the untiled op. Float results sum
    each element in increasing `k` with one FMA per product, as the CPU
    runtime does; the documented bound is that of `coopvec.matvec`.

    Tiled: I8, U8, I4, U4 matrices with I8/U8 (from `i8`, `i32`, `f32`,
    `f16`) or PackedS8x32/PackedU8x32 inputs (`tile-k` a multiple of 4),
    I32 or no bias, `i32` or `f32` results; F16, BF16 and F32 matrices with
    F32/F16 inputs, F32/F16 or no bias, `f32`/`f16` results. Any other
    `batch_matvec` (and any with `unsigned_result`, whose result saturates)
    is left as it is, with a remark saying why.

    The tile shape will come from the target's profile; until then it is
    the pass options (C++: `mlir::coopvec::tileBatchMatVec` with a
    `TileShape`).
  }];
  let dependentDialects = ["::mlir::coopvec::CoopVecDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect"];
  let options = [
    Option<"tileM", "tile-m", "int64_t", /*default=*/"16",
           "Matrix rows of a tile (M of the tile multiply)">,
    Option<"tileN", "tile-n", "int64_t", /*default=*/"8",
           "Batch rows of a tile (N of the tile multiply)">,
    Option<"tileK", "tile-k", "int64_t", /*default=*/"16",
           "Matrix columns of a tile (K of the tile multiply)">
  ];
}

#endif // LINALGCOOP_DIALECT_COOPVEC_TRANSFORMS_PASSES_TD
