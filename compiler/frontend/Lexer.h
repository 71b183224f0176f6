//===- Lexer.h - the mgp lexer ----------------------------------*- C++ -*-===//
//
// This file implements the lexer of the mgp language, which follows Python's
// tokenizer: INDENT/DEDENT from a stack of indentation levels (tabs and spaces
// checked for consistency the way CPython does), NEWLINE only at the end of a
// logical line (implicit joining inside ()[]{}, backslash continuation, blank
// and comment-only lines skipped), Python's operators, keywords, numbers and
// string literals (f-strings are lexed as plain strings). It is pull-based and
// linear in the input. A lexical error is returned as a TokenKind::Error token
// whose message getErrorMessage() holds.
//
//===----------------------------------------------------------------------===//
#ifndef MGP_COMPILER_FRONTEND_LEXER_H
#define MGP_COMPILER_FRONTEND_LEXER_H

#include "compiler/frontend/Token.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Twine.h"

#include <string>

namespace mgp {

/// Turns one source buffer into tokens.
class Lexer {
public:
  /// The deepest indentation (as CPython) and bracket nesting accepted.
  static constexpr unsigned kMaxIndentLevels = 100;
  static constexpr unsigned kMaxBracketDepth = 200;

  /// Lexes `buffer`, which must stay alive while tokens are in use.
  explicit Lexer(llvm::StringRef buffer);

  /// Returns the next token; after EndOfFile, EndOfFile again.
  Token lex();

  /// The message of the last Error token.
  llvm::StringRef getErrorMessage() const { return errorMessage; }

  /// Error recovery for loosely parsed host code: moves to the next line that
  /// starts in column 0 with a name or `@` (outside strings and brackets) and
  /// after the line holding `itemStart`, searching from the line holding
  /// `errorPos`; resets the indentation and bracket state there.
  void skipToTopLevel(const char *itemStart, const char *errorPos);

  /// The value of a String token's spelling: prefix and quotes removed,
  /// escapes decoded (except for raw strings and f-strings, kept verbatim).
  static std::string decodeString(llvm::StringRef spelling);

private:
  Token make(TokenKind kind, const char *start, const char *end);
  Token error(const char *at, const llvm::Twine &message, size_t length = 1);
  bool lexIndentation(Token &result);
  Token lexName(const char *start);
  Token lexNumber(const char *start);
  Token lexString(const char *start, const char *quote);
  Token lexPunctuation(const char *start);
  Token lexEndOfFile();
  void newLine(const char *afterNewline);
  static bool isNewlineChar(char c) { return c == '\n' || c == '\r'; }
  /// Consumes the line ending at `p` ("\n", "\r\n" or "\r").
  static const char *skipNewline(const char *p, const char *end);
  /// The start of the line that holds `p`.
  static const char *lineStartOf(const char *begin, const char *p);
  /// Scans one line from `p` for skipToTopLevel, updating the bracket depth
  /// and the open triple quote; returns the start of the next line.
  const char *scanLineForRecovery(const char *p, int &depth,
                                  char &tripleQuote) const;

  struct Bracket {
    char open;
    const char *at;
    unsigned line, col;
  };

  const char *bufferStart, *bufferEnd, *cur, *lineStart;
  unsigned line = 1;
  bool atLineStart = true;
  /// True when the current logical line has produced a token (so a NEWLINE
  /// is owed before EOF).
  bool lineHasTokens = false;
  unsigned pendingDedents = 0;
  /// Indentation columns with tabs to multiples of 8 and tabs as 1 column;
  /// CPython reports a TabError when the two orders disagree.
  llvm::SmallVector<unsigned, 8> indents{0}, altIndents{0};
  llvm::SmallVector<Bracket, 8> brackets;
  std::string errorMessage;
};

} // namespace mgp

#endif // MGP_COMPILER_FRONTEND_LEXER_H
