//===- Token.h - tokens of the mgp language ---------------------*- C++ -*-===//
//
// This file implements the token kinds of the mgp (Python-syntax) language
// and the Token the lexer hands to the parser: a kind, its spelling (a slice
// of the source buffer) and its 1-based line and column.
//
//===----------------------------------------------------------------------===//
#ifndef MGP_COMPILER_FRONTEND_TOKEN_H
#define MGP_COMPILER_FRONTEND_TOKEN_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SMLoc.h"

namespace mgp {

/// Every kind of token: structure, literals, keywords, operators.
enum class TokenKind {
  // Structure.
  EndOfFile,
  Error, ///< A lexical error; Lexer::getErrorMessage() says which.
  Newline,
  Indent,
  Dedent,
  // Literals and names.
  Name,
  Int,
  Float,
  String,
  // Keywords.
  KwFalse, KwNone, KwTrue, KwAnd, KwAs, KwAssert, KwAsync, KwAwait, KwBreak,
  KwClass, KwContinue, KwDef, KwDel, KwElif, KwElse, KwExcept, KwFinally,
  KwFor, KwFrom, KwGlobal, KwIf, KwImport, KwIn, KwIs, KwLambda, KwNonlocal,
  KwNot, KwOr, KwPass, KwRaise, KwReturn, KwTry, KwWhile, KwWith, KwYield,
  // Brackets and punctuation.
  LParen, RParen, LSquare, RSquare, LBrace, RBrace, Comma, Colon, Semicolon,
  Dot, Ellipsis, Arrow, At, Equal, ColonEqual,
  // Operators.
  Plus, Minus, Star, Slash, SlashSlash, Percent, StarStar, LessLess,
  GreaterGreater, Amp, Pipe, Caret, Tilde, Less, Greater, LessEqual,
  GreaterEqual, EqualEqual, NotEqual,
  // Augmented assignments.
  PlusEqual, MinusEqual, StarEqual, SlashEqual, SlashSlashEqual, PercentEqual,
  StarStarEqual, AmpEqual, PipeEqual, CaretEqual, LessLessEqual,
  GreaterGreaterEqual, AtEqual,
};

/// A human-readable name of a kind for messages: `'('`, `newline`, `name`.
llvm::StringRef getTokenKindName(TokenKind kind);

/// One token. Indent/Dedent/Newline/EndOfFile have an empty spelling that
/// points at where they occur.
struct Token {
  TokenKind kind = TokenKind::EndOfFile;
  llvm::StringRef spelling;
  unsigned line = 0;
  unsigned col = 0;

  bool is(TokenKind k) const { return kind == k; }
  bool isNot(TokenKind k) const { return kind != k; }
  llvm::SMLoc getLoc() const { return llvm::SMLoc::getFromPointer(spelling.data()); }
  llvm::SMLoc getEndLoc() const {
    return llvm::SMLoc::getFromPointer(spelling.data() + spelling.size());
  }
  llvm::SMRange getRange() const { return {getLoc(), getEndLoc()}; }
};

} // namespace mgp

#endif // MGP_COMPILER_FRONTEND_TOKEN_H
