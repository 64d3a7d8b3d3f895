//===- Passes.td - coopvec conversion passes -------------------*- tablegen -*-===//
//
// Every Source->Target conversion pass of the project, one section each.
//
//===----------------------------------------------------------------------===//

#ifndef LINALGCOOP_CONVERSION_PASSES_TD
#define LINALGCOOP_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

//===----------------------------------------------------------------------===//
// CoopVecToCPU
//===----------------------------------------------------------------------===//

// (convert-coopvec-to-cpu: defined with the CPU target)

//===----------------------------------------------------------------------===//
// CoopVecToDXIL
//===----------------------------------------------------------------------===//

// (convert-coopvec-to-dxil: defined with the DXIL target)

#endif // LINALGCOOP_CONVERSION_PASSES_TD
