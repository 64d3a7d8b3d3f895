//===- CoopVecBase.td - coopvec dialect, enums and attributes --*- tablegen -*-===//

#ifndef LINALGCOOP_DIALECT_COOPVEC_IR_COOPVECBASE_TD
#define LINALGCOOP_DIALECT_COOPVEC_IR_COOPVECBASE_TD

include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/OpBase.td"

def CoopVec_Dialect : Dialect {
  let name = "coopvec";
  let cppNamespace = "::mlir::coopvec";
  let summary = "Cooperative-vector linear algebra: matrix-vector products, "
                "outer-product and vector accumulation with type interpretations";
  let description = [{
    The `coopvec` dialect models the small matrix-vector and low-precision
    matrix work that GPUs, NPUs and vector CPUs accelerate, following the
    DXIL Shader Model 6.9 cooperative-vector model.

    Two ideas structure it:

    * **Bytes vs meaning.** A matrix in memory is a byte buffer (a 1-D
      `memref` of `i8`), a byte offset and a byte stride: SSA values that may
      be dynamic. How to read it (its interpretation, its `M`x`K` shape, its
      layout and whether it is transposed) is one static attribute,
      `#coopvec.matrix<...>`, shared by every op that touches a matrix.
    * **Interpretation is not element type.** Vectors in registers use MLIR
      builtin types (`vector<16xf16>`, `vector<8xi32>`); an interpretation
      (`#coopvec.interp<...>`: an MLIR element type plus signedness and
      packing) says how their elements are read, e.g. `f32` values converted
      to `I8`, or `i32` words holding four packed signed bytes
      (`PackedS8x32`). DXIL's `ComponentType` numbers belong to the DXIL
      conversion only.

    What a particular target can execute is described by a support profile
    (`#coopvec.profile<...>`) and checked by `--coopvec-check-support`.
  }];
  let useDefaultAttributePrinterParser = 1;
  let hasOperationAttrVerify = 1;
  let hasConstantMaterializer = 1;
  let extraClassDeclaration = [{
    /// The discardable attribute that attaches a support profile to a module.
    static StringRef getProfileAttrName() { return "coopvec.profile"; }
  private:
    void registerAttributes();
  public:
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::vector::VectorDialect"];
}

//===----------------------------------------------------------------------===//
// Matrix layouts
//===----------------------------------------------------------------------===//

def CoopVec_MatrixLayout : I32EnumAttr<"MatrixLayout",
    "how a matrix is laid out in memory (DXIL matrix layout)", [
      I32EnumAttrCase<"RowMajor", 0>,
      I32EnumAttrCase<"ColumnMajor", 1>,
      I32EnumAttrCase<"InferencingOptimal", 2>,
      I32EnumAttrCase<"TrainingOptimal", 3>
    ]> {
  let cppNamespace = "::mlir::coopvec";
  let genSpecializedAttr = 0;
}

//===----------------------------------------------------------------------===//
// Support tiers
//===----------------------------------------------------------------------===//

def CoopVec_SupportTier : I32EnumAttr<"SupportTier",
    "cooperative-vector support tier (D3D12_COOPERATIVE_VECTOR_TIER)", [
      I32EnumAttrCase<"NotSupported", 0, "none">,
      I32EnumAttrCase<"Tier1_0", 1, "tier1_0">,
      I32EnumAttrCase<"Tier1_1", 2, "tier1_1">
    ]> {
  let cppNamespace = "::mlir::coopvec";
  let genSpecializedAttr = 0;
}

//===----------------------------------------------------------------------===//
// Activations
//===----------------------------------------------------------------------===//

def CoopVec_Activation : I32EnumAttr<"Activation",
    "activation applied after a layer of a fused network", [
      I32EnumAttrCase<"None", 0, "none">,
      I32EnumAttrCase<"Relu", 1, "relu">
    ]> {
  let cppNamespace = "::mlir::coopvec";
}

//===----------------------------------------------------------------------===//
// Rounding modes
//===----------------------------------------------------------------------===//

// Values match the runtime's CoopVecRounding (include/LinAlgCoop/Runtime/
// Numerics.h) so folding passes them through unchanged.
def CoopVec_RoundingMode : I32EnumAttr<"RoundingMode",
    "rounding mode of a conversion (PTX cvt rounding modifiers)", [
      I32EnumAttrCase<"RN", 0, "rn">,
      I32EnumAttrCase<"RZ", 1, "rz">,
      I32EnumAttrCase<"RM", 2, "rm">,
      I32EnumAttrCase<"RP", 3, "rp">,
      I32EnumAttrCase<"RNA", 4, "rna">,
      I32EnumAttrCase<"RS", 5, "rs">
    ]> {
  let cppNamespace = "::mlir::coopvec";
}

//===----------------------------------------------------------------------===//
// Math fidelity (Tenstorrent Wormhole)
//===----------------------------------------------------------------------===//

// Values match the runtime's CoopVecFidelity (include/LinAlgCoop/Runtime/
// Numerics.h): the number of fidelity phases minus one.
def CoopVec_MathFidelity : I32EnumAttr<"MathFidelity",
    "Wormhole math fidelity: how many multiplier phases a product takes", [
      I32EnumAttrCase<"LoFi", 0, "lofi">,
      I32EnumAttrCase<"HiFi2", 1, "hifi2">,
      I32EnumAttrCase<"HiFi3", 2, "hifi3">,
      I32EnumAttrCase<"HiFi4", 3, "hifi4">
    ]> {
  let cppNamespace = "::mlir::coopvec";
  let genSpecializedAttr = 0;
}

#endif // LINALGCOOP_DIALECT_COOPVEC_IR_COOPVECBASE_TD
