//===- LexerLiterals.cpp - the mgp lexer: numbers and strings -------------===//
//
// This file implements the literal half of the lexer: Python's integer
// (decimal, 0x, 0o, 0b, with `_` separators) and float (`1.`, `.5`, `1e-5`)
// literals, string literals with their prefixes and triple quotes, and the
// decoding of a string literal's escapes. Values are computed by the parser.
//
//===----------------------------------------------------------------------===//
#include "compiler/frontend/Lexer.h"

#include "llvm/ADT/StringExtras.h"

using namespace mgp;
using llvm::StringRef;

/// Consumes `digit (_? digit)*` from `p`; returns false if a `_` is not
/// followed by a digit. `isDigit` tells which characters are digits.
template <typename IsDigit>
static bool consumeDigits(const char *&p, const char *end, IsDigit isDigit) {
  while (p < end) {
    if (isDigit(*p)) {
      ++p;
    } else if (*p == '_') {
      if (p + 1 >= end || !isDigit(p[1]))
        return false;
      ++p;
    } else {
      break;
    }
  }
  return true;
}

static bool isNameChar(char c) { return llvm::isAlnum(c) || c == '_'; }

Token Lexer::lexNumber(const char *start) {
  const char *p = start;
  const char *end = bufferEnd;
  auto fail = [&](const char *at, StringRef kind) {
    // Swallow the rest of the malformed literal.
    while (p < end && (isNameChar(*p) || *p == '.'))
      ++p;
    cur = p;
    return error(at, "invalid " + kind + " literal", p - at);
  };
  if (*p == '0' && p + 1 < end &&
      StringRef("xXoObB").contains(p[1])) {
    char base = llvm::toLower(p[1]);
    StringRef kind = base == 'x' ? "hexadecimal" : base == 'o' ? "octal" : "binary";
    auto isBaseDigit = [base](char c) {
      if (base == 'x')
        return llvm::isHexDigit(c);
      if (base == 'o')
        return c >= '0' && c <= '7';
      return c == '0' || c == '1';
    };
    p += 2;
    if (p < end && *p == '_')
      ++p;
    if (p >= end || !isBaseDigit(*p) || !consumeDigits(p, end, isBaseDigit) ||
        (p < end && isNameChar(*p)))
      return fail(start, kind);
    cur = p;
    return make(TokenKind::Int, start, p);
  }
  auto isDec = [](char c) { return llvm::isDigit(c); };
  bool isFloat = false;
  if (llvm::isDigit(*p) && !consumeDigits(p, end, isDec))
    return fail(start, "decimal");
  if (p < end && *p == '.') {
    isFloat = true;
    ++p;
    if (p < end && llvm::isDigit(*p) && !consumeDigits(p, end, isDec))
      return fail(start, "decimal");
  }
  if (p < end && (*p == 'e' || *p == 'E')) {
    const char *q = p + 1;
    if (q < end && (*q == '+' || *q == '-'))
      ++q;
    if (q >= end || !llvm::isDigit(*q))
      return fail(start, "float");
    p = q;
    if (!consumeDigits(p, end, isDec))
      return fail(start, "float");
    isFloat = true;
  }
  if (p < end && (*p == 'j' || *p == 'J')) {
    cur = p + 1;
    return error(start, "complex literals are not supported", p + 1 - start);
  }
  if (p < end && isNameChar(*p))
    return fail(start, "decimal");
  if (!isFloat && *start == '0') {
    for (const char *q = start; q < p; ++q) {
      if (*q != '0' && *q != '_') {
        cur = p;
        return error(start,
                     "leading zeros in decimal integer literals are not "
                     "permitted; use an 0o prefix for octal integers",
                     p - start);
      }
    }
  }
  cur = p;
  return make(isFloat ? TokenKind::Float : TokenKind::Int, start, p);
}

Token Lexer::lexString(const char *start, const char *quote) {
  char q = *quote;
  bool triple = bufferEnd - quote >= 3 && quote[1] == q && quote[2] == q;
  const char *p = quote + (triple ? 3 : 1);
  unsigned startLine = line;
  const char *startLineStart = lineStart;
  while (true) {
    if (p >= bufferEnd) {
      line = startLine;
      lineStart = startLineStart;
      cur = bufferEnd;
      return error(start, triple ? "unterminated triple-quoted string literal"
                                 : "unterminated string literal");
    }
    char c = *p;
    if (c == '\\' && p + 1 < bufferEnd) {
      if (p[1] == '\r' || p[1] == '\n') {
        p = p[1] == '\r' && p + 2 < bufferEnd && p[2] == '\n' ? p + 3 : p + 2;
        newLine(p);
      } else {
        p += 2;
      }
      continue;
    }
    if (c == '\n' || c == '\r') {
      if (!triple) {
        line = startLine;
        lineStart = startLineStart;
        cur = p;
        return error(start, "unterminated string literal");
      }
      p = c == '\r' && p + 1 < bufferEnd && p[1] == '\n' ? p + 2 : p + 1;
      newLine(p);
      continue;
    }
    if (c == q) {
      if (!triple) {
        ++p;
        break;
      }
      if (bufferEnd - p >= 3 && p[1] == q && p[2] == q) {
        p += 3;
        break;
      }
    }
    ++p;
  }
  cur = p;
  // A multi-line string is located at its start.
  unsigned endLine = line;
  const char *endLineStart = lineStart;
  line = startLine;
  lineStart = startLineStart;
  Token tok = make(TokenKind::String, start, p);
  line = endLine;
  lineStart = endLineStart;
  return tok;
}

std::string Lexer::decodeString(StringRef spelling) {
  size_t quotePos = spelling.find_first_of("'\"");
  StringRef prefix = spelling.take_front(quotePos);
  StringRef body = spelling.drop_front(quotePos);
  size_t quoteLen = body.size() >= 6 && body[1] == body[0] && body[2] == body[0] ? 3 : 1;
  body = body.drop_front(quoteLen).drop_back(quoteLen);
  std::string lowerPrefix = prefix.lower();
  if (StringRef(lowerPrefix).contains('r') || StringRef(lowerPrefix).contains('f'))
    return body.str();
  std::string out;
  out.reserve(body.size());
  for (size_t i = 0; i < body.size(); ++i) {
    char c = body[i];
    if (c != '\\' || i + 1 == body.size()) {
      out += c;
      continue;
    }
    char e = body[++i];
    switch (e) {
    case '\n': break;
    case '\r':
      if (i + 1 < body.size() && body[i + 1] == '\n')
        ++i;
      break;
    case 'n': out += '\n'; break;
    case 't': out += '\t'; break;
    case 'r': out += '\r'; break;
    case '0': out += '\0'; break;
    case 'a': out += '\a'; break;
    case 'b': out += '\b'; break;
    case 'f': out += '\f'; break;
    case 'v': out += '\v'; break;
    case '\\': out += '\\'; break;
    case '\'': out += '\''; break;
    case '"': out += '"'; break;
    default:
      // Python keeps unknown escapes (and \x, \u, which kernels do not use)
      // verbatim.
      out += '\\';
      out += e;
      break;
    }
  }
  return out;
}
