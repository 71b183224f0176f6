//===- GraphLexer.h - Tokens of the .graph language -------------*- C++ -*-===//
//
// This file implements the hand-written lexer of the `.graph` language:
// identifiers (which may contain dots, as in `layer1.0.conv1.weight`),
// integer and float literals, punctuation, and `#` comments to the end of the
// line. Every token keeps its location for diagnostics.
//
//===----------------------------------------------------------------------===//

#ifndef MGP_GRAPH_GRAPHLEXER_H
#define MGP_GRAPH_GRAPHLEXER_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SMLoc.h"

namespace mgp::graph {

enum class TokenKind {
  Identifier,
  Integer,
  Float,
  Equal,
  Colon,
  Comma,
  LParen,
  RParen,
  LBracket,
  RBracket,
  Eof,
  Invalid,
};

/// A token: its kind and its text inside the source buffer.
struct Token {
  TokenKind kind = TokenKind::Eof;
  llvm::StringRef text;

  llvm::SMLoc getLoc() const {
    return llvm::SMLoc::getFromPointer(text.data());
  }
  bool is(TokenKind k) const { return kind == k; }
};

/// Splits a buffer into tokens on demand.
class GraphLexer {
public:
  explicit GraphLexer(llvm::StringRef buffer)
      : buffer(buffer), cur(buffer.begin()) {}

  /// Returns the next token; Eof at the end, forever.
  Token lex();

private:
  Token makeToken(TokenKind kind, const char *start) {
    return {kind, llvm::StringRef(start, cur - start)};
  }
  Token lexNumber(const char *start);

  llvm::StringRef buffer;
  const char *cur;
};

} // namespace mgp::graph

#endif // MGP_GRAPH_GRAPHLEXER_H
