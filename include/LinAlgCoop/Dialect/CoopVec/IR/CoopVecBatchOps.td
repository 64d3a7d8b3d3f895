//===- CoopVecBatchOps.td - batched and fused cooperative ops --*- tablegen -*-===//
//
// The explicit cooperative forms: many invocations multiplying by the same
// matrix become one matrix-matrix product, and chains of layers one fused
// network. `--coopvec-batch` produces them from per-invocation loops.
//
//===----------------------------------------------------------------------===//

#ifndef LINALGCOOP_DIALECT_COOPVEC_IR_COOPVECBATCHOPS_TD
#define LINALGCOOP_DIALECT_COOPVEC_IR_COOPVECBATCHOPS_TD

// Rows of a 2-D memref are the vectors of a batch; any row stride, unit
// column stride (checked by the lowering when the layout is dynamic).
def CoopVec_VectorBatch : MemRefRankOf<[AnyType], [2]>;

def CoopVec_BatchMatVecOp : CoopVec_Op<"batch_matvec", [DeclareOpInterfaceMethods<CoopVec_SupportRequirementsOpInterface>,
    AttrSizedOperandSegments,
    CoopVec_MatrixOpInterface,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "matrix-vector multiply(-add) of every row of a batch";
  let description = [{
    For every row `i` of `%inputs`, computes what `coopvec.matvec` computes
    for that row as input vector and stores it as row `i` of `%outputs`:
    one matrix, many vectors, i.e. a matrix-matrix product with the same
    interpretation, layout, transpose, stride, bias and signedness rules as
    `coopvec.matvec`. Row `i` of the inputs holds `K` elements (`ceil(K/4)`
    words when packed) and row `i` of the outputs `M`.

    ```mlir
    coopvec.batch_matvec %x as F32, %w[%off] matrix<F32, 64x64, InferencingOptimal>
        bias %b[%boff] as F32 into %y
        : memref<?x64xf32>, memref<?xi8>, memref<?xi8> -> memref<?x64xf32>
    ```

    Rules: those of `coopvec.matvec` applied to the row types; the two
    memrefs have the same number of rows where both are static.

    **Math fidelity.** A `fidelity` clause makes every row the Wormhole
    product of `coopvec.matvec`'s fidelity form (the batch is in0's rows),
    with the same rules; it excludes the quantized form.

    ```mlir
    coopvec.batch_matvec %x as BF16, %w[%c0] matrix<BF16, 64x64, RowMajor> stride %c128
        fidelity<lofi, dst = bf16> into %y
        : memref<?x64xf32>, memref<?xi8> -> memref<?x64xf32>
    ```

    Block-float inputs (`BFP8`, `BFP4`) are `coopvec.matvec`'s, row by row:
    each row of `%inputs` holds the stored bytes of one input (`K` bytes
    for `BFP8`, `ceil(K/2)` for `BFP4`) and the same row of the
    `exponents` memref its `ceil(K/16)` shared exponents (`i8`; the two
    memrefs have the same number of rows where both are static, and the
    lowering checks it where one is dynamic).

    ```mlir
    coopvec.batch_matvec %x as BFP4 exponents %e : memref<?x4xi8>,
        %w[%c0] matrix<BF16, 32x64, RowMajor> stride %c128
        fidelity<hifi4, dst = f32> into %y
        : memref<?x32xi8>, memref<?xi8> -> memref<?x32xf32>
    ```

    **Quantized form (oneDNN int8 matmul with zero points, grouped scales and
    precomputed reductions).** Any of the clauses `weight_zero_points`,
    `weight_scales`, `input_zero_points`, `input_scales` or `reductions`
    makes the op the integer product of oneDNN's quantized matmul. In GEMM
    terms the batch is oneDNN's `M` (rows `b`), the matrix rows are its `N`
    (outputs `n`) and `K` is shared. Each clause names its grouping along
    `K`: `per_tensor` (one value) or `group G` (one value per row and block
    of `G` consecutive `k`; `group K` is one per row: per output channel for
    the weights, per batch row for the inputs). Weight-side values are read
    from a byte buffer at a byte offset, dense and row-major by the
    `M`x`K/G` grid (one value for `per_tensor`); input-side values are 2-D
    memrefs `B`x`K/G` (`1`x`1` for `per_tensor`). With
    `zx(b,k)`, `zw(n,k)`, `sx(b,k)`, `sw(n,k)` the values whose group holds
    `k` (0 and 1 where a clause is absent), `x` the stored inputs and `w`
    the stored weights:

    ```
    acc(b,n,j) = sum over k in compute group j of (x(b,k) - zx(b,k)) * (w(n,k) - zw(n,k))   (exact)
    y(b,n)     = sum over j in increasing order of f32(acc(b,n,j)) * sx(b,j) * sw(n,j)     (f32)
                 + bias(n)
    ```

    where the compute groups are the blocks of the finer of the two scale
    groupings (all of `K` without scales). With `reductions %R`
    (`R(b,g)` = the sum of the stored inputs `x(b,k)` over reduction group
    `g`), the weight zero point is not applied element by element: each
    reduction group contributes `- zw(n,g) * R(b,g)` and, with an input zero
    point, the cross term `+ sum over k in g of zx(b,k) * zw(n,g)`
    (`group_k * zp_src * zp_wei` for one input zero point), which is what
    oneDNN's reference (`ref_matmul_int8`) computes. With the `R` that the
    inputs give, the two forms are equal; `R` is trusted, not checked. Float
    steps are `f32` multiplications and additions in the order written
    (never fused), one rounding to the output type at the end; an `i32`
    output takes no scales and is the exact sum plus an `I32` bias,
    saturated.

    ```mlir
    coopvec.batch_matvec %xq as I8, %w[%c0] matrix<U8, 256x128, RowMajor> stride %c128
        weight_zero_points %zw[%c0] as U8 group 128 : memref<?xi8>
        weight_scales %sw[%c0] as F16 group 128 : memref<?xi8>
        input_scales %sx as F32 group 32 : memref<?x4xf32>
        reductions %r as I32 group 32 : memref<?x4xi32>
        into %y : memref<?x128xi8>, memref<?xi8> -> memref<?x256xf32>
    ```

    Rules of the quantized form (each its own diagnostic): the matrix is
    I8, U8, I4 or U4 and not block-scaled; inputs are `i8` rows read as I8
    or U8; outputs are `f32`, `f16`, `bf16` or `i32` rows (no unsigned
    flags); an `i32` output takes no scales and an `I32` bias, a float
    output an F32, F16 or BF16 bias; zero points are I8, U8 or I32, scales
    F32, F16 or BF16, reductions I32, I8 or U8, and an input-side memref
    holds elements of its interpretation's storage type (`i8`, `i32`,
    `f32`, `f16`, `bf16`) with `K/G` columns (`1`x`1` for `per_tensor`);
    every group size is positive and divides `K`; one scale grouping refines
    the other; reductions need weight zero points, one value per row and
    group (`per_tensor`, a broadcast, is rejected), a grouping that equals
    or refines the weight zero points' grouping (one `R` serves several
    weight matrices of coarser groupings: their zero point multiplies the
    sum of its groups) and that never straddles a compute group.
  }];
  let arguments = (ins
    CoopVec_VectorBatch:$inputs,
    CoopVec_InterpretationAttr:$input_interp,
    UnitAttr:$input_unsigned,
    CoopVec_ByteBuffer:$matrix,
    Index:$matrix_offset,
    Optional<Index>:$matrix_stride,
    CoopVec_MatrixDescAttr:$matrix_desc,
    Optional<CoopVec_ByteBuffer>:$bias,
    Optional<Index>:$bias_offset,
    OptionalAttr<CoopVec_InterpretationAttr>:$bias_interp,
    UnitAttr:$output_unsigned,
    CoopVec_VectorBatch:$outputs,
    Optional<CoopVec_ByteBuffer>:$scales,
    Optional<Index>:$scales_offset,
    // The quantized form: each clause a buffer, an interpretation and a
    // grouping along K (0: per tensor, else the group size).
    Optional<CoopVec_ByteBuffer>:$weight_zero_points,
    Optional<Index>:$weight_zero_points_offset,
    OptionalAttr<CoopVec_InterpretationAttr>:$weight_zero_points_interp,
    OptionalAttr<I64Attr>:$weight_zero_points_group,
    Optional<CoopVec_ByteBuffer>:$weight_scales,
    Optional<Index>:$weight_scales_offset,
    OptionalAttr<CoopVec_InterpretationAttr>:$weight_scales_interp,
    OptionalAttr<I64Attr>:$weight_scales_group,
    Optional<CoopVec_VectorBatch>:$input_zero_points,
    OptionalAttr<CoopVec_InterpretationAttr>:$input_zero_points_interp,
    OptionalAttr<I64Attr>:$input_zero_points_group,
    Optional<CoopVec_VectorBatch>:$input_scales,
    OptionalAttr<CoopVec_InterpretationAttr>:$input_scales_interp,
    OptionalAttr<I64Attr>:$input_scales_group,
    Optional<CoopVec_VectorBatch>:$reductions,
    OptionalAttr<CoopVec_InterpretationAttr>:$reductions_interp,
    OptionalAttr<I64Attr>:$reductions_group,
    OptionalAttr<CoopVec_MathFidelityAttr>:$fidelity,
    Optional<CoopVec_VectorBatch>:$input_exponents
  );
  let assemblyFormat = [{
    $inputs (`unsigned` $input_unsigned^)? `as` custom<Interp>($input_interp)
    (`exponents` $input_exponents^ `:` type($input_exponents))? `,`
    $matrix `[` $matrix_offset `]` `matrix` `` $matrix_desc
    (`stride` $matrix_stride^)?
    (`scales` $scales^ `[` $scales_offset `]` `:` type($scales))?
    (`weight_zero_points` $weight_zero_points^ `[` $weight_zero_points_offset `]`
     `as` custom<OptionalInterp>($weight_zero_points_interp)
     custom<Grouping>($weight_zero_points_group) `:` type($weight_zero_points))?
    (`weight_scales` $weight_scales^ `[` $weight_scales_offset `]`
     `as` custom<OptionalInterp>($weight_scales_interp)
     custom<Grouping>($weight_scales_group) `:` type($weight_scales))?
    (`input_zero_points` $input_zero_points^
     `as` custom<OptionalInterp>($input_zero_points_interp)
     custom<Grouping>($input_zero_points_group) `:` type($input_zero_points))?
    (`input_scales` $input_scales^
     `as` custom<OptionalInterp>($input_scales_interp)
     custom<Grouping>($input_scales_group) `:` type($input_scales))?
    (`reductions` $reductions^
     `as` custom<OptionalInterp>($reductions_interp)
     custom<Grouping>($reductions_group) `:` type($reductions))?
    (`bias` $bias^ `[` $bias_offset `]` `as` custom<OptionalInterp>($bias_interp))?
    (`unsigned_result` $output_unsigned^)? (`fidelity` `` $fidelity^)?
    `into` $outputs attr-dict `:` type($inputs) `,` type($matrix) (`,` type($bias)^)?
    `->` type($outputs)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    bool writesMatrix() { return false; }
    /// Whether any quantization clause is present (the quantized form).
    bool isQuantized() {
      return getWeightZeroPoints() || getWeightScales() ||
             getInputZeroPoints() || getInputScales() || getReductions();
    }
    /// One input-side clause of the quantized form: a B x K/G memref (per
    /// tensor, its element (0, 0) serves every row); `values` null when
    /// the clause is absent.
    struct InputSideClause {
      ::mlir::Value values;
      ::mlir::coopvec::InterpretationAttr interp;
      ::mlir::IntegerAttr group;
    };
    /// The input zero points, the input scales and the reductions, in that
    /// order.
    std::array<InputSideClause, 3> getInputSideClauses() {
      return {{{getInputZeroPoints(), getInputZeroPointsInterpAttr(),
                getInputZeroPointsGroupAttr()},
               {getInputScales(), getInputScalesInterpAttr(),
                getInputScalesGroupAttr()},
               {getReductions(), getReductionsInterpAttr(),
                getReductionsGroupAttr()}}};
    }
  }];
}

def CoopVec_QuantizeRowsOp : CoopVec_Op<"quantize_rows", [
    AttrSizedOperandSegments,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "dynamic quantization of float rows to I8/U8 with per-group "
                "scales, zero points and reductions";
  let description = [{
    Quantizes every row of `%inputs` (`f32` or `f16`) in blocks of `group`
    consecutive elements and writes the stored integers to `%outputs`
    (`i8` rows read as I8 or U8, as the `as` clause says), one scale per row
    and block to `%scales` (`f32`, `f16` or `bf16`; the value the block is
    divided by, rounded to that type first, so that the stored scale is the
    one used), optionally one zero point per block to `%zero_points`, and
    optionally, in the same sweep, the reduction `R(b,g)` (the sum of the
    stored integers of the block, `i32`) to `%reductions`: the operands a
    quantized `coopvec.batch_matvec` takes.

    Per block, in `f32`: symmetric I8 (no zero points):
    `s = max|x| / 127`, `q = clamp(rtne(x / s), -127, 127)`; asymmetric U8
    (zero points required): `lo = min(min x, 0)`, `hi = max(max x, 0)`,
    `s = (hi - lo) / 255`, `z = clamp(rtne(-lo / s), 0, 255)`,
    `q = clamp(rtne(x / s) + z, 0, 255)`. A block of zeros gets `s = 1`
    (and `z = 0`); NaN inputs quantize to 0.

    ```mlir
    coopvec.quantize_rows %x : memref<?x4096xf32> group 128 as U8
        into %q : memref<?x4096xi8> scales %s : memref<?x32xf32>
        zero_points %z : memref<?x32xi32> reductions %r : memref<?x32xi32>
    ```

    Rules: inputs are `f32` or `f16` rows, outputs `i8` rows of the same
    length; the group divides the row length; scales, zero points and
    reductions have `length / group` columns; scales are `f32`, `f16` or
    `bf16`, zero points and reductions `i32`; U8 needs zero points and I8
    takes none; where static, all memrefs have the same number of rows.
  }];
  let arguments = (ins
    CoopVec_VectorBatch:$inputs,
    I64Attr:$group,
    CoopVec_InterpretationAttr:$output_interp,
    CoopVec_VectorBatch:$outputs,
    CoopVec_VectorBatch:$scales,
    Optional<CoopVec_VectorBatch>:$zero_points,
    Optional<CoopVec_VectorBatch>:$reductions
  );
  let assemblyFormat = [{
    $inputs `:` type($inputs) `group` $group `as` custom<Interp>($output_interp)
    `into` $outputs `:` type($outputs) `scales` $scales `:` type($scales)
    (`zero_points` $zero_points^ `:` type($zero_points))?
    (`reductions` $reductions^ `:` type($reductions))? attr-dict
  }];
  let hasVerifier = 1;
}

def CoopVec_MLPOp : CoopVec_Op<"mlp", [DeclareOpInterfaceMethods<CoopVec_SupportRequirementsOpInterface>,
    AttrSizedOperandSegments,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "a fused chain of multiply-add layers over a batch";
  let description = [{
    Evaluates a multi-layer perceptron on every row of `%inputs` and stores
    the result rows in `%outputs`:

    ```
    h0 = row i of inputs;  h(l+1) = act_l(W_l h_l + b_l);  row i = h(L) (or exp(h(L)))
    ```

    where layer `l` reads its matrix `W_l` like `coopvec.matvec` does
    (input interpretation F32; BF16 for BF16 weights: each layer's input,
    the row itself and every intermediate activation, is rounded to bf16 to
    nearest even, a finite value beyond the range to +-MAX_NORM, and the
    exact products are summed in `f32`), adds its optional bias and applies
    its activation. Intermediate activations never go to memory: a target
    evaluates the chain as one fused kernel. On the CPU, BF16 layers run on
    AMX tiles (Intel CPUs with AMX-BF16) or `vdpbf16ps` where it is faster
    than `f32` FMAs (AMD CPUs with AVX-512 BF16); the summation order, and
    so the last bits, depend on the path.

    ```mlir
    coopvec.mlp %x layers [
        %w[%o0] matrix<F32, 64x9, InferencingOptimal> stride %c0 bias %b[%b0] relu,
        %w[%o1] matrix<F32, 3x64, InferencingOptimal> stride %c0 bias %b[%b1] none]
      exp into %y : memref<?x9xf32>, memref<?x3xf32>,
                    memref<?xi8>, memref<?xi8>, memref<?xi8>, memref<?xi8>
    ```

    I8 weights make a quantized network (symmetric int8, the scheme of the
    runtime's `coopvecMlpForward`): the row is quantized with the `f32`
    `input_scale` (`q = sat_s8(rtne(x * input_scale))`), each layer sums
    exact `i32` products plus its I32 bias (accumulator units), applies its
    activation and multiplies row `r` by `requant[r]`, the layer's `M` f32
    scales read from `%s[%off]`; a hidden layer rounds that to nearest even
    and saturates it to the next layer's input, u8 [0, 255] after a ReLU and
    s8 otherwise, the last layer's products are the `f32` results (before
    `exp`). Every product is rounded to `f32`; NaN quantizes to 0. On the
    CPU, I8 layers run on AMX tiles (AMX-INT8), `vpdpbusd` (AVX-512 VNNI)
    or `vpmaddwd`, all to the same bit.

    ```mlir
    coopvec.mlp %x layers [
        %w[%o0] matrix<I8, 64x12, RowMajor> stride %c16 bias %b[%b0] relu requant %s[%s0],
        %w[%o1] matrix<I8, 3x64, RowMajor> stride %c64 bias %b[%b1] none requant %s[%s1]]
      input_scale %q exp into %y
      : memref<?x12xf32>, memref<?x3xf32>, memref<?xi8>, memref<?xi8>,
        memref<?xi8>, memref<?xi8>, memref<?xi8>, memref<?xi8>
    ```

    (one type per weight, bias and requant operand, in that order, even
    where they name the same buffer).

    Rules: inputs and outputs are `f32` rows of the first layer's `K` and
    the last layer's `M` elements; each layer's `K` is the previous layer's
    `M`; every layer's weights are F32, or every layer's F16, or every
    layer's BF16, or every layer's I8; biases are F32 (I32 for I8 weights);
    I8 networks have an `input_scale` (a positive finite constant where it
    is one) and a `requant` buffer per layer, float networks neither; the
    `coopvec.matvec` rules for layout, transpose, stride and offsets hold
    per layer; bias offsets are multiples of 64 bytes, requant offsets of 4.
  }];
  let arguments = (ins
    CoopVec_VectorBatch:$inputs,
    Variadic<CoopVec_ByteBuffer>:$weights,
    Variadic<Index>:$weight_offsets,
    Variadic<Index>:$weight_strides,
    Variadic<CoopVec_ByteBuffer>:$biases,
    Variadic<Index>:$bias_offsets,
    Optional<F32>:$input_scale,
    Variadic<CoopVec_ByteBuffer>:$requant_scales,
    Variadic<Index>:$requant_offsets,
    TypedArrayAttrBase<CoopVec_MatrixDescAttr, "matrix descriptors">:$matrices,
    DenseI64ArrayAttr:$bias_layers,
    DenseI32ArrayAttr:$activations,
    UnitAttr:$output_exp,
    CoopVec_VectorBatch:$outputs
  );
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    unsigned getNumLayers() { return getMatrices().size(); }
    MatrixDescAttr getLayerDesc(unsigned l) {
      return ::llvm::cast<MatrixDescAttr>(getMatrices()[l]);
    }
    /// The bias operand index of layer `l`, if it has one.
    std::optional<unsigned> getBiasIndex(unsigned l);
  }];
}

#endif // LINALGCOOP_DIALECT_COOPVEC_IR_COOPVECBATCHOPS_TD
