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

    Rules: `M` and `K` are in [1, 65536]; the interpretation is one that a
    matrix in memory can have (not a packed one).
  }];
  let parameters = (ins
    EnumParameter<CoopVec_Interpretation>:$interpretation,
    "int64_t":$rows,
    "int64_t":$cols,
    EnumParameter<CoopVec_MatrixLayout>:$layout,
    DefaultValuedParameter<"bool", "false">:$transpose
  );
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Size in bytes of one element of the matrix.
    unsigned getElementBytes() const;
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
  }];
}

//===----------------------------------------------------------------------===//
// Support profiles
//===----------------------------------------------------------------------===//

def CoopVec_MatVecSupportAttr : CoopVec_Attr<"MatVecSupport", "matvec_support"> {
  let summary = "one supported matrix-vector combination of a profile";
  let description = [{
    One row of a profile's matrix-vector property list, the analog of
    `D3D12_COOPERATIVE_VECTOR_PROPERTIES_INFERENCE`. `input` is the physical
    input type (`PackedS8x32`/`PackedU8x32` for packed words, with `input_interp`
    the packed element type), `output` the physical result type.

    ```mlir
    #coopvec.matvec_support<input = F32, input_interp = I8, matrix = I8,
                            bias = I32, output = I32, transpose = false>
    ```
  }];
  let parameters = (ins
    EnumParameter<CoopVec_Interpretation>:$input,
    EnumParameter<CoopVec_Interpretation>:$input_interp,
    EnumParameter<CoopVec_Interpretation>:$matrix,
    EnumParameter<CoopVec_Interpretation>:$bias,
    EnumParameter<CoopVec_Interpretation>:$output,
    DefaultValuedParameter<"bool", "false">:$transpose
  );
  let assemblyFormat = "`<` struct(params) `>`";
}

def CoopVec_AccumSupportAttr : CoopVec_Attr<"AccumSupport", "accum_support"> {
  let summary = "one supported accumulation combination of a profile";
  let description = [{
    One row of a profile's outer-product or vector-accumulate property list,
    the analog of `D3D12_COOPERATIVE_VECTOR_PROPERTIES_TRAINING`.

    ```mlir
    #coopvec.accum_support<input = F16, accumulation = F32>
    ```
  }];
  let parameters = (ins
    EnumParameter<CoopVec_Interpretation>:$input,
    EnumParameter<CoopVec_Interpretation>:$accumulation
  );
  let assemblyFormat = "`<` struct(params) `>`";
}

def CoopVec_ProfileAttr : CoopVec_Attr<"Profile", "profile"> {
  let summary = "what a target can execute (the CheckFeatureSupport analog)";
  let description = [{
    A support profile is data: a tier, the lists of supported combinations
    for matrix-vector products, outer-product accumulation and vector
    accumulation, and target rules that the IR itself does not impose.
    `--coopvec-check-support` checks every op against one profile: a builtin
    one named by its `profile` option, or the `coopvec.profile` attribute of
    the enclosing module.

    * `fp8_optimal_only`: FP8 matrices must use an optimal layout.
    * `outer_product_training_optimal_only`: outer products accumulate only
      into a `TrainingOptimal` matrix with stride 0.

    ```mlir
    #coopvec.profile<name = "my-gpu", tier = tier1_1,
      matvec = [#coopvec.matvec_support<input = F16, input_interp = F16,
                  matrix = F16, bias = F16, output = F16, transpose = true>],
      outer_product = [#coopvec.accum_support<input = F16, accumulation = F32>],
      vector_accumulate = [#coopvec.accum_support<input = F16, accumulation = F16>],
      fp8_optimal_only = true, outer_product_training_optimal_only = true>
    ```
  }];
  let parameters = (ins
    "StringAttr":$name,
    EnumParameter<CoopVec_SupportTier>:$tier,
    "ArrayAttr":$matvec,
    "ArrayAttr":$outer_product,
    "ArrayAttr":$vector_accumulate,
    DefaultValuedParameter<"bool", "false">:$fp8_optimal_only,
    DefaultValuedParameter<"bool", "false">:$outer_product_training_optimal_only
  );
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

#endif // LINALGCOOP_DIALECT_COOPVEC_IR_COOPVECATTRS_TD
