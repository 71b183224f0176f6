//===- ParserStmt.cpp - the mgp parser: statements ------------------------===//
//
// This file implements the statement half of the parser: indented blocks,
// simple statements (assignments of every kind, expression statements, pass,
// break, continue, return, assert), the compound statements if/elif/else,
// for and while, nested function definitions, and the checks on assignment
// targets and loop context that Python makes at compile time.
//
//===----------------------------------------------------------------------===//
#include "compiler/frontend/Parser.h"

using namespace mgp;
using namespace mgp::ast;
using llvm::StringRef;

/// block: simple_stmts | NEWLINE INDENT stmt+ DEDENT
bool Parser::parseBlock(StmtList &body, const Token &header, StringRef what) {
  if (tok.isNot(TokenKind::Newline))
    return parseSimpleStatements(body);
  consume();
  if (tok.isNot(TokenKind::Indent)) {
    if (tok.is(TokenKind::Error))
      emitUnexpected("an indented block");
    else
      emitError(tok, "expected an indented block after " + what +
                         " on line " + llvm::Twine(header.line));
    return false;
  }
  consume();
  while (tok.isNot(TokenKind::Dedent) && tok.isNot(TokenKind::EndOfFile)) {
    if (!parseStatement(body))
      return false;
  }
  return expect(TokenKind::Dedent, "at the end of the block");
}

/// stmt: if_stmt | while_stmt | for_stmt | funcdef | decorated | simple_stmts
bool Parser::parseStatement(StmtList &body) {
  StmtPtr stmt;
  switch (tok.kind) {
  case TokenKind::KwIf:
    stmt = parseIf(/*isElif=*/false);
    break;
  case TokenKind::KwWhile:
    stmt = parseWhile();
    break;
  case TokenKind::KwFor:
    stmt = parseFor();
    break;
  case TokenKind::KwDef:
  case TokenKind::At:
    stmt = parseNestedDef();
    break;
  case TokenKind::KwTry:
  case TokenKind::KwWith:
    if (moduleCompoundDepth == 0) {
      emitError(tok, "'" + tok.spelling + "' statements are not supported");
      return false;
    }
    stmt = tok.is(TokenKind::KwTry) ? parseHostTry() : parseHostWith();
    break;
  case TokenKind::KwImport:
  case TokenKind::KwFrom:
    // Under a module-level `if`/`try`: an import of the module. Elsewhere
    // parseSmallStatement reports it.
    if (moduleCompoundDepth == 0)
      return parseSimpleStatements(body);
    return parseImport(*currentModule);
  case TokenKind::KwClass:
  case TokenKind::KwAsync:
    emitError(tok, "'" + tok.spelling + "' statements are not supported");
    return false;
  case TokenKind::Newline:
    consume();
    return true;
  default:
    return parseSimpleStatements(body);
  }
  if (!stmt)
    return false;
  body.push_back(std::move(stmt));
  return true;
}

/// simple_stmts: small_stmt (';' small_stmt)* [';'] NEWLINE
bool Parser::parseSimpleStatements(StmtList &body) {
  while (true) {
    StmtPtr stmt = parseSmallStatement();
    if (!stmt)
      return false;
    body.push_back(std::move(stmt));
    if (!consumeIf(TokenKind::Semicolon) || tok.is(TokenKind::Newline))
      break;
  }
  return expect(TokenKind::Newline, "at the end of the statement");
}

/// small_stmt: expr_stmt | 'pass' | 'break' | 'continue'
///           | 'return' [testlist] | 'assert' test [',' test]
StmtPtr Parser::parseSmallStatement() {
  Token kw = tok;
  SourceLocation loc = startLocation(tok);
  switch (tok.kind) {
  case TokenKind::KwPass:
    consume();
    return std::make_unique<PassStmt>(loc);
  case TokenKind::KwBreak:
  case TokenKind::KwContinue:
    if (loopDepth == 0)
      return emitError(tok, "'" + tok.spelling + "' outside loop");
    consume();
    if (kw.is(TokenKind::KwBreak))
      return std::make_unique<BreakStmt>(loc);
    return std::make_unique<ContinueStmt>(loc);
  case TokenKind::KwReturn: {
    consume();
    ExprPtr value;
    if (tok.isNot(TokenKind::Newline) && tok.isNot(TokenKind::Semicolon) &&
        !(value = parseTestList()))
      return nullptr;
    finish(loc);
    return std::make_unique<ReturnStmt>(loc, std::move(value));
  }
  case TokenKind::KwAssert: {
    consume();
    ExprPtr test = parseTest(), msg;
    if (!test)
      return nullptr;
    if (consumeIf(TokenKind::Comma) && !(msg = parseTest()))
      return nullptr;
    finish(loc);
    return std::make_unique<AssertStmt>(loc, std::move(test), std::move(msg));
  }
  case TokenKind::KwImport:
  case TokenKind::KwFrom:
    return emitError(tok, "'import' is only supported at module level");
  case TokenKind::KwRaise:
    if (moduleCompoundDepth > 0)
      return parseHostRaise();
    [[fallthrough]];
  case TokenKind::KwGlobal:
  case TokenKind::KwNonlocal:
  case TokenKind::KwDel:
  case TokenKind::KwYield:
    return emitError(tok, "'" + tok.spelling + "' statements are not supported");
  default:
    break;
  }
  ExprStmtParts parts;
  if (!parseExprStmtParts(parts))
    return nullptr;
  if (parts.annotation)
    return std::make_unique<AnnAssignStmt>(
        parts.location, std::move(parts.targets[0]),
        std::move(parts.annotation), std::move(parts.value));
  if (parts.augOp)
    return std::make_unique<AugAssignStmt>(parts.location,
                                           std::move(parts.targets[0]),
                                           *parts.augOp, std::move(parts.value));
  if (parts.value)
    return std::make_unique<AssignStmt>(parts.location, std::move(parts.targets),
                                        std::move(parts.value));
  return std::make_unique<ExprStmt>(parts.location,
                                    std::move(parts.targets[0]));
}

/// The binary operator of an augmented assignment token, if it is one.
static std::optional<BinaryOp> getAugOp(TokenKind kind) {
  switch (kind) {
  case TokenKind::PlusEqual: return BinaryOp::Add;
  case TokenKind::MinusEqual: return BinaryOp::Sub;
  case TokenKind::StarEqual: return BinaryOp::Mul;
  case TokenKind::AtEqual: return BinaryOp::MatMul;
  case TokenKind::SlashEqual: return BinaryOp::Div;
  case TokenKind::SlashSlashEqual: return BinaryOp::FloorDiv;
  case TokenKind::PercentEqual: return BinaryOp::Mod;
  case TokenKind::StarStarEqual: return BinaryOp::Pow;
  case TokenKind::LessLessEqual: return BinaryOp::LShift;
  case TokenKind::GreaterGreaterEqual: return BinaryOp::RShift;
  case TokenKind::AmpEqual: return BinaryOp::BitAnd;
  case TokenKind::PipeEqual: return BinaryOp::BitOr;
  case TokenKind::CaretEqual: return BinaryOp::BitXor;
  default: return std::nullopt;
  }
}

/// expr_stmt: testlist (annassign | augassign testlist | ('=' testlist)*)
/// annassign: ':' test ['=' testlist]
/// augassign: '+=' | '-=' | '*=' | '@=' | '/=' | '//=' | '%=' | '**='
///          | '<<=' | '>>=' | '&=' | '|=' | '^='
bool Parser::parseExprStmtParts(ExprStmtParts &parts) {
  parts.location = startLocation(tok);
  ExprPtr first = parseTestList();
  if (!first)
    return false;
  if (tok.is(TokenKind::Colon)) {
    if (!llvm::isa<NameExpr, AttributeExpr, SubscriptExpr>(*first)) {
      emitError(first->getLoc(),
                "only a single name, attribute or subscript can be annotated");
      return false;
    }
    consume();
    if (!(parts.annotation = parseTest()))
      return false;
    if (consumeIf(TokenKind::Equal) && !(parts.value = parseTestList()))
      return false;
    parts.targets.push_back(std::move(first));
  } else if (std::optional<BinaryOp> op = getAugOp(tok.kind)) {
    if (!llvm::isa<NameExpr, AttributeExpr, SubscriptExpr>(*first)) {
      emitError(first->getLoc(), "invalid target for augmented assignment "
                                 "(expected a name, attribute or subscript)");
      return false;
    }
    consume();
    parts.augOp = op;
    if (!(parts.value = parseTestList()))
      return false;
    parts.targets.push_back(std::move(first));
  } else {
    parts.targets.push_back(std::move(first));
    while (consumeIf(TokenKind::Equal)) {
      if (!checkAssignTarget(*parts.targets.back(), "assignment"))
        return false;
      ExprPtr next = parseTestList();
      if (!next)
        return false;
      if (tok.is(TokenKind::Equal))
        parts.targets.push_back(std::move(next));
      else
        parts.value = std::move(next);
    }
  }
  finish(parts.location);
  return true;
}

/// What a non-assignable expression is, for "cannot assign to ..." messages.
static StringRef describeForAssignment(const Expr &e) {
  switch (e.getKind()) {
  case Expr::Kind::Constant: return "literal";
  case Expr::Kind::Call: return "function call";
  case Expr::Kind::Compare: return "comparison";
  case Expr::Kind::IfExp: return "conditional expression";
  case Expr::Kind::Lambda: return "lambda";
  case Expr::Kind::Slice: return "slice";
  default: return "expression";
  }
}

/// target: NAME | atom_expr '.' NAME | atom_expr '[' subscriptlist ']'
///       | '(' [targetlist] ')' | '[' [targetlist] ']' | targetlist
bool Parser::checkAssignTarget(const Expr &target, StringRef what) {
  if (llvm::isa<NameExpr, AttributeExpr, SubscriptExpr>(target))
    return true;
  if (auto *tuple = llvm::dyn_cast<TupleExpr>(&target)) {
    for (const ExprPtr &elt : tuple->getElts())
      if (!checkAssignTarget(*elt, what))
        return false;
    return true;
  }
  if (auto *list = llvm::dyn_cast<ListExpr>(&target)) {
    for (const ExprPtr &elt : list->getElts())
      if (!checkAssignTarget(*elt, what))
        return false;
    return true;
  }
  emitError(target.getLoc(), "invalid " + what + " target: cannot assign to " +
                                 describeForAssignment(target));
  return false;
}

/// if_stmt: 'if' test ':' block ('elif' test ':' block)* ['else' ':' block]
StmtPtr Parser::parseIf(bool isElif) {
  Token kw = tok;
  SourceLocation loc = startLocation(tok);
  consume();
  ExprPtr test = parseTest();
  if (!test || !expect(TokenKind::Colon, isElif ? "after the 'elif' condition"
                                                : "after the 'if' condition"))
    return nullptr;
  finish(loc);
  StmtList body, orelse;
  if (!parseBlock(body, kw, isElif ? "'elif' statement" : "'if' statement"))
    return nullptr;
  if (tok.is(TokenKind::KwElif)) {
    StmtPtr elif = parseIf(/*isElif=*/true);
    if (!elif)
      return nullptr;
    orelse.push_back(std::move(elif));
  } else if (tok.is(TokenKind::KwElse)) {
    Token elseTok = tok;
    consume();
    if (!expect(TokenKind::Colon, "after 'else'") ||
        !parseBlock(orelse, elseTok, "'else' statement"))
      return nullptr;
  }
  return std::make_unique<IfStmt>(loc, std::move(test), std::move(body),
                                  std::move(orelse), isElif);
}

/// while_stmt: 'while' test ':' block
StmtPtr Parser::parseWhile() {
  Token kw = tok;
  SourceLocation loc = startLocation(tok);
  consume();
  ExprPtr test = parseTest();
  if (!test || !expect(TokenKind::Colon, "after the 'while' condition"))
    return nullptr;
  finish(loc);
  StmtList body;
  ++loopDepth;
  bool ok = parseBlock(body, kw, "'while' statement");
  --loopDepth;
  if (!ok)
    return nullptr;
  if (tok.is(TokenKind::KwElse))
    return emitError(tok, "'while ... else' is not supported");
  return std::make_unique<WhileStmt>(loc, std::move(test), std::move(body));
}

/// for_stmt: 'for' exprlist 'in' testlist ':' block
StmtPtr Parser::parseFor() {
  Token kw = tok;
  SourceLocation loc = startLocation(tok);
  consume();
  ExprPtr target = parseTargetList();
  if (!target || !checkAssignTarget(*target, "'for' loop"))
    return nullptr;
  if (!expect(TokenKind::KwIn, "after the 'for' target"))
    return nullptr;
  ExprPtr iter = parseTestList();
  if (!iter || !expect(TokenKind::Colon, "after the 'for' iterable"))
    return nullptr;
  finish(loc);
  StmtList body;
  ++loopDepth;
  bool ok = parseBlock(body, kw, "'for' statement");
  --loopDepth;
  if (!ok)
    return nullptr;
  if (tok.is(TokenKind::KwElse))
    return emitError(tok, "'for ... else' is not supported");
  return std::make_unique<ForStmt>(loc, std::move(target), std::move(iter),
                                   std::move(body));
}

/// decorated: decorator+ funcdef (inside a function body)
StmtPtr Parser::parseNestedDef() {
  SourceLocation loc = startLocation(tok);
  std::vector<Decorator> decorators;
  while (tok.is(TokenKind::At)) {
    Decorator decorator;
    bool isJitLike = false;
    if (!parseDecorator(decorator, isJitLike))
      return nullptr;
    decorators.push_back(std::move(decorator));
  }
  if (tok.isNot(TokenKind::KwDef))
    return emitUnexpected("'def' after decorator");
  std::unique_ptr<FunctionDef> def = parseFunctionDef(std::move(decorators));
  if (!def)
    return nullptr;
  loc.range.End = def->location.range.End;
  if (moduleCompoundDepth > 0) {
    // A def under a module-level `if`/`try` defines a module function.
    currentModule->functions.push_back(std::move(def));
    return std::make_unique<PassStmt>(loc);
  }
  return std::make_unique<FunctionDefStmt>(loc, std::move(def));
}
