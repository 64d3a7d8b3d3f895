//===- CoopVecAttrs.td - coopvec attribute definitions ---------*- tablegen -*-===//

#ifndef LINALGCOOP_DIALECT_COOPVEC_IR_COOPVECATTRS_TD
#define LINALGCOOP_DIALECT_COOPVEC_IR_COOPVECATTRS_TD

include "LinAlgCoop/Dialect/CoopVec/IR/CoopVecBase.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"

class CoopVec_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<CoopVec_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

//===----------------------------------------------------------------------===//
// InterpretationAttr
//===----------------------------------------------------------------------===//

def CoopVec_InterpretationAttr : CoopVec_Attr<"Interpretation", "interp"> {
  let summary = "how the elements of a vector or matrix are read";
  let description = [{
    An interpretation is an MLIR element type plus what reading it adds:
    whether an integer is unsigned, and whether 8-bit values are packed four
    to a 32-bit word. It prints as a name; the DXIL names are kept, and the
    element types DXIL cannot express have names of their own:

    | name | element type | | name | element type |
    |------|--------------|-|------|--------------|
    | `I16`, `U16` | `i16` (signed, unsigned) | | `BF16` | `bf16` |
    | `I32`, `U32` | `i32` | | `F8_E4M3` | `f8E4M3FN` |
    | `I8`, `U8` | `i8` | | `F8_E5M2` | `f8E5M2` |
    | `PackedS8x32`, `PackedU8x32` | `i8`, four per `i32` word | | `F6_E2M3` | `f6E2M3FN` |
    | `I4`, `U4` | `i4` | | `F6_E3M2` | `f6E3M2FN` |
    | `F16`, `F32` | `f16`, `f32` | | `F4_E2M1` | `f4E2M1FN` |
    | `BFP8` | `i8`, block float | | `BFP4` | `i4`, block float |

    The builtin type is accepted in place of the name (`bf16`, `f4E2M1FN`,
    `i8`/`si8` for `I8`, `ui4` for `U4`); the name is what prints.

    `BFP8` and `BFP4` are Tenstorrent's block-float formats (Bfp8_b,
    Bfp4_b): a sign-magnitude datum (sign, then 7 or 3 magnitude bits) per
    element, and an 8-bit exponent shared by a block of 16 elements, which
    a matrix gives as its block scales (`scale f8E8M0FNU block 16`) and an
    input of a matrix-vector product as its `exponents` clause. They are
    read by the Wormhole unpacker only (ops with a math-fidelity clause).

    ```mlir
    #coopvec.interp<F16>
    #coopvec.interp<f6E2M3FN>   // prints as #coopvec.interp<F6_E2M3>
    ```

    In memory, an element takes its type's width in bytes, except: `F6_E2M3`
    and `F6_E3M2` take one byte each (the value in the low six bits, the upper
    two ignored when read and zero when written: PTX's 8-bit containers of
    `kind::f8f6f4`), and `I4`, `U4` and `F4_E2M1` take half a byte: two
    adjacent stored columns share a byte, the even column in the low nibble
    (PTX's `.e2m1x2`), so a 4-bit matrix is laid out as the byte matrix of
    its column pairs.

    Which interpretation a DXIL `ComponentType` number stands for is the DXIL
    conversion's business; the CPU runtime has its own element codes.
  }];
  let parameters = (ins
    "::mlir::Type":$elementType,
    DefaultValuedParameter<"bool", "false">:$isUnsigned,
    DefaultValuedParameter<"bool", "false">:$packed,
    DefaultValuedParameter<"bool", "false">:$blockFloat
  );
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let builders = [
    AttrBuilderWithInferredContext<(ins "::mlir::Type":$elementType,
        CArg<"bool", "false">:$isUnsigned, CArg<"bool", "false">:$packed,
        CArg<"bool", "false">:$blockFloat), [{
      return $_get(elementType.getContext(), elementType, isUnsigned, packed,
                   blockFloat);
    }]>
  ];
  let skipDefaultBuilders = 0;
  let extraClassDeclaration = [{
    /// The named interpretation this is (every valid one has a name).
    InterpKind getKind() const;
    /// Its name: "F16", "PackedS8x32", "F4_E2M1", ...
    ::llvm::StringRef getName() const;
    static InterpretationAttr get(::mlir::MLIRContext *ctx, InterpKind kind);
    bool isFloat() const;
    bool isFloat8() const;
    /// Bits of one element in memory: 4 (I4, U4, F4_E2M1), 8 (F6 types use
    /// a byte), 16 or 32 (a packed 32-bit word counts as one element).
    unsigned getStorageBits() const;
    bool isSubByte() const { return getStorageBits() < 8; }
    /// Whether DXIL SM 6.9 names this interpretation.
    bool isDxil() const;
    /// Whether this is a Tenstorrent block-float format (BFP8, BFP4).
    bool isBlockFloat() const { return getBlockFloat(); }
  }];
}

/// An interpretation parameter printed as its bare name (`input = F16`).
def CoopVec_InterpParameter
    : AttrParameter<"::mlir::coopvec::InterpretationAttr", "an interpretation"> {
  let parser = "::mlir::coopvec::parseInterpretationName($_parser)";
  let printer = "$_printer << $_self.getName()";
}

//===----------------------------------------------------------------------===//
// MatrixDescAttr
//===----------------------------------------------------------------------===//

def CoopVec_MatrixDescAttr : CoopVec_Attr<"MatrixDesc", "matrix"> {
  let summary = "how to read a matrix stored in a byte buffer";
  let description = [{
    Describes a matrix that lives in memory: its interpretation (element
    type), its shape `M`x`K` (`M` rows, the length of a matrix-vector
    product's result; `K` columns, the length of its input), its layout and
    whether it is transposed before use. Where it lives (buffer, byte offset,
    byte stride) is given by SSA operands of the op that uses it.

    ```mlir
    #coopvec.matrix<F16, 32x16, RowMajor>
    #coopvec.matrix<I8, 64x32, InferencingOptimal, transpose>
    #coopvec.matrix<F16, 8x8, OuterProductOptimal>   // alias of TrainingOptimal
    ```

    With `transpose`, memory holds the `K`x`M` matrix in the given layout and
    it is transposed before the multiply. `MulOptimal` and
    `OuterProductOptimal` (the SM 6.10 names) are accepted as aliases of
    `InferencingOptimal` and `TrainingOptimal`.

    The interpretation may be any non-packed one, including those DXIL
    lacks (`BF16`, `F6_E2M3`, `F6_E3M2`, `F4_E2M1`, `I4`, `U4`; see
    `#coopvec.interp` for how they are stored). Layouts, strides and sizes of
    a 4-bit matrix are those of the byte matrix of its column pairs.

    **Block scales** (OCP MX and NVFP4). `scale T block B` makes every run
    of `B` consecutive elements along `K` of a row share one scale of type
    `T`, read from a separate scale buffer that the op names:

    ```mlir
    #coopvec.matrix<F4_E2M1, 64x128, RowMajor, scale f8E8M0FNU block 32>   // MXFP4
    #coopvec.matrix<F8_E4M3, 64x128, InferencingOptimal, scale f8E8M0FNU block 32> // MXFP8
    #coopvec.matrix<F4_E2M1, 64x128, RowMajor, scale f8E4M3FN block 16>    // NVFP4
    ```

    * Schemes (PTX 8.7 `mma.sync ... .block_scale`): `f8E8M0FNU` (UE8M0)
      scales with blocks of 32 of `F8_E4M3`, `F8_E5M2`, `F6_E2M3`,
      `F6_E3M2` or `F4_E2M1` elements (MXFP8, MXFP6, MXFP4;
      `scale_vec::1X`/`2X`), or with blocks of 16 `F4_E2M1` elements
      (`kind::mxf4nvf4`, `scale_vec::4X`); `f8E4M3FN` scales holding UE4M3
      values with blocks of 16 `F4_E2M1` elements (NVFP4); and
      `f8E8M0FNU` x 16 over `BFP8` and `BFP4`, where the scales are the
      block-float formats' shared exponents (required: a block-float
      element means nothing without one).
    * Scale storage: one byte per (row, block), dense and row-major by the
      logical `M`x`ceil(K/B)` grid, whatever the matrix's layout or
      transpose: the scale of logical element `(m, k)` is byte
      `m * ceil(K/B) + k / B` after the scale offset. A final partial block
      has a scale of its own.
    * Value: logical element `(m, k)` is `decode(e) * decode(s)`, with `s`
      read exactly as `coopvec.mx_dequantize` reads it: UE8M0 `s` is
      `2^(s-127)` and `0xFF` is NaN; UE4M3 `s` is its unsigned E4M3 value
      and `0x7F` is NaN. The product is exact in `f32` (a power-of-two shift,
      or at most 2 x 4 significand bits), except that it overflows to
      infinity where `f32` cannot hold it.
    * A matrix-vector product then computes, for each row, `f32` products
      of the scaled element and the input value, summed in increasing `k`
      order starting from `+0.0` (multiply, then add: no fused
      multiply-add), adds the bias and rounds once to the result type. PTX
      leaves the internal precision of its block-scaled MMA unspecified;
      this is the order the CPU target and the tests use, and a target that
      sums differently must state its bound.
    * Block floats are read by the Wormhole unpacker only (ops with a
      math-fidelity clause): each datum with its exponent decodes to the
      BF16 value of the ISA's `BFP8ToBF16` (`docs/WormholeFidelity.md`),
      which reads the exponent byte 0xFF as the binade 2^128, not NaN.

    Rules: `M` and `K` are in [1, 65536]; the interpretation is one that a
    matrix in memory can have (not a packed one); a block scale is one of
    the schemes above.
  }];
  let parameters = (ins
    CoopVec_InterpParameter:$interpretation,
    "int64_t":$rows,
    "int64_t":$cols,
    EnumParameter<CoopVec_MatrixLayout>:$layout,
    DefaultValuedParameter<"bool", "false">:$transpose,
    OptionalParameter<"::mlir::Type">:$scale_type,
    DefaultValuedParameter<"int64_t", "0">:$block_size
  );
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Bytes of one layout unit: an element, or for 4-bit interpretations
    /// the byte that holds a pair of adjacent stored columns.
    unsigned getElementBytes() const;
    /// Stored columns counted in layout units: the stored columns, or for
    /// 4-bit interpretations ceil(stored columns / 2) column pairs.
    int64_t getStoredUnitCols() const;
    /// Whether the layout is RowMajor or ColumnMajor (uses the stride).
    bool isStrided() const;
    /// Whether the layout is one of the two optimal layouts.
    bool isOptimal() const { return !isStrided(); }
    /// Rows and columns of the matrix as it is stored in memory.
    int64_t getStoredRows() const { return getTranspose() ? getCols() : getRows(); }
    int64_t getStoredCols() const { return getTranspose() ? getRows() : getCols(); }
    /// Smallest legal stride in bytes of a strided layout: one stored row
    /// (RowMajor) or column (ColumnMajor).
    int64_t getMinStride() const;
    /// Whether elements share block scales (scale_type and block_size set).
    bool isBlockScaled() const { return static_cast<bool>(getScaleType()); }
    /// Scales per row: ceil(K / block size); 0 without block scales.
    int64_t getScalesPerRow() const {
      return isBlockScaled() ? (getCols() + getBlockSize() - 1) / getBlockSize()
                             : 0;
    }
  }];
}

//===----------------------------------------------------------------------===//
// MathFidelityAttr
//===----------------------------------------------------------------------===//

def CoopVec_MathFidelityAttr : CoopVec_Attr<"MathFidelity", "math_fidelity"> {
  let summary = "Tenstorrent Wormhole compute configuration of a matrix op";
  let description = [{
    Says that a matrix op computes as the Wormhole B0 matrix unit (FPU) and
    packer do, bit for bit (the runtime model of `docs/WormholeFidelity.md`):

    * the fidelity, `lofi`, `hifi2`, `hifi3` or `hifi4`: the multipliers
      take 5 significand bits of SrcA and 7 of SrcB per phase, and the
      fidelity runs 1, 2, 3 or 4 phases (tt-metal's `MathFidelity`);
    * `dst`: the Dst register format, `f32` (`fp32_dest_acc_en`) or `bf16`
      (Float16_b); Dst is rounded to it after every 16-wide product chunk
      of every phase;
    * `pack` (optional): the packer's L1 output format, `f32` or `bf16`;
      left out, it is the Dst format (the packer converts nothing);
    * `l1_acc` (optional): packer L1 accumulation (`packer_l1_acc`): each
      packed datum is added to the value in L1, rounded to the L1 format.
      The L1 buffer starts from the op's bias (or zero);
    * `k_block = B` (optional, with `l1_acc` only): `K` is accumulated in
      Dst in blocks of `B` (a multiple of 32) elements, each packed and
      accumulated in L1 in turn, as ttnn's matmul does with
      `packer_l1_acc`; without it all of `K` is one Dst block.

    ```mlir
    #coopvec.math_fidelity<hifi4, dst = f32>
    #coopvec.math_fidelity<hifi2, dst = f32, pack = bf16, l1_acc, k_block = 64>
    ```

    Operand roles follow the hardware: in a matrix-vector product the input
    vector (the activation, tt-metal's in0) is unpacked to SrcB and the
    matrix (in1) to SrcA. `BF16` operands are unpacked as BF16, `F32`
    operands are truncated to TF32.

    Rules (verifier): `dst` and `pack` are `f32` or `bf16`; `k_block` is a
    positive multiple of 32 and needs `l1_acc`. The ops that carry the
    attribute state their own operand rules.
  }];
  let parameters = (ins
    EnumParameter<CoopVec_MathFidelity>:$fidelity,
    "::mlir::Type":$dst,
    OptionalParameter<"::mlir::Type">:$pack,
    DefaultValuedParameter<"bool", "false">:$l1_acc,
    DefaultValuedParameter<"int64_t", "0">:$k_block
  );
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Phases per product: 1 (LoFi) to 4 (HiFi4).
    unsigned getPhases() const {
      return static_cast<unsigned>(getFidelity()) + 1;
    }
    /// Whether the attribute sets anything of the packer (pack, l1_acc,
    /// k_block).
    bool hasPackerSettings() const {
      return static_cast<bool>(getPack()) || getL1Acc() || getKBlock();
    }
    /// The L1 format the packer writes: `pack`, or the Dst format when
    /// `pack` is left out.
    ::mlir::Type getL1Format() const {
      return getPack() ? getPack() : getDst();
    }
  }];
}

//===----------------------------------------------------------------------===//
// Support profiles
//===----------------------------------------------------------------------===//

/// An interpretation a profile row may leave out: absent means "any".
def CoopVec_OptionalInterpParameter
    : AttrParameter<"::mlir::coopvec::InterpretationAttr", "an interpretation"> {
  let parser = "::mlir::coopvec::parseInterpretationName($_parser)";
  let printer = "$_printer << $_self.getName()";
  let defaultValue = "::mlir::coopvec::InterpretationAttr()";
}

/// A tier that defaults to tier1_1 (gates nothing) where left out.
def CoopVec_TierParameter : EnumParameter<CoopVec_SupportTier> {
  let defaultValue = "::mlir::coopvec::SupportTier::Tier1_1";
}

def CoopVec_MatVecSupportAttr : CoopVec_Attr<"MatVecSupport", "matvec_support"> {
  let summary = "one supported matrix-vector / matrix-matrix combination of a profile";
  let description = [{
    One row of a profile's matrix property list: the analog of
    `D3D12_COOPERATIVE_VECTOR_PROPERTIES_INFERENCE` and of a row of SPIR-V's
    `#spirv.coop_matrix_props_khr`. `input` is the physical input type
    (`PackedS8x32`/`PackedU8x32` for packed words, with `input_interp` the
    packed element type), `input_interp` how the input is read (SPIR-V's
    `a_type`), `matrix` the matrix interpretation (`b_type`), `bias` the
    addend/accumulator (`c_type`) and `output` the physical result type
    (`result_type`). `transpose` says whether a transposed matrix is
    supported.

    An interpretation left out matches any: `#coopvec.matvec_support<transpose = true>`
    accepts every combination the ops' verifiers accept (the `cpu-host`
    profile says so for its reference implementation).

    `tiles` lists the hardware tile shapes `[m, n, k]` (as
    `array<i64: m, n, k>`) an MMA-style target executes the combination
    with: `m` rows of the matrix, `n` vectors (columns of the batch), `k`
    the reduction length. A target without tiles (D3D12, the CPU) leaves it
    out; a tiling pass asks `getTileShapes(profile, ...)`.

    ```mlir
    #coopvec.matvec_support<input = F32, input_interp = I8, matrix = I8,
                            bias = I32, output = I32, transpose = false>
    #coopvec.matvec_support<input = F16, input_interp = F16, matrix = F16,
                            bias = F32, output = F32,
                            tiles = [array<i64: 16, 8, 16>, array<i64: 16, 8, 8>]>
    ```

    Rules (checked by the profile's verifier): each tile has three positive
    sizes.
  }];
  let parameters = (ins
    CoopVec_OptionalInterpParameter:$input,
    CoopVec_OptionalInterpParameter:$input_interp,
    CoopVec_OptionalInterpParameter:$matrix,
    CoopVec_OptionalInterpParameter:$bias,
    CoopVec_OptionalInterpParameter:$output,
    DefaultValuedParameter<"bool", "false">:$transpose,
    OptionalParameter<"::mlir::ArrayAttr">:$tiles
  );
  let assemblyFormat = "`<` struct(params) `>`";
  let extraClassDeclaration = [{
    /// The tile shapes [m, n, k] of the row (empty where it lists none).
    ::llvm::SmallVector<::llvm::SmallVector<int64_t, 3>> getTileShapes() const;
  }];
}

def CoopVec_AccumSupportAttr : CoopVec_Attr<"AccumSupport", "accum_support"> {
  let summary = "one supported accumulation combination of a profile";
  let description = [{
    One row of a profile's outer-product or vector-accumulate property list,
    the analog of `D3D12_COOPERATIVE_VECTOR_PROPERTIES_TRAINING`. An
    interpretation left out matches any.

    ```mlir
    #coopvec.accum_support<input = F16, accumulation = F32>
    ```
  }];
  let parameters = (ins
    CoopVec_OptionalInterpParameter:$input,
    CoopVec_OptionalInterpParameter:$accumulation
  );
  let assemblyFormat = "`<` struct(params) `>`";
}

def CoopVec_ProfileAttr : CoopVec_Attr<"Profile", "profile"> {
  let summary = "what a target can execute: one shape of data for every target";
  let description = [{
    A support profile is data, one shape for every target, modelled on
    SPIR-V's cooperative-matrix properties (rows of types and sizes) and on
    NVVM's SM requirements (base `sm_90`, family `sm_100f`, arch-accelerated
    `sm_120a`):

    * `name`: what diagnostics call it.
    * `kind` (optional): the target kind, one of `d3d12`, `cpu`, `nvptx`,
      `riscv`, `vulkan`, `tenstorrent`.
    * `arch` (optional): the architecture; for `nvptx` an SM name
      `sm_<N>`, `sm_<N>a` or `sm_<N>f`.
    * `tier`: D3D12's `CheckFeatureSupport` tier (default `tier1_1`, which
      gates nothing). `none` supports no op that states a requirement;
      below `tier1_1` no outer-product or vector accumulation.
    * `features` (optional): strings naming capabilities that ops require
      besides the rows: `batch_matvec`, `mlp`, `convert`, `pack`, `mx`
      (the ops of those names), the element families `bf16`, `tf32`,
      `fp8`, `fp6`, `fp4`, `e8m0` that numerics ops use, and
      target-specific ones (`mma.sync`, `mma.f8f6f4`, `mma.block_scale`,
      `tcgen05`, `int_dot_product`, `storage8`, ...). The list for each
      builtin profile is in `--coopvec-check-support`'s description.
    * `matvec`: `#coopvec.matvec_support` rows (types, transpose, tiles).
    * `outer_product`, `vector_accumulate`: `#coopvec.accum_support` rows.
    * Layout rules: `fp8_optimal_only` (FP8 matrices must use an optimal
      layout), `outer_product_training_optimal_only` (outer products
      accumulate only into a `TrainingOptimal` matrix with stride 0).

    `--coopvec-check-support` checks every op against one profile: a
    builtin one named by its `profile` option, or the `coopvec.profile`
    attribute of the enclosing module (a profile, or a builtin profile's
    name). Ops state what they need through `SupportRequirementsOpInterface`;
    nothing is supported by default.

    ```mlir
    #coopvec.profile<name = "my-gpu", tier = tier1_1,
      matvec = [#coopvec.matvec_support<input = F16, input_interp = F16,
                  matrix = F16, bias = F16, output = F16, transpose = true>],
      outer_product = [#coopvec.accum_support<input = F16, accumulation = F32>],
      vector_accumulate = [#coopvec.accum_support<input = F16, accumulation = F16>],
      fp8_optimal_only = true, outer_product_training_optimal_only = true>
    #coopvec.profile<name = "tiny-mma", kind = "nvptx", arch = "sm_80",
      features = ["mma.sync", "batch_matvec"],
      matvec = [#coopvec.matvec_support<input = F16, input_interp = F16,
                  matrix = F16, bias = F32, output = F32,
                  tiles = [array<i64: 16, 8, 16>]>],
      outer_product = [], vector_accumulate = []>
    ```

    Rules (verifier): the name is not empty; `kind` is a known kind; an
    `nvptx` `arch` is `sm_<N>` with an optional `a` or `f`; features are
    non-empty strings; rows have the row attribute types; tiles are
    `array<i64: m, n, k>` of positive sizes; a profile below `tier1_1` lists
    no accumulation rows and one of tier `none` no matrix rows.
  }];
  let parameters = (ins
    "StringAttr":$name,
    OptionalParameter<"StringAttr">:$kind,
    OptionalParameter<"StringAttr">:$arch,
    CoopVec_TierParameter:$tier,
    OptionalParameter<"ArrayAttr">:$features,
    "ArrayAttr":$matvec,
    "ArrayAttr":$outer_product,
    "ArrayAttr":$vector_accumulate,
    DefaultValuedParameter<"bool", "false">:$fp8_optimal_only,
    DefaultValuedParameter<"bool", "false">:$outer_product_training_optimal_only
  );
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Whether `features` lists `feature`.
    bool hasFeature(::llvm::StringRef feature) const;
  }];
}

#endif // LINALGCOOP_DIALECT_COOPVEC_IR_COOPVECATTRS_TD
