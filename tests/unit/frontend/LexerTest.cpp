//===- LexerTest.cpp - tests of the mgp lexer -----------------------------===//
//
// This file implements unit tests of the lexer: INDENT/DEDENT and logical
// lines, numbers, operators, strings, and every lexical error.
//
//===----------------------------------------------------------------------===//
#include "compiler/frontend/Lexer.h"

#include "gtest/gtest.h"

#include <string>
#include <vector>

using namespace mgp;
using TK = TokenKind;

namespace {

std::vector<Token> lexAll(llvm::StringRef src, std::string *error = nullptr) {
  Lexer lexer(src);
  std::vector<Token> tokens;
  for (unsigned i = 0; i < 10000; ++i) {
    Token t = lexer.lex();
    tokens.push_back(t);
    if (t.is(TK::Error) && error)
      *error = lexer.getErrorMessage().str();
    if (t.is(TK::EndOfFile) || t.is(TK::Error))
      break;
  }
  return tokens;
}

std::vector<TK> kinds(llvm::StringRef src) {
  std::vector<TK> result;
  for (const Token &t : lexAll(src))
    result.push_back(t.kind);
  return result;
}

/// The lexical error message for `src`, or "" if it lexes cleanly.
std::string lexError(llvm::StringRef src, unsigned *line = nullptr,
                     unsigned *col = nullptr) {
  std::string error;
  std::vector<Token> tokens = lexAll(src, &error);
  if (tokens.back().is(TK::Error)) {
    if (line)
      *line = tokens.back().line;
    if (col)
      *col = tokens.back().col;
  }
  return error;
}

TEST(LexerTest, IndentDedentAndBlankLines) {
  EXPECT_EQ(kinds("if x:\n    y\n\n  # comment only\n\nz\n"),
            (std::vector<TK>{TK::KwIf, TK::Name, TK::Colon, TK::Newline,
                             TK::Indent, TK::Name, TK::Newline, TK::Dedent,
                             TK::Name, TK::Newline, TK::EndOfFile}));
}

TEST(LexerTest, SeveralDedentsAtOnceAndAtEndOfFile) {
  EXPECT_EQ(kinds("a:\n  b:\n    c\nd"),
            (std::vector<TK>{TK::Name, TK::Colon, TK::Newline, TK::Indent,
                             TK::Name, TK::Colon, TK::Newline, TK::Indent,
                             TK::Name, TK::Newline, TK::Dedent, TK::Dedent,
                             TK::Name, TK::Newline, TK::EndOfFile}));
  // No trailing newline inside a block: NEWLINE, then the DEDENTs.
  EXPECT_EQ(kinds("a:\n  b"),
            (std::vector<TK>{TK::Name, TK::Colon, TK::Newline, TK::Indent,
                             TK::Name, TK::Newline, TK::Dedent,
                             TK::EndOfFile}));
}

TEST(LexerTest, ImplicitAndExplicitLineJoining) {
  EXPECT_EQ(kinds("f(a,\n      b)\nx = [1,\n# c\n 2] + \\\n    3\n"),
            (std::vector<TK>{TK::Name, TK::LParen, TK::Name, TK::Comma,
                             TK::Name, TK::RParen, TK::Newline, TK::Name,
                             TK::Equal, TK::LSquare, TK::Int, TK::Comma,
                             TK::Int, TK::RSquare, TK::Plus, TK::Int,
                             TK::Newline, TK::EndOfFile}));
}

TEST(LexerTest, TabsConsistentWithThemselves) {
  EXPECT_EQ(kinds("if x:\n\ty\n\tif z:\n\t\tw\n"),
            (std::vector<TK>{TK::KwIf, TK::Name, TK::Colon, TK::Newline,
                             TK::Indent, TK::Name, TK::Newline, TK::KwIf,
                             TK::Name, TK::Colon, TK::Newline, TK::Indent,
                             TK::Name, TK::Newline, TK::Dedent, TK::Dedent,
                             TK::EndOfFile}));
}

TEST(LexerTest, LinesAndColumns) {
  std::vector<Token> tokens = lexAll("x = '''a\nb'''  + y\n  \nzz\n");
  ASSERT_GE(tokens.size(), 7u);
  EXPECT_EQ(tokens[2].kind, TK::String);
  EXPECT_EQ(tokens[2].line, 1u);
  EXPECT_EQ(tokens[2].col, 5u);
  EXPECT_EQ(tokens[3].kind, TK::Plus);
  EXPECT_EQ(tokens[3].line, 2u);
  EXPECT_EQ(tokens[3].col, 7u);
  EXPECT_EQ(tokens[6].spelling, "zz");
  EXPECT_EQ(tokens[6].line, 4u);
  EXPECT_EQ(tokens[6].col, 1u);
}

TEST(LexerTest, Numbers) {
  std::vector<Token> tokens =
      lexAll("1 0x1f 1e-5 0. .5 1_000 0o17 0b101 3.25E+2 0 00 1_0.0_1");
  std::vector<std::pair<TK, llvm::StringRef>> expected = {
      {TK::Int, "1"},       {TK::Int, "0x1f"},  {TK::Float, "1e-5"},
      {TK::Float, "0."},    {TK::Float, ".5"},  {TK::Int, "1_000"},
      {TK::Int, "0o17"},    {TK::Int, "0b101"}, {TK::Float, "3.25E+2"},
      {TK::Int, "0"},       {TK::Int, "00"},    {TK::Float, "1_0.0_1"}};
  ASSERT_GE(tokens.size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(tokens[i].kind, expected[i].first) << i;
    EXPECT_EQ(tokens[i].spelling, expected[i].second) << i;
  }
}

TEST(LexerTest, Operators) {
  EXPECT_EQ(kinds("// ** << >> -> += -= *= /= //= %= &= |= ^= <<= >>= **= "
                  "== != <= >= < > ~ @ ... . := ;"),
            (std::vector<TK>{
                TK::SlashSlash, TK::StarStar, TK::LessLess,
                TK::GreaterGreater, TK::Arrow, TK::PlusEqual, TK::MinusEqual,
                TK::StarEqual, TK::SlashEqual, TK::SlashSlashEqual,
                TK::PercentEqual, TK::AmpEqual, TK::PipeEqual, TK::CaretEqual,
                TK::LessLessEqual, TK::GreaterGreaterEqual, TK::StarStarEqual,
                TK::EqualEqual, TK::NotEqual, TK::LessEqual,
                TK::GreaterEqual, TK::Less, TK::Greater, TK::Tilde, TK::At,
                TK::Ellipsis, TK::Dot, TK::ColonEqual, TK::Semicolon,
                TK::Newline, TK::EndOfFile}));
}

TEST(LexerTest, KeywordsAndNames) {
  EXPECT_EQ(kinds("def lambda_ None True and or not in is elif _x"),
            (std::vector<TK>{TK::KwDef, TK::Name, TK::KwNone, TK::KwTrue,
                             TK::KwAnd, TK::KwOr, TK::KwNot, TK::KwIn,
                             TK::KwIs, TK::KwElif, TK::Name, TK::Newline,
                             TK::EndOfFile}));
}

TEST(LexerTest, Strings) {
  std::vector<Token> tokens = lexAll(
      "'a\\'b' \"c\\n\" \"\"\"doc\n\"string\" \"\"\" f\"x{y}\\n\" r'\\n' b'z'");
  ASSERT_GE(tokens.size(), 6u);
  for (int i = 0; i < 6; ++i)
    EXPECT_EQ(tokens[i].kind, TK::String) << i;
  EXPECT_EQ(Lexer::decodeString(tokens[0].spelling), "a'b");
  EXPECT_EQ(Lexer::decodeString(tokens[1].spelling), "c\n");
  EXPECT_EQ(Lexer::decodeString(tokens[2].spelling), "doc\n\"string\" ");
  EXPECT_EQ(Lexer::decodeString(tokens[3].spelling), "x{y}\\n");
  EXPECT_EQ(Lexer::decodeString(tokens[4].spelling), "\\n");
  EXPECT_EQ(Lexer::decodeString(tokens[5].spelling), "z");
  EXPECT_EQ(Lexer::decodeString("''"), "");
  EXPECT_EQ(Lexer::decodeString("''''''"), "");
}

TEST(LexerTest, IndentationErrors) {
  unsigned line = 0, col = 0;
  EXPECT_EQ(lexError("if x:\n    y\n  z\n", &line, &col),
            "unindent does not match any outer indentation level");
  EXPECT_EQ(line, 3u);
  EXPECT_EQ(col, 3u);
  EXPECT_EQ(lexError("if x:\n        y\n\tz\n"),
            "inconsistent use of tabs and spaces in indentation");
  EXPECT_EQ(lexError("if x:\n    y\n\tz\n"),
            "inconsistent use of tabs and spaces in indentation");
  std::string deep;
  for (int i = 0; i < 120; ++i)
    deep += std::string(i, ' ') + "a:\n";
  EXPECT_EQ(lexError(deep),
            "too many levels of indentation (the limit is 100)");
}

TEST(LexerTest, LiteralErrors) {
  EXPECT_EQ(lexError("x = 'abc\n"), "unterminated string literal");
  EXPECT_EQ(lexError("x = \"\"\"abc\n\n"),
            "unterminated triple-quoted string literal");
  EXPECT_EQ(lexError("1__0"), "invalid decimal literal");
  EXPECT_EQ(lexError("1_"), "invalid decimal literal");
  EXPECT_EQ(lexError("12abc"), "invalid decimal literal");
  EXPECT_EQ(lexError("0x"), "invalid hexadecimal literal");
  EXPECT_EQ(lexError("0b102"), "invalid binary literal");
  EXPECT_EQ(lexError("1e"), "invalid float literal");
  EXPECT_EQ(lexError("1e+x"), "invalid float literal");
  EXPECT_EQ(lexError("09"), "leading zeros in decimal integer literals are "
                            "not permitted; use an 0o prefix for octal "
                            "integers");
  EXPECT_EQ(lexError("3j"), "complex literals are not supported");
}

TEST(LexerTest, CharacterAndBracketErrors) {
  unsigned line = 0, col = 0;
  EXPECT_EQ(lexError("a $ b"), "invalid character '$'");
  EXPECT_EQ(lexError("a ! b"), "invalid syntax: '!' (use 'not' or '!=')");
  EXPECT_EQ(lexError("a \\ b"),
            "unexpected character after line continuation character");
  EXPECT_EQ(lexError("f(a]"), "closing parenthesis ']' does not match "
                              "opening parenthesis '('");
  EXPECT_EQ(lexError("a)"), "unmatched ')'");
  EXPECT_EQ(lexError("x = [1,\n  (2,\n", &line, &col), "'[' was never closed");
  EXPECT_EQ(line, 1u);
  EXPECT_EQ(col, 5u);
  EXPECT_EQ(lexError(std::string(300, '(')),
            "too many nested parentheses (the limit is 200)");
  EXPECT_EQ(lexError("x = caf\xc3\xa9"),
            "invalid character in identifier (only ASCII names are supported)");
}

TEST(LexerTest, SkipToTopLevelResumesAtColumnZero) {
  llvm::StringRef src = "def f(x y):\n    x = (\nnot_a_stmt)\n    s = '''\nz\n"
                        "'''\n@jit\ndef g(): pass\n";
  Lexer lexer(src);
  Token def = lexer.lex();
  ASSERT_EQ(def.kind, TK::KwDef);
  Token t = def;
  while (t.spelling != "y")
    t = lexer.lex();
  // The error is at `y`: the lexer is inside the parameter list's '('.
  lexer.skipToTopLevel(def.spelling.data(), t.spelling.data());
  Token next = lexer.lex();
  EXPECT_EQ(next.kind, TK::At);
  EXPECT_EQ(next.line, 7u);
  EXPECT_EQ(next.col, 1u);
  EXPECT_EQ(lexer.lex().kind, TK::Name);
}

TEST(LexerTest, SkipToTopLevelStopsAtAnErrorInColumnZero) {
  llvm::StringRef src = "def f():\ndef g(): pass\n";
  Lexer lexer(src);
  Token def = lexer.lex();
  Token t = def;
  while (t.isNot(TK::KwDef) || t.line != 2)
    t = lexer.lex();
  lexer.skipToTopLevel(def.spelling.data(), t.spelling.data());
  Token next = lexer.lex();
  EXPECT_EQ(next.kind, TK::KwDef);
  EXPECT_EQ(next.line, 2u);
  EXPECT_EQ(lexer.lex().spelling, "g");
}

} // namespace
