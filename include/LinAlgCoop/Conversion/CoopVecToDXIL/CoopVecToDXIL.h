//===- CoopVecToDXIL.h - coopvec to DXIL-style LLVM IR ----------*- C++ -*-===//
//
// Lowers the four cooperative-vector shader operations to the SM 6.9 `dx.op`
// calls (opcodes 305-308) exactly as the shipped compiler spells them, and
// links such calls to the host software driver (lib/Runtime/Dxil) so that the
// same IR runs under a JIT.
//
//===----------------------------------------------------------------------===//

#ifndef LINALGCOOP_CONVERSION_COOPVECTODXIL_COOPVECTODXIL_H
#define LINALGCOOP_CONVERSION_COOPVECTODXIL_COOPVECTODXIL_H

#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassOptions.h"

namespace mlir {
class LLVMTypeConverter;
class RewritePatternSet;
class OpPassManager;

namespace coopvec {

#define GEN_PASS_DECL_CONVERTCOOPVECTODXIL
#define GEN_PASS_DECL_COOPVECDXILLINKHOSTDRIVER
#include "LinAlgCoop/Conversion/Passes.h.inc"

/// Adds the patterns that rewrite coopvec.matvec, outer_product_accumulate,
/// vector_accumulate and matrix_size into LLVM-dialect `dx.op` calls (and
/// constants). Memref buffers must be convertible by `converter`; the
/// patterns fail with a diagnostic on what DXIL cannot express.
void populateCoopVecToDXILPatterns(LLVMTypeConverter &converter,
                                   RewritePatternSet &patterns);

/// Options of the `coopvec-dxil-pipeline` pipeline.
struct CoopVecDXILPipelineOptions
    : public PassPipelineOptions<CoopVecDXILPipelineOptions> {
  PassOptions::Option<std::string> profile{
      *this, "profile",
      llvm::cl::desc("Support profile checked before lowering "
                     "(d3d12-tier1.0, d3d12-tier1.1)"),
      llvm::cl::init("d3d12-tier1.1")};
  PassOptions::Option<bool> emulate{
      *this, "emulate",
      llvm::cl::desc("Accept combinations the profile does not list (the "
                     "driver emulates them) with a warning"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> hostDriver{
      *this, "host-driver",
      llvm::cl::desc("Give every dx.op declaration a body that calls the host "
                     "software driver, so the module runs under a JIT"),
      llvm::cl::init(false)};
};

/// convert-coopvec-to-dxil, then everything else to the LLVM dialect
/// (scf, memref, vector, math, arith, index, func, cf), optionally followed
/// by coopvec-dxil-link-host-driver.
void buildCoopVecDXILPipeline(OpPassManager &pm,
                              const CoopVecDXILPipelineOptions &options);

/// Registers `coopvec-dxil-pipeline`.
void registerCoopVecDXILPipeline();

} // namespace coopvec
} // namespace mlir

#endif // LINALGCOOP_CONVERSION_COOPVECTODXIL_COOPVECTODXIL_H
