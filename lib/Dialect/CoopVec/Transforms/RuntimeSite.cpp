//===- RuntimeSite.cpp - source sites for runtime error reports -----------===//
//
// The C strings that name an op and its source location in the CPU
// runtime's error reports ("coopvec.matvec at f.mlir:3:5"), shared by the
// CPU lowering and coopvec-batch-to-gpu so both name a site the same way.
//
//===----------------------------------------------------------------------===//

#include "LinAlgCoop/Dialect/CoopVec/Transforms/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

#include <string>

using namespace mlir;

LLVM::GlobalOp mlir::coopvec::createSiteString(OpBuilder &b, Operation *op,
                                               Location loc, StringRef prefix) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << op->getName() << " at ";
  if (auto fileLoc = loc->findInstanceOf<FileLineColLoc>())
    os << fileLoc.getFilename().getValue() << ":" << fileLoc.getLine() << ":"
       << fileLoc.getColumn();
  else
    os << loc;
  text.push_back('\0');

  auto module = op->getParentOfType<ModuleOp>();
  std::string name;
  for (unsigned i = 0;; ++i) {
    name = (prefix + Twine(i)).str();
    if (!module.lookupSymbol(name))
      break;
  }
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(module.getBody());
  return LLVM::GlobalOp::create(
      b, loc, LLVM::LLVMArrayType::get(b.getI8Type(), text.size()),
      /*isConstant=*/true, LLVM::Linkage::Internal, name,
      b.getStringAttr(text));
}
