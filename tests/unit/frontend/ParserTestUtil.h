//===- ParserTestUtil.h - helpers for the parser tests ----------*- C++ -*-===//
//
// This file implements small helpers shared by the parser unit tests: parse
// a string into a module (keeping its SourceMgr alive) and fetch statements
// and expressions of the first function.
//
//===----------------------------------------------------------------------===//
#ifndef MGP_TESTS_UNIT_FRONTEND_PARSERTESTUTIL_H
#define MGP_TESTS_UNIT_FRONTEND_PARSERTESTUTIL_H

#include "compiler/frontend/Frontend.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <memory>
#include <string>

namespace mgp {

/// A parsed source: the SourceMgr owns the text the AST points into.
struct Parsed {
  llvm::SourceMgr sourceMgr;
  std::unique_ptr<ast::Module> module;
  std::string error; ///< The formatted error if parsing failed.
};

inline std::unique_ptr<Parsed> parseString(llvm::StringRef source,
                                           llvm::StringRef name = "test.py") {
  auto parsed = std::make_unique<Parsed>();
  unsigned id = parsed->sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(source, name), llvm::SMLoc());
  auto module = parseSourceFile(parsed->sourceMgr, id);
  if (module)
    parsed->module = std::move(*module);
  else
    parsed->error = llvm::toString(module.takeError());
  return parsed;
}

/// Parses `x = <expr>` inside a kernel.
inline std::unique_ptr<Parsed> parseExprSource(llvm::StringRef expr) {
  return parseString("@jit\ndef k():\n    x = " + expr.str() + "\n");
}

/// The value of the first statement (an assignment) of the first function.
inline const ast::Expr &firstValue(const Parsed &parsed) {
  const auto &body = parsed.module->functions[0]->body;
  return llvm::cast<ast::AssignStmt>(*body[0]).getValue();
}

} // namespace mgp

#endif // MGP_TESTS_UNIT_FRONTEND_PARSERTESTUTIL_H
