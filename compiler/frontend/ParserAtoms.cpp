//===- ParserAtoms.cpp - the mgp parser: atoms and trailers ---------------===//
//
// This file implements the innermost level of the expression parser: atoms
// (names, number and string literals, `None`/`True`/`False`/`...`,
// parenthesized expressions and tuples, lists) and the call and subscript
// trailers, including the checks on keyword arguments and the conversion of
// literals to values (with the 64-bit limit on integers).
//
//===----------------------------------------------------------------------===//
#include "compiler/frontend/Parser.h"

#include "llvm/ADT/StringExtras.h"

#include <cstdint>
#include <cstdlib>
#include <limits>

using namespace mgp;
using namespace mgp::ast;
using llvm::StringRef;

/// atom: '(' [testlist_comp] ')' | '[' [testlist_comp] ']' | NAME | NUMBER
///     | STRING+ | '...' | 'None' | 'True' | 'False'
Parser::ExprPtr Parser::parseAtom() {
  SourceLocation loc = startLocation(tok);
  switch (tok.kind) {
  case TokenKind::Name: {
    std::string name = tok.spelling.str();
    consume();
    return std::make_unique<NameExpr>(loc, std::move(name));
  }
  case TokenKind::Int:
  case TokenKind::Float:
    return parseNumber();
  case TokenKind::String:
    return parseStrings();
  case TokenKind::KwNone:
    consume();
    return ConstantExpr::getNone(loc);
  case TokenKind::KwTrue:
  case TokenKind::KwFalse: {
    bool value = tok.is(TokenKind::KwTrue);
    consume();
    return ConstantExpr::getBool(loc, value);
  }
  case TokenKind::Ellipsis:
    consume();
    return ConstantExpr::getEllipsis(loc);
  case TokenKind::LParen:
    return parseParenthesized();
  case TokenKind::LSquare:
    return parseList();
  case TokenKind::LBrace:
    if (allowDict)
      return parseDict();
    return emitError(tok, "dict and set literals are not supported");
  case TokenKind::Star:
    return emitError(tok, "starred expressions are not supported");
  case TokenKind::KwYield:
  case TokenKind::KwAwait:
    return emitError(tok, "'" + tok.spelling + "' is not supported");
  default:
    return emitUnexpected("an expression");
  }
}

/// '(' [test (',' test)* [',']] ')'
Parser::ExprPtr Parser::parseParenthesized() {
  SourceLocation loc = startLocation(tok);
  consume();
  ExprList elts;
  bool sawComma = false;
  while (tok.isNot(TokenKind::RParen)) {
    ExprPtr elt = parseTest();
    if (!elt)
      return nullptr;
    if (tok.is(TokenKind::KwFor)) {
      if (!allowDict || !elts.empty())
        return emitError(tok, "comprehensions and generator expressions are "
                              "not supported");
      ExprPtr comp = parseComprehension(
          loc, ComprehensionExpr::CompKind::Generator, std::move(elt), nullptr);
      if (!comp || !expect(TokenKind::RParen, "to close '('"))
        return nullptr;
      return comp;
    }
    elts.push_back(std::move(elt));
    if (!consumeIf(TokenKind::Comma))
      break;
    sawComma = true;
  }
  if (!expect(TokenKind::RParen, "to close '('"))
    return nullptr;
  if (elts.size() == 1 && !sawComma)
    return std::move(elts[0]);
  finish(loc);
  return std::make_unique<TupleExpr>(loc, std::move(elts));
}

/// '[' [test (',' test)* [',']] ']'
Parser::ExprPtr Parser::parseList() {
  SourceLocation loc = startLocation(tok);
  consume();
  ExprList elts;
  while (tok.isNot(TokenKind::RSquare)) {
    ExprPtr elt = parseTest();
    if (!elt)
      return nullptr;
    if (tok.is(TokenKind::KwFor)) {
      if (!allowDict || !elts.empty())
        return emitError(tok, "comprehensions are not supported");
      ExprPtr comp = parseComprehension(loc, ComprehensionExpr::CompKind::List,
                                        std::move(elt), nullptr);
      if (!comp || !expect(TokenKind::RSquare, "to close '['"))
        return nullptr;
      return comp;
    }
    elts.push_back(std::move(elt));
    if (!consumeIf(TokenKind::Comma))
      break;
  }
  if (!expect(TokenKind::RSquare, "to close '['"))
    return nullptr;
  finish(loc);
  return std::make_unique<ListExpr>(loc, std::move(elts));
}

/// '{' [test ':' test (',' test ':' test)* [',']] '}'
Parser::ExprPtr Parser::parseDict() {
  SourceLocation loc = startLocation(tok);
  consume();
  ExprList keys, values;
  while (tok.isNot(TokenKind::RBrace)) {
    ExprPtr key = parseTest();
    if (!key)
      return nullptr;
    if (tok.is(TokenKind::KwFor) && keys.empty()) {
      ExprPtr comp = parseComprehension(loc, ComprehensionExpr::CompKind::Set,
                                        std::move(key), nullptr);
      if (!comp || !expect(TokenKind::RBrace, "to close '{'"))
        return nullptr;
      return comp;
    }
    if (tok.is(TokenKind::Comma) || tok.is(TokenKind::RBrace))
      return emitError(tok, "set literals are not supported");
    if (!expect(TokenKind::Colon, "after a dict key"))
      return nullptr;
    ExprPtr value = parseTest();
    if (!value)
      return nullptr;
    if (tok.is(TokenKind::KwFor) && keys.empty()) {
      ExprPtr comp = parseComprehension(loc, ComprehensionExpr::CompKind::Dict,
                                        std::move(key), std::move(value));
      if (!comp || !expect(TokenKind::RBrace, "to close '{'"))
        return nullptr;
      return comp;
    }
    keys.push_back(std::move(key));
    values.push_back(std::move(value));
    if (!consumeIf(TokenKind::Comma))
      break;
  }
  if (!expect(TokenKind::RBrace, "to close '{'"))
    return nullptr;
  finish(loc);
  return std::make_unique<DictExpr>(loc, std::move(keys), std::move(values));
}

/// '(' [arglist] ')'
/// arglist: argument (',' argument)* [',']
/// argument: test | NAME '=' test
Parser::ExprPtr Parser::parseCallTrailer(ExprPtr callee) {
  SourceLocation loc = callee->getLocation();
  consume();
  ExprList args;
  std::vector<Keyword> keywords;
  while (tok.isNot(TokenKind::RParen)) {
    if (tok.is(TokenKind::Star) || tok.is(TokenKind::StarStar)) {
      if (!allowDict)
        return emitError(tok, "'*' and '**' arguments are not supported");
      SourceLocation starLoc = startLocation(tok);
      bool doubleStar = tok.is(TokenKind::StarStar);
      consume();
      ExprPtr value = parseTest();
      if (!value)
        return nullptr;
      finish(starLoc);
      args.push_back(
          std::make_unique<StarredExpr>(starLoc, doubleStar, std::move(value)));
      if (!consumeIf(TokenKind::Comma))
        break;
      continue;
    }
    ExprPtr arg = parseTest();
    if (!arg)
      return nullptr;
    if (tok.is(TokenKind::KwFor)) {
      if (!allowDict || !args.empty() || !keywords.empty())
        return emitError(tok, "generator expressions are not supported");
      SourceLocation genLoc = arg->getLocation();
      arg = parseComprehension(genLoc, ComprehensionExpr::CompKind::Generator,
                               std::move(arg), nullptr);
      if (!arg)
        return nullptr;
    }
    if (tok.is(TokenKind::Equal)) {
      auto *name = llvm::dyn_cast<NameExpr>(arg.get());
      if (!name)
        return emitError(arg->getLoc(),
                         "expression cannot be a keyword argument name "
                         "(maybe '==' was meant?)");
      for (const Keyword &kw : keywords)
        if (kw.name == name->getName())
          return emitError(arg->getLoc(), "keyword argument repeated: '" +
                                              name->getName() + "'");
      consume();
      Keyword kw;
      kw.location = name->getLocation();
      kw.name = name->getName().str();
      if (!(kw.value = parseTest()))
        return nullptr;
      keywords.push_back(std::move(kw));
    } else {
      if (!keywords.empty())
        return emitError(arg->getLoc(),
                         "positional argument follows keyword argument");
      args.push_back(std::move(arg));
    }
    if (!consumeIf(TokenKind::Comma))
      break;
  }
  if (!expect(TokenKind::RParen, "to close the argument list"))
    return nullptr;
  finish(loc);
  return std::make_unique<CallExpr>(loc, std::move(callee), std::move(args),
                                    std::move(keywords));
}

/// '[' subscriptlist ']'
/// subscriptlist: subscript (',' subscript)* [',']
Parser::ExprPtr Parser::parseSubscriptTrailer(ExprPtr value) {
  SourceLocation loc = value->getLocation();
  consume();
  if (tok.is(TokenKind::RSquare))
    return emitError(tok, "expected an index in the subscript");
  ExprList indices;
  do {
    if (tok.is(TokenKind::RSquare))
      break;
    ExprPtr index = parseSubscriptItem();
    if (!index)
      return nullptr;
    indices.push_back(std::move(index));
  } while (consumeIf(TokenKind::Comma));
  if (!expect(TokenKind::RSquare, "to close the subscript"))
    return nullptr;
  finish(loc);
  return std::make_unique<SubscriptExpr>(loc, std::move(value),
                                         std::move(indices));
}

/// subscript: test | [test] ':' [test] [':' [test]]
Parser::ExprPtr Parser::parseSubscriptItem() {
  SourceLocation loc = startLocation(tok);
  ExprPtr lower, upper, step;
  if (tok.isNot(TokenKind::Colon)) {
    lower = parseTest();
    if (!lower || tok.isNot(TokenKind::Colon))
      return lower;
  }
  consume();
  auto endsPart = [this] {
    return tok.is(TokenKind::Colon) || tok.is(TokenKind::Comma) ||
           tok.is(TokenKind::RSquare);
  };
  if (!endsPart() && !(upper = parseTest()))
    return nullptr;
  if (consumeIf(TokenKind::Colon) && !endsPart() && !(step = parseTest()))
    return nullptr;
  finish(loc);
  return std::make_unique<SliceExpr>(loc, std::move(lower), std::move(upper),
                                     std::move(step));
}

/// NUMBER: an Int or Float token (syntax already checked by the lexer).
Parser::ExprPtr Parser::parseNumber() {
  SourceLocation loc = startLocation(tok);
  Token number = tok;
  consume();
  std::string digits;
  digits.reserve(number.spelling.size());
  for (char c : number.spelling)
    if (c != '_')
      digits += c;
  if (number.is(TokenKind::Float))
    return ConstantExpr::getFloat(loc, std::strtod(digits.c_str(), nullptr));
  StringRef text = digits;
  unsigned radix = 10;
  if (text.size() > 2 && text[0] == '0') {
    char base = llvm::toLower(text[1]);
    radix = base == 'x' ? 16 : base == 'o' ? 8 : base == 'b' ? 2 : 10;
    if (radix != 10)
      text = text.drop_front(2);
  }
  // Triton types 2**63 .. 2**64 - 1 as uint64 (64-bit hash constants).
  uint64_t value = 0;
  if (text.getAsInteger(radix, value))
    return emitError(number, "integer literal is too large (the largest is "
                             "2**64 - 1 = 18446744073709551615)");
  if (value > uint64_t(std::numeric_limits<int64_t>::max()))
    return ConstantExpr::getUInt64(loc, value);
  return ConstantExpr::getInt(loc, int64_t(value));
}

/// STRING+: adjacent string literals are concatenated.
Parser::ExprPtr Parser::parseStrings() {
  SourceLocation loc = startLocation(tok);
  std::string value;
  while (tok.is(TokenKind::String)) {
    value += Lexer::decodeString(tok.spelling);
    consume();
  }
  finish(loc);
  return ConstantExpr::getString(loc, std::move(value));
}
