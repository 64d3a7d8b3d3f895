//===- Passes.td - coopvec transformation passes ---------------*- tablegen -*-===//

#ifndef LINALGCOOP_DIALECT_COOPVEC_TRANSFORMS_PASSES_TD
#define LINALGCOOP_DIALECT_COOPVEC_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def CoopVecCheckSupport : Pass<"coopvec-check-support", "ModuleOp"> {
  let summary = "Report every coopvec op that a target profile cannot run";
  let description = [{
    Checks every coopvec op against a support profile (`#coopvec.profile`),
    the analog of D3D12 `CheckFeatureSupport` for every target. Each op
    states its requirements through `SupportRequirementsOpInterface`
    (feature strings, a matrix row, an accumulation row, matrix types to
    convert); one generic walk matches them against the profile's rows,
    features, tier and layout rules. Nothing is supported by default: a
    coopvec op without the interface, or whose requirement the profile does
    not list, gets an error at its location naming the profile and the first
    unmet requirement, and the pass fails. `coopvec.matrix_size` needs
    nothing.

    The profile is the module's `coopvec.profile` attribute if it has one (a
    profile, or a builtin profile's name), else the builtin profile named by
    `profile`:

    * `d3d12-tier1.0`: the D3D12 minimum support set for matrix-vector
      products; no outer-product or vector accumulation. `d3d12-tier1.1`:
      plus the minimum outer-product (F16 into F16 or F32) and
      vector-accumulate (F16) sets. Both demand optimal layouts for FP8
      matrices, never guarantee transpose, accept outer products only into
      `TrainingOptimal` with stride 0, as the shipped validator does, and
      list no features (batched, fused and numerics ops are CPU-side).
    * `cpu-host`: what the CPU target runs on this machine: every
      combination the verifiers accept (rows with no types), transpose,
      every accumulation, features `batch_matvec mlp convert pack mx bf16
      tf32 fp8 fp6 fp4 e8m0`, and the kernels' ISA features detected on the
      host (`+avx2 +fma +f16c +avx512f +avx512bw +avx512vnni +v`); `arch` is
      `<arch>:<host CPU>`.
    * `sm_80`, `sm_89`, `sm_90`, `sm_100a`, `sm_120a` (kind `nvptx`): PTX 8.7
      `mma.sync` tiles (m, n, k): f16 (f16/f32 accumulators) and bf16 16x8x16,
      16x8x8; s8/u8 16x8x32, 16x8x16, 8x8x16; s4/u4 16x8x64, 16x8x32,
      8x8x32 on all; e4m3/e5m2 16x8x32 with f32 from `sm_89`; `sm_100a` adds
      `tcgen05` tiles 128x256xK / 64x8xK for f16 and `kind::f8f6f4`;
      `sm_120a` `mma.sync` `kind::f8f6f4` 16x8x32 (mixed e4m3, e5m2, e3m2,
      e2m3, e2m1, f16/f32 accumulators). tf32 (`mma.tf32`, 16x8x8, 16x8x4)
      and the block-scaled kinds (`mma.block_scale.mxf8f6f4` 16x8x32,
      `.mxf4`/`.mxf4nvf4` 16x8x64 on `sm_100a`/`sm_120a`) are features until
      the IR has a tf32 interpretation and scale operands. Features
      `batch_matvec mlp convert pack bf16 tf32`, `fp8` from `sm_89`,
      `mx fp6 fp4 e8m0` on `sm_100a`/`sm_120a`. Accumulation: outer products
      of f16 into F16/F32 and f32 into F32; vector accumulation of f16, f32,
      i32 (`red.global.add`). Base `sm_90` has no `wgmma` (that needs
      `sm_90a`).
    * `rv64-nuclei-xxlvqmacc`: int32 += int8 x int8 (all sign
      combinations) in 4x4x4 tiles. `rv64-sifive-xsfvqmacc`: the same types
      in SiFive's 4x8x4 and 2x8x2 tiles (M x K x N; as (m, n, k): 4x4x8 and
      2x2x8). Features `rvv batch_matvec mlp` and the extension names.
    * `vulkan1.3`: core Vulkan 1.3: f32, f16 (`float16`), int8 dot products
      (`int_dot_product`, packed and f32 inputs, I8 to I32 and U8 to U32),
      `storage8`, `storage16`, `convert`, `pack`; vector accumulation of
      i32 only (float atomics are an extension); transpose allowed.

    With `emulate`, unsupported ops get a warning instead (the target will
    emulate them) and the pass succeeds.
  }];
  let dependentDialects = ["::mlir::coopvec::CoopVecDialect"];
  let options = [
    Option<"profile", "profile", "std::string", /*default=*/"\"d3d12-tier1.1\"",
           "Builtin profile to check against when the module has no "
           "coopvec.profile attribute (d3d12-tier1.0, d3d12-tier1.1, "
           "cpu-host, sm_80, sm_89, sm_90, sm_100a, sm_120a, "
           "rv64-nuclei-xxlvqmacc, rv64-sifive-xsfvqmacc, vulkan1.3)">,
    Option<"emulate", "emulate", "bool", /*default=*/"false",
           "Warn about unsupported ops instead of failing">
  ];
}

def CoopVecAttachProfile : Pass<"coopvec-attach-profile", "ModuleOp"> {
  let summary = "Name the module's target: attach a builtin profile as data";
  let description = [{
    Sets the module's `coopvec.profile` attribute to the builtin profile
    named by `profile`, written out in full (rows, tiles, features). A module
    that names its target lets `coopvec.matrix_size` of an optimal layout
    fold, and lets `--coopvec-check-support` and later passes read the
    target from the IR. Printing the result shows a builtin profile as data.
  }];
  let dependentDialects = ["::mlir::coopvec::CoopVecDialect"];
  let options = [
    Option<"profile", "profile", "std::string", /*default=*/"\"cpu-host\"",
           "Builtin profile to attach (d3d12-tier1.0, d3d12-tier1.1, "
           "cpu-host, sm_80, sm_89, sm_90, sm_100a, sm_120a, "
           "rv64-nuclei-xxlvqmacc, rv64-sifive-xsfvqmacc, vulkan1.3)">
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

    The tile shape comes from the target: when the module's
    `coopvec.profile` has `matvec` rows with `tiles` that match the op's
    types, the first of those shapes the op can be tiled with is used (the
    `[m, n, k]` of a row is `tile-m`, `tile-n`, `tile-k`); otherwise the
    pass options give it. C++: `mlir::coopvec::tileBatchMatVec` with a
    `TileShape`.
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
