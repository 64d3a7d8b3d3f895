//===- coopvec-pass-fuzzer.cpp - run every coopvec pipeline on valid IR ---===//
//
// Parses and verifies the input as MLIR (as coopvec-parse-fuzzer does) and
// runs one of coopvec's passes and pipelines on it, chosen by the input's
// first byte (the rest is the IR). A pass may fail with a diagnostic, but
// it must not crash, and the IR after every pass that succeeds must verify.
//
//===----------------------------------------------------------------------===//

#include "LinAlgCoop/InitAll.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <cstdlib>
#include <string>

using namespace mlir;

namespace {

/// Every coopvec pass and pipeline, with the options that change what runs.
const char *const kPipelines[] = {
    "coopvec-check-support{profile=d3d12-tier1.0}",
    "coopvec-check-support{profile=d3d12-tier1.1}",
    "coopvec-check-support{profile=cpu-host}",
    "coopvec-check-support{profile=sm_80}",
    "coopvec-check-support{profile=sm_89}",
    "coopvec-check-support{profile=sm_90}",
    "coopvec-check-support{profile=sm_100a}",
    "coopvec-check-support{profile=sm_120a}",
    "coopvec-check-support{profile=rv64-nuclei-xxlvqmacc}",
    "coopvec-check-support{profile=rv64-sifive-xsfvqmacc}",
    "coopvec-check-support{profile=vulkan1.3}",
    "coopvec-check-support{profile=sm_90 emulate}",
    "coopvec-attach-profile{profile=d3d12-tier1.1},coopvec-check-support",
    "coopvec-attach-profile{profile=sm_120a},coopvec-check-support",
    ("coopvec-attach-profile{profile=rv64-sifive-xsfvqmacc},"
     "coopvec-check-support"),
    "canonicalize",
    "coopvec-batch",
    "coopvec-batch{fuse}",
    "coopvec-tile",
    "coopvec-batch{fuse},coopvec-tile{tile-k=16},canonicalize",
    "convert-coopvec-to-cpu",
    "convert-coopvec-to-cpu{bounds-checks num-threads=1}",
    "coopvec-cpu-pipeline{parallel-loops=false}",
    "coopvec-cpu-pipeline{batch=false bounds-checks}",
    "coopvec-cpu-pipeline",
    "convert-coopvec-to-dxil{profile=d3d12-tier1.1}",
    "convert-coopvec-to-dxil{profile=d3d12-tier1.0 emulate}",
    "coopvec-dxil-pipeline",
    "coopvec-dxil-pipeline{host-driver=true}",
    "coopvec-dxil-pipeline{profile=d3d12-tier1.0 emulate host-driver=true}",
};
constexpr size_t kNumPipelines = std::size(kPipelines);

/// Aborts when a pass that succeeded leaves IR that does not verify.
struct VerifyAfterEachPass : public PassInstrumentation {
  void runAfterPass(Pass *pass, Operation *op) override {
    if (succeeded(verify(op)))
      return;
    std::fprintf(stderr,
                 "coopvec-pass-fuzzer: '%s' succeeded but its output does "
                 "not verify\n",
                 pass->getArgument().str().c_str());
    std::abort();
  }
};

MLIRContext &getContext() {
  static MLIRContext *context = [] {
    coopvec::registerAllPasses();
    DialectRegistry registry;
    coopvec::registerAllDialects(registry);
    auto *ctx = new MLIRContext(registry, MLIRContext::Threading::DISABLED);
    ctx->loadAllAvailableDialects();
    ctx->getDiagEngine().registerHandler([](Diagnostic &) {});
    return ctx;
  }();
  return *context;
}

/// Builds the pass manager of pipeline `index` (fresh for every input: passes
/// keep state between runs).
void buildPipeline(PassManager &pm, size_t index) {
  std::string text = std::string("builtin.module(") + kPipelines[index] + ")";
  std::string errors;
  llvm::raw_string_ostream os(errors);
  if (failed(parsePassPipeline(text, pm, os))) {
    std::fprintf(stderr, "coopvec-pass-fuzzer: bad pipeline '%s': %s\n",
                 text.c_str(), errors.c_str());
    std::abort();
  }
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  MLIRContext &context = getContext();
  // Every pipeline must parse before any input runs.
  for (size_t i = 0; i < kNumPipelines; ++i) {
    PassManager pm(&context);
    buildPipeline(pm, i);
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1)
    return 0;
  MLIRContext &context = getContext();
  size_t index = data[0] % kNumPipelines;
  // The lexer reads up to a terminating NUL, as files read by mlir-opt have.
  std::string text(reinterpret_cast<const char *>(data + 1), size - 1);
  ParserConfig config(&context, /*verifyAfterParse=*/true);
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(text, config);
  if (!module)
    return 0;
  PassManager pm(&context);
  pm.enableVerifier(false); // VerifyAfterEachPass tells failures apart
  pm.addInstrumentation(std::make_unique<VerifyAfterEachPass>());
  buildPipeline(pm, index);
  (void)pm.run(*module);
  return 0;
}
