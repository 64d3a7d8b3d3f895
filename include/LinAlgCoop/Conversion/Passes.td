//===- Passes.td - coopvec conversion passes -------------------*- tablegen -*-===//
//
// Every Source->Target conversion pass of the project, one section each.
//
//===----------------------------------------------------------------------===//

#ifndef LINALGCOOP_CONVERSION_PASSES_TD
#define LINALGCOOP_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

//===----------------------------------------------------------------------===//
// CoopVecToCPU
//===----------------------------------------------------------------------===//

def ConvertCoopVecToCPU : Pass<"convert-coopvec-to-cpu", "ModuleOp"> {
  let summary = "Lower coopvec ops to calls into the CPU runtime library";
  let description = [{
    Rewrites every coopvec op into a call to the C ABI of the CPU runtime
    (`LinAlgCoop/Runtime/Kernels.h`, `Layout.h`, `CpuTarget.h`, all exported
    by `libcoopvec_runtime.so`), leaving func/arith/memref/vector/scf/llvm
    ops that the upstream LLVM lowerings handle:

    * `coopvec.matvec` -> `coopvecCpuMatVecMulAdd` with batch 1 (a null bias
      pointer without a `bias` clause). The input vector is stored to a
      stack slot (`memref.alloca` in the entry block of the enclosing
      function, so loops do not grow the stack) and the result is loaded
      back from another. Interpretations are their DXIL ComponentType
      values, the physical types come from the vector element types
      (`i32` with `unsigned`/`unsigned_result` is U32), M, K, layout and
      transpose are `i32` constants. With a `fidelity` clause
      (`#coopvec.math_fidelity`, also on `coopvec.batch_matvec`) the
      struct's fidelity fields are set and the runtime computes the product
      with the Wormhole model (`coopvecWormholeMatmul`, `Numerics.h`); a
      `coopvec.tile_mma` with a fidelity spills its tiles to the stack and
      calls `coopvecCpuTileMmaFidelity` (`coopvecWormholeTileMma`: one
      matrix-unit step onto the accumulator as the live Dst).
    * `coopvec.outer_product_accumulate` -> `coopvecCpuOuterProductAccumulate`,
      `coopvec.vector_accumulate` -> `coopvecCpuVectorAccumulate` (atomic: any
      number of threads may accumulate into one buffer).
    * `coopvec.convert_matrix` -> `coopvecCpuConvertMatrix`, which also
      checks both matrices against the buffer sizes.
    * `coopvec.matrix_size` (when it did not fold) ->
      `coopvecLayoutDestinationSize`.

    The wide entry points (matvec, outer product, vector accumulate,
    convert_matrix, mlp) take one parameter struct (`ParamStructs.h`),
    filled in an `llvm.alloca` in the entry block with one
    `llvm.getelementptr` + `llvm.store` per field. Every callee's signature
    and every struct's fields come from `RuntimeFunctions.def`; the pass is
    compiled against the C headers with `static_assert`s that they agree.

    Buffers are passed as `!llvm.ptr` built from
    `memref.extract_aligned_pointer_as_index` (plus the memref's own offset
    for a strided byte buffer, whose stride must be 1); the op's byte offset
    is passed separately.

    Errors: every runtime call returns a `CoopVecStatus`. A non-zero status
    calls `coopvecCpuReportError(status, site)`, where `site` is a constant
    string naming the op and its source location; it prints one line
    `coopvec runtime error: <site>: <status name> (<code>)` to stderr and
    aborts, so an unsupported combination or an invalid argument never
    produces garbage silently. Matrix-vector products the vectorized kernels
    do not cover (I16, U16, I32, U32, F8_E4M3, F8_E5M2 matrices, `i16`
    vectors, 16-bit or FP8 input interpretations, unsigned results) run
    through the reference semantics (`coopvecReferenceMatVecMulAdd`), so
    every combination the dialect accepts executes; likewise integer
    outer-product and vector accumulation
    (`coopvecCpuOuterProductAccumulate`, `coopvecCpuVectorAccumulate`).

    Bounds: the kernels do not know buffer sizes, but memrefs do. With
    `bounds-checks` (the default) each op first checks that the matrix
    (its layout's footprint: up to the last element for RowMajor/ColumnMajor,
    the padded size for the optimal layouts), the bias and the accumulation
    array lie inside their memrefs; a violation is reported like a kernel
    error (`COOPVEC_ERROR_BUFFER_TOO_SMALL`). Offsets are not required to be
    128/64-byte aligned on the CPU.

    Batched and fused ops: `coopvec.batch_matvec` calls `coopvecCpuMatVecMulAdd`
    once over all rows and `coopvec.mlp` calls the fused network kernel
    (`coopvecCpuMlpForward`), each with `batch-threads` threads (a thread
    pool in the runtime, all cores by default).

    Numerics ops (`coopvec.convert`, `coopvec.pack`, `coopvec.mx_quantize`,
    `coopvec.mx_dequantize`) call the numerics library on stack buffers
    (`coopvecConvertBuffer` for vectors between 8-, 16- and 32-bit
    formats, `coopvecMxQuantize`, `coopvecNvfp4Quantize` and their
    inverses) or element by element (`coopvecConvert` for scalars and the
    other conversions, `coopvecPackX2/X4`): the vectorized buffer forms give
    the bits of the scalar functions that constant folding calls.

    Every op of a verified module is rewritten; a byte buffer with a
    non-unit stride, or a batch whose rows are not contiguous, is reported
    as an error and the pass fails.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::func::FuncDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect"
  ];
  let options = [
    Option<"numThreads", "num-threads", "unsigned", /*default=*/"1",
           "Threads each runtime call may use: 1 runs on the calling thread "
           "(right for the one vector a single op multiplies), 0 lets the "
           "runtime choose (COOPVEC_NUM_THREADS or all cores)">,
    Option<"batchThreads", "batch-threads", "unsigned", /*default=*/"0",
           "Threads a coopvec.batch_matvec or coopvec.mlp call may use (0: "
           "the runtime's default, COOPVEC_NUM_THREADS or all cores)">,
    Option<"boundsChecks", "bounds-checks", "bool", /*default=*/"true",
           "Check that every matrix, bias and accumulation array lies inside "
           "its memref before the kernel runs (coopvecCpuCheckMatrix / "
           "coopvecCpuCheckRange)">
  ];
}

//===----------------------------------------------------------------------===//
// CoopVecToDXIL
//===----------------------------------------------------------------------===//

def ConvertCoopVecToDXIL : Pass<"convert-coopvec-to-dxil", "ModuleOp"> {
  let summary = "Lower coopvec ops to SM 6.9 dx.op calls (DXIL-style LLVM IR)";
  let description = [{
    Rewrites the cooperative-vector shader operations into calls of the
    DXIL operations with the shipped opcodes, overload names and argument
    order (seed 000 as corrected by the errata of `shared/seeds/README.md`):

    * `coopvec.matvec` -> `@dx.op.matVecMul.v<M><TYo>.v<NUMi><TYi>` (305),
      with a `bias` clause `@dx.op.matVecMulAdd...` (306):
      `(i32 305, <NUMi x TYi> %in, i1 inputUnsigned, i32 inputInterp,
      %dx.types.Handle %matrix, i32 offset, i32 matrixInterp, i32 M, i32 K,
      i32 layout, i1 transpose, i32 stride[, %dx.types.Handle %bias,
      i32 biasOffset, i32 biasInterp], i1 outputUnsigned)`.
    * `coopvec.outer_product_accumulate` ->
      `@dx.op.outerProductAccumulate.v<M><TY>.v<N><TY>` (307):
      `(i32 307, <M x TY> %a, <N x TY> %b, %dx.types.Handle %matrix,
      i32 offset, i32 interp, i32 layout, i32 stride)`.
    * `coopvec.vector_accumulate` -> `@dx.op.vectorAccumulate.v<N><TY>`
      (308): `(i32 308, <N x TY> %v, %dx.types.Handle %buffer, i32 offset)`.
    * `coopvec.matrix_size` with a constant (or omitted) stride -> an `i64`
      constant: the size is a compile-time fact of the optimal layouts.

    Interpretations are their DXIL `ComponentType` numbers, layouts 0-3,
    flags `i1`; offsets and strides are `i32` (a constant is emitted as
    such and must fit; a dynamic index outside [0, 2^31 - 1] becomes
    0xFFFFFFFF, an odd offset no buffer accepts, so the driver reports the
    call). TY names: `f16`, `f32`, `i16`, `i32`.

    `%dx.types.Handle` is `!llvm.struct<"dx.types.Handle", (ptr)>`. Each
    memref byte buffer becomes a handle whose pointer addresses a host
    buffer descriptor `{ptr base, i64 sizeInBytes}` (a stack slot of the
    enclosing function's entry block) filled from the memref descriptor:
    `base` is the aligned pointer plus the memref's offset and
    `sizeInBytes` its size. The software driver (`LinAlgCoop/Runtime/Dxil.h`,
    `CoopVecDxBuffer`) bounds-checks every access against it.

    Before lowering, the pass runs `coopvec-check-support` with `profile`
    and `emulate`: a combination the profile does not list is an error,
    or a warning with `emulate=true` (the driver then emulates it).

    Rejected with an error naming the op and the reason (the pass fails):
    `coopvec.convert_matrix` (a D3D12 API call, not a shader operation:
    call `coopvecDxConvertLinearAlgebraMatrix` on the host), a
    `coopvec.matrix_size` with a dynamic stride, outer products into a
    layout other than TrainingOptimal or with a non-zero stride (the
    shipped validator's rule), vectors of more than 1024 elements (the
    DXIL long-vector limit), byte buffers with a non-unit stride or a
    non-default memory space, and constant offsets or strides that do not
    fit DXIL's `i32`.

    Only the coopvec ops are rewritten (memrefs meet them through
    `unrealized_conversion_cast`); `coopvec-dxil-pipeline` lowers the rest
    of the module to the LLVM dialect, and `mlir-translate --mlir-to-llvmir`
    prints the `.ll`.
  }];
  // coopvec: the nested support check builds profile attributes even when
  // the module holds no coopvec op; arith: matrix_size folds to constants.
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::coopvec::CoopVecDialect"];
  let options = [
    Option<"profile", "profile", "std::string", /*default=*/"\"d3d12-tier1.1\"",
           "Support profile checked before lowering when the module has no "
           "coopvec.profile attribute (d3d12-tier1.0, d3d12-tier1.1)">,
    Option<"emulate", "emulate", "bool", /*default=*/"false",
           "Accept combinations the profile does not list, with a warning "
           "(the software driver emulates them)">
  ];
}

def CoopVecDXILLinkHostDriver
    : Pass<"coopvec-dxil-link-host-driver", "ModuleOp"> {
  let summary = "Give dx.op declarations bodies that call the software driver";
  let description = [{
    Makes a module produced by `convert-coopvec-to-dxil` (and lowered to the
    LLVM dialect) executable on the host: every declaration of
    `@dx.op.matVecMul.*`, `@dx.op.matVecMulAdd.*`,
    `@dx.op.outerProductAccumulate.*` and `@dx.op.vectorAccumulate.*` gets
    an internal body that stores its vector arguments to stack memory and
    calls the generic C entry points of the software driver
    (`coopvecDxMatVecMulAdd`, `coopvecDxOuterProductAccumulate`,
    `coopvecDxVectorAccumulate` in `LinAlgCoop/Runtime/Dxil.h`) with the
    immediates as integers, the handle's host descriptor and the callee's
    name for error messages. The calls themselves are untouched, so the
    textual DXIL stays exact and the same IR executes. Link the result
    with `libcoopvec_dxil_driver.so`.

    A `dx.op.` declaration whose name or signature is not one of the four
    operations is an error.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

//===----------------------------------------------------------------------===//
// CoopVecToRISCV
//===----------------------------------------------------------------------===//

def ConvertCoopVecToRISCV : Pass<"convert-coopvec-to-riscv", "ModuleOp"> {
  let summary = "Lower int8 matrix products (matvec, batch_matvec and the "
                "quantized form) to EmitC calling the Nuclei Xxlvqmacc "
                "intrinsics, or to loops around SiFive's XSfvqmacc LLVM "
                "intrinsics";
  let description = [{
    Rewrites each `func.func` into an `emitc.func` whose C body computes its
    `coopvec.batch_matvec` ops with Nuclei's `xl.vqmacc[u|us|su]` 4x4x4 tile
    instructions (through their intrinsics); `mlir-translate --mlir-to-cpp`
    prints the C. Nuclei's GCC compiles it for the hardware
    (`-march=rv64gcv_xxlvqmacc`); any RVV 1.0 compiler compiles it against
    `lib/Runtime/riscv64/xl_vqmacc.h`, which implements the intrinsics in
    RVV 1.0 (clang-22 and qemu-riscv64 here). The instruction's semantics,
    the seed's ambiguities and the reading implemented: docs/RISCV.md.

    The C function is `void coopvec_<name>(...)`, each memref argument
    passed as its data pointer and its first dimension (`int64_t`; bytes for
    a byte buffer, rows for a batch), each vector argument as its data
    pointer, and each vector result as a pointer argument after all the
    others, which the caller provides and `func.return` fills. A
    `coopvec.matvec` is a batch of one: its input vector is the one row, its
    result a local array (`T v[M]`) that later ops and the return read. Per
    `batch_matvec` (`N` rows of `K` inputs, an `M`x`K` matrix), the code

    * checks the buffers (matrix, bias, zero points and scales in bounds, as
      many output rows as input rows, input-side quantization rows for the
      batch) and that VLEN holds whole tiles at the LMUL used
      (`VLEN * LMUL >= 512`); a failure calls `coopvec_rv_error(site, what)`
      (`lib/Runtime/riscv64/coopvec_riscv.h`; the runner prints
      `coopvec runtime error: <site>: <what>` and exits 1);
    * packs the matrix into A tiles (4x4 row-major, `(M/4)x(K/4)` of them,
      edge tiles zero-padded) and the inputs, read as the input
      interpretation (`i32` saturated, `f32` rounded to nearest even and
      saturated, NaN 0, packed words unpacked), into B tiles (`B[k][n]`,
      `(K/4)x(N/4)`, padded);
    * for each row tile, runs one `vqmacc` per K tile over as many batch
      tiles as `vl` holds (`vl = vsetvl_e32m<LMUL>(remaining tiles * 16)`),
      accumulating in `i32` (exact: `K` is rejected where `K` times the
      largest product could overflow it, e.g. 33025 for `U8` x `U8`);
    * adds the `I32` bias in 64 bits and saturates to an `i32` result, or
      converts the exact sum once to an `f32` result.

    The quantized form (zero points, scales, reductions; `I8`/`U8`/`I4`/`U4`
    matrices, 4-bit ones unpacked into the int8 tiles, and `I8`/`U8`
    inputs) cuts K into blocks of the gcd of K and every group size,
    each packed as its own zero-padded run of K tiles and summed by the
    tiles in `i32`; per block the zero point and reduction terms are added
    in `int64_t` (`P - zw Sx - zx Sw + G zx zw`, or `- zw R` with
    reductions), and at the end of each compute group an `f32` result takes
    `y + (f32(acc) * sx) * sw` in that order (compile with
    `-ffp-contract=off`), then the F32/F16/BF16 bias and, for `f16`/`bf16`
    results, one rounding to nearest even; an `i32` result is the exact sum
    plus the `I32` bias, saturated. docs/RISCV.md has the derivation.

    The operation follows the signedness: `I8` matrix (A) x `I8` input (B)
    `vqmacc`, `U8` x `U8` `vqmaccu`, `U8` x `I8` `vqmaccus`, `I8` x `U8`
    `vqmaccsu`. Taken: `coopvec.matvec` and `coopvec.batch_matvec` with
    `I8`/`U8` matrices in every layout (`RowMajor`/`ColumnMajor` with a
    constant stride; `InferencingOptimal`/`TrainingOptimal` by Layout.h's
    formulas, transposed or not) at constant offsets, `i32` or `f32` inputs read as `I8`/`U8` (`unsigned` too) or
    `i32` inputs as `PackedS8x32`/`PackedU8x32` words, an optional `I32`
    bias, signed `i32` or `f32` results; the quantized form with `i32`,
    `f32`, `f16` or `bf16` results; `func.return` and `arith.constant`.
    Anything else gets a located error.

    `isa=rvv` emits the generic RVV 1.0 path instead, for vector units
    without vqmacc: the inputs saturated into an `int16` `x[k][n]` buffer,
    and per matrix row and `vl` batch rows one `vwmacc.vx` (int32 += int16
    scalar `W[m][k]` x int16 vector) per `k`, at any VLEN.

    `isa=xsfvqmacc-4x8x4` / `isa=xsfvqmacc-2x8x2` target SiFive's
    `sf.vqmacc[u|us|su].4x8x4` (XSfvqmaccqoq) / `.2x8x2` (XSfvqmaccdod)
    through the LLVM dialect instead of C: each `func.func` stays one
    (renamed `coopvec_<name>`, memref arguments), and each `batch_matvec`
    becomes `scf`/`arith`/`memref` loops that make the same checks, pack A
    tiles (TMx8, row-major) and B tiles (8xTN, row-major),
    zero-padded, run one `llvm.riscv.sf.<op>.<shape>` per K tile over as
    many batch tiles as vs2 holds (`llvm.call_intrinsic` on scalable
    vectors, with `vle`/`vse`/`vsetvlimax`), and add the bias and saturate
    (or round the exact sum once to an f32 result). f32 inputs become the
    input interpretation's bytes by DXIL's rule (nearest even, saturated,
    NaN 0) while B is packed. The quantized form takes the C path's steps
    in `arith`: K blocks packed as their own zero-padded runs of K tiles,
    the zero point and reduction terms in i64, the compute groups' f32
    scaling, the bias and one rounding (F16/BF16 values decoded and f16/bf16
    results encoded on the bits).
    `vl` counts bytes of vs2; vs2 has LMUL(vd)/2 (4x8x4) or LMUL(vd)
    (2x8x2); 4x8x4 needs VLEN >= 256 (its 32-byte A tile in one register)
    and `VLEN * LMUL >= 512`, checked at run time. The upstream LLVM
    lowerings (`coopvec-riscv-sifive-pipeline` runs this pass and them) and
    `mlir-translate --mlir-to-llvmir` give LLVM IR for
    `-march=rv64gcv_xsfvqmaccqoq_xsfvqmaccdod`. `emulate-sifive=true` calls
    `coopvec_sf_<op>_<shape>_i32m<L>` (same signature,
    `lib/Runtime/riscv64/sf_vqmacc.c`, RVV 1.0) instead, to run under qemu.
    A `coopvec.matvec` becomes a batch_matvec of one row first (its input
    and result through 1 x K and 1 x M stack buffers), and functions take
    the EmitC path's calling convention for memrefs: a vector argument is a
    memref of its length, each vector result one more memref argument
    after the others. Quantized and block-scaled products and other coopvec
    ops get a located error.
  }];
  let dependentDialects = ["arith::ArithDialect", "emitc::EmitCDialect",
                           "func::FuncDialect", "LLVM::LLVMDialect",
                           "memref::MemRefDialect", "scf::SCFDialect",
                           "vector::VectorDialect"];
  let options = [
    Option<"isa", "isa", "std::string", /*default=*/"\"xxlvqmacc\"",
           "The vector unit: xxlvqmacc (Nuclei's tile instructions), rvv "
           "(RVV 1.0 widening multiply-adds), xsfvqmacc-4x8x4 or "
           "xsfvqmacc-2x8x2 (SiFive's tile instructions)">,
    Option<"lmul", "lmul", "unsigned", /*default=*/"0",
           "LMUL of the int32 accumulators (1, 2, 4, 8; 0: chosen from the "
           "batch's tile count at min-vlen, 8 for a dynamic batch)">,
    Option<"minVlen", "min-vlen", "unsigned", /*default=*/"128",
           "The smallest VLEN the code is chosen for (128 ... 65536)">,
    Option<"emulateSiFive", "emulate-sifive", "bool", /*default=*/"false",
           "xsfvqmacc isas: call coopvec_sf_<op>_<shape>_i32m<L> "
           "(lib/Runtime/riscv64/sf_vqmacc.c, RVV 1.0) instead of the "
           "llvm.riscv.sf.vqmacc* intrinsics, to run where no machine has "
           "the extension">
  ];
}

//===----------------------------------------------------------------------===//
// CoopVecToNVVM
//===----------------------------------------------------------------------===//

def ConvertCoopVecToNVVM : Pass<"convert-coopvec-to-nvvm", "ModuleOp"> {
  let summary = "Lower coopvec.matvec in GPU kernels to NVVM (a warp's "
                "vectors as one tensor-core product, or a per-lane loop), "
                "batch_matvec and mlp there to loops of matvecs, and "
                "coopvec.convert/pack/mx_quantize/mx_dequantize to PTX "
                "cvt";
  let description = [{
    Rewrites each `coopvec.matvec` inside a `gpu.func` (one vector per
    thread) into what a GPU driver does with a cooperative vector (seed 000):

    * **The cooperative step.** When the whole warp is active
      (`activemask.b32` is all ones), has a stage, and every lane names the same matrix
      (aligned pointer, offset and stride, compared with lane 0's through
      `shfl.sync.idx` and `vote.sync.all`), the 32 input vectors form the
      `B` operand of `mma.sync` (lane `n` is column `n`: four `m16n8` tiles)
      and the matrix the `A` operand, row-major, read as 32-bit words from
      global memory. `F16` matrices use `m16n8k16.f32.f16.f16.f32`, `BF16`
      matrices `m16n8k16.f32.bf16.bf16.f32`, `I8`/`U8`
      matrices `m16n8k32.s32.{s8,u8}.{s8,u8}.s32`, `F8_E4M3`/`F8_E5M2`
      matrices (sm_89 and later) `m16n8k32.f32.{e4m3,e5m2}.{e4m3,e5m2}.f32`
      through `llvm.call_intrinsic` (MLIR 22's `nvvm.mma.sync` has no fp8
      forms); on sm_120a, `F6_E2M3`/`F6_E3M2`/`F4_E2M1` matrices
      `m16n8k32.kind::f8f6f4.f32.{e2m3,e3m2,e2m1}.{e4m3,e5m2}.f32` (each
      element in an 8-bit container: fp6 in bits 5..0, fp4 in bits 5..2) and
      UE8M0 block-scaled matrices (`scale f8E8M0FNU block 32`: MXFP8, MXFP6,
      MXFP4) `m16n8k32.kind::mxf8f6f4.block_scale.scale_vec::1X...ue8m0`
      (one k-tile is one block; this lane's A scale byte, thread and byte
      selectors 0: lane `4g` gives row `g`'s scale and lane `4g + 1` row
      `g + 8`'s; the B scales are 0x7F, 1.0); `F4_E2M1` matrices read by
      `F4_E2M1` inputs with MXFP4 blocks (`scale f8E8M0FNU block 32`) or
      NVFP4 blocks (`scale f8E4M3FN block 16`) `m16n8k64.kind::mxf4`
      `scale_vec::2X` and `kind::mxf4nvf4` `scale_vec::4X` (eight packed
      nibbles per register, as the matrix stores them; one k-tile of 64 is
      two or four blocks, the bytes of this lane's scale word, lower K
      first). The B fragments and the `f32`/`s32` accumulator tiles move
      between the lanes through a 1 KiB shared-memory stage per warp
      (stores, `bar.warp.sync`, loads; swizzled so that no access has a
      bank conflict), so each lane gets its own `M`-element result. The
      stages are one `memref.global` (`__coopvec_warp_stage`, workgroup
      memory) per `gpu.module`, one per warp of the largest block of its
      functions: `known_block_size`, else `stage-warps` warps; a warp
      beyond them takes the per-lane path.
    * **The per-lane path** otherwise (a diverged or partial warp, matrices
      that differ between lanes, and always for `F32` products and, below
      sm_120a, for fp6/fp4 and block-scaled matrices): one dot
      product per row, in the CPU reference's order and precision (`f32`
      `mul.rn` then `add.rn`, never fused; integers exactly in `i32`).

    Both paths then add the bias (`f32`, or exactly in `i64` for integers)
    and convert to the result type with the DXIL rules (round to nearest
    even, saturating to the finite range; integers saturate). Integer
    products are bit-identical on both paths and to the CPU; float products
    on the tensor-core path differ from the per-lane order only by the
    accumulation order inside `mma.sync`: |difference| <= 2 K u
    sum_k |w_k x_k| with u = 2^-24 (documented in docs/NVIDIA.md).

    Supported here: `F16` matrices with `F16` inputs (`f16` or `f32`
    elements), `f16`/`f32` results and `F16`/`F32` biases; the same for
    `BF16` matrices with `BF16` inputs (an `f32` or `f16` element rounded to
    bf16 by the DXIL rule: nearest even, a finite value beyond the range
    saturated to +-0x7F7F; the per-lane products are exact in `f32`); `F32` products,
    per lane only (tf32 would round the operands): `F32` matrices with
    `F32` or `F16` inputs and `F16` matrices with `F32` inputs; `I8`/`U8`
    matrices with `PackedS8x32`/`PackedU8x32` inputs (`i32` words) or
    `I8`/`U8` inputs (`f32` elements rounded to nearest even, or `i32`/`i16`
    elements; saturated, NaN read as 0), `i32` results
    (`unsigned_result`: U32) or `f32` ones (the exact sum plus bias rounded
    once) and `I32`/`U32`/`I16`/`U16` biases;
    `F8_E4M3`/`F8_E5M2` matrices with `F8_E4M3`/`F8_E5M2` inputs (`f16` or
    `f32` elements, converted by `cvt.rn.satfinite` with the DXIL rule),
    `f16`/`f32` results and `F16`/`F32` biases; the same for
    `F6_E2M3`/`F6_E3M2`/`F4_E2M1` matrices on sm_100a and sm_120a (decoded
    per lane by `cvt.rn.f16x2.{e2m3,e3m2,e2m1}x2`), with inputs read as
    any of the five on sm_100a/sm_120a (`cvt.rn.satfinite.{e2m3,e3m2,
    e2m1}x2.f32` for fp6/fp4: nearest even, saturated, NaN +MAX_NORM; on
    tensor cores only on sm_120a), and for block-scaled
    matrices of these five types (per lane: each element times its scale,
    exact in `f32`: UE8M0 `2^(s-127)`, NaN for 0xFF; UE4M3 the E4M3 value,
    NaN for 0x7F); 16-element blocks take tensor cores only for NVFP4 x
    `F4_E2M1` inputs on sm_120a (above): NVFP4 read by other inputs and
    UE8M0 x 16 over `F4_E2M1` (LLVM 22 has no intrinsic for
    `kind::mxf4nvf4` `scale_vec::4X` with UE8M0) take the per-lane path.
    Matrices in every layout, in a
    `memref<?xi8>` with the identity layout: `RowMajor`/`ColumnMajor` with
    the op's stride, and the optimal layouts (plain or transposed) at the
    byte offsets of `LinAlgCoop/Runtime/Layout.h`, computed in the kernel
    (`LinAlgCoop/Conversion/OptimalLayout.h`, shared with the Vulkan
    shaders), so a matrix the CPU runtime converted runs unchanged. Only
    row-major rows of whole 32-bit words are read a word at a time; the
    other layouts build the tensor-core fragments element by element.

    `coopvec.batch_matvec` and `coopvec.mlp` in a `gpu.func` mean what
    they mean anywhere: the thread runs them on every row of its batch (as
    many rows as the smaller of its two batches has; a one-row subview per
    thread is the cooperative form). They first become loops of
    `coopvec.matvec` (the same rewriting as convert-coopvec-to-spirv's):
    an `I8` network's layers read the row times `input_scale` as `I8`,
    each hidden layer's values (times its requant scales) as `U8` after a
    ReLU and `I8` otherwise, and give the exact sums plus bias as `f32`, so
    a warp's rows run every layer on tensor cores, bit-identical to the
    CPU's `coopvec.mlp`; float networks read `F32` activations (the per-lane
    path) and `BF16` networks `BF16` ones (the row and every activation
    rounded to bf16, as `coopvec.mlp` says), so a warp's rows run their
    layers on bf16 tensor cores; `exp` is `math.exp` (the GPU's
    `ex2.approx` of `x log2(e)`). The quantized form of `batch_matvec` is a
    located error.

    `coopvec.convert` and `coopvec.pack` in a `gpu.module` become PTX `cvt`
    through NVVM's conversion ops (`nvvm.convert.f32x2.to.{f16x2,bf16x2,
    f8x2,f6x2,f4x2}`, `nvvm.convert.f32x4.to.*` for `rs`,
    `nvvm.convert.{f8x2,f6x2,f4x2}.to.*` for
    widening; `cvt.{rm,rp}.{f16,bf16}.f32`, which no NVVM op has, as inline
    PTX), bit-identical to the CPU runtime (NaN results are its canonical
    NaN with the input's sign, `relu` gives +0 for -0); so do
    `coopvec.mx_quantize`/`mx_dequantize` (block scales in integer
    arithmetic, elements through the same cvt). Per SM: fp8 from
    sm_89, fp6/fp4/ue8m0 on sm_100a and sm_120a, `rs` on sm_100a; `tf32`
    results (a 19-bit builtin type with no LLVM type) and anything else are
    located errors.

    Everything else (other interpretations, block scales on other
    matrices, math fidelity, other coopvec ops, a matvec or batch outside a
    `gpu.func`, M or K above 4096) is a located error, never an llc abort. Run
    `coopvec-check-support{profile=<chip>}` first (the
    `coopvec-nvvm-pipeline` does) for what the SM itself lacks.
  }];
  let dependentDialects = ["arith::ArithDialect", "gpu::GPUDialect",
                           "LLVM::LLVMDialect", "math::MathDialect",
                           "memref::MemRefDialect", "NVVM::NVVMDialect",
                           "scf::SCFDialect", "vector::VectorDialect"];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_80\"",
           "The SM the code is for (sm_80, sm_89, sm_90, sm_100a, sm_120a)">,
    Option<"cooperative", "cooperative", "bool", /*default=*/"true",
           "Emit the warp-cooperative tensor-core step (false: only the "
           "per-lane path)">,
    Option<"stageWarps", "stage-warps", "int64_t", /*default=*/"8",
           "Warps per block that get a shared-memory stage when the "
           "gpu.func has no known_block_size (1 to 32, 1 KiB each); the "
           "warps beyond take the per-lane path">
  ];
}

//===----------------------------------------------------------------------===//
// CoopVecToSPIRV
//===----------------------------------------------------------------------===//

def ConvertCoopVecToSPIRV : Pass<"convert-coopvec-to-spirv", "ModuleOp"> {
  let summary = "Prepare the gpu.modules of a coopvec program for Vulkan "
                "SPIR-V: coopvec ops as per-invocation loops with packed "
                "int8 dot products, vectors of at most 4 elements, the "
                "entry-point ABI and the Vulkan 1.3 target environment";
  let description = [{
    Rewrites each `coopvec.matvec`, `coopvec.vector_accumulate` and
    `coopvec.outer_product_accumulate` inside a `gpu.func` (one vector per
    invocation, the DXIL/Vulkan semantics) into
    `arith`/`scf`/`memref` code and SPIR-V dot products that
    `convert-gpu-to-spirv` then lowers with the rest of the kernel:

    * `I8`/`U8` matrices: four weights along `K` and four input bytes are
      packed into 32-bit words and multiplied by `spirv.SDot`, `spirv.UDot`
      or `spirv.SUDot` in `PackedVectorFormat4x8Bit`
      (`SPV_KHR_integer_dot_product`, core in Vulkan 1.3), summed exactly
      in `i32` (`M`, `K` <= 4096, so no partial sum overflows); `I8`/`U8`
      inputs of `f32`, `i32` or `i16` elements are converted by the DXIL
      rules (round to nearest even, saturate, NaN reads as 0) and go
      through the same dot products; results are `i32` (saturated) or
      `f32` (the exact sum plus bias rounded once).
    * `F16`/`F32`/`BF16` matrices (an `F16` matrix takes `F16` or `F32`
      inputs, a `BF16` one `BF16` inputs, converted by the DXIL rule:
      nearest even, saturating; BF16 values are exact in `f32`):
      one product per weight in the CPU reference's
      order, `f32` multiply then add, each decorated `NoContraction` so a
      driver cannot fuse them (bit-identical to the CPU); with `fma=true`,
      `GL.Fma` instead (faster on GPUs; then within one rounding per
      product of the CPU).
    * `F8_E4M3`, `F8_E5M2`, `F6_E2M3`, `F6_E3M2` and `F4_E2M1` matrices,
      plain or block-scaled (OCP MX: UE8M0 scales in blocks of 32, or of 16
      for `F4_E2M1`; NVFP4: UE4M3 scales in blocks of 16), with
      `F8_E4M3`/`F8_E5M2`/`F16`/`F32` inputs of `f16` or `f32` elements:
      Vulkan has no 8-, 6- or 4-bit float type, so inputs are converted to
      their codes by the DXIL rule and codes (two 4-bit ones to a byte, the
      even stored column low) and scales decoded to exact `f32` values in
      integer code; a scaled weight is one `NoContraction` multiply
      (exact, or inf where `f32` overflows, as the CPU reference's; the
      smallest scales and weights are f32 subnormals, which a device may
      flush: the shaders declare no `DenormPreserve`); then as `F32`.
    * Math fidelity (`#coopvec.math_fidelity`): `BF16` and `F32` (TF32)
      matrices, and `BFP8`/`BFP4` ones (data and shared exponents, decoded
      to BF16 as the unpacker does), run the CPU runtime's Wormhole model
      (`docs/WormholeFidelity.md`) in integer code, bit-identical to the
      CPU: per K block, 32-wide K tile and fidelity phase, each 16-wide
      chunk's mantissa-slice products and Dst are summed exactly in a
      `Function` array of twenty 32-bit limbs (held in `i64`), and Dst is
      rounded to f32 or bf16 (ties away, flushed below 2^-126, exponent 255
      an ordinary binade); then the packer's conversion and L1
      accumulation from the bias.
    * The quantized form of `coopvec.batch_matvec` (zero points, grouped
      scales, reductions) in a kernel: integer and f32 code in the CPU
      reference's order over the batch's static rows (exact `i64` sums per
      compute group, `f32(acc) * sx * sw` added `NoContraction`, the bias,
      one rounding), bit-identical to the CPU; `bf16` results and `bf16`
      input-side memrefs are located errors.
    * Matrices in every layout: `RowMajor`/`ColumnMajor` with the op's
      stride, and the optimal layouts (plain or transposed) at the byte
      offsets of `LinAlgCoop/Runtime/Layout.h`'s formulas, computed in the
      shader (`LinAlgCoop/Conversion/OptimalLayout.h`), so a matrix the CPU
      runtime converted reads the same on the device.
    * The bias is added in `f32`, or exactly in `i64` for integers; results
      convert by the DXIL rules (`f16`: round to nearest even computed on
      the bits, since `OpFConvert` rounds as the driver likes and Vulkan
      allows `FPRoundingMode` only on stored values; finite values saturate
      to +-65504; integers saturate).
    * `coopvec.vector_accumulate` of `i32`/`u32` elements: one
      `spirv.AtomicIAdd` (device scope, relaxed) per element. Atomics need
      32-bit words: the kernel argument becomes `memref<?xi32>` and every
      `gpu.launch_func` passes a `memref.view` of its byte buffer's whole
      words, so the kernel may only accumulate into that buffer.
    * Float accumulation (`vector_accumulate` of `f32`/`f16`,
      `outer_product_accumulate` of `f16`/`f32` vectors into an `F16`,
      `F32`, `F8_E4M3` or `F8_E5M2` matrix in any layout, up to 4096
      elements): core Vulkan has no float atomics, so each element is a
      `memref.generic_atomic_rmw` on its 32-bit word (an `f16` is one half
      of it, an 8-bit float one byte) adding in `f32` (`NoContraction`) and
      rounding to `f16` or the 8-bit format by the DXIL rule, the CPU
      runtime's sum; `coopvec-convert-gpu-to-spirv` makes it a
      compare-and-swap loop.
    * Integer accumulation in parts of words, with the same loop:
      `vector_accumulate` of `i16` elements (a half of the word, wrapping),
      and `outer_product_accumulate` of `i16`/`i32` vectors (exact `i64`
      products) into `I8`/`U8`/`I16`/`U16`/`I32`/`U32` elements (the byte,
      half or word, saturated to its range) or into float ones (the
      product rounded once to `f32`, then as a float product). Float
      vectors into integer elements: the element to `f32`, plus the
      product, back by DXIL's rule (nearest even, saturated, NaN 0).

    Matrices, biases and accumulation buffers are byte-address storage
    buffers (`memref<?xi8>`, 8-bit access); the input vector and the sums
    of a row live in `Function`-storage arrays and rows loop, so a shader's
    size does not grow with `M x K`. Vectors longer than four elements
    (SPIR-V's limit without `Vector16`) that the kernel loads, stores,
    computes with or passes to coopvec ops are split into scalars; one that
    is still live across control flow is a located error.

    Kernels get `spirv.entry_point_abi` with the workgroup size from the
    kernel's `known_block_size`, else from the constant block size of every
    `gpu.launch_func` of it (all must agree), else from the
    `workgroup-size` option; a `gpu.module` without a SPIR-V target gets
    the Vulkan 1.3 target environment (SPIR-V 1.6; `Shader`, `Int8`,
    `Int16`, `Int64`, `Float16`, 8/16-bit storage, `DotProduct*`).

    * `coopvec.batch_matvec` inside a kernel (the invocation multiplies
      every row of its batch): a loop over the rows, each a `vector.load`,
      one `coopvec.matvec` lowered as above and a `vector.store`. The row
      count is the static one of either batch (a shader cannot read a
      buffer's size).
    * `coopvec.mlp` inside a kernel: the same loop, each row the chain of
      layers as `coopvec.matvec` ops with scalar code between them in the
      CPU runtime's order: `F32`/`F16` networks read each layer's input as
      `F32`, add the bias, apply ReLU (`x > 0 ? x : 0`); `I8` networks
      scale the row by `input_scale`, take each layer's exact sum plus bias
      as `f32`, apply ReLU and the row's requant scale, and the next layer
      reads that as `U8` after a ReLU, else `I8`; `exp` is `math.exp`.
      `BF16` networks are a located error.

    Everything the lowering does not cover (other interpretations and ops,
    `BF16` networks, `bf16` vectors, batches of two dynamic row counts, M
    or K of a matrix-vector product above 4096) is
    a located error. Run `coopvec-check-support{profile=vulkan1.3}` first
    (`coopvec-vulkan-pipeline` does).
  }];
  let dependentDialects = ["arith::ArithDialect", "gpu::GPUDialect",
                           "math::MathDialect", "memref::MemRefDialect",
                           "scf::SCFDialect", "spirv::SPIRVDialect",
                           "vector::VectorDialect"];
  let options = [
    Option<"fma", "fma", "bool", /*default=*/"false",
           "Float products with GL.Fma (default: multiply then add with "
           "NoContraction, bit-identical to the CPU reference)">,
    ListOption<"workgroupSize", "workgroup-size", "int32_t",
               "Workgroup size (x[,y[,z]]) of kernels whose size neither "
               "known_block_size nor their launches give">
  ];
}

def CoopVecConvertGPUToSPIRV : Pass<"coopvec-convert-gpu-to-spirv", "ModuleOp"> {
  let summary = "convert-gpu-to-spirv for Vulkan, with memref.generic_atomic_rmw "
                "as a compare-and-swap loop";
  let description = [{
    Upstream `convert-gpu-to-spirv{map-memory-space=true}` for Vulkan (a
    `spirv.module` made from a copy of each `gpu.module`, placed before it),
    plus one pattern upstream lacks: `memref.generic_atomic_rmw` on a 32-bit
    element becomes a loop around `OpAtomicCompareExchange` (device scope,
    relaxed), which is how `convert-coopvec-to-spirv` adds floats
    atomically: core Vulkan 1.3 has integer atomics only.

    `bf16` is carried as its 16 bits (Vulkan 1.3 has no bf16): bf16 scalars,
    vectors and memrefs convert as `i16` ones, so a bf16 memref is an `i16`
    array of stride 2 and loads, stores, `arith.bitcast` and `arith.select`
    move the bits unchanged. (MLIR 22's converter alone makes a bf16 memref
    an array of 4-byte `f32`, which reads the host's 2-byte elements
    wrongly.) An arith or math op that computes on bf16 values is a located
    error.
  }];
  let dependentDialects = ["spirv::SPIRVDialect"];
}

def CoopVecNestSPIRVModules : Pass<"coopvec-nest-spirv-modules", "ModuleOp"> {
  let summary = "Move each spirv.module that convert-gpu-to-spirv made for "
                "a gpu.module into it, for gpu-module-to-binary";
  let description = [{
    `convert-gpu-to-spirv` puts `spirv.module @__spv__<name>` next to
    `gpu.module @<name>`; `gpu-module-to-binary` serializes the one inside.
    This pass moves it there (the `gpu.func`s stay until the binary replaces
    the module, so `gpu.launch_func` still verifies) and sets the module's
    SPIR-V version back to its target environment's: `spirv-update-vce`
    may lower it below 1.4, where an entry point's interface cannot list
    the storage buffers Vulkan binds.
  }];
  let dependentDialects = ["gpu::GPUDialect", "spirv::SPIRVDialect"];
}

def CoopVecVulkanLaunchArgs : Pass<"coopvec-vulkan-launch-args", "ModuleOp"> {
  let summary = "Pass the arguments of gpu.launch_func on SPIR-V binaries "
                "as (size, address) pairs for the Vulkan runtime";
  let description = [{
    A Vulkan compute shader binds kernel argument `i` as the storage buffer
    at descriptor set 0, binding `i` (`convert-gpu-to-spirv`), so the host
    runtime (`libcoopvec_vulkan_runtime.so`) needs each buffer's extent,
    which the memref descriptors that `gpu-to-llvm` passes do not say
    (and its `intersperse-sizes-for-kernels` needs static shapes). This
    pass rewrites each `gpu.launch_func` whose kernel module is a
    `gpu.binary` for a `#spirv.target_env` so that every argument becomes
    two `i64`s, `(tag, value)`:

    * a memref (contiguous: identity layout, or strides that the kernel's
      identity layout matches): `tag` = its size in bytes, `value` = the
      address of its first element;
    * an `index`, `i32` or `f32` scalar: `tag` = -4 and the bits in
      `value` (`index` truncated to the kernel's 32-bit index); an `i64` or
      `f64`: `tag` = -8.

    Other arguments (memrefs of `index`, 8/16-bit scalars) are a located
    error.
  }];
  let dependentDialects = ["arith::ArithDialect", "gpu::GPUDialect",
                           "memref::MemRefDialect"];
}

#endif // LINALGCOOP_CONVERSION_PASSES_TD
