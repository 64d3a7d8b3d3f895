//===- CoopVec.td - coopvec dialect umbrella -------------------*- tablegen -*-===//
//
// Everything the dialect defines, in one file for the docs generator.
//
//===----------------------------------------------------------------------===//

#ifndef LINALGCOOP_DIALECT_COOPVEC_IR_COOPVEC_TD
#define LINALGCOOP_DIALECT_COOPVEC_IR_COOPVEC_TD

include "LinAlgCoop/Dialect/CoopVec/IR/CoopVecOps.td"

#endif // LINALGCOOP_DIALECT_COOPVEC_IR_COOPVEC_TD
