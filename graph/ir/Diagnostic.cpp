//===- Diagnostic.cpp - Errors that carry a rendered source location ------===//
//
// This file implements the rendering of located graph errors through
// llvm::SourceMgr into a DiagnosticError.
//
//===----------------------------------------------------------------------===//

#include "graph/ir/Diagnostic.h"

#include "llvm/Support/raw_ostream.h"

using namespace mgp::graph;

char DiagnosticError::ID = 0;

llvm::Error mgp::graph::makeDiagnostic(const llvm::SourceMgr &sourceMgr,
                                       llvm::SMLoc loc, const llvm::Twine &msg,
                                       llvm::SMLoc noteLoc,
                                       const llvm::Twine &note) {
  std::string text;
  llvm::raw_string_ostream os(text);
  sourceMgr.GetMessage(loc, llvm::SourceMgr::DK_Error, msg)
      .print(nullptr, os, /*ShowColors=*/false);
  if (noteLoc.isValid())
    sourceMgr.GetMessage(noteLoc, llvm::SourceMgr::DK_Note, note)
        .print(nullptr, os, /*ShowColors=*/false);
  return llvm::make_error<DiagnosticError>(std::move(text));
}
