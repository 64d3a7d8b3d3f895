//===- CoopVecOps.td - coopvec operation definitions -----------*- tablegen -*-===//

#ifndef LINALGCOOP_DIALECT_COOPVEC_IR_COOPVECOPS_TD
#define LINALGCOOP_DIALECT_COOPVEC_IR_COOPVECOPS_TD

include "LinAlgCoop/Dialect/CoopVec/IR/CoopVecAttrs.td"
include "LinAlgCoop/Dialect/CoopVec/IR/CoopVecInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/IR/CommonTypeConstraints.td"

class CoopVec_Op<string mnemonic, list<Trait> traits = []>
    : Op<CoopVec_Dialect, mnemonic, traits>;

// A raw byte-address buffer: a 1-D memref of bytes.
def CoopVec_ByteBuffer : MemRefRankOf<[I8], [1]>;

// A 1-D vector of any element type; the verifiers check element types with
// rule-naming messages rather than a generic type-constraint failure.
def CoopVec_Vector : Type<IsFixedVectorOfRankPred<[1]>, "1-D fixed-length vector",
                           "::mlir::VectorType">;

//===----------------------------------------------------------------------===//
// MatVecOp
//===----------------------------------------------------------------------===//

def CoopVec_MatVecOp : CoopVec_Op<"matvec", [DeclareOpInterfaceMethods<CoopVec_SupportRequirementsOpInterface>,
    AttrSizedOperandSegments,
    CoopVec_MatrixOpInterface,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "matrix-vector multiply, optionally adding a bias vector";
  let description = [{
    Multiplies the `M`x`K` matrix described by `matrix` (stored in the byte
    buffer `%matrix` at byte offset `%offset`) by the input vector and returns
    the `M`-element result. With a `bias` clause, the `M`-element bias vector
    read from its buffer is added (DXIL `MatVecMulAdd`); without, this is DXIL
    `MatVecMul`.

    The input vector's elements are physical values read according to the
    input interpretation: arithmetic conversions for non-packed
    interpretations (integer to integer saturates; float to integer rounds to
    nearest even and saturates; integer to float rounds to nearest even) and a
    bitcast for `PackedS8x32`/`PackedU8x32`, where each `i32` holds four 8-bit
    values. `unsigned` marks an integer input (or, with `unsigned_result`, the
    result) as unsigned, the DXIL signed-op-kind flags.

    ```mlir
    %y = coopvec.matvec %x as F16, %w[%off] matrix<F16, 32x16, RowMajor> stride %s
           bias %b[%boff] as F16
           : vector<16xf16>, memref<?xi8>, memref<?xi8> -> vector<32xf16>
    %q = coopvec.matvec %p as PackedS8x32, %w[%off] matrix<I8, 32x32, InferencingOptimal>
           : vector<8xi32>, memref<?xi8> -> vector<32xi32>
    ```

    Rules checked by the verifier:
    * the input interpretation is one of I16, U16, I32, U32, F16, F32,
      PackedS8x32, PackedU8x32, U8, I8, F8_E4M3, F8_E5M2; the matrix and
      bias interpretations are the same set without the packed ones;
    * packed interpretations need `i32` physical elements;
    * input and result elements are 16- or 32-bit integers or floats;
    * the input has `K` elements (`ceil(K/4)` when packed); the result has `M`;
    * `unsigned`/`unsigned_result` only on integer vectors;
    * transpose only with an optimal layout; a stride (16-byte aligned, at
      least one stored row/column) is required for RowMajor/ColumnMajor and
      may be omitted (meaning 0) for the optimal layouts, which ignore it;
    * constant offsets are non-negative, the matrix offset a multiple of 128
      bytes and the bias offset a multiple of 64 bytes;
    * a block-scaled matrix (`#coopvec.matrix<..., scale T block B>`) needs
      a `scales` clause naming the buffer and byte offset of its scales, and
      only such a matrix takes one; buffer and offset come together.

    Block-scaled matrices (MXFP8, MXFP6, MXFP4, NVFP4) are read as
    `#coopvec.matrix` describes: each element times its block's scale,
    products in `f32`, summed in increasing `k` order.

    ```mlir
    %y = coopvec.matvec %x as F32, %w[%off] matrix<F4_E2M1, 16x64, RowMajor, scale f8E8M0FNU block 32>
           stride %s scales %sc[%soff] : memref<?xi8>
           : vector<64xf32>, memref<?xi8> -> vector<16xf32>
    ```

    **Math fidelity** (Tenstorrent Wormhole). With a `fidelity` clause
    (`#coopvec.math_fidelity`) the product is the one the Wormhole matrix
    unit and packer compute for the input as in0 (SrcB) and the transposed
    matrix as in1 (SrcA): each phase's partial products summed 16 at a time
    into Dst and rounded to the Dst format, then packed (and accumulated in
    L1) to the result type. A bias is the L1 accumulator's initial value.

    ```mlir
    %y = coopvec.matvec %x as BF16, %w[%off] matrix<BF16, 32x64, RowMajor> stride %s
           fidelity<hifi2, dst = f32, pack = bf16>
           : vector<64xf32>, memref<?xi8> -> vector<32xf32>
    ```

    The input's float elements are first read as the interpretation says
    (rounded to nearest even to `BF16`), as without the clause.

    Rules of the fidelity form (each its own diagnostic): the input
    interpretation is `BF16` or `F32` (read as TF32) and the matrix has the
    same one (so it is not block-scaled); the input elements are floats; the
    result elements are `f32`, which hold the packer's `f32` or `bf16`
    values exactly; a bias needs `l1_acc` and has the packer format's
    interpretation. Every layout and
    transpose is accepted: the runtime reads the matrix through the
    project's layout math before the model multiplies.

    **Block-float inputs.** In the fidelity form the input may itself be a
    Tenstorrent block float, the activations of a tt-metal matmul whose in0
    tiles are `Bfp8_b` or `Bfp4_b` (in0's face rows run along `K`, so each
    run of 16 consecutive `k` shares one exponent): the input interpretation
    is `BFP8` or `BFP4` and an `exponents` clause gives the shared
    exponents, one byte per block of 16 elements (`ceil(K/16)`, a final
    partial block has its own). The input vector holds the stored bytes:
    `K` `i8` sign-magnitude data for `BFP8`, `ceil(K/2)` `i8` for `BFP4`
    (two data per byte, even `k` in the low nibble, as a 4-bit matrix
    stores its column pairs). The unpacker decodes each datum with its
    exponent to BF16 (`BFP8ToBF16`: magnitude zero with the sign set is the
    BF16 -inf pattern, and the exponent byte 0xFF is the binade 2^128, not
    a NaN), so the Src format is BF16 and the matrix is `BF16`, `BFP8` or
    `BFP4`.

    ```mlir
    %y = coopvec.matvec %x as BFP8 exponents %e : vector<4xi8>,
           %w[%off] matrix<BFP8, 32x64, RowMajor, scale f8E8M0FNU block 16>
           stride %s scales %ws[%soff] : memref<?xi8>
           fidelity<hifi2, dst = f32>
           : vector<64xi8>, memref<?xi8> -> vector<32xf32>
    ```

    Rules (each its own diagnostic): a block-float input needs a fidelity
    clause and an `exponents` clause, and only a block-float input takes
    one; no `unsigned` flag (the data are sign-magnitude); the input holds
    `i8` elements, `K` of them for `BFP8` and
    `ceil(K/2)` for `BFP4`; the exponents are `ceil(K/16)` `i8`
    elements; the matrix is `BF16` or a block float.
  }];
  let arguments = (ins
    CoopVec_Vector:$input,
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
    Optional<CoopVec_ByteBuffer>:$scales,
    Optional<Index>:$scales_offset,
    OptionalAttr<CoopVec_MathFidelityAttr>:$fidelity,
    Optional<CoopVec_Vector>:$input_exponents
  );
  let results = (outs CoopVec_Vector:$result);
  let assemblyFormat = [{
    $input (`unsigned` $input_unsigned^)? `as` custom<Interp>($input_interp)
    (`exponents` $input_exponents^ `:` type($input_exponents))? `,`
    $matrix `[` $matrix_offset `]` `matrix` `` $matrix_desc
    (`stride` $matrix_stride^)?
    (`scales` $scales^ `[` $scales_offset `]` `:` type($scales))?
    (`bias` $bias^ `[` $bias_offset `]` `as` custom<OptionalInterp>($bias_interp))?
    (`unsigned_result` $output_unsigned^)?
    (`fidelity` `` $fidelity^)?
    attr-dict `:` type($input) `,` type($matrix) (`,` type($bias)^)?
    `->` type($result)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    bool hasBias() { return getBias() != nullptr; }
    bool writesMatrix() { return false; }
  }];
}

//===----------------------------------------------------------------------===//
// OuterProductAccumulateOp
//===----------------------------------------------------------------------===//

def CoopVec_OuterProductAccumulateOp : CoopVec_Op<"outer_product_accumulate", [DeclareOpInterfaceMethods<CoopVec_SupportRequirementsOpInterface>,
    CoopVec_MatrixOpInterface,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "accumulate the outer product of two vectors into a matrix";
  let description = [{
    Computes `A * transpose(B)` of the `M`-element vector `%a` and the
    `N`-element vector `%b` and adds it element-wise into the `M`x`N` matrix
    described by `matrix` (`M` = rows, `N` = cols) in the buffer. Each element
    is added atomically with device scope: concurrent invocations accumulating
    into the same matrix lose no update (components may be combined into
    wider atomics; the order of updates is unspecified). Elements are
    accumulated in the matrix interpretation (DXIL `OuterProductAccumulate`).

    ```mlir
    coopvec.outer_product_accumulate %a, %b, %w[%off]
        matrix<F16, 8x4, TrainingOptimal> : vector<8xf16>, vector<4xf16>, memref<?xi8>
    ```

    Rules: both vectors have the same 16- or 32-bit integer or float element
    type; `%a` has `M` and `%b` `N` elements; the matrix is not transposed;
    the stride rules and the 128-byte offset alignment of `coopvec.matvec`
    apply. (A target such as D3D12 may further demand `TrainingOptimal`
    with stride 0: that is a profile rule, see `--coopvec-check-support`.)
  }];
  let arguments = (ins
    CoopVec_Vector:$lhs,
    CoopVec_Vector:$rhs,
    CoopVec_ByteBuffer:$matrix,
    Index:$matrix_offset,
    Optional<Index>:$matrix_stride,
    CoopVec_MatrixDescAttr:$matrix_desc
  );
  let assemblyFormat = [{
    $lhs `,` $rhs `,` $matrix `[` $matrix_offset `]` `matrix` `` $matrix_desc
    (`stride` $matrix_stride^)? attr-dict
    `:` type($lhs) `,` type($rhs) `,` type($matrix)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    bool writesMatrix() { return true; }
  }];
}

//===----------------------------------------------------------------------===//
// VectorAccumulateOp
//===----------------------------------------------------------------------===//

def CoopVec_VectorAccumulateOp : CoopVec_Op<"vector_accumulate", [DeclareOpInterfaceMethods<CoopVec_SupportRequirementsOpInterface>,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "accumulate a vector into an array in memory";
  let description = [{
    Adds each element of `%input` atomically (device scope) to the
    corresponding element of the array of the same element type stored in
    the buffer at byte offset `%offset` (DXIL `VectorAccumulate`).

    ```mlir
    coopvec.vector_accumulate %v, %buf[%off] : vector<16xf16>, memref<?xi8>
    ```

    Rules: elements are 16- or 32-bit integers or floats; a constant offset
    is non-negative and a multiple of 64 bytes.
  }];
  let arguments = (ins
    CoopVec_Vector:$input,
    CoopVec_ByteBuffer:$buffer,
    Index:$offset
  );
  let assemblyFormat = [{
    $input `,` $buffer `[` $offset `]` attr-dict `:` type($input) `,` type($buffer)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// ConvertMatrixOp
//===----------------------------------------------------------------------===//

def CoopVec_ConvertMatrixOp : CoopVec_Op<"convert_matrix", [DeclareOpInterfaceMethods<CoopVec_SupportRequirementsOpInterface>,
    AttrSizedOperandSegments,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "convert a matrix to another layout and element type";
  let description = [{
    Copies the matrix described by `src_desc` from `%src` into `%dst` as
    described by `dst_desc`, converting its layout and element type (the
    analog of D3D12 `ConvertLinearAlgebraMatrix`). Values are converted with
    round-to-nearest-even; FP8 destinations saturate to the largest finite
    value.

    ```mlir
    coopvec.convert_matrix %src[%c0] matrix<F32, 64x32, RowMajor> stride %c128
        to %dst[%c0] matrix<F8_E4M3, 64x32, InferencingOptimal>
        : memref<?xi8>, memref<?xi8>
    ```

    Rules (the API's valid usage):
    * both matrices have the same shape and neither is transposed;
    * a strided layout's stride is at least one row/column long and a
      multiple of the element size; the destination stride is a multiple
      of 16 bytes;
    * if the types differ, one is F32 or F16 and the other a lower-precision
      float type (F16, F8_E4M3, F8_E5M2);
    * an FP8 destination uses an optimal layout;
    * a constant destination offset is a multiple of 128 bytes.
  }];
  let arguments = (ins
    CoopVec_ByteBuffer:$src,
    Index:$src_offset,
    Optional<Index>:$src_stride,
    CoopVec_MatrixDescAttr:$src_desc,
    CoopVec_ByteBuffer:$dst,
    Index:$dst_offset,
    Optional<Index>:$dst_stride,
    CoopVec_MatrixDescAttr:$dst_desc
  );
  let assemblyFormat = [{
    $src `[` $src_offset `]` `matrix` `` $src_desc (`stride` $src_stride^)?
    `to` $dst `[` $dst_offset `]` `matrix` `` $dst_desc (`stride` $dst_stride^)?
    attr-dict `:` type($src) `,` type($dst)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// MatrixSizeOp
//===----------------------------------------------------------------------===//

def CoopVec_MatrixSizeOp : CoopVec_Op<"matrix_size", [DeclareOpInterfaceMethods<CoopVec_SupportRequirementsOpInterface>, Pure]> {
  let summary = "bytes needed to store a matrix in a layout";
  let description = [{
    Returns the number of bytes (a multiple of 16) that a matrix described by
    `desc` occupies with the given stride, the analog of D3D12
    `GetLinearAlgebraMatrixConversionDestinationInfo`. The optimal layouts
    are the project's documented CPU layouts. Folds to a constant when the
    stride is constant or omitted.

    ```mlir
    %n = coopvec.matrix_size matrix<F8_E4M3, 64x32, InferencingOptimal> : index
    ```

    Rules: the stride rules of `coopvec.convert_matrix` for its destination.
  }];
  let arguments = (ins
    CoopVec_MatrixDescAttr:$desc,
    Optional<Index>:$stride
  );
  let results = (outs Index:$size);
  let assemblyFormat = [{
    `matrix` `` $desc (`stride` $stride^)? attr-dict `:` type($size)
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

include "LinAlgCoop/Dialect/CoopVec/IR/CoopVecNumericsOps.td"
include "LinAlgCoop/Dialect/CoopVec/IR/CoopVecBatchOps.td"
include "LinAlgCoop/Dialect/CoopVec/IR/CoopVecTileOps.td"

#endif // LINALGCOOP_DIALECT_COOPVEC_IR_COOPVECOPS_TD
