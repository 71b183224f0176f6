//===- LexerRecovery.cpp - the mgp lexer: skipping unparsable host code ---===//
//
// This file implements Lexer::skipToTopLevel, the recovery the parser uses
// when top-level host code does not parse: find the next line that starts a
// top-level statement (column 0, outside brackets and triple-quoted strings)
// and restart lexing there with a fresh indentation state.
//
//===----------------------------------------------------------------------===//
#include "compiler/frontend/Lexer.h"

#include "llvm/ADT/StringExtras.h"

using namespace mgp;
using llvm::StringRef;

/// Returns the start of the line that holds `p`.
const char *Lexer::lineStartOf(const char *begin, const char *p) {
  while (p > begin && !isNewlineChar(p[-1]))
    --p;
  return p;
}

const char *Lexer::scanLineForRecovery(const char *p, int &depth,
                                       char &tripleQuote) const {
  while (p < bufferEnd && !isNewlineChar(*p)) {
    char c = *p;
    if (tripleQuote) {
      if (c == '\\' && p + 1 < bufferEnd && !isNewlineChar(p[1]))
        ++p;
      else if (c == tripleQuote &&
               StringRef(p, bufferEnd - p).starts_with(std::string(3, c))) {
        tripleQuote = 0;
        p += 2;
      }
      ++p;
      continue;
    }
    if (c == '#')
      break;
    if (c == '\'' || c == '"') {
      if (StringRef(p, bufferEnd - p).starts_with(std::string(3, c))) {
        tripleQuote = c;
        p += 3;
        continue;
      }
      for (++p; p < bufferEnd && !isNewlineChar(*p) && *p != c; ++p)
        if (*p == '\\' && p + 1 < bufferEnd && !isNewlineChar(p[1]))
          ++p;
      if (p < bufferEnd && *p == c)
        ++p;
      continue;
    }
    if (c == '(' || c == '[' || c == '{')
      ++depth;
    else if (c == ')' || c == ']' || c == '}')
      depth = depth > 0 ? depth - 1 : 0;
    ++p;
  }
  while (p < bufferEnd && !isNewlineChar(*p))
    ++p;
  return p < bufferEnd ? skipNewline(p, bufferEnd) : p;
}

void Lexer::skipToTopLevel(const char *itemStart, const char *errorPos) {
  const char *itemLine = lineStartOf(bufferStart, itemStart);
  const char *errorLine = lineStartOf(bufferStart, errorPos);
  auto startsStatement = [](char c) {
    return llvm::isAlpha(c) || c == '_' || c == '@';
  };
  const char *stop = bufferEnd;
  // An error on the first token of a column-0 line after the item (e.g. a
  // missing indented block): the next item starts right there.
  if (errorPos == errorLine && errorLine > itemLine && errorPos < bufferEnd &&
      startsStatement(*errorPos))
    stop = errorPos;
  // Otherwise scan the lines after the lexer's position, starting from its
  // bracket depth and tracking brackets and triple-quoted strings, so that a
  // column-0 line inside either is not taken for the next statement. If the
  // brackets never balance, scan again ignoring them.
  for (int pass = 0; pass < 2 && stop == bufferEnd; ++pass) {
    bool useDepth = pass == 0;
    const char *p = cur;
    bool checkLine = p == lineStartOf(bufferStart, p) && p > itemLine;
    int depth = int(brackets.size());
    char tripleQuote = 0;
    while (p < bufferEnd) {
      if (checkLine && (depth <= 0 || !useDepth) && !tripleQuote &&
          startsStatement(*p)) {
        stop = p;
        break;
      }
      checkLine = true;
      p = scanLineForRecovery(p, depth, tripleQuote);
    }
  }
  // Recount the line number up to the stop point from a known position.
  const char *from = cur <= stop ? lineStart : bufferStart;
  unsigned newLineNo = cur <= stop ? line : 1;
  for (const char *q = from; q < stop; ++q) {
    if (*q == '\n' || (*q == '\r' && (q + 1 == bufferEnd || q[1] != '\n')))
      ++newLineNo;
  }
  line = newLineNo;
  cur = stop;
  lineStart = lineStartOf(bufferStart, stop);
  atLineStart = true;
  lineHasTokens = false;
  pendingDedents = 0;
  indents.assign(1, 0);
  altIndents.assign(1, 0);
  brackets.clear();
}
