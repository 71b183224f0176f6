//===- Frontend.h - the syntax half of the mgp front end --------*- C++ -*-===//
//
// This file implements the entry points of the syntax front end: parsing a
// .mgp/.py buffer held by an llvm::SourceMgr into an ast::Module, and dumping
// the AST as indented text (`mgpc -emit=ast`). Errors are llvm::StringErrors
// whose message is already formatted (`file:line:col: error: message`, the
// source line and a caret, see Diagnostics.h); print them with
// `llvm::errs() << llvm::toString(std::move(err))`.
//
//===----------------------------------------------------------------------===//
#ifndef MGP_COMPILER_FRONTEND_FRONTEND_H
#define MGP_COMPILER_FRONTEND_FRONTEND_H

#include "compiler/frontend/AST.h"

#include "llvm/Support/Error.h"

#include <memory>

namespace llvm {
class SourceMgr;
class raw_ostream;
} // namespace llvm

namespace mgp {

/// Reads `path` ("-" for stdin) into a new buffer of `sourceMgr` and returns
/// its id; a missing or unreadable file is an error naming the path.
llvm::Expected<unsigned> addSourceFile(llvm::SourceMgr &sourceMgr,
                                       llvm::StringRef path);

/// Parses buffer `bufferId` of `sourceMgr` (which must outlive the module:
/// every SMLoc in the AST points into it). Jit-decorated kernels are parsed
/// strictly: the first syntax error in one, or a lexical error anywhere in it,
/// is returned. Other top-level code that does not parse is skipped by
/// indentation and recorded in Module::skipped.
llvm::Expected<std::unique_ptr<ast::Module>>
parseSourceFile(llvm::SourceMgr &sourceMgr, unsigned bufferId);

/// Writes the indented text form of `module` (one node per line).
void dumpAST(const ast::Module &module, llvm::raw_ostream &os);

} // namespace mgp

#endif // MGP_COMPILER_FRONTEND_FRONTEND_H
