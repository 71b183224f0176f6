//===- ParserTest.cpp - tests of the mgp parser ---------------------------===//
//
// This file implements unit tests of the parser on valid input: operator
// precedence, chained comparisons, subscripts and slices, calls, assignment
// forms, statements, module-level items, locations, the conformance kernels
// and the AST dump.
//
//===----------------------------------------------------------------------===//
#include "ParserTestUtil.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <fstream>
#include <sstream>

using namespace mgp;
using namespace mgp::ast;
using llvm::cast;
using llvm::dyn_cast;
using llvm::isa;

namespace {

/// A compact prefix rendering of an expression, to compare trees.
std::string render(const Expr &e) {
  std::string out;
  llvm::raw_string_ostream os(out);
  if (auto *n = dyn_cast<NameExpr>(&e))
    return n->getName().str();
  if (auto *c = dyn_cast<ConstantExpr>(&e)) {
    if (c->isInt())
      os << c->getInt();
    else if (c->isFloat())
      os << "f" << llvm::format("%g", c->getFloat());
    else if (c->isNone())
      os << "None";
    else if (c->isBool())
      os << (c->getBool() ? "True" : "False");
    else if (c->isString())
      os << "'" << c->getString() << "'";
    else
      os << "...";
    return out;
  }
  if (auto *b = dyn_cast<BinOpExpr>(&e)) {
    os << "(" << spell(b->getOp()) << " " << render(b->getLHS()) << " "
       << render(b->getRHS()) << ")";
    return out;
  }
  if (auto *u = dyn_cast<UnaryOpExpr>(&e)) {
    os << "(" << spell(u->getOp()) << " " << render(u->getOperand()) << ")";
    return out;
  }
  if (auto *b = dyn_cast<BoolOpExpr>(&e)) {
    os << "(" << spell(b->getOp());
    for (const auto &v : b->getValues())
      os << " " << render(*v);
    os << ")";
    return out;
  }
  if (auto *c = dyn_cast<CompareExpr>(&e)) {
    os << "(cmp " << render(c->getLeft());
    for (size_t i = 0; i < c->getOps().size(); ++i)
      os << " " << spell(c->getOps()[i]) << " "
         << render(*c->getComparators()[i]);
    os << ")";
    return out;
  }
  if (auto *i = dyn_cast<IfExpExpr>(&e)) {
    os << "(if " << render(i->getTest()) << " " << render(i->getBody()) << " "
       << render(i->getOrElse()) << ")";
    return out;
  }
  if (auto *c = dyn_cast<CallExpr>(&e)) {
    os << "(call " << render(c->getCallee());
    for (const auto &a : c->getArgs())
      os << " " << render(*a);
    for (const auto &k : c->getKeywords())
      os << " " << k.name << "=" << render(*k.value);
    os << ")";
    return out;
  }
  if (auto *a = dyn_cast<AttributeExpr>(&e))
    return render(a->getValue()) + "." + a->getAttr().str();
  if (auto *s = dyn_cast<SubscriptExpr>(&e)) {
    os << render(s->getValue()) << "[";
    for (size_t i = 0; i < s->getIndices().size(); ++i)
      os << (i ? ", " : "") << render(*s->getIndices()[i]);
    os << "]";
    return out;
  }
  if (auto *s = dyn_cast<SliceExpr>(&e)) {
    if (s->getLower())
      os << render(*s->getLower());
    os << ":";
    if (s->getUpper())
      os << render(*s->getUpper());
    if (s->getStep())
      os << ":" << render(*s->getStep());
    return out;
  }
  if (isa<TupleExpr, ListExpr>(&e)) {
    bool tuple = isa<TupleExpr>(&e);
    const ExprList &elts = tuple ? cast<TupleExpr>(&e)->getElts()
                                 : cast<ListExpr>(&e)->getElts();
    os << (tuple ? "(tuple" : "(list");
    for (const auto &x : elts)
      os << " " << render(*x);
    os << ")";
    return out;
  }
  if (auto *l = dyn_cast<LambdaExpr>(&e)) {
    os << "(lambda";
    for (const Param &p : l->getParams())
      os << " " << p.name;
    os << " " << render(l->getBody()) << ")";
    return out;
  }
  return "?";
}

std::string renderExpr(llvm::StringRef src) {
  auto parsed = parseExprSource(src);
  if (!parsed->module)
    return "error: " + parsed->error;
  return render(firstValue(*parsed));
}

TEST(ParserTest, ArithmeticPrecedence) {
  EXPECT_EQ(renderExpr("a + b * c ** -d"), "(+ a (* b (** c (- d))))");
  EXPECT_EQ(renderExpr("a - b - c"), "(- (- a b) c)");
  EXPECT_EQ(renderExpr("a // b % c * d"), "(* (% (// a b) c) d)");
  EXPECT_EQ(renderExpr("-x ** 2"), "(- (** x 2))");
  EXPECT_EQ(renderExpr("2 ** 3 ** 2"), "(** 2 (** 3 2))");
  EXPECT_EQ(renderExpr("~a + (b - c) * d"), "(+ (~ a) (* (- b c) d))");
}

TEST(ParserTest, BitwiseAndBooleanPrecedence) {
  EXPECT_EQ(renderExpr("a | b ^ c & d << e + f"),
            "(| a (^ b (& c (<< d (+ e f)))))");
  EXPECT_EQ(renderExpr("a >> 1 << 2"), "(<< (>> a 1) 2)");
  EXPECT_EQ(renderExpr("not a == b"), "(not (cmp a == b))");
  EXPECT_EQ(renderExpr("a and b or c and not d"),
            "(or (and a b) (and c (not d)))");
  EXPECT_EQ(renderExpr("a or b or c"), "(or a b c)");
  EXPECT_EQ(renderExpr("(a < 0) & (b >= c)"),
            "(& (cmp a < 0) (cmp b >= c))");
  EXPECT_EQ(renderExpr("a if c else b if d else e"),
            "(if c a (if d b e))");
  EXPECT_EQ(renderExpr("x & 1 == 0"), "(cmp (& x 1) == 0)");
}

TEST(ParserTest, ChainedComparisons) {
  EXPECT_EQ(renderExpr("a < b <= c != d"), "(cmp a < b <= c != d)");
  EXPECT_EQ(renderExpr("a is not None"), "(cmp a is not None)");
  EXPECT_EQ(renderExpr("a not in b"), "(cmp a not in b)");
  auto parsed = parseExprSource("0 <= i < n");
  ASSERT_TRUE(parsed->module) << parsed->error;
  auto &cmp = cast<CompareExpr>(firstValue(*parsed));
  ASSERT_EQ(cmp.getOps().size(), 2u);
  EXPECT_EQ(cmp.getOps()[0], CmpOp::LtE);
  EXPECT_EQ(cmp.getOps()[1], CmpOp::Lt);
}

TEST(ParserTest, SubscriptsAndSlices) {
  EXPECT_EQ(renderExpr("x[:, None]"), "x[:, None]");
  EXPECT_EQ(renderExpr("x[None, :]"), "x[None, :]");
  EXPECT_EQ(renderExpr("x[0]"), "x[0]");
  EXPECT_EQ(renderExpr("x[1:n:2, ::3]"), "x[1:n:2, ::3]");
  EXPECT_EQ(renderExpr("x[a + 1:]"), "x[(+ a 1):]");
  EXPECT_EQ(renderExpr("meta['BLOCK']"), "meta['BLOCK']");
  auto parsed = parseExprSource("p[:, None] * s");
  ASSERT_TRUE(parsed->module) << parsed->error;
  auto &mul = cast<BinOpExpr>(firstValue(*parsed));
  auto &sub = cast<SubscriptExpr>(mul.getLHS());
  ASSERT_EQ(sub.getIndices().size(), 2u);
  auto *slice = dyn_cast<SliceExpr>(sub.getIndices()[0].get());
  ASSERT_TRUE(slice);
  EXPECT_FALSE(slice->getLower() || slice->getUpper() || slice->getStep());
  EXPECT_TRUE(cast<ConstantExpr>(*sub.getIndices()[1]).isNone());
}

TEST(ParserTest, CallsAttributesAndLiterals) {
  EXPECT_EQ(renderExpr("tl.load(p + o, mask=m, other=0.)"),
            "(call tl.load (+ p o) mask=m other=f0)");
  EXPECT_EQ(renderExpr("x.to(tl.float32)"), "(call x.to tl.float32)");
  EXPECT_EQ(renderExpr("f()(1,)[2].y"), "(call (call f) 1)[2].y");
  EXPECT_EQ(renderExpr("(1, 2.5, True, None, 'a' \"b\", ...)"),
            "(tuple 1 f2.5 True None 'ab' ...)");
  EXPECT_EQ(renderExpr("()"), "(tuple)");
  EXPECT_EQ(renderExpr("(a,)"), "(tuple a)");
  EXPECT_EQ(renderExpr("[a, b,]"), "(list a b)");
  EXPECT_EQ(renderExpr("lambda meta: (cdiv(n, meta['B']),)"),
            "(lambda meta (tuple (call cdiv n meta['B'])))");
  EXPECT_EQ(renderExpr("0x1f + 1_000 + 0o17 + 0b101"),
            "(+ (+ (+ 31 1000) 15) 5)");
  EXPECT_EQ(renderExpr("9223372036854775807"), "9223372036854775807");
  auto parsed = parseExprSource("1e-5");
  ASSERT_TRUE(parsed->module);
  EXPECT_DOUBLE_EQ(cast<ConstantExpr>(firstValue(*parsed)).getFloat(), 1e-5);
  parsed = parseExprSource(".5");
  EXPECT_DOUBLE_EQ(cast<ConstantExpr>(firstValue(*parsed)).getFloat(), 0.5);
}

TEST(ParserTest, AssignmentForms) {
  auto parsed = parseString("@jit\ndef k(a):\n    a, b = c, d\n"
                            "    (e, f) = g\n    h = i = 1\n    a += 1\n"
                            "    a >>= b\n    y: tl.constexpr = 4\n"
                            "    x[0] = 1; x.y = 2\n");
  ASSERT_TRUE(parsed->module) << parsed->error;
  const StmtList &body = parsed->module->functions[0]->body;
  ASSERT_EQ(body.size(), 8u);
  auto &unpack = cast<AssignStmt>(*body[0]);
  ASSERT_EQ(unpack.getTargets().size(), 1u);
  EXPECT_EQ(render(*unpack.getTargets()[0]), "(tuple a b)");
  EXPECT_EQ(render(unpack.getValue()), "(tuple c d)");
  EXPECT_EQ(render(*cast<AssignStmt>(*body[1]).getTargets()[0]),
            "(tuple e f)");
  auto &chain = cast<AssignStmt>(*body[2]);
  ASSERT_EQ(chain.getTargets().size(), 2u);
  EXPECT_EQ(render(*chain.getTargets()[1]), "i");
  auto &aug = cast<AugAssignStmt>(*body[3]);
  EXPECT_EQ(aug.getOp(), BinaryOp::Add);
  EXPECT_EQ(cast<AugAssignStmt>(*body[4]).getOp(), BinaryOp::RShift);
  auto &ann = cast<AnnAssignStmt>(*body[5]);
  EXPECT_EQ(render(ann.getAnnotation()), "tl.constexpr");
  ASSERT_TRUE(ann.getValue());
  EXPECT_EQ(render(*ann.getValue()), "4");
  EXPECT_TRUE(isa<SubscriptExpr>(*cast<AssignStmt>(*body[6]).getTargets()[0]));
  EXPECT_TRUE(isa<AttributeExpr>(*cast<AssignStmt>(*body[7]).getTargets()[0]));
}

TEST(ParserTest, CompoundStatements) {
  auto parsed = parseString(
      "@triton.jit\ndef k(n):\n    for i in range(0, n, 2):\n"
      "        if i == 1:\n            continue\n        elif i > 5:\n"
      "            break\n        else:\n            pass\n"
      "    while n > 0:\n        n -= 1\n    for a, b in z: pass\n"
      "    assert n == 0, 'msg'\n    return n, 1\n");
  ASSERT_TRUE(parsed->module) << parsed->error;
  const StmtList &body = parsed->module->functions[0]->body;
  ASSERT_EQ(body.size(), 5u);
  auto &loop = cast<ForStmt>(*body[0]);
  EXPECT_EQ(render(loop.getTarget()), "i");
  EXPECT_EQ(render(loop.getIter()), "(call range 0 n 2)");
  auto &ifs = cast<IfStmt>(*loop.getBody()[0]);
  EXPECT_FALSE(ifs.isElif());
  EXPECT_TRUE(isa<ContinueStmt>(*ifs.getBody()[0]));
  ASSERT_EQ(ifs.getOrElse().size(), 1u);
  auto &elif = cast<IfStmt>(*ifs.getOrElse()[0]);
  EXPECT_TRUE(elif.isElif());
  EXPECT_TRUE(isa<BreakStmt>(*elif.getBody()[0]));
  EXPECT_TRUE(isa<PassStmt>(*elif.getOrElse()[0]));
  auto &loop2 = cast<WhileStmt>(*body[1]);
  EXPECT_TRUE(isa<AugAssignStmt>(*loop2.getBody()[0]));
  EXPECT_EQ(render(cast<ForStmt>(*body[2]).getTarget()), "(tuple a b)");
  auto &assertion = cast<AssertStmt>(*body[3]);
  ASSERT_TRUE(assertion.getMsg());
  EXPECT_EQ(render(*assertion.getMsg()), "'msg'");
  auto &ret = cast<ReturnStmt>(*body[4]);
  EXPECT_EQ(render(*ret.getValue()), "(tuple n 1)");
}

TEST(ParserTest, ModuleLevelItems) {
  auto parsed = parseString(
      "import triton\nimport triton.language as tl\n"
      "from mgp import empty, zeros as z\nfrom a.b import (c,\n  d)\n"
      "BLOCK = 128\nEPS: tl.constexpr = 1e-5\na, b = 1, 2\n"
      "@triton.jit(debug=True)\ndef k(x, N: tl.constexpr = 4) -> None:\n"
      "    pass\n@mgp.jit\ndef k2(): pass\n@jit\ndef k3(): pass\n"
      "@tl.jit\ndef k4(): pass\n@other\ndef helper(x):\n    return x\n");
  ASSERT_TRUE(parsed->module) << parsed->error;
  const Module &m = *parsed->module;
  ASSERT_EQ(m.imports.size(), 6u);
  EXPECT_EQ(m.imports[0].getBoundName(), "triton");
  EXPECT_EQ(m.imports[0].getTargetPath(), "triton");
  EXPECT_EQ(m.imports[1].getBoundName(), "tl");
  EXPECT_EQ(m.imports[1].getTargetPath(), "triton.language");
  EXPECT_EQ(m.imports[2].getBoundName(), "empty");
  EXPECT_EQ(m.imports[2].getTargetPath(), "mgp.empty");
  EXPECT_EQ(m.imports[3].getBoundName(), "z");
  EXPECT_EQ(m.imports[5].getTargetPath(), "a.b.d");
  ASSERT_EQ(m.constants.size(), 2u);
  EXPECT_EQ(m.constants[0].name, "BLOCK");
  EXPECT_EQ(m.findConstant("EPS")->annotation != nullptr, true);
  ASSERT_EQ(m.functions.size(), 5u);
  std::vector<const FunctionDef *> kernels = m.getKernels();
  ASSERT_EQ(kernels.size(), 4u);
  EXPECT_EQ(kernels[0]->name, "k");
  EXPECT_TRUE(isa<CallExpr>(*kernels[0]->decorators[0].expr));
  const Param *n = kernels[0]->findParam("N");
  ASSERT_TRUE(n);
  EXPECT_EQ(render(*n->annotation), "tl.constexpr");
  EXPECT_EQ(render(*n->defaultValue), "4");
  EXPECT_TRUE(kernels[0]->returns);
  EXPECT_FALSE(m.findFunction("helper")->isKernel());
  EXPECT_TRUE(m.skipped.empty());
}

TEST(ParserTest, AutotuneDecoratorWithDictConfigs) {
  auto parsed = parseString(
      "@triton.autotune(configs=[triton.Config({'B': 128}, num_warps=4),\n"
      "                          triton.Config({}, num_warps=8)],\n"
      "                 key=['n'])\n@triton.jit\ndef k(x, n, B: tl.constexpr):\n"
      "    pass\n");
  ASSERT_TRUE(parsed->module) << parsed->error;
  const FunctionDef &k = *parsed->module->functions[0];
  ASSERT_EQ(k.decorators.size(), 2u);
  EXPECT_FALSE(k.decorators[0].isJit);
  EXPECT_TRUE(k.decorators[1].isJit);
  auto &autotune = cast<CallExpr>(*k.decorators[0].expr);
  auto &configs = cast<ListExpr>(*autotune.findKeyword("configs")->value);
  auto &config = cast<CallExpr>(*configs.getElts()[0]);
  auto &dict = cast<DictExpr>(*config.getArgs()[0]);
  ASSERT_EQ(dict.getKeys().size(), 1u);
  EXPECT_EQ(render(*dict.getKeys()[0]), "'B'");
  EXPECT_EQ(render(*dict.getValues()[0]), "128");
  EXPECT_TRUE(cast<DictExpr>(*cast<CallExpr>(*configs.getElts()[1]).getArgs()[0])
                  .getKeys()
                  .empty());
  // An error in an earlier decorator of a kernel is still a kernel error.
  auto bad = parseString("@triton.autotune(configs=[{'B' 1}])\n@triton.jit\n"
                         "def k(x):\n    pass\n",
                         "a.py");
  ASSERT_FALSE(bad->module);
  EXPECT_EQ(llvm::StringRef(bad->error).split('\n').first,
            "a.py:1:32: error: expected ':' after a dict key, found '1'");
  // Dict literals stay errors outside decorators.
  auto host = parseString("def h():\n    return {}\n");
  ASSERT_TRUE(host->module);
  EXPECT_TRUE(host->module->findSkippedFunction("h"));
}

TEST(ParserTest, LooseSkippingOfHostCode) {
  auto parsed = parseString(
      "class A:\n    pass\ndef host(*args):\n    return {1: 2}\n"
      "def host2(x):\n    s = '''\nfree text at column 0 (\n'''\n"
      "    y = [i for i in x]\n\n@triton.jit\ndef k(x):\n    return x\n"
      "def after(x):\n    return x\n",
      "loose.py");
  ASSERT_TRUE(parsed->module) << parsed->error;
  const Module &m = *parsed->module;
  ASSERT_EQ(m.functions.size(), 2u);
  EXPECT_EQ(m.functions[0]->name, "k");
  EXPECT_EQ(m.functions[1]->name, "after");
  ASSERT_EQ(m.skipped.size(), 3u);
  EXPECT_EQ(m.skipped[0].name, "");
  EXPECT_EQ(m.skipped[0].location.line, 1u);
  const SkippedCode *host = m.findSkippedFunction("host");
  ASSERT_TRUE(host);
  EXPECT_EQ(host->location.line, 3u);
  EXPECT_EQ(llvm::StringRef(host->diagnostic)
                .starts_with("loose.py:3:10: error: '*args', '**kwargs'"),
            true)
      << host->diagnostic;
  const SkippedCode *host2 = m.findSkippedFunction("host2");
  ASSERT_TRUE(host2);
  EXPECT_NE(host2->diagnostic.find("loose.py:9:12: error: comprehensions are "
                                   "not supported\n    y = [i for i in x]\n"
                                   "           ^"),
            std::string::npos)
      << host2->diagnostic;
  EXPECT_FALSE(m.findSkippedFunction("k"));
}

TEST(ParserTest, LocationsPointIntoTheSource) {
  auto parsed = parseString("@jit\ndef k(a):\n    b = a + tl.load(p)\n");
  ASSERT_TRUE(parsed->module) << parsed->error;
  const FunctionDef &k = *parsed->module->functions[0];
  EXPECT_EQ(k.location.line, 2u);
  EXPECT_EQ(k.nameLocation.col, 5u);
  auto &assign = cast<AssignStmt>(*k.body[0]);
  EXPECT_EQ(assign.getLocation().line, 3u);
  EXPECT_EQ(assign.getLocation().col, 5u);
  auto &add = cast<BinOpExpr>(assign.getValue());
  EXPECT_EQ(add.getLocation().col, 9u);
  EXPECT_EQ(add.getOpLocation().col, 11u);
  auto &call = cast<CallExpr>(add.getRHS());
  EXPECT_EQ(call.getLocation().col, 13u);
  llvm::SMRange range = call.getRange();
  EXPECT_EQ(llvm::StringRef(range.Start.getPointer(),
                            range.End.getPointer() - range.Start.getPointer()),
            "tl.load(p)");
  auto lineCol = parsed->sourceMgr.getLineAndColumn(call.getLoc());
  EXPECT_EQ(lineCol.first, 3u);
  EXPECT_EQ(lineCol.second, 13u);
}

std::string readFile(const std::string &path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

TEST(ParserTest, EveryConformanceKernelParsesStrictly) {
  const char *files[] = {"relu.py",   "batchnorm2d.py", "maxpool2d.py",
                         "avgpool2d.py", "linear.py",   "conv2d.py",
                         "conv2d_3x3_tiled.py", "conv2d_3x3_dot.py"};
  for (const char *file : files) {
    std::string src = readFile(std::string(MGP_CONFORMANCE_DIR) + "/" + file);
    ASSERT_FALSE(src.empty()) << file;
    auto parsed = parseString(src, file);
    ASSERT_TRUE(parsed->module) << file << ": " << parsed->error;
    EXPECT_EQ(parsed->module->getKernels().size(), 1u) << file;
    EXPECT_TRUE(parsed->module->skipped.empty()) << file;
  }
}

TEST(ParserTest, DumpShowsStructureAndLocations) {
  auto parsed = parseString("import triton.language as tl\n@triton.jit\n"
                            "def k(p, B: tl.constexpr):\n"
                            "    x = tl.load(p + tl.arange(0, B)[:, None])\n",
                            "d.py");
  ASSERT_TRUE(parsed->module) << parsed->error;
  std::string text;
  llvm::raw_string_ostream os(text);
  dumpAST(*parsed->module, os);
  EXPECT_NE(text.find("Module \"d.py\"\n  Import triton.language as tl @1:8\n"
                      "  FunctionDef k kernel @3:1\n    Decorator jit @2:1\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("      annotation: Attribute constexpr @3:13\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("index: Slice @4:37\n"), std::string::npos) << text;
  EXPECT_NE(text.find("index: Constant None @4:40\n"), std::string::npos)
      << text;
}

} // namespace
