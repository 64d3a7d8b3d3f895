//===- CoopVecAttrs.h - coopvec enums and attributes ------------*- C++ -*-===//

#ifndef LINALGCOOP_DIALECT_COOPVEC_IR_COOPVECATTRS_H
#define LINALGCOOP_DIALECT_COOPVEC_IR_COOPVECATTRS_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectImplementation.h"

#include "LinAlgCoop/Dialect/CoopVec/IR/CoopVecEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "LinAlgCoop/Dialect/CoopVec/IR/CoopVecAttrs.h.inc"

namespace mlir::coopvec {

/// Largest M, N or K a matrix descriptor accepts.
constexpr int64_t kMaxMatrixDim = 65536;

/// The roles an interpretation can play; each has its own allowed set.
enum class InterpretationRole { Input, Matrix, Bias, Accumulation };

/// Whether `interp` is allowed for `role` (DXIL SM 6.9 validation rules).
bool isAllowedInterpretation(Interpretation interp, InterpretationRole role);
/// The allowed interpretations of `role`, comma-separated, for diagnostics.
std::string listAllowedInterpretations(InterpretationRole role);
/// Whether `interp` packs four 8-bit values into each 32-bit element.
bool isPacked(Interpretation interp);
bool isFloat(Interpretation interp);
bool isFloat8(Interpretation interp);
bool isUnsigned(Interpretation interp);
/// Bytes per element in memory (4 for a packed 32-bit word).
unsigned getElementBytes(Interpretation interp);
/// The interpretation that names a physical element type (`f16` -> F16,
/// `i32` -> I32 or U32 by `isUnsigned`), or failure for other types.
FailureOr<Interpretation> getPhysicalInterpretation(Type elementType,
                                                     bool isUnsigned);
StringRef stringifyRole(InterpretationRole role);

/// The element type a physical vector of `interp` uses when the dialect
/// builds one (`I8` -> i8, `F8_E4M3` -> f8E4M3FN, packed -> i32).
Type getStorageType(MLIRContext *ctx, Interpretation interp);

/// Parses a layout keyword, accepting the SM 6.10 aliases MulOptimal and
/// OuterProductOptimal.
std::optional<MatrixLayout> parseMatrixLayout(StringRef name);

} // namespace mlir::coopvec

#endif // LINALGCOOP_DIALECT_COOPVEC_IR_COOPVECATTRS_H
