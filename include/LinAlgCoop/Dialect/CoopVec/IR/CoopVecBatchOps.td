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
    Optional<Index>:$scales_offset
  );
  let assemblyFormat = [{
    $inputs (`unsigned` $input_unsigned^)? `as` custom<Interp>($input_interp) `,`
    $matrix `[` $matrix_offset `]` `matrix` `` $matrix_desc
    (`stride` $matrix_stride^)?
    (`scales` $scales^ `[` $scales_offset `]` `:` type($scales))?
    (`bias` $bias^ `[` $bias_offset `]` `as` custom<OptionalInterp>($bias_interp))?
    (`unsigned_result` $output_unsigned^)? `into` $outputs
    attr-dict `:` type($inputs) `,` type($matrix) (`,` type($bias)^)?
    `->` type($outputs)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    bool writesMatrix() { return false; }
  }];
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
    (input interpretation F32), adds its optional bias and applies its
    activation. Intermediate activations stay `f32` and never go to memory:
    a target evaluates the chain as one fused kernel.

    ```mlir
    coopvec.mlp %x layers [
        %w[%o0] matrix<F32, 64x9, InferencingOptimal> stride %c0 bias %b[%b0] as F32 relu,
        %w[%o1] matrix<F32, 3x64, InferencingOptimal> stride %c0 bias %b[%b1] as F32 none]
      exp into %y : memref<?x9xf32>, memref<?x3xf32>
    ```

    Rules: inputs and outputs are `f32` rows of the first layer's `K` and
    the last layer's `M` elements; each layer's `K` is the previous layer's
    `M`; every layer's weights are F32, or every layer's F16; biases are
    F32; the `coopvec.matvec` rules for layout, transpose, stride and
    offsets hold per layer.
  }];
  let arguments = (ins
    CoopVec_VectorBatch:$inputs,
    Variadic<CoopVec_ByteBuffer>:$weights,
    Variadic<Index>:$weight_offsets,
    Variadic<Index>:$weight_strides,
    Variadic<CoopVec_ByteBuffer>:$biases,
    Variadic<Index>:$bias_offsets,
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
