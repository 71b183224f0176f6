//===- Diagnostic.h - Errors that carry a rendered source location -*- C++ -*-//
//
// This file implements the error type for problems found in a `.graph` file:
// the text is already rendered by llvm::SourceMgr as
// `file:line:col: error: message`, the source line and a caret, so tools
// print it as it is instead of prefixing their own name.
//
//===----------------------------------------------------------------------===//

#ifndef MGP_GRAPH_DIAGNOSTIC_H
#define MGP_GRAPH_DIAGNOSTIC_H

#include "llvm/Support/Error.h"
#include "llvm/Support/SMLoc.h"
#include "llvm/Support/SourceMgr.h"

#include <string>

namespace mgp::graph {

/// An error whose message is a complete, located diagnostic.
class DiagnosticError : public llvm::ErrorInfo<DiagnosticError> {
public:
  static char ID;
  explicit DiagnosticError(std::string text) : text(std::move(text)) {}
  void log(llvm::raw_ostream &os) const override { os << text; }
  std::error_code convertToErrorCode() const override {
    return llvm::inconvertibleErrorCode();
  }
  const std::string &getText() const { return text; }

private:
  std::string text;
};

/// Renders an error at `loc` of `sourceMgr` (with an optional note).
llvm::Error makeDiagnostic(const llvm::SourceMgr &sourceMgr, llvm::SMLoc loc,
                           const llvm::Twine &msg,
                           llvm::SMLoc noteLoc = llvm::SMLoc(),
                           const llvm::Twine &note = "");

} // namespace mgp::graph

#endif // MGP_GRAPH_DIAGNOSTIC_H
