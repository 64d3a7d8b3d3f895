//===- CycleReport.cpp - matrix-engine cycles and math-fidelity cost ------===//
//
// --coopvec-cycle-report: per matrix op, the tile steps of the target's
// matrix engine times the fidelity's phases, as remarks. The engine's tile
// shape is profile data (Profiles.cpp); the phases are the fidelity's.
//
//===----------------------------------------------------------------------===//

#include "LinAlgCoop/Dialect/CoopVec/Transforms/Passes.h"

#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

#include <cstdio>
#include <string>

namespace mlir::coopvec {
#define GEN_PASS_DEF_COOPVECCYCLEREPORT
#include "LinAlgCoop/Dialect/CoopVec/Transforms/Passes.h.inc"
} // namespace mlir::coopvec

using namespace mlir;
using namespace mlir::coopvec;

namespace {
/// What the engine multiplies for one op: M matrix rows, N input rows, K.
struct Product {
  int64_t m, n, k;
  bool dynamicRows;
  MathFidelityAttr fidelity;
};

/// The product of a matrix op, or nothing for other ops.
std::optional<Product> getProduct(Operation *op, int64_t dynamicRows) {
  return llvm::TypeSwitch<Operation *, std::optional<Product>>(op)
      .Case([](MatVecOp op) -> std::optional<Product> {
        MatrixDescAttr desc = op.getMatrixDesc();
        return Product{desc.getRows(), 1, desc.getCols(), false,
                       op.getFidelityAttr()};
      })
      .Case([&](BatchMatVecOp op) -> std::optional<Product> {
        MatrixDescAttr desc = op.getMatrixDesc();
        int64_t rows = op.getInputs().getType().getDimSize(0);
        bool dynamic = ShapedType::isDynamic(rows);
        return Product{desc.getRows(), dynamic ? dynamicRows : rows,
                       desc.getCols(), dynamic, op.getFidelityAttr()};
      })
      .Case([](TileMmaOp op) -> std::optional<Product> {
        VectorType lhs = op.getLhs().getType();
        return Product{lhs.getDimSize(0), op.getRhs().getType().getDimSize(1),
                       lhs.getDimSize(1), false, op.getFidelityAttr()};
      })
      .Default([](Operation *) { return std::nullopt; });
}

/// `value` with `digits` decimals, or with -1 as short as %g prints it.
std::string fixed(double value, int digits) {
  char buffer[64];
  if (digits < 0)
    std::snprintf(buffer, sizeof(buffer), "%g", value);
  else
    std::snprintf(buffer, sizeof(buffer), "%.*f", digits, value);
  return buffer;
}

/// The first tile shape any `matvec` row of `profile` lists.
std::optional<TileShape> getFirstTile(ProfileAttr profile) {
  for (auto row : profile.getMatvec().getAsRange<MatVecSupportAttr>())
    for (ArrayRef<int64_t> s : row.getTileShapes())
      return TileShape{s[0], s[1], s[2]};
  return std::nullopt;
}

struct CoopVecCycleReportPass
    : public coopvec::impl::CoopVecCycleReportBase<CoopVecCycleReportPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    ProfileAttr target =
        resolveProfile(module->getAttr(CoopVecDialect::getProfileAttrName()));
    if (!target)
      target = getBuiltinProfile(&getContext(), profile);
    if (!target) {
      module.emitError() << "unknown profile '" << profile << "'";
      return signalPassFailure();
    }
    std::optional<TileShape> engine = getFirstTile(target);
    if (!engine) {
      module.emitError() << "profile '" << target.getName().getValue()
                         << "' lists no tile shapes: no cycle model";
      return signalPassFailure();
    }
    if (dynamicRows < 1 || !(clockGHz > 0)) {
      module.emitError("dynamic-rows and clock-ghz must be positive");
      return signalPassFailure();
    }

    int64_t ops = 0, totalCycles = 0, totalLoFi = 0;
    module.walk([&](Operation *op) {
      std::optional<Product> product = getProduct(op, dynamicRows);
      if (!product)
        return;
      // The row that matches the op's types gives its tile; the engine's
      // first tile otherwise (the tile level states no matrix row).
      TileShape tile = *engine;
      SmallVector<SmallVector<int64_t, 3>> shapes = getTileShapes(target, op);
      if (!shapes.empty())
        tile = TileShape{shapes[0][0], shapes[0][1], shapes[0][2]};
      int64_t tm = llvm::divideCeil(product->m, tile.m),
              tn = llvm::divideCeil(product->n, tile.n),
              tk = llvm::divideCeil(product->k, tile.k);
      int64_t steps = tm * tn * tk;
      unsigned phases = product->fidelity ? product->fidelity.getPhases() : 1;
      int64_t cycles = steps * phases;
      ++ops;
      totalCycles += cycles;
      totalLoFi += steps;
      double macs = double(product->m) * product->n * product->k;
      double engineShare =
          100.0 * macs / (double(steps) * tile.m * tile.n * tile.k);
      double tflops = 2.0 * macs / double(cycles) * clockGHz / 1000.0;
      int64_t rowsUsed = std::min(product->n, tile.n);

      InFlightDiagnostic remark = op->emitRemark();
      remark << product->m << "x" << product->k << " x " << product->k << "x";
      if (product->dynamicRows)
        remark << "?(" << product->n << ")";
      else
        remark << product->n;
      remark << ", "
             << (product->fidelity
                     ? stringifyMathFidelity(product->fidelity.getFidelity())
                     : StringRef("lofi (default)"))
             << ": " << tm << "x" << tn << "x" << tk << " = " << steps
             << " tile steps of " << tile.m << "x" << tile.n << "x" << tile.k
             << " x " << phases << (phases == 1 ? " phase" : " phases")
             << " = " << cycles << " cycles ("
             << fixed(phases, 2) << "x LoFi), ";
      if (product->n < tile.n)
        remark << rowsUsed << "/" << tile.n << " rows, ";
      remark << fixed(engineShare, 1) << "% of the engine, "
             << fixed(tflops, 3) << " TFLOP/s at "
             << fixed(clockGHz, -1) << " GHz";
    });
    module.emitRemark() << "cycle report ('" << target.getName().getValue()
                        << "'): " << ops << " matrix ops, " << totalCycles
                        << " cycles, " << totalLoFi << " at LoFi ("
                        << fixed(totalLoFi ? double(totalCycles) /
                                                 double(totalLoFi)
                                           : 1.0,
                                 2)
                        << "x), "
                        << fixed(double(totalCycles) / clockGHz, 1)
                        << " ns at " << fixed(clockGHz, -1)
                        << " GHz";
  }
};
} // namespace
