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
      tf32 fp8 fp6 fp4 e8m0 tile_mma math_fidelity bfp quantized`
      (`quantized`: the quantized form of `batch_matvec`, which needs that
      feature instead of a matrix row), and the kernels' ISA
      features detected on the
      host (`+avx2 +fma +f16c +avx512f +avx512bw +avx512vnni +avx512bf16
      +amx-tile +amx-bf16 +amx-int8 +v`); `arch` is
      `<arch>:<host CPU>`.
    * `sm_80`, `sm_89`, `sm_90`, `sm_100a`, `sm_120a` (kind `nvptx`): PTX 8.7
      `mma.sync` tiles (m, n, k): f16 (f16/f32 accumulators) and bf16 16x8x16,
      16x8x8; s8/u8 16x8x32, 16x8x16, 8x8x16; s4/u4 16x8x64, 16x8x32,
      8x8x32 on all; e4m3/e5m2 16x8x32 with f32 from `sm_89`; `sm_100a` adds
      `tcgen05` tiles 128x256xK / 64x8xK for f16 and `kind::f8f6f4`;
      `sm_120a` `mma.sync` `kind::f8f6f4` 16x8x32 (mixed e4m3, e5m2, e3m2,
      e2m3, e2m1, f16/f32 accumulators). tf32 (`mma.tf32`, 16x8x8, 16x8x4)
      is a feature until the IR has a tf32 interpretation; so are the
      block-scaled kinds (`mma.block_scale.mxf8f6f4` 16x8x32, which
      convert-coopvec-to-nvvm emits on `sm_120a`, and `.mxf4`/`.mxf4nvf4`
      16x8x64 on `sm_100a`/`sm_120a`). Features
      `batch_matvec mlp convert pack bf16 tf32 quantized`, `fp8 mx e8m0 block_scale`
      from `sm_89` (block-scaled fp8 matrices are multiplied per lane there),
      `fp6 fp4` on `sm_100a`/`sm_120a`. Accumulation: outer products
      of f16 into F16/F32 and f32 into F32; vector accumulation of f16, f32,
      i32 (`red.global.add`). Base `sm_90` has no `wgmma` (that needs
      `sm_90a`).
    * `rv64-nuclei-xxlvqmacc`: int32 += int8 x int8 (all sign
      combinations) in 4x4x4 tiles. `rv64-sifive-xsfvqmacc`: the same types
      in SiFive's 4x8x4 and 2x8x2 tiles (M x K x N; as (m, n, k): 4x4x8 and
      2x2x8). Features `rvv batch_matvec mlp quantized` and the extension
      names.
    * `wormhole-b0` (kind `tenstorrent`): the Tenstorrent Wormhole B0
      matrix unit, one 8x16 x 16x16 product per cycle and fidelity phase
      (tile (m, n, k) = 16x8x16): `BF16` or `F32` (TF32) inputs read from
      `f32`/`f16` vectors, the same matrix type, `f32` results, an `F32` or
      `BF16` bias (the L1 accumulator's start), any layout and transpose; features `math_fidelity batch_matvec bf16 tf32`. The
      `cpu-host` profile lists `math_fidelity` too: the CPU runs the
      Wormhole model.
    * `vulkan1.3`: core Vulkan 1.3: f32, f16 (`float16`), int8 dot products
      (`int_dot_product`, packed and f32 inputs; I8/U8 matrices to I32 or
      F32, packed U8 inputs by U8 matrices to U32),
      8-, 6- and 4-bit float matrices decoded in integer code, plain or
      with MX/NVFP4 block scales (`block_scale`, `e8m0`, `fp8`),
      `batch_matvec` and `mlp` (in a kernel: loops of matvecs; I8 matrices
      with f32 results, F16 matrices with F32 inputs), BF16 matrices
      (F32/BF16 biases), `math_fidelity` and `bfp` (the Wormhole model in
      integer code: BF16, TF32, BFP8 and BFP4 matrices), `quantized` (the
      quantized form of `batch_matvec` in a kernel), `storage8`,
      `storage16`, `convert`, `pack`; vector and outer-product accumulation
      (compare-and-swap loops where atomics are missing); transpose
      allowed.

    With `emulate`, unsupported ops get a warning instead (the target will
    emulate them) and the pass succeeds. With `device-only`, only the ops
    inside `gpu.module`s and `gpu.launch` bodies are checked: the device
    code of a GPU program, which is what the GPU pipelines
    (`coopvec-vulkan-pipeline`, `coopvec-nvvm-pipeline`) lower; the host
    code around it runs on the CPU (a host `coopvec.convert` to bf16 is
    not a Vulkan device's business).
  }];
  let dependentDialects = ["::mlir::coopvec::CoopVecDialect"];
  let options = [
    Option<"profile", "profile", "std::string", /*default=*/"\"d3d12-tier1.1\"",
           "Builtin profile to check against when the module has no "
           "coopvec.profile attribute (d3d12-tier1.0, d3d12-tier1.1, "
           "cpu-host, sm_80, sm_89, sm_90, sm_100a, sm_120a, "
           "rv64-nuclei-xxlvqmacc, rv64-sifive-xsfvqmacc, vulkan1.3, "
           "wormhole-b0)">,
    Option<"emulate", "emulate", "bool", /*default=*/"false",
           "Warn about unsupported ops instead of failing">,
    Option<"deviceOnly", "device-only", "bool", /*default=*/"false",
           "Check only the ops in gpu.modules and gpu.launch bodies (the "
           "device code of a GPU program)">
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
           "rv64-nuclei-xxlvqmacc, rv64-sifive-xsfvqmacc, vulkan1.3, "
           "wormhole-b0)">
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

def CoopVecBatchToGPU : Pass<"coopvec-batch-to-gpu", "ModuleOp"> {
  let summary = "Run each host coopvec.batch_matvec and coopvec.mlp on the "
                "GPU: one thread per row, each a coopvec.matvec (an mlp: "
                "its chain of them; the quantized form: the op on the row)";
  let description = [{
    Rewrites every `coopvec.batch_matvec` in host code (outside
    `gpu.module`s) into what a GPU program does with it: the batch, the
    matrix and the bias (and a block-scaled matrix's scales) are copied to
    `gpu.alloc`ed buffers, a `gpu.launch` runs one thread per row of the
    batch (`block-size` threads per block) that loads its row, multiplies it
    with `coopvec.matvec` (the same operands and attributes) and stores the
    result row, and the results are copied back (`gpu.memcpy`) before the
    device buffers are freed. An empty batch launches one block that does
    nothing. A `coopvec.mlp` becomes the same launch: every buffer it reads
    is copied once, and each thread runs the network on its row as a chain
    of `coopvec.matvec` and scalar code in the CPU runtime's order (an `I8`
    network: the row times `input_scale` read as `I8`, exact sums plus bias
    rounded once to `f32`, ReLU, requant scale, the next layer reading `U8`
    after a ReLU, else `I8`; an `F32`/`F16` network: `F32` activations; a
    `BF16` network: each layer's input read as `BF16`, i.e. rounded to bf16;
    `exp` as `math.exp`), the rewriting the target lowerings apply to an
    `mlp` in a kernel. The quantized form of `batch_matvec` has no per-row
    `coopvec.matvec`: each thread runs the op itself on one-row
    `memref.subview`s of the batches and of the input-side values grouped
    along K (per-tensor ones are shared), which the target lowers as its
    quantized form in a kernel. Batches whose row counts are dynamic are checked at run time
    first, as on the CPU: different counts are reported through the CPU
    runtime (`coopvecCpuReportError`, `COOPVEC_ERROR_INVALID_DIMENSIONS`,
    naming the op's location), which ends the program. The module becomes
    a `gpu.container_module`.

    ```mlir
    coopvec.batch_matvec %x as F16, %w[%c0] matrix<F16, 64x64, RowMajor> stride %c128
        into %y : memref<?x64xf16>, memref<?xi8> -> memref<?x64xf32>
    ```

    becomes a `gpu.launch` whose body is

    ```mlir
    %row = ...  // block_id.x * block-size + thread_id.x
    scf.if %row < %rows {
      %v = vector.load %dx[%row, %c0] {alignment = 16} : memref<?x64xf16>, vector<64xf16>
      %r = coopvec.matvec %v as F16, %dw[%c0] matrix<F16, 64x64, RowMajor> stride %c128
             : vector<64xf16>, memref<?xi8> -> vector<64xf32>
      vector.store %r, %dy[%row, %c0] {alignment = 16} : memref<?x64xf32>, vector<64xf32>
    }
    ```

    so that `gpu-kernel-outlining` (which sets the kernel's
    `known_block_size`) and a target lowering (`coopvec-nvvm-pipeline`: the
    warp-cooperative tensor-core step; `coopvec-vulkan-pipeline`) take it
    from there. `coopvec-run` runs the result on the GPU. The loads and
    stores carry the alignment that `gpu.alloc`'s buffers give the rows.

    Batches already in GPU code (a `gpu.module` or a `gpu.launch` body) are
    left to the target lowering, which runs them per thread, so a program
    may mix them with host ones. Block-float inputs (their exponents are not
    copied), batches and buffers whose layout is not the identity and
    batches in nested modules (`gpu-kernel-outlining` puts kernels in the
    top-level module) are located errors. What the target lowering does not
    support is reported there, at the batch's location.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect"];
  let options = [
    Option<"blockSize", "block-size", "int64_t", /*default=*/"128",
           "Threads per block (a multiple of 32, at most 1024)">
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
    F32/F16 inputs, F32/F16 or no bias, `f32`/`f16` results. With a math
    fidelity (`#coopvec.math_fidelity`), `tile-k` a
    multiple of 32 (and dividing `k_block` where it is less than `K`): the tiles carry the
    fidelity and Dst format, each `tile_mma` is one matrix-unit step onto
    the carried Dst, the inputs reach the tiles as the Wormhole model reads
    them (NaN canonical, RTNE to `bf16` for BF16); where the packer
    converts or accumulates (a pack format other than Dst's, `l1_acc`),
    each K block (`k_block`, or all of `K`) is a chain from a zero Dst
    followed by a `coopvec.tile_pack_dst` onto the L1 values, which start
    from the bias. The result is bit-identical to the untiled op. Any other `batch_matvec` (and any with `unsigned_result`, whose
    result saturates) is left as it is, with a remark saying why.

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

def CoopVecCycleReport : Pass<"coopvec-cycle-report", "ModuleOp"> {
  let summary = "Report matrix-engine cycles and the math fidelity's cost of "
                "every matrix op";
  let description = [{
    For every `coopvec.matvec`, `coopvec.batch_matvec` and
    `coopvec.tile_mma` of the module, emits a remark with the cycles the
    target's matrix engine spends on it and what its math fidelity costs;
    then one remark on the module with the totals. Nothing is changed.

    The engine does one tile `m`x`n`x`k` per cycle and fidelity phase (the
    `[m, n, k]` of the profile's `matvec` row that matches the op, else the
    profile's first tile; Wormhole B0: 16 output columns x 8 input rows x
    16, the seed's 8x16 x 16x16). For an op with `M` matrix rows, `N` input
    rows (1 for `matvec`, the batch for `batch_matvec`, the rhs columns of
    `tile_mma`) and `K` columns:

    ```
    tile steps = ceil(M / m) * ceil(N / n) * ceil(K / k)
    cycles     = tile steps * phases      (LoFi 1, HiFi2 2, HiFi3 3, HiFi4 4)
    ```

    An op without `#coopvec.math_fidelity` is counted at LoFi (tt-metal's
    default). Fewer than `n` input rows still take a whole step, so a
    1-row product runs at 1/`n` of the engine's rate (the seed's 1/8 for
    1x16 inputs); the remark gives the rows used and the share of the
    engine's multipliers doing useful work, `M*N*K / (steps * m*n*k)`. The
    throughput is `2*M*N*K / cycles` flops per cycle, at `clock-ghz`
    (Wormhole B0: 1 GHz, so LoFi peaks at 4.096 TFLOP/s, HiFi2 2.048,
    HiFi3 1.365, HiFi4 1.024: the seed's 4, 2, 1.33, 1). A batch with a
    dynamic number of rows is counted with `dynamic-rows` rows.

    ```
    remark: 32x64 x 64x1, hifi2: 2x1x4 = 8 tile steps x 2 phases = 16 cycles
            (2.00x LoFi), 1/8 rows, 12.5% of the engine, 0.256 TFLOP/s at 1 GHz
    ```

    The profile is the module's `coopvec.profile` attribute if it has one,
    else the builtin profile named by `profile`; one without tile shapes
    has no cycle model and fails the pass.
  }];
  let dependentDialects = ["::mlir::coopvec::CoopVecDialect"];
  let options = [
    Option<"profile", "profile", "std::string", /*default=*/"\"wormhole-b0\"",
           "Builtin profile whose tile shape counts the cycles when the "
           "module has no coopvec.profile attribute">,
    Option<"clockGHz", "clock-ghz", "double", /*default=*/"1.0",
           "Engine clock in GHz for the throughput figures">,
    Option<"dynamicRows", "dynamic-rows", "int64_t", /*default=*/"8",
           "Rows assumed for a batch whose row count is dynamic">
  ];
}

#endif // LINALGCOOP_DIALECT_COOPVEC_TRANSFORMS_PASSES_TD
