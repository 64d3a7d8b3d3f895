//===- coopvec-downstream.cpp - a tool built against an installed coopvec -===//
//
// Registers the coopvec dialect and passes, parses a small program with a
// coopvec.matvec (y = W x, W a 2x3 F32 row-major matrix in a byte buffer,
// rows 16 bytes apart),
// lowers it with the registered coopvec-cpu-pipeline, JIT-compiles it with
// MLIR's ExecutionEngine against libcoopvec_runtime.so and checks y against
// a reference computed here. Prints `downstream: ok` when they agree.
//
//===----------------------------------------------------------------------===//

#include "LinAlgCoop/Dialect/CoopVec/IR/CoopVecOps.h"
#include "LinAlgCoop/InitAll.h"

#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>

using namespace mlir;

namespace {
constexpr int64_t kRows = 2, kCols = 3, kStride = 16;
const float kW[kRows][kCols] = {{1.0f, 2.0f, 0.5f}, {-1.0f, 0.0f, 3.0f}};
const float kX[kCols] = {1.0f, 2.0f, 4.0f};

/// The program: W is a constant global of the matrix's bytes (row-major
/// strides are multiples of 16 bytes).
std::string buildProgram() {
  int8_t matrix[kRows * kStride] = {};
  for (int64_t r = 0; r < kRows; ++r)
    std::memcpy(matrix + r * kStride, kW[r], sizeof(kW[r]));
  std::string bytes;
  for (int8_t v : matrix)
    bytes += (bytes.empty() ? "" : ", ") + std::to_string(v);
  return R"(
memref.global "private" constant @w : memref<32xi8> = dense<[)" +
         bytes + R"(]>

func.func @matvec(%x: vector<3xf32>) -> vector<2xf32> {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %g = memref.get_global @w : memref<32xi8>
  %w = memref.cast %g : memref<32xi8> to memref<?xi8>
  %y = coopvec.matvec %x as F32, %w[%c0] matrix<F32, 2x3, RowMajor> stride %c16
         : vector<3xf32>, memref<?xi8> -> vector<2xf32>
  return %y : vector<2xf32>
}
)";
}
} // namespace

int main(int argc, char **argv) {
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  mlir::coopvec::registerAllPasses();

  DialectRegistry registry;
  mlir::coopvec::registerAllDialects(registry);
  registerAllToLLVMIRTranslations(registry);
  MLIRContext context(registry);

  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(buildProgram(), &context);
  if (!module)
    return 1;
  unsigned matvecs = 0;
  module->walk([&](coopvec::MatVecOp op) {
    ++matvecs;
    llvm::outs() << "parsed: " << op->getName() << " "
                 << op.getResult().getType() << "\n";
  });
  if (matvecs != 1)
    return 1;

  // The pipeline by its registered name, added to `pm` (anchored on
  // builtin.module already), as coopvec-opt --pass-pipeline would parse
  // "builtin.module(coopvec-cpu-pipeline{...})".
  PassManager pm(&context);
  if (failed(parsePassPipeline("coopvec-cpu-pipeline{parallel-loops=false}",
                               pm, llvm::errs())) ||
      failed(pm.run(*module)))
    return 1;
  bool lowered = true;
  module->walk([&](Operation *op) {
    if (isa<coopvec::CoopVecDialect>(op->getDialect()))
      lowered = false;
  });
  llvm::outs() << "lowered: " << (lowered ? "no coopvec ops left" : "FAILED")
               << "\n";

  std::string runtime = argc > 1 ? argv[1] : COOPVEC_RUNTIME_LIBRARY;
  SmallVector<StringRef> libs{runtime};
  // ExecutionEngineOptions holds a reference to the transformer.
  auto transformer = makeOptimizingTransformer(/*optLevel=*/2, /*sizeLevel=*/0,
                                               /*targetMachine=*/nullptr);
  ExecutionEngineOptions options;
  options.transformer = transformer;
  options.sharedLibPaths = libs;
  auto engine = ExecutionEngine::create(*module, options);
  if (!engine) {
    llvm::errs() << "downstream: cannot JIT: "
                 << llvm::toString(engine.takeError()) << "\n";
    return 1;
  }

  // Packed calling convention: one pointer per argument, then the result.
  alignas(16) float x[4] = {kX[0], kX[1], kX[2], 0.0f};
  alignas(16) float y[2] = {0.0f, 0.0f};
  void *args[] = {x, y};
  if (llvm::Error error = (*engine)->invokePacked("matvec", args)) {
    llvm::errs() << "downstream: " << llvm::toString(std::move(error)) << "\n";
    return 1;
  }

  bool ok = lowered;
  llvm::outs() << "y =";
  for (int64_t r = 0; r < kRows; ++r) {
    float want = 0.0f;
    for (int64_t c = 0; c < kCols; ++c)
      want += kW[r][c] * kX[c];
    llvm::outs() << llvm::format(" %g", y[r]);
    ok &= std::fabs(y[r] - want) <= 1e-6f;
  }
  llvm::outs() << "\ndownstream: " << (ok ? "ok" : "MISMATCH") << "\n";
  return ok ? 0 : 1;
}
