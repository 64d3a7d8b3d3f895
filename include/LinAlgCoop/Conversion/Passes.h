//===- Passes.h - coopvec conversion passes ---------------------*- C++ -*-===//

#ifndef LINALGCOOP_CONVERSION_PASSES_H
#define LINALGCOOP_CONVERSION_PASSES_H

#include "LinAlgCoop/Conversion/CoopVecToCPU/CoopVecToCPU.h"
#include "LinAlgCoop/Conversion/CoopVecToDXIL/CoopVecToDXIL.h"
#include "LinAlgCoop/Conversion/CoopVecToNVVM/CoopVecToNVVM.h"
#include "LinAlgCoop/Conversion/CoopVecToRISCV/CoopVecToRISCV.h"
#include "LinAlgCoop/Conversion/CoopVecToSPIRV/CoopVecToSPIRV.h"
#include "mlir/Pass/Pass.h"

// Each conversion's header declares its pass (GEN_PASS_DECL_<PASS>) and its
// populate...Patterns function; include them here.

namespace mlir::coopvec {

#define GEN_PASS_REGISTRATION
#include "LinAlgCoop/Conversion/Passes.h.inc"

} // namespace mlir::coopvec

#endif // LINALGCOOP_CONVERSION_PASSES_H
