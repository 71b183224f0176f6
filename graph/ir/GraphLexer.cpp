//===- GraphLexer.cpp - Tokens of the .graph language ---------------------===//
//
// This file implements the `.graph` lexer.
//
//===----------------------------------------------------------------------===//

#include "graph/ir/GraphLexer.h"

#include <cctype>

using namespace mgp::graph;

static bool isIdentStart(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}
static bool isIdentBody(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.';
}
static bool isDigit(char c) { return c >= '0' && c <= '9'; }

Token GraphLexer::lex() {
  const char *end = buffer.end();
  while (cur != end) {
    if (*cur == '#') {
      while (cur != end && *cur != '\n')
        ++cur;
      continue;
    }
    if (!std::isspace(static_cast<unsigned char>(*cur)))
      break;
    ++cur;
  }
  const char *start = cur;
  if (cur == end)
    return {TokenKind::Eof, llvm::StringRef(end, 0)};
  char c = *cur++;
  switch (c) {
  case '=':
    return makeToken(TokenKind::Equal, start);
  case ':':
    return makeToken(TokenKind::Colon, start);
  case ',':
    return makeToken(TokenKind::Comma, start);
  case '(':
    return makeToken(TokenKind::LParen, start);
  case ')':
    return makeToken(TokenKind::RParen, start);
  case '[':
    return makeToken(TokenKind::LBracket, start);
  case ']':
    return makeToken(TokenKind::RBracket, start);
  default:
    break;
  }
  if (isIdentStart(c)) {
    while (cur != end && isIdentBody(*cur))
      ++cur;
    return makeToken(TokenKind::Identifier, start);
  }
  if (isDigit(c) ||
      ((c == '-' || c == '.') && cur != end && (isDigit(*cur) || *cur == '.')))
    return lexNumber(start);
  return makeToken(TokenKind::Invalid, start);
}

/// number ::= '-'? digit* ('.' digit*)? ([eE] [+-]? digit+)?
Token GraphLexer::lexNumber(const char *start) {
  const char *end = buffer.end();
  cur = start;
  if (*cur == '-')
    ++cur;
  bool isFloat = false;
  while (cur != end && isDigit(*cur))
    ++cur;
  if (cur != end && *cur == '.') {
    isFloat = true;
    ++cur;
    while (cur != end && isDigit(*cur))
      ++cur;
  }
  if (cur != end && (*cur == 'e' || *cur == 'E')) {
    const char *save = cur++;
    if (cur != end && (*cur == '+' || *cur == '-'))
      ++cur;
    if (cur == end || !isDigit(*cur)) {
      cur = save;
    } else {
      isFloat = true;
      while (cur != end && isDigit(*cur))
        ++cur;
    }
  }
  // A number glued to letters (`3x`) is not a number.
  if (cur != end && isIdentBody(*cur)) {
    while (cur != end && isIdentBody(*cur))
      ++cur;
    return makeToken(TokenKind::Invalid, start);
  }
  return makeToken(isFloat ? TokenKind::Float : TokenKind::Integer, start);
}
