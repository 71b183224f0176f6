//===- ParserErrorTest.cpp - tests of the parser's errors -----------------===//
//
// This file implements unit tests of the parser's error reporting: the
// formatted `file:line:col: error:` message with source line and caret, the
// strictness of kernels, the nesting limits, and that random input never
// crashes the front end.
//
//===----------------------------------------------------------------------===//
#include "ParserTestUtil.h"

#include "gtest/gtest.h"

#include <random>

using namespace mgp;

namespace {

/// The first line of the formatted error for a kernel whose body is `body`.
std::string kernelError(llvm::StringRef body) {
  auto parsed = parseString("@triton.jit\ndef k(x, y):\n" + body.str(), "e.py");
  if (parsed->module)
    return "no error";
  return llvm::StringRef(parsed->error).split('\n').first.str();
}

TEST(ParserErrorTest, MessageHasLocationSourceLineAndCaret) {
  auto parsed = parseString("@jit\ndef k(x):\n    y = x +\n", "m.py");
  ASSERT_FALSE(parsed->module);
  EXPECT_EQ(parsed->error, "m.py:3:12: error: expected an expression, found "
                           "newline\n    y = x +\n           ^\n");
}

TEST(ParserErrorTest, StatementErrors) {
  EXPECT_EQ(kernelError("    break\n"),
            "e.py:3:5: error: 'break' outside loop");
  EXPECT_EQ(kernelError("    for i in r:\n        def f():\n"
                        "            continue\n"),
            "e.py:5:13: error: 'continue' outside loop");
  EXPECT_EQ(kernelError("    f(x) = 1\n"),
            "e.py:3:5: error: invalid assignment target: cannot assign to "
            "function call");
  EXPECT_EQ(kernelError("    a, 1 = x\n"),
            "e.py:3:8: error: invalid assignment target: cannot assign to "
            "literal");
  EXPECT_EQ(kernelError("    a, b += 1\n"),
            "e.py:3:5: error: invalid target for augmented assignment "
            "(expected a name, attribute or subscript)");
  EXPECT_EQ(kernelError("    for x + 1 in y:\n        pass\n"),
            "e.py:3:9: error: invalid 'for' loop target: cannot assign to "
            "expression");
  EXPECT_EQ(kernelError("    if x\n        pass\n"),
            "e.py:3:9: error: expected ':' after the 'if' condition, found "
            "newline");
  EXPECT_EQ(kernelError("    if x:\n    pass\n"),
            "e.py:4:5: error: expected an indented block after 'if' "
            "statement on line 3");
  EXPECT_EQ(kernelError("    with x:\n        pass\n"),
            "e.py:3:5: error: 'with' statements are not supported");
  EXPECT_EQ(kernelError("    raise x\n"),
            "e.py:3:5: error: 'raise' statements are not supported");
  EXPECT_EQ(kernelError("    import os\n"),
            "e.py:3:5: error: 'import' is only supported at module level");
  EXPECT_EQ(kernelError("    while x:\n        pass\n    else:\n        pass\n"),
            "e.py:5:5: error: 'while ... else' is not supported");
  EXPECT_EQ(kernelError("    x = 1\n        y = 2\n"),
            "e.py:4:9: error: unexpected indent");
}

TEST(ParserErrorTest, ExpressionErrors) {
  EXPECT_EQ(kernelError("    f(a=1, a=2)\n"),
            "e.py:3:12: error: keyword argument repeated: 'a'");
  EXPECT_EQ(kernelError("    f(a=1, 2)\n"),
            "e.py:3:12: error: positional argument follows keyword argument");
  EXPECT_EQ(kernelError("    f(a.b=1)\n"),
            "e.py:3:7: error: expression cannot be a keyword argument name "
            "(maybe '==' was meant?)");
  EXPECT_EQ(kernelError("    f(*a)\n"),
            "e.py:3:7: error: '*' and '**' arguments are not supported");
  EXPECT_EQ(kernelError("    x = {}\n"),
            "e.py:3:9: error: dict and set literals are not supported");
  EXPECT_EQ(kernelError("    x = [i for i in y]\n"),
            "e.py:3:12: error: comprehensions are not supported");
  EXPECT_EQ(kernelError("    x = y[]\n"),
            "e.py:3:11: error: expected an index in the subscript");
  EXPECT_EQ(kernelError("    x = 1 if y\n"),
            "e.py:3:15: error: expected 'else' in conditional expression, "
            "found newline");
  EXPECT_EQ(kernelError("    x = a not b\n"),
            "e.py:3:15: error: expected 'in' after 'not' in a comparison, "
            "found 'b'");
  EXPECT_EQ(kernelError("    x = 18446744073709551616\n"),
            "e.py:3:9: error: integer literal is too large (the largest is "
            "2**64 - 1 = 18446744073709551615)");
  EXPECT_EQ(kernelError("    x = 0x1_0000_0000_0000_0000\n"),
            "e.py:3:9: error: integer literal is too large (the largest is "
            "2**64 - 1 = 18446744073709551615)");
  EXPECT_EQ(kernelError("    x = y.\n"),
            "e.py:3:11: error: expected an attribute name after '.', found "
            "newline");
}

TEST(ParserErrorTest, UnsupportedPythonForms) {
  EXPECT_EQ(kernelError("    (a, b): int = 1\n"),
            "e.py:3:5: error: only a single name, attribute or subscript can "
            "be annotated");
  EXPECT_EQ(kernelError("    for i in y:\n        pass\n    else:\n"
                        "        pass\n"),
            "e.py:5:5: error: 'for ... else' is not supported");
  EXPECT_EQ(kernelError("    x = *y\n"),
            "e.py:3:9: error: starred expressions are not supported");
  EXPECT_EQ(kernelError("    x = await y\n"),
            "e.py:3:9: error: 'await' is not supported");
  EXPECT_EQ(kernelError("    yield x\n"),
            "e.py:3:5: error: 'yield' statements are not supported");
  EXPECT_EQ(kernelError("    x = (i for i in y)\n"),
            "e.py:3:12: error: comprehensions and generator expressions are "
            "not supported");
  EXPECT_EQ(kernelError("    x = f(i for i in y)\n"),
            "e.py:3:13: error: generator expressions are not supported");
  EXPECT_EQ(kernelError("    x = 0o8\n"), "e.py:3:9: error: invalid octal literal");
  EXPECT_EQ(kernelError("    x = \xff\n"),
            "e.py:3:9: error: invalid non-ASCII character (only strings and "
            "comments may hold them)");
  auto parsed = parseString("@triton.autotune(configs=[{1, 2}])\n@triton.jit\n"
                            "def k(x):\n    pass\n",
                            "e.py");
  ASSERT_FALSE(parsed->module);
  EXPECT_EQ(llvm::StringRef(parsed->error).split('\n').first,
            "e.py:1:29: error: set literals are not supported");
  // Host-only forms are recorded, not fatal.
  parsed = parseString("from os import *\n", "e.py");
  ASSERT_TRUE(parsed->module);
  ASSERT_EQ(parsed->module->skipped.size(), 1u);
  EXPECT_EQ(llvm::StringRef(parsed->module->skipped[0].diagnostic)
                .split('\n')
                .first,
            "e.py:1:16: error: 'from ... import *' is not supported");
}

TEST(ParserErrorTest, FunctionAndDecoratorErrors) {
  auto error = [](llvm::StringRef src) {
    auto parsed = parseString(src, "e.py");
    return parsed->module ? "no error"
                          : llvm::StringRef(parsed->error).split('\n').first.str();
  };
  EXPECT_EQ(error("@triton.jit\ndef k(x, x):\n    pass\n"),
            "e.py:2:10: error: duplicate parameter 'x'");
  EXPECT_EQ(error("@triton.jit\ndef k(x=1, y):\n    pass\n"),
            "e.py:2:12: error: parameter without a default follows parameter "
            "with a default");
  EXPECT_EQ(error("@triton.jit\ndef k(*x):\n    pass\n"),
            "e.py:2:7: error: '*args', '**kwargs' and '/' or '*' parameter "
            "markers are not supported");
  EXPECT_EQ(error("@triton.jit\ndef k(x):\n"),
            "e.py:3:1: error: expected an indented block after function "
            "definition on line 2");
  EXPECT_EQ(error("@triton.jit.foo\ndef k(x):\n    pass\n"),
            "e.py:1:2: error: unsupported decorator form: a kernel is marked "
            "with @jit, @triton.jit, @mgp.jit or @triton.jit(...)");
  EXPECT_EQ(error("@triton.jit(\ndef k(x):\n    pass\n"),
            "e.py:2:1: error: expected an expression, found 'def'");
  EXPECT_EQ(error("@triton.jit\nx = 1\n"),
            "e.py:2:1: error: expected 'def' after decorator, found 'x'");
  // The same mistakes in a plain (host) function are skipped, not errors.
  auto parsed = parseString("def k(x, x):\n    pass\n", "e.py");
  ASSERT_TRUE(parsed->module) << parsed->error;
  ASSERT_EQ(parsed->module->skipped.size(), 1u);
  EXPECT_EQ(parsed->module->skipped[0].name, "k");
}

TEST(ParserErrorTest, LexicalErrorsInKernelsAreFatal) {
  EXPECT_EQ(kernelError("    x = 'abc\n"),
            "e.py:3:9: error: unterminated string literal");
  EXPECT_EQ(kernelError("    x = (1,\n    y = 2\n"),
            "e.py:4:7: error: expected ')' to close '(', found '='");
  EXPECT_EQ(kernelError("    x = (1,\n    2\n"),
            "e.py:3:9: error: '(' was never closed");
  EXPECT_EQ(kernelError("    x = 1\n  y = 2\n"),
            "e.py:4:3: error: unindent does not match any outer indentation "
            "level");
  EXPECT_EQ(kernelError("    x = 1\n\ty = 2\n"),
            "e.py:4:2: error: inconsistent use of tabs and spaces in "
            "indentation");
  EXPECT_EQ(kernelError("    x = 0b2\n"),
            "e.py:3:9: error: invalid binary literal");
}

TEST(ParserErrorTest, DeepNestingIsAnErrorNotACrash) {
  std::string parens = "    x = " + std::string(150, '(') + "1" +
                       std::string(150, ')') + "\n";
  EXPECT_EQ(kernelError(parens),
            "e.py:3:109: error: expression nested too deeply (the limit is "
            "100 levels)");
  std::string unary = "    x = " + std::string(5000, '-') + "1\n";
  EXPECT_NE(kernelError(unary).find("expression nested too deeply"),
            std::string::npos);
  std::string notChain = "    x = ";
  for (int i = 0; i < 5000; ++i)
    notChain += "not ";
  EXPECT_NE(kernelError(notChain + "y\n").find("expression nested too deeply"),
            std::string::npos);
  std::string power = "    x = 2";
  for (int i = 0; i < 5000; ++i)
    power += " ** 2";
  EXPECT_NE(kernelError(power + "\n").find("expression nested too deeply"),
            std::string::npos);
  std::string ternary = "    x = 1";
  for (int i = 0; i < 5000; ++i)
    ternary += " if c else 1";
  EXPECT_NE(kernelError(ternary + "\n").find("expression nested too deeply"),
            std::string::npos);
  std::string lists(100000, '[');
  EXPECT_NE(kernelError("    x = " + lists + "\n").find("nested too deeply"),
            std::string::npos);
  // A flat chain parses in a loop, but every operator nests the tree a level
  // deeper for the passes after the parser: 1000 operators are fine, more are
  // a located error at the 1001st.
  std::string sum = "    x = 1";
  for (int i = 0; i < 1000; ++i)
    sum += " + 1";
  EXPECT_EQ(kernelError(sum + "\n"), "no error");
  EXPECT_EQ(kernelError(sum + " * 2 + 1\n"),
            "e.py:3:4015: error: more than 1000 binary operators in one chain; "
            "split the expression with intermediate variables");
}

TEST(ParserErrorTest, RandomInputNeverCrashes) {
  const char *pieces[] = {
      "@triton.jit\n", "def ", "k", "(", ")", ":", "\n", "    ", "\t", "x",
      "=", "+", "**", "[", "]", ",", ":", "None", "1", "0x", "1e", ".5",
      "'", "\"\"\"", "\\\n", "#c\n", "if ", "else", "for ", " in ", "lambda",
      "not ", "and ", "(", "{", "}", "@", ".", "return ", "break\n", "\r\n",
      "$", "\xff", "import ", "from ", " as ", "=", "-", "~", "...", ";"};
  std::mt19937 rng(12345);
  std::uniform_int_distribution<size_t> pick(0, std::size(pieces) - 1);
  std::uniform_int_distribution<int> length(1, 60);
  unsigned parsedOk = 0, failed = 0;
  for (int iter = 0; iter < 3000; ++iter) {
    std::string src;
    for (int i = length(rng); i > 0; --i)
      src += pieces[pick(rng)];
    auto parsed = parseString(src, "fuzz.py");
    if (parsed->module) {
      ++parsedOk;
    } else {
      ++failed;
      // Every error is formatted with a location.
      EXPECT_TRUE(llvm::StringRef(parsed->error).starts_with("fuzz.py:"))
          << parsed->error;
    }
  }
  EXPECT_EQ(parsedOk + failed, 3000u);
  EXPECT_GT(failed, 0u);
}

} // namespace
