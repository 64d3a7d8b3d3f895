//===- CoopVecToRISCV.h - coopvec to C for RISC-V vector units --*- C++ -*-===//
//
// The RISC-V target: int8 matrix products as EmitC calling the Nuclei
// Xxlvqmacc intrinsics, or as loops around SiFive's XSfvqmacc LLVM
// intrinsics (docs/RISCV.md).
//
//===----------------------------------------------------------------------===//

#ifndef LINALGCOOP_CONVERSION_COOPVECTORISCV_COOPVECTORISCV_H
#define LINALGCOOP_CONVERSION_COOPVECTORISCV_COOPVECTORISCV_H

#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassOptions.h"

namespace mlir {
class OpPassManager;
class RewritePatternSet;
class TypeConverter;

namespace coopvec {

#define GEN_PASS_DECL_CONVERTCOOPVECTORISCV
#include "LinAlgCoop/Conversion/Passes.h.inc"

/// Adds the patterns that rewrite func.func/func.return into emitc.func and
/// coopvec.batch_matvec (plain and quantized) and coopvec.matvec into C
/// loops around the vqmacc intrinsics (or, with
/// `generic`, RVV 1.0 widening multiply-adds), with accumulators of LMUL
/// `lmul` (0: chosen from the batch at `minVlen`). `converter` must be the
/// one of populateCoopVecToRISCVTypeConversions.
void populateCoopVecToRISCVPatterns(const TypeConverter &converter,
                                    RewritePatternSet &patterns, bool generic,
                                    unsigned lmul, unsigned minVlen);

/// Adds the pattern that rewrites coopvec.batch_matvec into scf/memref
/// loops around SiFive's llvm.riscv.sf.vqmacc* intrinsics (`isa`
/// xsfvqmacc-4x8x4 or xsfvqmacc-2x8x2), with accumulators of LMUL `lmul`
/// (0: chosen from the batch at `minVlen`); with `emulate`, calls to
/// coopvec_sf_<op>_<shape>_i32m<L> (lib/Runtime/riscv64/sf_vqmacc.c)
/// instead of the intrinsics. Declarations and strings go to the op's
/// module.
void populateCoopVecToSiFiveVQMaccPatterns(RewritePatternSet &patterns,
                                           StringRef isa, unsigned lmul,
                                           unsigned minVlen, bool emulate);

/// memref<... x T> -> (!emitc.ptr<T>, i64 first dimension); vector<N x T>
/// -> !emitc.ptr<T>.
void populateCoopVecToRISCVTypeConversions(TypeConverter &converter);

/// Options of the `coopvec-riscv-sifive-pipeline` pipeline.
struct CoopVecSiFivePipelineOptions
    : public PassPipelineOptions<CoopVecSiFivePipelineOptions> {
  PassOptions::Option<std::string> shape{
      *this, "shape",
      llvm::cl::desc("The instruction: 4x8x4 (XSfvqmaccqoq) or 2x8x2 "
                     "(XSfvqmaccdod)"),
      llvm::cl::init("4x8x4")};
  PassOptions::Option<unsigned> lmul{
      *this, "lmul",
      llvm::cl::desc("LMUL of the int32 accumulators (1, 2, 4, 8; 0: chosen "
                     "from the batch)"),
      llvm::cl::init(0)};
  PassOptions::Option<unsigned> minVlen{
      *this, "min-vlen",
      llvm::cl::desc("The smallest VLEN the code is chosen for"),
      llvm::cl::init(128)};
  PassOptions::Option<bool> emulate{
      *this, "emulate",
      llvm::cl::desc("Call coopvec_sf_<op>_<shape>_i32m<L> "
                     "(lib/Runtime/riscv64/sf_vqmacc.c) instead of the "
                     "sf.vqmacc intrinsics, to run under qemu"),
      llvm::cl::init(false)};
};

/// convert-coopvec-to-riscv{isa=xsfvqmacc-<shape>}, then everything else to
/// the LLVM dialect (the passes the CPU and DXIL pipelines end with).
void buildCoopVecSiFivePipeline(OpPassManager &pm,
                                const CoopVecSiFivePipelineOptions &options);

/// Registers `coopvec-riscv-sifive-pipeline`.
void registerCoopVecSiFivePipeline();

} // namespace coopvec
} // namespace mlir

#endif // LINALGCOOP_CONVERSION_COOPVECTORISCV_COOPVECTORISCV_H
