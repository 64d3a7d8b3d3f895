//===- coopvec-parse-fuzzer.cpp - parse and verify arbitrary MLIR ---------===//
//
// Parses the input as MLIR with every dialect coopvec-opt registers and
// verifies it: custom parsers, attribute and type parsers and verifiers
// must answer any text with diagnostics, never a crash. One context is
// reused (single-threaded, diagnostics swallowed); a module that parses and
// verifies must also print and parse back.
//
//===----------------------------------------------------------------------===//

#include "LinAlgCoop/InitAll.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <cstdlib>
#include <string>

using namespace mlir;

static MLIRContext &getContext() {
  static MLIRContext *context = [] {
    DialectRegistry registry;
    coopvec::registerAllDialects(registry);
    auto *ctx = new MLIRContext(registry, MLIRContext::Threading::DISABLED);
    ctx->loadAllAvailableDialects();
    // Errors are the expected answer to most inputs: drop them.
    ctx->getDiagEngine().registerHandler([](Diagnostic &) {});
    return ctx;
  }();
  return *context;
}

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  (void)getContext();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  MLIRContext &context = getContext();
  // The lexer reads up to a terminating NUL, as files read by mlir-opt have.
  std::string text(reinterpret_cast<const char *>(data), size);
  ParserConfig config(&context, /*verifyAfterParse=*/true);
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(text, config);
  if (!module)
    return 0;
  // What the printer writes, the parser must read back as a valid module.
  std::string printed;
  llvm::raw_string_ostream os(printed);
  module->print(os);
  OwningOpRef<ModuleOp> reparsed = parseSourceString<ModuleOp>(printed, config);
  if (!reparsed) {
    std::fprintf(stderr,
                 "coopvec-parse-fuzzer: the printed module does not "
                 "parse back:\n%s\n",
                 printed.c_str());
    std::abort();
  }
  return 0;
}
