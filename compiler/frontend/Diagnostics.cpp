//===- Diagnostics.cpp - front-end errors at a source location -----------===//
//
// This file implements formatting a front-end error with llvm::SourceMgr into
// the message of an llvm::StringError.
//
//===----------------------------------------------------------------------===//
#include "compiler/frontend/Diagnostics.h"

#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

std::string mgp::formatDiagnostic(const SourceMgr &sourceMgr, SMLoc loc,
                                  const Twine &message,
                                  ArrayRef<SMRange> ranges) {
  std::string text;
  raw_string_ostream os(text);
  // Without a location SourceMgr prints `<unknown>:0: error: ...`, which is
  // still the right shape for a tool to print.
  sourceMgr.PrintMessage(os, loc, SourceMgr::DK_Error, message, ranges,
                         /*FixIts=*/{}, /*ShowColors=*/false);
  return text;
}

Error mgp::makeSourceError(const SourceMgr &sourceMgr, SMLoc loc,
                           const Twine &message, ArrayRef<SMRange> ranges) {
  return make_error<StringError>(
      formatDiagnostic(sourceMgr, loc, message, ranges),
      inconvertibleErrorCode());
}
