//===- EmitAST.cpp - mgpc's source input and -emit=ast --------------------===//
//
// This file implements mgpc's `-emit=ast` path: the source file is loaded
// into an llvm::SourceMgr, parsed by the front end, and its AST dumped to the
// output file.
//
//===----------------------------------------------------------------------===//
#include "tools/mgpc/EmitAST.h"

#include "compiler/frontend/Frontend.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace llvm;

Error mgp::emitAST(StringRef inputFilename, StringRef outputFilename) {
  SourceMgr sourceMgr;
  Expected<unsigned> bufferId = addSourceFile(sourceMgr, inputFilename);
  if (!bufferId)
    return bufferId.takeError();
  Expected<std::unique_ptr<ast::Module>> module =
      parseSourceFile(sourceMgr, *bufferId);
  if (!module)
    return module.takeError();
  std::error_code ec;
  ToolOutputFile output(outputFilename, ec, sys::fs::OF_TextWithCRLF);
  if (ec)
    return createStringError(ec, "cannot open output file '%s': %s",
                             outputFilename.str().c_str(),
                             ec.message().c_str());
  dumpAST(**module, output.os());
  output.keep();
  return Error::success();
}
