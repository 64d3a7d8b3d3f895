//===- CheckSupport.cpp - check coopvec ops against a support profile -----===//

#include "LinAlgCoop/Dialect/CoopVec/Transforms/Passes.h"

#include "mlir/IR/Matchers.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/FormatVariadic.h"

namespace mlir::coopvec {
#define GEN_PASS_DEF_COOPVECCHECKSUPPORT
#include "LinAlgCoop/Dialect/CoopVec/Transforms/Passes.h.inc"
} // namespace mlir::coopvec

using namespace mlir;
using namespace mlir::coopvec;

static StringRef name(InterpretationAttr interp) { return interp.getName(); }

/// The (input type, input interpretation) pair a property list uses for an
/// input vector: packed words are listed as the packed type with the element
/// interpretation (PackedS8x32 / I8), other inputs by their physical type.
static FailureOr<std::pair<InterpretationAttr, InterpretationAttr>>
getInputPair(MatVecOp op) {
  InterpretationAttr interp = op.getInputInterp();
  MLIRContext *ctx = op.getContext();
  if (interp.getKind() == InterpKind::PackedS8x32)
    return std::make_pair(interp, InterpretationAttr::get(ctx, InterpKind::I8));
  if (interp.getKind() == InterpKind::PackedU8x32)
    return std::make_pair(interp, InterpretationAttr::get(ctx, InterpKind::U8));
  FailureOr<InterpretationAttr> physical = getPhysicalInterpretation(
      op.getInput().getType().getElementType(), op.getInputUnsigned());
  if (failed(physical))
    return failure();
  return std::make_pair(*physical, interp);
}

static std::string checkMatVec(MatVecOp op, ProfileAttr profile) {
  FailureOr<std::pair<InterpretationAttr, InterpretationAttr>> input =
      getInputPair(op);
  FailureOr<InterpretationAttr> output = getPhysicalInterpretation(
      op.getResult().getType().getElementType(), op.getOutputUnsigned());
  if (failed(input) || failed(output))
    return "its vector element types are not cooperative-vector types";
  MatrixDescAttr desc = op.getMatrixDesc();
  InterpretationAttr bias = op.getBiasInterpAttr();

  std::string combination = llvm::formatv(
      "input = {0}, input_interp = {1}, matrix = {2}{3}, output = {4}",
      name(input->first), name(input->second), name(desc.getInterpretation()),
      bias ? (", bias = " + name(bias)).str() : std::string(),
      name(*output));

  bool listed = false, transposable = false;
  for (auto entry : profile.getMatvec().getAsRange<MatVecSupportAttr>()) {
    if (entry.getInput() != input->first ||
        entry.getInputInterp() != input->second ||
        entry.getMatrix() != desc.getInterpretation() ||
        entry.getOutput() != *output || (bias && entry.getBias() != bias))
      continue;
    listed = true;
    transposable |= entry.getTranspose();
  }
  if (!listed)
    return "it does not list the matrix-vector combination " + combination;
  if (desc.getTranspose() && !transposable)
    return "it does not support transpose for " + combination;
  if (profile.getFp8OptimalOnly() && desc.getInterpretation().isFloat8() &&
      !desc.isOptimal())
    return llvm::formatv("{0} matrices need an optimal layout, but got {1}",
                         name(desc.getInterpretation()),
                         stringifyMatrixLayout(desc.getLayout()));
  return "";
}

static bool listsAccumulation(ArrayAttr list, InterpretationAttr input,
                              InterpretationAttr accumulation) {
  return llvm::any_of(list.getAsRange<AccumSupportAttr>(), [&](auto entry) {
    return entry.getInput() == input && entry.getAccumulation() == accumulation;
  });
}

static std::string needsTier11(StringRef what, ProfileAttr profile) {
  if (profile.getTier() >= SupportTier::Tier1_1)
    return "";
  return llvm::formatv("{0} needs tier1_1, but it is {1}", what,
                       stringifySupportTier(profile.getTier()));
}

static std::string checkOuterProduct(OuterProductAccumulateOp op,
                                     ProfileAttr profile) {
  if (std::string tier = needsTier11("outer-product accumulation", profile);
      !tier.empty())
    return tier;
  FailureOr<InterpretationAttr> input = getPhysicalInterpretation(
      op.getLhs().getType().getElementType(), /*isUnsigned=*/false);
  MatrixDescAttr desc = op.getMatrixDesc();
  if (failed(input) ||
      !listsAccumulation(profile.getOuterProduct(), *input,
                         desc.getInterpretation()))
    return llvm::formatv("it does not list outer-product accumulation of {0} "
                         "into {1}",
                         op.getLhs().getType().getElementType(),
                         name(desc.getInterpretation()));
  if (profile.getOuterProductTrainingOptimalOnly()) {
    if (desc.getLayout() != MatrixLayout::TrainingOptimal)
      return llvm::formatv("outer products accumulate only into "
                           "TrainingOptimal matrices, but got {0}",
                           stringifyMatrixLayout(desc.getLayout()));
    APInt stride;
    if (Value s = op.getMatrixStride();
        s && !(matchPattern(s, m_ConstantInt(&stride)) && stride.isZero()))
      return "outer products accumulate only with stride 0";
  }
  return "";
}

static std::string checkVectorAccumulate(VectorAccumulateOp op,
                                         ProfileAttr profile) {
  if (std::string tier = needsTier11("vector accumulation", profile);
      !tier.empty())
    return tier;
  Type elem = op.getInput().getType().getElementType();
  FailureOr<InterpretationAttr> input =
      getPhysicalInterpretation(elem, /*isUnsigned=*/false);
  if (failed(input) ||
      !listsAccumulation(profile.getVectorAccumulate(), *input, *input))
    return llvm::formatv("it does not list vector accumulation of {0}", elem);
  return "";
}

static std::string checkConvertMatrix(ConvertMatrixOp op, ProfileAttr profile) {
  // Valid usage: each side is F32 or a matrix interpretation the profile
  // supports.
  for (MatrixDescAttr desc : {op.getSrcDesc(), op.getDstDesc()}) {
    InterpretationAttr interp = desc.getInterpretation();
    if (interp.getKind() == InterpKind::F32)
      continue;
    if (!llvm::any_of(profile.getMatvec().getAsRange<MatVecSupportAttr>(),
                      [&](auto entry) { return entry.getMatrix() == interp; }))
      return llvm::formatv("{0} is neither F32 nor a matrix interpretation "
                           "it supports",
                           name(interp));
  }
  return "";
}

std::string mlir::coopvec::checkSupport(Operation *op, ProfileAttr profile) {
  if (profile.getTier() == SupportTier::NotSupported &&
      isa<CoopVecDialect>(op->getDialect()) && !isa<MatrixSizeOp>(op))
    return "it does not support cooperative vectors";
  return llvm::TypeSwitch<Operation *, std::string>(op)
      .Case([&](MatVecOp op) { return checkMatVec(op, profile); })
      .Case([&](OuterProductAccumulateOp op) {
        return checkOuterProduct(op, profile);
      })
      .Case([&](VectorAccumulateOp op) {
        return checkVectorAccumulate(op, profile);
      })
      .Case([&](ConvertMatrixOp op) { return checkConvertMatrix(op, profile); })
      .Default([](Operation *) { return std::string(); });
}

namespace {
struct CoopVecCheckSupportPass
    : public coopvec::impl::CoopVecCheckSupportBase<CoopVecCheckSupportPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    ProfileAttr profileAttr = module->getAttrOfType<ProfileAttr>(
        CoopVecDialect::getProfileAttrName());
    if (!profileAttr) {
      profileAttr = getBuiltinProfile(&getContext(), profile);
      if (!profileAttr) {
        module.emitError() << "unknown support profile '" << profile
                           << "'; expected one of "
                           << llvm::join(getBuiltinProfileNames(), ", ");
        return signalPassFailure();
      }
    }

    bool failedAny = false;
    module.walk([&](Operation *op) {
      std::string reason = checkSupport(op, profileAttr);
      if (reason.empty())
        return;
      auto diag = emulate ? op->emitWarning() : op->emitError();
      diag << "'" << op->getName() << "' is not supported by profile '"
           << profileAttr.getName().getValue() << "': " << reason;
      if (emulate)
        diag << " (it will be emulated)";
      failedAny = true;
    });
    if (failedAny && !emulate)
      signalPassFailure();
  }
};
} // namespace
