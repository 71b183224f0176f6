//===- Lexer.cpp - the mgp lexer: structure, names, operators -------------===//
//
// This file implements the structural half of the lexer: logical lines,
// INDENT/DEDENT, comments, continuation lines, brackets, names, keywords and
// operators. Numbers and strings are in LexerLiterals.cpp, the recovery for
// loosely parsed host code in LexerRecovery.cpp.
//
//===----------------------------------------------------------------------===//
#include "compiler/frontend/Lexer.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/ErrorHandling.h"

#include <array>
#include <cstdint>
#include <iterator>

using namespace mgp;
using llvm::StringRef;

Lexer::Lexer(StringRef buffer)
    : bufferStart(buffer.begin()), bufferEnd(buffer.end()), cur(buffer.begin()),
      lineStart(buffer.begin()) {}

Token Lexer::make(TokenKind kind, const char *start, const char *end) {
  Token tok;
  tok.kind = kind;
  tok.spelling = StringRef(start, end - start);
  // Tokens never start before the current line except multi-line strings,
  // whose start the caller has already turned into a position.
  tok.line = line;
  tok.col = start >= lineStart ? unsigned(start - lineStart) + 1 : 1;
  if (kind != TokenKind::Newline && kind != TokenKind::Indent &&
      kind != TokenKind::Dedent && kind != TokenKind::EndOfFile)
    lineHasTokens = true;
  return tok;
}

Token Lexer::error(const char *at, const llvm::Twine &message, size_t length) {
  errorMessage = message.str();
  if (at + length > bufferEnd)
    length = bufferEnd - at;
  Token tok = make(TokenKind::Error, at, at + length);
  return tok;
}

void Lexer::newLine(const char *afterNewline) {
  ++line;
  lineStart = afterNewline;
}

const char *Lexer::skipNewline(const char *p, const char *end) {
  if (*p == '\r' && p + 1 < end && p[1] == '\n')
    return p + 2;
  return p + 1;
}

/// Handles the start of a logical line: skips blank and comment-only lines and
/// compares the indentation with the stack. Returns true with `result` set if
/// an INDENT, DEDENT or error token is due.
bool Lexer::lexIndentation(Token &result) {
  while (true) {
    unsigned col = 0, altCol = 0;
    const char *p = cur;
    for (; p < bufferEnd; ++p) {
      if (*p == ' ') {
        ++col;
        ++altCol;
      } else if (*p == '\t') {
        col = (col / 8 + 1) * 8;
        ++altCol;
      } else if (*p == '\f') {
        col = altCol = 0;
      } else {
        break;
      }
    }
    if (p == bufferEnd) {
      cur = p;
      return false;
    }
    if (*p == '#' || isNewlineChar(*p)) {
      while (p < bufferEnd && !isNewlineChar(*p))
        ++p;
      if (p == bufferEnd) {
        cur = p;
        return false;
      }
      cur = skipNewline(p, bufferEnd);
      newLine(cur);
      continue;
    }
    cur = p;
    atLineStart = false;
    if (col == indents.back()) {
      if (altCol != altIndents.back()) {
        result = error(p, "inconsistent use of tabs and spaces in indentation");
        return true;
      }
      return false;
    }
    if (col > indents.back()) {
      if (altCol <= altIndents.back()) {
        result = error(p, "inconsistent use of tabs and spaces in indentation");
        return true;
      }
      if (indents.size() >= kMaxIndentLevels) {
        result = error(p, "too many levels of indentation (the limit is " +
                              llvm::Twine(kMaxIndentLevels) + ")");
        return true;
      }
      indents.push_back(col);
      altIndents.push_back(altCol);
      result = make(TokenKind::Indent, p, p);
      return true;
    }
    unsigned dedents = 0;
    while (col < indents.back()) {
      indents.pop_back();
      altIndents.pop_back();
      ++dedents;
    }
    if (col != indents.back()) {
      result = error(p, "unindent does not match any outer indentation level");
      return true;
    }
    if (altCol != altIndents.back()) {
      result = error(p, "inconsistent use of tabs and spaces in indentation");
      return true;
    }
    pendingDedents = dedents - 1;
    result = make(TokenKind::Dedent, p, p);
    return true;
  }
}

Token Lexer::lexEndOfFile() {
  if (!brackets.empty()) {
    Bracket open = brackets.front();
    brackets.clear();
    line = open.line;
    lineStart = open.at - (open.col - 1);
    Token tok = error(open.at, "'" + llvm::Twine(open.open) + "' was never closed");
    return tok;
  }
  if (lineHasTokens) {
    lineHasTokens = false;
    return make(TokenKind::Newline, bufferEnd, bufferEnd);
  }
  if (indents.size() > 1) {
    indents.pop_back();
    altIndents.pop_back();
    return make(TokenKind::Dedent, bufferEnd, bufferEnd);
  }
  return make(TokenKind::EndOfFile, bufferEnd, bufferEnd);
}

Token Lexer::lex() {
  if (pendingDedents) {
    --pendingDedents;
    return make(TokenKind::Dedent, cur, cur);
  }
  if (atLineStart && brackets.empty()) {
    Token result;
    if (lexIndentation(result))
      return result;
  }
  while (true) {
    if (cur == bufferEnd)
      return lexEndOfFile();
    const char *start = cur;
    char c = *cur;
    switch (c) {
    case ' ':
    case '\t':
    case '\f':
      ++cur;
      continue;
    case '#':
      while (cur < bufferEnd && !isNewlineChar(*cur))
        ++cur;
      continue;
    case '\\':
      if (cur + 1 < bufferEnd && isNewlineChar(cur[1])) {
        cur = skipNewline(cur + 1, bufferEnd);
        newLine(cur);
        continue;
      }
      ++cur;
      return error(start, "unexpected character after line continuation "
                          "character");
    case '\n':
    case '\r':
      cur = skipNewline(cur, bufferEnd);
      if (!brackets.empty() || !lineHasTokens) {
        newLine(cur);
        continue;
      }
      {
        Token tok = make(TokenKind::Newline, start, cur);
        lineHasTokens = false;
        atLineStart = true;
        newLine(cur);
        return tok;
      }
    case '\'':
    case '"':
      return lexString(start, start);
    case '.':
      if (cur + 1 < bufferEnd && llvm::isDigit(cur[1]))
        return lexNumber(start);
      return lexPunctuation(start);
    default:
      break;
    }
    if (llvm::isDigit(c))
      return lexNumber(start);
    if (llvm::isAlpha(c) || c == '_')
      return lexName(start);
    return lexPunctuation(start);
  }
}

Token Lexer::lexName(const char *start) {
  const char *p = start;
  while (p < bufferEnd && (llvm::isAlnum(*p) || *p == '_'))
    ++p;
  StringRef name(start, p - start);
  // A string prefix: r"..", b'..', f"..", rb"..", ...
  if (p < bufferEnd && (*p == '\'' || *p == '"') && name.size() <= 2) {
    std::string lower = name.lower();
    if (lower == "r" || lower == "b" || lower == "f" || lower == "u" ||
        lower == "rb" || lower == "br" || lower == "fr" || lower == "rf")
      return lexString(start, p);
  }
  cur = p;
  if (p < bufferEnd && (unsigned char)*p >= 0x80)
    return error(p, "invalid character in identifier (only ASCII names are "
                    "supported)");
  TokenKind kind = llvm::StringSwitch<TokenKind>(name)
                       .Case("False", TokenKind::KwFalse)
                       .Case("None", TokenKind::KwNone)
                       .Case("True", TokenKind::KwTrue)
                       .Case("and", TokenKind::KwAnd)
                       .Case("as", TokenKind::KwAs)
                       .Case("assert", TokenKind::KwAssert)
                       .Case("async", TokenKind::KwAsync)
                       .Case("await", TokenKind::KwAwait)
                       .Case("break", TokenKind::KwBreak)
                       .Case("class", TokenKind::KwClass)
                       .Case("continue", TokenKind::KwContinue)
                       .Case("def", TokenKind::KwDef)
                       .Case("del", TokenKind::KwDel)
                       .Case("elif", TokenKind::KwElif)
                       .Case("else", TokenKind::KwElse)
                       .Case("except", TokenKind::KwExcept)
                       .Case("finally", TokenKind::KwFinally)
                       .Case("for", TokenKind::KwFor)
                       .Case("from", TokenKind::KwFrom)
                       .Case("global", TokenKind::KwGlobal)
                       .Case("if", TokenKind::KwIf)
                       .Case("import", TokenKind::KwImport)
                       .Case("in", TokenKind::KwIn)
                       .Case("is", TokenKind::KwIs)
                       .Case("lambda", TokenKind::KwLambda)
                       .Case("nonlocal", TokenKind::KwNonlocal)
                       .Case("not", TokenKind::KwNot)
                       .Case("or", TokenKind::KwOr)
                       .Case("pass", TokenKind::KwPass)
                       .Case("raise", TokenKind::KwRaise)
                       .Case("return", TokenKind::KwReturn)
                       .Case("try", TokenKind::KwTry)
                       .Case("while", TokenKind::KwWhile)
                       .Case("with", TokenKind::KwWith)
                       .Case("yield", TokenKind::KwYield)
                       .Default(TokenKind::Name);
  return make(kind, start, p);
}

/// The punctuation table, longest spellings first.
static const struct {
  llvm::StringLiteral spelling;
  TokenKind kind;
} kPunctuation[] = {
    {"**=", TokenKind::StarStarEqual}, {"//=", TokenKind::SlashSlashEqual},
    {"<<=", TokenKind::LessLessEqual}, {">>=", TokenKind::GreaterGreaterEqual},
    {"...", TokenKind::Ellipsis},      {"->", TokenKind::Arrow},
    {":=", TokenKind::ColonEqual},     {"**", TokenKind::StarStar},
    {"//", TokenKind::SlashSlash},     {"<<", TokenKind::LessLess},
    {">>", TokenKind::GreaterGreater}, {"<=", TokenKind::LessEqual},
    {">=", TokenKind::GreaterEqual},   {"==", TokenKind::EqualEqual},
    {"!=", TokenKind::NotEqual},       {"+=", TokenKind::PlusEqual},
    {"-=", TokenKind::MinusEqual},     {"*=", TokenKind::StarEqual},
    {"/=", TokenKind::SlashEqual},     {"%=", TokenKind::PercentEqual},
    {"&=", TokenKind::AmpEqual},       {"|=", TokenKind::PipeEqual},
    {"^=", TokenKind::CaretEqual},     {"@=", TokenKind::AtEqual},
    {"(", TokenKind::LParen},          {")", TokenKind::RParen},
    {"[", TokenKind::LSquare},         {"]", TokenKind::RSquare},
    {"{", TokenKind::LBrace},          {"}", TokenKind::RBrace},
    {",", TokenKind::Comma},           {":", TokenKind::Colon},
    {";", TokenKind::Semicolon},       {".", TokenKind::Dot},
    {"@", TokenKind::At},              {"=", TokenKind::Equal},
    {"+", TokenKind::Plus},            {"-", TokenKind::Minus},
    {"*", TokenKind::Star},            {"/", TokenKind::Slash},
    {"%", TokenKind::Percent},         {"&", TokenKind::Amp},
    {"|", TokenKind::Pipe},            {"^", TokenKind::Caret},
    {"~", TokenKind::Tilde},           {"<", TokenKind::Less},
    {">", TokenKind::Greater},
};

/// kPunctuation's entries by their first character (ASCII), in table order.
static llvm::ArrayRef<uint8_t> punctuationStartingWith(char c) {
  static const auto table = [] {
    std::array<llvm::SmallVector<uint8_t, 4>, 128> byFirst;
    for (size_t i = 0; i < std::size(kPunctuation); ++i)
      byFirst[(unsigned char)kPunctuation[i].spelling[0]].push_back(i);
    return byFirst;
  }();
  if ((unsigned char)c >= table.size())
    return {};
  return table[(unsigned char)c];
}

Token Lexer::lexPunctuation(const char *start) {
  StringRef rest(start, bufferEnd - start);
  char c = *start;
  for (uint8_t index : punctuationStartingWith(c)) {
    const auto &entry = kPunctuation[index];
    if (!rest.starts_with(entry.spelling))
      continue;
    size_t len = entry.spelling.size();
    if (len == 1 && (c == '(' || c == '[' || c == '{')) {
      if (brackets.size() >= kMaxBracketDepth)
        return error(start, "too many nested parentheses (the limit is " +
                                llvm::Twine(kMaxBracketDepth) + ")");
      brackets.push_back({c, start, line, unsigned(start - lineStart) + 1});
    } else if (len == 1 && (c == ')' || c == ']' || c == '}')) {
      if (brackets.empty()) {
        cur = start + 1;
        return error(start, "unmatched '" + llvm::Twine(c) + "'");
      }
      char open = brackets.back().open;
      char expected = open == '(' ? ')' : open == '[' ? ']' : '}';
      if (c != expected) {
        cur = start + 1;
        return error(start, "closing parenthesis '" + llvm::Twine(c) +
                                "' does not match opening parenthesis '" +
                                llvm::Twine(open) + "'");
      }
      brackets.pop_back();
    }
    cur = start + len;
    return make(entry.kind, start, cur);
  }
  cur = start + 1;
  if ((unsigned char)*start >= 0x80)
    return error(start, "invalid non-ASCII character (only strings and "
                        "comments may hold them)");
  if (*start == '!')
    return error(start, "invalid syntax: '!' (use 'not' or '!=')");
  return error(start, "invalid character '" + llvm::Twine(*start) + "'");
}
