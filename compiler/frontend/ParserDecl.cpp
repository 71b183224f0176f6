//===- ParserDecl.cpp - the mgp parser: functions and decorators ----------===//
//
// This file implements the parsing of function definitions: decorators (and
// which of them mark a jit kernel), the `def` line, and parameter lists
// (shared with lambdas).
//
//===----------------------------------------------------------------------===//
#include "compiler/frontend/Parser.h"

#include "llvm/ADT/StringExtras.h"

using namespace mgp;
using namespace mgp::ast;
using llvm::StringRef;

/// Whether `text` starts with `jit` or `NAME.jit` as whole words.
static bool startsWithJitName(StringRef text) {
  auto isWord = [](char c) { return llvm::isAlnum(c) || c == '_'; };
  StringRef first = text.take_while(isWord);
  if (first == "jit")
    return true;
  if (first.empty())
    return false;
  StringRef rest = text.drop_front(first.size()).ltrim(" \t");
  if (!rest.consume_front("."))
    return false;
  rest = rest.ltrim(" \t");
  return rest.starts_with("jit") && (rest.size() == 3 || !isWord(rest[3]));
}

/// Whether the decorator lines starting at `text` (each `@` in column 0, up
/// to the `def` line) include a jit form.
bool Parser::decoratorsIncludeJit(StringRef text) {
  // Bounded, so that stray decorators cannot make parsing quadratic.
  for (unsigned lines = 0; lines < 1000 && !text.empty(); ++lines) {
    auto [line, rest] = text.split('\n');
    if (line.starts_with("def") || line.starts_with("async"))
      return false;
    if (line.consume_front("@") && startsWithJitName(line.ltrim(" \t")))
      return true;
    text = rest;
  }
  return false;
}

/// Whether `e` is `jit` or `NAME.jit`.
static bool isJitName(const Expr &e) {
  if (auto *name = llvm::dyn_cast<NameExpr>(&e))
    return name->getName() == "jit";
  if (auto *attr = llvm::dyn_cast<AttributeExpr>(&e))
    return attr->getAttr() == "jit" && llvm::isa<NameExpr>(attr->getValue());
  return false;
}

/// Whether `e` mentions `jit` as a name or attribute anywhere in its callee
/// or attribute chain.
static bool mentionsJit(const Expr &e) {
  if (auto *name = llvm::dyn_cast<NameExpr>(&e))
    return name->getName() == "jit";
  if (auto *attr = llvm::dyn_cast<AttributeExpr>(&e))
    return attr->getAttr() == "jit" || mentionsJit(attr->getValue());
  if (auto *call = llvm::dyn_cast<CallExpr>(&e))
    return mentionsJit(call->getCallee());
  if (auto *sub = llvm::dyn_cast<SubscriptExpr>(&e))
    return mentionsJit(sub->getValue());
  return false;
}

/// decorator: '@' test NEWLINE
/// The jit forms are '@' jit_name | '@' jit_name '(' [arglist] ')' with
/// jit_name: 'jit' | NAME '.' 'jit'.
bool Parser::parseDecorator(Decorator &decorator, bool &isJitLike) {
  decorator.location = startLocation(tok);
  expect(TokenKind::At);
  // Decide strictness from the text, before anything can fail.
  isJitLike = startsWithJitName(restOfBuffer(tok));
  allowDict = !isJitLike;
  decorator.expr = parseTest();
  allowDict = false;
  if (!decorator.expr)
    return false;
  const Expr &e = *decorator.expr;
  const Expr *callee = &e;
  if (auto *call = llvm::dyn_cast<CallExpr>(&e))
    callee = &call->getCallee();
  decorator.isJit = isJitName(*callee);
  if (!decorator.isJit && mentionsJit(e)) {
    emitError(decorator.expr->getLoc(),
              "unsupported decorator form: a kernel is marked with @jit, "
              "@triton.jit, @mgp.jit or @triton.jit(...)");
    isJitLike = true;
    return false;
  }
  finish(decorator.location);
  return expect(TokenKind::Newline, "after decorator");
}

/// funcdef: 'def' NAME '(' [params] ')' ['->' test] ':' block
std::unique_ptr<FunctionDef>
Parser::parseFunctionDef(std::vector<Decorator> decorators) {
  auto def = std::make_unique<FunctionDef>();
  Token defTok = tok;
  def->location = startLocation(tok);
  def->decorators = std::move(decorators);
  expect(TokenKind::KwDef);
  def->nameLocation = startLocation(tok);
  def->name = tok.spelling.str();
  if (!expectName("a function name after 'def'"))
    return nullptr;
  if (!expect(TokenKind::LParen, "after the function name"))
    return nullptr;
  if (!parseParams(def->params, TokenKind::RParen, /*allowAnnotations=*/true))
    return nullptr;
  if (consumeIf(TokenKind::Arrow) && !(def->returns = parseTest()))
    return nullptr;
  if (!expect(TokenKind::Colon, "after the function signature"))
    return nullptr;
  finish(def->location);
  // A function starts a fresh loop context: `break` in it needs its own loop;
  // its body is not module-level host code.
  unsigned savedLoopDepth = loopDepth, savedCompound = moduleCompoundDepth;
  bool savedDict = allowDict;
  loopDepth = moduleCompoundDepth = 0;
  allowDict = false;
  bool ok = parseBlock(def->body, defTok, "function definition");
  loopDepth = savedLoopDepth;
  moduleCompoundDepth = savedCompound;
  allowDict = savedDict;
  if (!ok)
    return nullptr;
  return def;
}

/// params: param (',' param)* [',']
/// param: NAME [':' test] ['=' test]
/// (`lambda` parameters take no annotation.)
bool Parser::parseParams(std::vector<Param> &params, TokenKind close,
                         bool allowAnnotations) {
  bool sawDefault = false;
  while (tok.isNot(close)) {
    if (tok.is(TokenKind::Star) || tok.is(TokenKind::StarStar) ||
        tok.is(TokenKind::Slash)) {
      emitError(tok, "'*args', '**kwargs' and '/' or '*' parameter markers "
                     "are not supported");
      return false;
    }
    Param param;
    param.location = startLocation(tok);
    param.name = tok.spelling.str();
    if (!expectName("a parameter name"))
      return false;
    for (const Param &other : params) {
      if (other.name == param.name) {
        emitError(param.location.getLoc(),
                  "duplicate parameter '" + param.name + "'");
        return false;
      }
    }
    if (allowAnnotations && consumeIf(TokenKind::Colon) &&
        !(param.annotation = parseTest()))
      return false;
    if (consumeIf(TokenKind::Equal)) {
      if (!(param.defaultValue = parseTest()))
        return false;
      sawDefault = true;
    } else if (sawDefault) {
      emitError(param.location.getLoc(),
                "parameter without a default follows parameter with a default");
      return false;
    }
    finish(param.location);
    params.push_back(std::move(param));
    if (!consumeIf(TokenKind::Comma))
      break;
  }
  if (close == TokenKind::RParen)
    return expect(close, "to close the parameter list");
  return true;
}
