//===- SupportRequirements.h - what an op needs from a target ---*- C++ -*-===//
//
// The requirements that ops state through SupportRequirementsOpInterface and
// that --coopvec-check-support matches against a #coopvec.profile.
//
//===----------------------------------------------------------------------===//

#ifndef LINALGCOOP_DIALECT_COOPVEC_IR_SUPPORTREQUIREMENTS_H
#define LINALGCOOP_DIALECT_COOPVEC_IR_SUPPORTREQUIREMENTS_H

#include "LinAlgCoop/Dialect/CoopVec/IR/CoopVecAttrs.h"

#include <string>

namespace mlir::coopvec {

/// One thing an op needs from a target. An op lists all of them; it is
/// supported when the profile meets every one.
struct SupportRequirement {
  enum class Kind {
    /// The profile lists `feature`.
    Feature,
    /// A `matvec` row matches (input, inputInterp, matrix, bias, output);
    /// with a transposed matrix the row allows transpose; the layout rules
    /// hold for `matrix`.
    MatVec,
    /// An `outer_product` row matches (input, matrix interpretation); tier
    /// and the outer-product layout rule hold.
    OuterProduct,
    /// A `vector_accumulate` row matches (input, input).
    VectorAccumulate,
    /// `matrix`'s interpretation is F32 or a `matvec` row's matrix type (a
    /// side of a matrix conversion).
    MatrixStorage,
    /// No target can run it; `feature` holds the reason.
    Unsupportable,
  };
  explicit SupportRequirement(Kind kind) : kind(kind) {}

  Kind kind;
  /// Feature: its name; Unsupportable: the reason.
  std::string feature;
  /// MatVec: physical input and how it is read; accumulations: the input.
  InterpretationAttr input, inputInterp;
  /// MatVec: the bias (null where the op has none) and the physical result.
  InterpretationAttr bias, output;
  /// MatVec, OuterProduct, MatrixStorage: the matrix.
  MatrixDescAttr matrix;
  /// OuterProduct, VectorAccumulate: the vectors' element type (messages).
  Type elementType;
  /// OuterProduct: whether the stride may be non-zero.
  bool mayHaveStride = false;

  static SupportRequirement getFeature(StringRef name) {
    SupportRequirement r(Kind::Feature);
    r.feature = name.str();
    return r;
  }
  static SupportRequirement getUnsupportable(StringRef reason) {
    SupportRequirement r(Kind::Unsupportable);
    r.feature = reason.str();
    return r;
  }
};

/// The element-family feature a numerics op needs for `type` ("fp8", "fp6",
/// "fp4", "bf16", "tf32", "e8m0"), or "" for f16/f32/integers.
StringRef getElementTypeFeature(Type type);

} // namespace mlir::coopvec

#endif // LINALGCOOP_DIALECT_COOPVEC_IR_SUPPORTREQUIREMENTS_H
