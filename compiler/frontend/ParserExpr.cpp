//===- ParserExpr.cpp - the mgp parser: expressions -----------------------===//
//
// This file implements the expression half of the parser with Python's
// precedence: conditional expressions and lambdas, `or`/`and`/`not`, chained
// comparisons, the binary operator levels (by precedence climbing), unary
// operators, `**`, trailers (calls with keyword arguments, subscripts with
// slices, attributes) and atoms (names, numbers, strings, tuples, lists).
// Expression nesting is bounded by kMaxExprDepth.
//
//===----------------------------------------------------------------------===//
#include "compiler/frontend/Parser.h"

using namespace mgp;
using namespace mgp::ast;
using llvm::StringRef;

/// Whether `kind` can start an expression (to tell `a, b,` from `a, b, c`).
static bool startsExpression(TokenKind kind) {
  switch (kind) {
  case TokenKind::Name: case TokenKind::Int: case TokenKind::Float:
  case TokenKind::String: case TokenKind::LParen: case TokenKind::LSquare:
  case TokenKind::LBrace: case TokenKind::Minus: case TokenKind::Plus:
  case TokenKind::Tilde: case TokenKind::KwNot: case TokenKind::KwNone:
  case TokenKind::KwTrue: case TokenKind::KwFalse: case TokenKind::KwLambda:
  case TokenKind::Ellipsis: case TokenKind::Star:
    return true;
  default:
    return false;
  }
}

/// test: or_test ['if' or_test 'else' test] | lambdef
Parser::ExprPtr Parser::parseTest() {
  DepthGuard guard(*this);
  if (guard.tooDeep())
    return emitError(tok, "expression nested too deeply (the limit is " +
                              llvm::Twine(kMaxExprDepth) + " levels)");
  if (tok.is(TokenKind::KwLambda))
    return parseLambda();
  Token start = tok;
  ExprPtr body = parseOrTest();
  if (!body || tok.isNot(TokenKind::KwIf))
    return body;
  consume();
  ExprPtr test = parseOrTest();
  if (!test || !expect(TokenKind::KwElse, "in conditional expression"))
    return nullptr;
  ExprPtr orelse = parseTest();
  if (!orelse)
    return nullptr;
  SourceLocation loc = startLocation(start);
  finish(loc);
  return std::make_unique<IfExpExpr>(loc, std::move(test), std::move(body),
                                     std::move(orelse));
}

/// testlist: test (',' test)* [',']
Parser::ExprPtr Parser::parseTestList(bool allowTrailingTuple) {
  Token start = tok;
  ExprPtr first = parseTest();
  if (!first || tok.isNot(TokenKind::Comma) || !allowTrailingTuple)
    return first;
  ExprList elts;
  elts.push_back(std::move(first));
  while (consumeIf(TokenKind::Comma) && startsExpression(tok.kind)) {
    ExprPtr elt = parseTest();
    if (!elt)
      return nullptr;
    elts.push_back(std::move(elt));
  }
  SourceLocation loc = startLocation(start);
  finish(loc);
  return std::make_unique<TupleExpr>(loc, std::move(elts));
}

/// exprlist: expr (',' expr)* [',']
Parser::ExprPtr Parser::parseTargetList() {
  Token start = tok;
  ExprPtr first = parseBinary(1);
  if (!first || tok.isNot(TokenKind::Comma))
    return first;
  ExprList elts;
  elts.push_back(std::move(first));
  while (consumeIf(TokenKind::Comma) && startsExpression(tok.kind)) {
    ExprPtr elt = parseBinary(1);
    if (!elt)
      return nullptr;
    elts.push_back(std::move(elt));
  }
  SourceLocation loc = startLocation(start);
  finish(loc);
  return std::make_unique<TupleExpr>(loc, std::move(elts));
}

/// lambdef: 'lambda' [params] ':' test
Parser::ExprPtr Parser::parseLambda() {
  SourceLocation loc = startLocation(tok);
  consume();
  std::vector<Param> params;
  if (!parseParams(params, TokenKind::Colon, /*allowAnnotations=*/false) ||
      !expect(TokenKind::Colon, "after the lambda parameters"))
    return nullptr;
  ExprPtr body = parseTest();
  if (!body)
    return nullptr;
  finish(loc);
  return std::make_unique<LambdaExpr>(loc, std::move(params), std::move(body));
}

/// or_test: and_test ('or' and_test)*
Parser::ExprPtr Parser::parseOrTest() {
  Token start = tok;
  ExprPtr first = parseAndTest();
  if (!first || tok.isNot(TokenKind::KwOr))
    return first;
  ExprList values;
  values.push_back(std::move(first));
  while (consumeIf(TokenKind::KwOr)) {
    ExprPtr next = parseAndTest();
    if (!next)
      return nullptr;
    values.push_back(std::move(next));
  }
  SourceLocation loc = startLocation(start);
  finish(loc);
  return std::make_unique<BoolOpExpr>(loc, BoolOp::Or, std::move(values));
}

/// and_test: not_test ('and' not_test)*
Parser::ExprPtr Parser::parseAndTest() {
  Token start = tok;
  ExprPtr first = parseNotTest();
  if (!first || tok.isNot(TokenKind::KwAnd))
    return first;
  ExprList values;
  values.push_back(std::move(first));
  while (consumeIf(TokenKind::KwAnd)) {
    ExprPtr next = parseNotTest();
    if (!next)
      return nullptr;
    values.push_back(std::move(next));
  }
  SourceLocation loc = startLocation(start);
  finish(loc);
  return std::make_unique<BoolOpExpr>(loc, BoolOp::And, std::move(values));
}

/// not_test: 'not' not_test | comparison
Parser::ExprPtr Parser::parseNotTest() {
  if (tok.isNot(TokenKind::KwNot))
    return parseComparison();
  DepthGuard guard(*this);
  if (guard.tooDeep())
    return emitError(tok, "expression nested too deeply (the limit is " +
                              llvm::Twine(kMaxExprDepth) + " levels)");
  SourceLocation loc = startLocation(tok);
  consume();
  ExprPtr operand = parseNotTest();
  if (!operand)
    return nullptr;
  finish(loc);
  return std::make_unique<UnaryOpExpr>(loc, UnaryOp::Not, std::move(operand));
}

/// The comparison operator starting at `kind`, if any (`not`/`is` may need a
/// second token).
static std::optional<CmpOp> getCmpOp(TokenKind kind) {
  switch (kind) {
  case TokenKind::EqualEqual: return CmpOp::Eq;
  case TokenKind::NotEqual: return CmpOp::NotEq;
  case TokenKind::Less: return CmpOp::Lt;
  case TokenKind::LessEqual: return CmpOp::LtE;
  case TokenKind::Greater: return CmpOp::Gt;
  case TokenKind::GreaterEqual: return CmpOp::GtE;
  case TokenKind::KwIs: return CmpOp::Is;
  case TokenKind::KwIn: return CmpOp::In;
  case TokenKind::KwNot: return CmpOp::NotIn;
  default: return std::nullopt;
  }
}

/// comparison: expr (comp_op expr)*
/// comp_op: '<' | '>' | '==' | '>=' | '<=' | '!=' | 'in' | 'not' 'in'
///        | 'is' | 'is' 'not'
Parser::ExprPtr Parser::parseComparison() {
  Token start = tok;
  ExprPtr left = parseBinary(1);
  if (!left || !getCmpOp(tok.kind))
    return left;
  std::vector<CmpOp> ops;
  ExprList comparators;
  while (std::optional<CmpOp> op = getCmpOp(tok.kind)) {
    bool isNot = tok.is(TokenKind::KwNot);
    consume();
    if (isNot && !expect(TokenKind::KwIn, "after 'not' in a comparison"))
      return nullptr;
    if (*op == CmpOp::Is && consumeIf(TokenKind::KwNot))
      op = CmpOp::IsNot;
    ExprPtr right = parseBinary(1);
    if (!right)
      return nullptr;
    ops.push_back(*op);
    comparators.push_back(std::move(right));
  }
  SourceLocation loc = startLocation(start);
  finish(loc);
  return std::make_unique<CompareExpr>(loc, std::move(left), std::move(ops),
                                       std::move(comparators));
}

/// The precedence (1 = loosest) and operator of a binary operator token.
static unsigned getBinaryPrecedence(TokenKind kind, BinaryOp &op) {
  switch (kind) {
  case TokenKind::Pipe: op = BinaryOp::BitOr; return 1;
  case TokenKind::Caret: op = BinaryOp::BitXor; return 2;
  case TokenKind::Amp: op = BinaryOp::BitAnd; return 3;
  case TokenKind::LessLess: op = BinaryOp::LShift; return 4;
  case TokenKind::GreaterGreater: op = BinaryOp::RShift; return 4;
  case TokenKind::Plus: op = BinaryOp::Add; return 5;
  case TokenKind::Minus: op = BinaryOp::Sub; return 5;
  case TokenKind::Star: op = BinaryOp::Mul; return 6;
  case TokenKind::At: op = BinaryOp::MatMul; return 6;
  case TokenKind::Slash: op = BinaryOp::Div; return 6;
  case TokenKind::SlashSlash: op = BinaryOp::FloorDiv; return 6;
  case TokenKind::Percent: op = BinaryOp::Mod; return 6;
  default: return 0;
  }
}

/// expr: xor_expr ('|' xor_expr)*
/// xor_expr: and_expr ('^' and_expr)*
/// and_expr: shift_expr ('&' shift_expr)*
/// shift_expr: arith_expr (('<<' | '>>') arith_expr)*
/// arith_expr: term (('+' | '-') term)*
/// term: factor (('*' | '@' | '/' | '%' | '//') factor)*
/// All left-associative; parsed by precedence climbing from `minPrecedence`.
Parser::ExprPtr Parser::parseBinary(unsigned minPrecedence) {
  Token start = tok;
  ExprPtr lhs = parseFactor();
  unsigned chain = 0;
  while (lhs) {
    BinaryOp op;
    unsigned precedence = getBinaryPrecedence(tok.kind, op);
    if (precedence == 0 || precedence < minPrecedence)
      break;
    if (++chain > kMaxBinaryChain)
      return emitError(tok, "more than " + llvm::Twine(kMaxBinaryChain) +
                                " binary operators in one chain; split the "
                                "expression with intermediate variables");
    SourceLocation opLoc = startLocation(tok);
    consume();
    ExprPtr rhs = parseBinary(precedence + 1);
    if (!rhs)
      return nullptr;
    SourceLocation loc = startLocation(start);
    finish(loc);
    lhs = std::make_unique<BinOpExpr>(loc, op, opLoc, std::move(lhs),
                                      std::move(rhs));
  }
  return lhs;
}

/// factor: ('+' | '-' | '~') factor | power
Parser::ExprPtr Parser::parseFactor() {
  UnaryOp op;
  switch (tok.kind) {
  case TokenKind::Minus: op = UnaryOp::Neg; break;
  case TokenKind::Plus: op = UnaryOp::Pos; break;
  case TokenKind::Tilde: op = UnaryOp::Invert; break;
  default: return parsePower();
  }
  DepthGuard guard(*this);
  if (guard.tooDeep())
    return emitError(tok, "expression nested too deeply (the limit is " +
                              llvm::Twine(kMaxExprDepth) + " levels)");
  SourceLocation loc = startLocation(tok);
  consume();
  ExprPtr operand = parseFactor();
  if (!operand)
    return nullptr;
  finish(loc);
  return std::make_unique<UnaryOpExpr>(loc, op, std::move(operand));
}

/// power: atom_expr ['**' factor]
Parser::ExprPtr Parser::parsePower() {
  Token start = tok;
  ExprPtr base = parseAtomExpr();
  if (!base || tok.isNot(TokenKind::StarStar))
    return base;
  DepthGuard guard(*this);
  if (guard.tooDeep())
    return emitError(tok, "expression nested too deeply (the limit is " +
                              llvm::Twine(kMaxExprDepth) + " levels)");
  SourceLocation opLoc = startLocation(tok);
  consume();
  ExprPtr exponent = parseFactor();
  if (!exponent)
    return nullptr;
  SourceLocation loc = startLocation(start);
  finish(loc);
  return std::make_unique<BinOpExpr>(loc, BinaryOp::Pow, opLoc,
                                     std::move(base), std::move(exponent));
}

/// atom_expr: atom trailer*
/// trailer: '(' [arglist] ')' | '[' subscriptlist ']' | '.' NAME
Parser::ExprPtr Parser::parseAtomExpr() {
  ExprPtr e = parseAtom();
  while (e) {
    if (tok.is(TokenKind::LParen)) {
      e = parseCallTrailer(std::move(e));
    } else if (tok.is(TokenKind::LSquare)) {
      e = parseSubscriptTrailer(std::move(e));
    } else if (tok.is(TokenKind::Dot)) {
      consume();
      Token attr = tok;
      if (!expectName("an attribute name after '.'"))
        return nullptr;
      SourceLocation loc = e->getLocation();
      finish(loc);
      e = std::make_unique<AttributeExpr>(loc, std::move(e),
                                          attr.spelling.str(),
                                          startLocation(attr));
    } else {
      break;
    }
  }
  return e;
}
