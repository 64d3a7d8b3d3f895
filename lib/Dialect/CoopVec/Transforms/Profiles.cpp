//===- Profiles.cpp - builtin support profiles as data --------------------===//
//
// The D3D12 profiles: the minimum support set of the SM 6.9 cooperative-vector
// spec, per tier. Adding a target's profile means adding a table here.
//
//===----------------------------------------------------------------------===//

#include "LinAlgCoop/Dialect/CoopVec/Transforms/Passes.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace mlir::coopvec;

namespace {
using I = InterpKind;

struct MatVecRow {
  I input, inputInterp, matrix, bias, output;
};
struct AccumRow {
  I input, accumulation;
};

// D3D12 minimum support set for MatrixVectorMul(Add); transpose is never
// guaranteed.
constexpr MatVecRow kD3D12MatVec[] = {
    {I::F16, I::F16, I::F16, I::F16, I::F16},
    {I::F16, I::F8_E4M3, I::F8_E4M3, I::F16, I::F16},
    {I::F16, I::F8_E5M2, I::F8_E5M2, I::F16, I::F16},
    {I::PackedS8x32, I::I8, I::I8, I::I32, I::I32},
    {I::F32, I::I8, I::I8, I::I32, I::I32},
};
constexpr AccumRow kD3D12OuterProduct[] = {{I::F16, I::F16}, {I::F16, I::F32}};
constexpr AccumRow kD3D12VectorAccumulate[] = {{I::F16, I::F16}};

AccumSupportAttr accumRow(MLIRContext *ctx, const AccumRow &row) {
  return AccumSupportAttr::get(ctx, InterpretationAttr::get(ctx, row.input),
                               InterpretationAttr::get(ctx, row.accumulation));
}

constexpr StringRef kProfileNames[] = {"d3d12-tier1.0", "d3d12-tier1.1"};
} // namespace

ArrayRef<StringRef> mlir::coopvec::getBuiltinProfileNames() {
  return kProfileNames;
}

ProfileAttr mlir::coopvec::getBuiltinProfile(MLIRContext *ctx,
                                             StringRef name) {
  SupportTier tier;
  if (name == "d3d12-tier1.0")
    tier = SupportTier::Tier1_0;
  else if (name == "d3d12-tier1.1")
    tier = SupportTier::Tier1_1;
  else
    return {};

  Builder b(ctx);
  SmallVector<Attribute> matvec, outer, accumulate;
  for (const MatVecRow &row : kD3D12MatVec)
    matvec.push_back(MatVecSupportAttr::get(
        ctx, InterpretationAttr::get(ctx, row.input),
        InterpretationAttr::get(ctx, row.inputInterp),
        InterpretationAttr::get(ctx, row.matrix),
        InterpretationAttr::get(ctx, row.bias),
        InterpretationAttr::get(ctx, row.output), /*transpose=*/false));
  if (tier == SupportTier::Tier1_1) {
    for (const AccumRow &row : kD3D12OuterProduct)
      outer.push_back(accumRow(ctx, row));
    for (const AccumRow &row : kD3D12VectorAccumulate)
      accumulate.push_back(accumRow(ctx, row));
  }
  return ProfileAttr::get(ctx, b.getStringAttr(name), tier,
                          b.getArrayAttr(matvec), b.getArrayAttr(outer),
                          b.getArrayAttr(accumulate),
                          /*fp8OptimalOnly=*/true,
                          /*outerProductTrainingOptimalOnly=*/true);
}
