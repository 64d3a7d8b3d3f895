//===- CoopVecInterfaces.td - coopvec op interfaces ------------*- tablegen -*-===//

#ifndef LINALGCOOP_DIALECT_COOPVEC_IR_COOPVECINTERFACES_TD
#define LINALGCOOP_DIALECT_COOPVEC_IR_COOPVECINTERFACES_TD

include "mlir/IR/OpBase.td"

def CoopVec_MatrixOpInterface : OpInterface<"MatrixOpInterface"> {
  let cppNamespace = "::mlir::coopvec";
  let description = [{
    An op that multiplies by, or accumulates into, a matrix described by a
    `#coopvec.matrix` attribute and stored in a byte buffer. Support checking,
    batching and legalization passes handle every such op through it.
  }];
  let methods = [
    InterfaceMethod<"The static description of the matrix.",
      "::mlir::coopvec::MatrixDescAttr", "getMatrixDesc">,
    InterfaceMethod<"The byte buffer holding the matrix.",
      "::mlir::TypedValue<::mlir::MemRefType>", "getMatrix">,
    InterfaceMethod<"The byte offset of the matrix in its buffer.",
      "::mlir::Value", "getMatrixOffset">,
    InterfaceMethod<"The byte stride, or null where omitted (0).",
      "::mlir::Value", "getMatrixStride">,
    InterfaceMethod<"Whether the op writes the matrix (accumulates into it).",
      "bool", "writesMatrix">
  ];
}

def CoopVec_SupportRequirementsOpInterface
    : OpInterface<"SupportRequirementsOpInterface"> {
  let cppNamespace = "::mlir::coopvec";
  let description = [{
    An op that states what it needs from a target: feature strings, a
    matrix row (types, transpose, layout), an accumulation row, a matrix
    type to convert. `--coopvec-check-support` matches these against a
    `#coopvec.profile` in one generic walk; a coopvec op without this
    interface is unsupported everywhere. An empty list (`coopvec.matrix_size`,
    a compile-time query) needs nothing.
  }];
  let methods = [
    InterfaceMethod<"Appends what the op needs from a target.",
      "void", "getSupportRequirements",
      (ins "::llvm::SmallVectorImpl<::mlir::coopvec::SupportRequirement> &":$requirements)>
  ];
}

#endif // LINALGCOOP_DIALECT_COOPVEC_IR_COOPVECINTERFACES_TD
