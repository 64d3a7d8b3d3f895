//===- CoopVecDialect.cpp - coopvec dialect registration ------------------===//

#include "LinAlgCoop/Dialect/CoopVec/IR/CoopVecDialect.h"
#include "LinAlgCoop/Dialect/CoopVec/IR/CoopVecOps.h"

using namespace mlir;
using namespace mlir::coopvec;

#include "LinAlgCoop/Dialect/CoopVec/IR/CoopVecDialect.cpp.inc"

void CoopVecDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "LinAlgCoop/Dialect/CoopVec/IR/CoopVecOps.cpp.inc"
      >();
  registerAttributes();
}

Operation *CoopVecDialect::materializeConstant(OpBuilder &builder,
                                               Attribute value, Type type,
                                               Location loc) {
  return arith::ConstantOp::materialize(builder, value, type, loc);
}

LogicalResult CoopVecDialect::verifyOperationAttribute(Operation *op,
                                                       NamedAttribute attr) {
  if (attr.getName() == getProfileAttrName()) {
    // A profile, or the name of a builtin one (resolved by the passes that
    // read it: the builtin tables live with them).
    auto name = dyn_cast<StringAttr>(attr.getValue());
    if (!isa<ProfileAttr>(attr.getValue()) && !(name && !name.empty()))
      return op->emitError() << "'" << getProfileAttrName()
                             << "' must be a #coopvec.profile attribute or "
                                "the name of a builtin profile";
    return success();
  }
  return op->emitError() << "unknown coopvec attribute '" << attr.getName().getValue()
                         << "'";
}
