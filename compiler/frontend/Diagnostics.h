//===- Diagnostics.h - front-end errors at a source location ----*- C++ -*-===//
//
// This file implements the front end's error reporting: an error at a source
// location becomes an llvm::StringError whose message is already formatted by
// llvm::SourceMgr as `file:line:col: error: message`, the source line and a
// caret. Tools print it as is (`llvm::errs() << toString(std::move(err))`);
// Sema and MLIRGen report their errors through the same function so every
// front-end error looks alike.
//
//===----------------------------------------------------------------------===//
#ifndef MGP_COMPILER_FRONTEND_DIAGNOSTICS_H
#define MGP_COMPILER_FRONTEND_DIAGNOSTICS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/SMLoc.h"

#include <string>

namespace llvm {
class SourceMgr;
} // namespace llvm

namespace mgp {

/// Formats `message` at `loc` exactly as llvm::SourceMgr::PrintMessage does
/// (`file:line:col: error: message`, then the line, then the caret; `ranges`
/// are underlined with `~`). No trailing newline is removed.
std::string formatDiagnostic(const llvm::SourceMgr &sourceMgr, llvm::SMLoc loc,
                             const llvm::Twine &message,
                             llvm::ArrayRef<llvm::SMRange> ranges = {});

/// An llvm::StringError holding formatDiagnostic(...) as its message.
llvm::Error makeSourceError(const llvm::SourceMgr &sourceMgr, llvm::SMLoc loc,
                            const llvm::Twine &message,
                            llvm::ArrayRef<llvm::SMRange> ranges = {});

} // namespace mgp

#endif // MGP_COMPILER_FRONTEND_DIAGNOSTICS_H
