//===- ParserHost.cpp - the mgp parser: host code around kernels ----------===//
//
// This file implements the parts of the parser that only host code needs, so
// that a Triton file compiles as it is: comprehensions (in autotune decorator
// arguments and module-level statements), the module-level `try`/`except`,
// `with` and `raise` statements around imports (`try: from
// triton.language.extra import libdevice except ImportError: ...`), and the
// recognition of `NAME = triton.jit(FN)` as a kernel called NAME. Kernels
// never contain any of these: inside a function they stay syntax errors.
//
//===----------------------------------------------------------------------===//
#include "compiler/frontend/Parser.h"

using namespace mgp;
using namespace mgp::ast;
using llvm::StringRef;

Parser::ExprPtr Parser::parseComprehension(SourceLocation loc,
                                           ComprehensionExpr::CompKind kind,
                                           ExprPtr elt, ExprPtr value) {
  std::vector<ComprehensionFor> generators;
  while (tok.is(TokenKind::KwFor)) {
    consume();
    ComprehensionFor gen;
    if (!(gen.target = parseTargetList()) ||
        !checkAssignTarget(*gen.target, "comprehension"))
      return nullptr;
    if (!expect(TokenKind::KwIn, "in comprehension"))
      return nullptr;
    if (!(gen.iter = parseOrTest()))
      return nullptr;
    while (consumeIf(TokenKind::KwIf)) {
      ExprPtr cond = parseOrTest();
      if (!cond)
        return nullptr;
      gen.ifs.push_back(std::move(cond));
    }
    generators.push_back(std::move(gen));
  }
  finish(loc);
  return std::make_unique<ComprehensionExpr>(
      loc, kind, std::move(elt), std::move(value), std::move(generators));
}

/// try_stmt: 'try' ':' block (('except' [test ['as' NAME]] ':' block)+
///           ['else' ':' block] ['finally' ':' block] | 'finally' ':' block)
Parser::StmtPtr Parser::parseHostTry() {
  Token kw = tok;
  SourceLocation loc = startLocation(tok);
  consume();
  StmtList dropped;
  if (!expect(TokenKind::Colon, "after 'try'") ||
      !parseBlock(dropped, kw, "'try' statement"))
    return nullptr;
  bool sawHandler = false;
  while (tok.is(TokenKind::KwExcept)) {
    Token except = tok;
    consume();
    sawHandler = true;
    if (tok.isNot(TokenKind::Colon)) {
      if (!parseTest())
        return nullptr;
      if (consumeIf(TokenKind::KwAs) && !expectName("a name after 'as'"))
        return nullptr;
    }
    if (!expect(TokenKind::Colon, "after the 'except' clause") ||
        !parseBlock(dropped, except, "'except' clause"))
      return nullptr;
  }
  if (sawHandler && tok.is(TokenKind::KwElse)) {
    Token elseTok = tok;
    consume();
    if (!expect(TokenKind::Colon, "after 'else'") ||
        !parseBlock(dropped, elseTok, "'else' clause"))
      return nullptr;
  }
  if (tok.is(TokenKind::KwFinally)) {
    Token fin = tok;
    consume();
    sawHandler = true;
    if (!expect(TokenKind::Colon, "after 'finally'") ||
        !parseBlock(dropped, fin, "'finally' clause"))
      return nullptr;
  }
  if (!sawHandler)
    return emitUnexpected("'except' or 'finally'");
  finish(loc);
  return std::make_unique<PassStmt>(loc);
}

/// with_stmt: 'with' test ['as' target] (',' test ['as' target])* ':' block
Parser::StmtPtr Parser::parseHostWith() {
  Token kw = tok;
  SourceLocation loc = startLocation(tok);
  consume();
  do {
    if (!parseTest())
      return nullptr;
    if (consumeIf(TokenKind::KwAs)) {
      ExprPtr target = parseTargetList();
      if (!target || !checkAssignTarget(*target, "'with'"))
        return nullptr;
    }
  } while (consumeIf(TokenKind::Comma));
  StmtList dropped;
  if (!expect(TokenKind::Colon, "after the 'with' items") ||
      !parseBlock(dropped, kw, "'with' statement"))
    return nullptr;
  finish(loc);
  return std::make_unique<PassStmt>(loc);
}

/// raise_stmt: 'raise' [test ['from' test]]
Parser::StmtPtr Parser::parseHostRaise() {
  SourceLocation loc = startLocation(tok);
  consume();
  if (tok.isNot(TokenKind::Newline) && tok.isNot(TokenKind::Semicolon)) {
    if (!parseTest())
      return nullptr;
    if (consumeIf(TokenKind::KwFrom) && !parseTest())
      return nullptr;
  }
  finish(loc);
  return std::make_unique<PassStmt>(loc);
}

/// Whether the callee chain of a decorator-style call mentions `jit`
/// (`triton.jit`, `jit`, `triton.jit(debug=True)`).
static bool calleeIsJit(const Expr &callee) {
  if (auto *name = llvm::dyn_cast<NameExpr>(&callee))
    return name->getName() == "jit";
  if (auto *attr = llvm::dyn_cast<AttributeExpr>(&callee))
    return attr->getAttr() == "jit";
  if (auto *call = llvm::dyn_cast<CallExpr>(&callee))
    return calleeIsJit(call->getCallee());
  return false;
}

void Parser::recordKernelAlias(Module &module, const ModuleConstant &c) {
  // NAME = CALLEE(FN) where CALLEE is jit, jit(...), or a call chain such as
  // triton.autotune(...) / triton.heuristics(...).
  auto *call = llvm::dyn_cast<CallExpr>(c.value.get());
  if (!call || call->getArgs().size() != 1)
    return;
  auto *fn = llvm::dyn_cast<NameExpr>(call->getArgs()[0].get());
  if (!fn)
    return;
  bool viaJit = calleeIsJit(call->getCallee());
  if (!viaJit && !llvm::isa<CallExpr>(call->getCallee()))
    return;
  KernelAlias alias;
  alias.location = c.location;
  alias.name = c.name;
  alias.function = fn->getName().str();
  alias.viaJit = viaJit;
  module.kernelAliases.push_back(std::move(alias));
}
