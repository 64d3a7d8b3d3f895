//===- CoopVecAttrs.h - coopvec enums and attributes ------------*- C++ -*-===//

#ifndef LINALGCOOP_DIALECT_COOPVEC_IR_COOPVECATTRS_H
#define LINALGCOOP_DIALECT_COOPVEC_IR_COOPVECATTRS_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectImplementation.h"

#include "LinAlgCoop/Dialect/CoopVec/IR/CoopVecEnums.h.inc"

namespace mlir::coopvec {
/// The named interpretations (#coopvec.interp): an element type with its
/// signedness and packing. The order is the dialect's own; targets map a kind
/// to their numbering (DXIL ComponentType, runtime element codes).
enum class InterpKind : uint8_t {
  I16,
  U16,
  I32,
  U32,
  F16,
  F32,
  PackedS8x32,
  PackedU8x32,
  U8,
  I8,
  F8_E4M3,
  F8_E5M2,
  BF16,
  F6_E2M3,
  F6_E3M2,
  F4_E2M1,
  I4,
  U4,
  BFP8,
  BFP4,
};
constexpr unsigned kNumInterpKinds = unsigned(InterpKind::BFP4) + 1;

class InterpretationAttr;
/// Parses an interpretation name or builtin element type (the form
/// #coopvec.interp and the ops' `as` clauses use), with a diagnostic that
/// lists the names.
FailureOr<InterpretationAttr> parseInterpretationName(AsmParser &parser);
} // namespace mlir::coopvec

#define GET_ATTRDEF_CLASSES
#include "LinAlgCoop/Dialect/CoopVec/IR/CoopVecAttrs.h.inc"

namespace mlir::coopvec {

/// Largest M, N or K a matrix descriptor accepts.
constexpr int64_t kMaxMatrixDim = 65536;

/// The roles an interpretation can play; each has its own allowed set.
enum class InterpretationRole { Input, Matrix, Bias, Accumulation };

/// Whether `interp` is allowed for `role`: inputs take every
/// interpretation, matrices and biases every non-packed one, accumulation
/// targets the non-packed ones of 8 bits or more.
bool isAllowedInterpretation(InterpretationAttr interp,
                             InterpretationRole role);
/// The allowed interpretations of `role`, comma-separated, for diagnostics.
std::string listAllowedInterpretations(InterpretationRole role);
/// The name of `kind` ("F16", "PackedS8x32").
StringRef stringifyInterpKind(InterpKind kind);
/// The interpretation that names a physical element type (`f16` -> F16,
/// `i32` -> I32 or U32 by `isUnsigned`), or failure for other types.
FailureOr<InterpretationAttr> getPhysicalInterpretation(Type elementType,
                                                        bool isUnsigned);
StringRef stringifyRole(InterpretationRole role);

/// Parses a layout keyword, accepting the SM 6.10 aliases MulOptimal and
/// OuterProductOptimal.
std::optional<MatrixLayout> parseMatrixLayout(StringRef name);

} // namespace mlir::coopvec

#endif // LINALGCOOP_DIALECT_COOPVEC_IR_COOPVECATTRS_H
