//===- CheckSupport.cpp - check coopvec ops against a support profile -----===//
//
// One generic walk: every coopvec op states its requirements
// (SupportRequirementsOpInterface) and each is matched against the profile's
// rows, features and rules. An op without the interface is unsupported.
//
//===----------------------------------------------------------------------===//

#include "LinAlgCoop/Dialect/CoopVec/Transforms/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

namespace mlir::coopvec {
#define GEN_PASS_DEF_COOPVECCHECKSUPPORT
#define GEN_PASS_DEF_COOPVECATTACHPROFILE
#include "LinAlgCoop/Dialect/CoopVec/Transforms/Passes.h.inc"
} // namespace mlir::coopvec

using namespace mlir;
using namespace mlir::coopvec;
using Req = SupportRequirement;
using RK = SupportRequirement::Kind;

/// A row field matches when the row leaves it out (any) or names the value.
static bool fieldMatches(InterpretationAttr row, InterpretationAttr value) {
  return !row || row == value;
}

static bool rowMatches(MatVecSupportAttr row, const Req &req) {
  return fieldMatches(row.getInput(), req.input) &&
         fieldMatches(row.getInputInterp(), req.inputInterp) &&
         fieldMatches(row.getMatrix(), req.matrix.getInterpretation()) &&
         fieldMatches(row.getOutput(), req.output) &&
         (!req.bias || fieldMatches(row.getBias(), req.bias));
}

SmallVector<MatVecSupportAttr>
mlir::coopvec::getMatchingMatVecRows(ProfileAttr profile, const Req &req) {
  SmallVector<MatVecSupportAttr> rows;
  for (auto row : profile.getMatvec().getAsRange<MatVecSupportAttr>())
    if (rowMatches(row, req))
      rows.push_back(row);
  return rows;
}

SmallVector<SmallVector<int64_t, 3>>
mlir::coopvec::getTileShapes(ProfileAttr profile, Operation *op) {
  SmallVector<SmallVector<int64_t, 3>> shapes;
  auto iface = dyn_cast<SupportRequirementsOpInterface>(op);
  if (!iface)
    return shapes;
  SmallVector<Req> reqs;
  iface.getSupportRequirements(reqs);
  for (const Req &req : reqs) {
    if (req.kind != RK::MatVec)
      continue;
    for (MatVecSupportAttr row : getMatchingMatVecRows(profile, req)) {
      if (req.matrix.getTranspose() && !row.getTranspose())
        continue;
      for (SmallVector<int64_t, 3> &shape : row.getTileShapes())
        if (!llvm::is_contained(shapes, shape))
          shapes.push_back(std::move(shape));
    }
  }
  return shapes;
}

static StringRef name(InterpretationAttr interp) { return interp.getName(); }

static std::string checkMatVec(const Req &req, ProfileAttr profile) {
  MatrixDescAttr desc = req.matrix;
  std::string combination =
      req.input && req.output
          ? llvm::formatv(
                "input = {0}, input_interp = {1}, matrix = {2}{3}, output = {4}",
                name(req.input), name(req.inputInterp),
                name(desc.getInterpretation()),
                req.bias ? (", bias = " + name(req.bias)).str()
                         : std::string(),
                name(req.output))
                .str()
          : std::string();
  SmallVector<MatVecSupportAttr> rows = getMatchingMatVecRows(profile, req);
  if (rows.empty())
    return combination.empty()
               ? "its vector element types are not cooperative-vector types"
               : "it does not list the matrix-vector combination " +
                     combination;
  if (desc.getTranspose() &&
      llvm::none_of(rows, [](auto row) { return row.getTranspose(); }))
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
  return llvm::any_of(list.getAsRange<AccumSupportAttr>(), [&](auto row) {
    return (!row.getInput() || (input && row.getInput() == input)) &&
           fieldMatches(row.getAccumulation(), accumulation);
  });
}

static std::string needsTier11(StringRef what, ProfileAttr profile) {
  if (profile.getTier() >= SupportTier::Tier1_1)
    return "";
  return llvm::formatv("{0} needs tier1_1, but it is {1}", what,
                       stringifySupportTier(profile.getTier()));
}

static std::string checkOuterProduct(const Req &req, ProfileAttr profile) {
  if (std::string tier = needsTier11("outer-product accumulation", profile);
      !tier.empty())
    return tier;
  MatrixDescAttr desc = req.matrix;
  if (!listsAccumulation(profile.getOuterProduct(), req.input,
                         desc.getInterpretation()))
    return llvm::formatv("it does not list outer-product accumulation of {0} "
                         "into {1}",
                         req.elementType, name(desc.getInterpretation()));
  if (profile.getOuterProductTrainingOptimalOnly()) {
    if (desc.getLayout() != MatrixLayout::TrainingOptimal)
      return llvm::formatv("outer products accumulate only into "
                           "TrainingOptimal matrices, but got {0}",
                           stringifyMatrixLayout(desc.getLayout()));
    if (req.mayHaveStride)
      return "outer products accumulate only with stride 0";
  }
  return "";
}

static std::string checkVectorAccumulate(const Req &req, ProfileAttr profile) {
  if (std::string tier = needsTier11("vector accumulation", profile);
      !tier.empty())
    return tier;
  if (!listsAccumulation(profile.getVectorAccumulate(), req.input, req.input))
    return llvm::formatv("it does not list vector accumulation of {0}",
                         req.elementType);
  return "";
}

static std::string checkMatrixStorage(const Req &req, ProfileAttr profile) {
  // Valid usage of a matrix conversion: each side is F32 or a matrix
  // interpretation the profile supports.
  InterpretationAttr interp = req.matrix.getInterpretation();
  if (interp.getKind() == InterpKind::F32 ||
      llvm::any_of(profile.getMatvec().getAsRange<MatVecSupportAttr>(),
                   [&](auto row) { return fieldMatches(row.getMatrix(), interp); }))
    return "";
  return llvm::formatv("{0} is neither F32 nor a matrix interpretation it "
                       "supports",
                       name(interp));
}

static std::string check(const Req &req, ProfileAttr profile) {
  switch (req.kind) {
  case RK::Feature:
    if (profile.hasFeature(req.feature))
      return "";
    return llvm::formatv("it does not list the feature '{0}'", req.feature);
  case RK::MatVec:
    return checkMatVec(req, profile);
  case RK::OuterProduct:
    return checkOuterProduct(req, profile);
  case RK::VectorAccumulate:
    return checkVectorAccumulate(req, profile);
  case RK::MatrixStorage:
    return checkMatrixStorage(req, profile);
  case RK::Unsupportable:
    return req.feature;
  }
  llvm_unreachable("unknown requirement kind");
}

std::string mlir::coopvec::checkSupport(Operation *op, ProfileAttr profile) {
  if (!isa<CoopVecDialect>(op->getDialect()))
    return "";
  auto iface = dyn_cast<SupportRequirementsOpInterface>(op);
  if (!iface)
    return "the op states no requirements (SupportRequirementsOpInterface)";
  SmallVector<Req> reqs;
  iface.getSupportRequirements(reqs);
  if (reqs.empty())
    return "";
  if (profile.getTier() == SupportTier::NotSupported)
    return "it does not support cooperative vectors";
  for (const Req &req : reqs)
    if (std::string reason = check(req, profile); !reason.empty())
      return reason;
  return "";
}

static std::string unknownProfile(StringRef name) {
  return llvm::formatv("unknown support profile '{0}'; expected one of {1}",
                       name, llvm::join(getBuiltinProfileNames(), ", "));
}

namespace {
struct CoopVecCheckSupportPass
    : public coopvec::impl::CoopVecCheckSupportBase<CoopVecCheckSupportPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    Attribute own = module->getAttr(CoopVecDialect::getProfileAttrName());
    ProfileAttr profileAttr =
        own ? resolveProfile(own) : getBuiltinProfile(&getContext(), profile);
    if (!profileAttr) {
      module.emitError() << unknownProfile(
          own ? cast<StringAttr>(own).getValue() : StringRef(profile));
      return signalPassFailure();
    }

    bool failedAny = false;
    module.walk([&](Operation *op) {
      if (deviceOnly && !op->getParentOfType<gpu::GPUModuleOp>() &&
          !op->getParentOfType<gpu::LaunchOp>())
        return;
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

struct CoopVecAttachProfilePass
    : public coopvec::impl::CoopVecAttachProfileBase<CoopVecAttachProfilePass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    ProfileAttr profileAttr = getBuiltinProfile(&getContext(), profile);
    if (!profileAttr) {
      module.emitError() << unknownProfile(profile);
      return signalPassFailure();
    }
    module->setAttr(CoopVecDialect::getProfileAttrName(), profileAttr);
  }
};
} // namespace
