//===- Parser.cpp - the mgp parser: module level --------------------------===//
//
// This file implements the parser's token handling and error recording, the
// module-level loop (imports, decorated functions, module constants, loose
// skipping of host code that does not parse), function definitions and
// parameter lists, and the parseSourceFile entry point.
//
//===----------------------------------------------------------------------===//
#include "compiler/frontend/Parser.h"

#include "compiler/frontend/Diagnostics.h"
#include "compiler/frontend/Frontend.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"


using namespace mgp;
using namespace mgp::ast;
using llvm::SMLoc;
using llvm::StringRef;

Parser::Parser(llvm::SourceMgr &sourceMgr, unsigned bufferId)
    : sourceMgr(sourceMgr), bufferId(bufferId),
      lexer(sourceMgr.getMemoryBuffer(bufferId)->getBuffer()) {
  consume();
}

//===----------------------------------------------------------------------===//
// Tokens and errors
//===----------------------------------------------------------------------===//

void Parser::consume() {
  // An error token stays current so that the error is reported where it is.
  if (tok.is(TokenKind::Error))
    return;
  prevTok = tok;
  tok = lexer.lex();
}

bool Parser::consumeIf(TokenKind kind) {
  if (tok.isNot(kind))
    return false;
  consume();
  return true;
}

bool Parser::expect(TokenKind kind, StringRef context) {
  if (consumeIf(kind))
    return true;
  std::string what = getTokenKindName(kind).str();
  if (!context.empty())
    what += " " + context.str();
  emitUnexpected(what);
  return false;
}

bool Parser::expectName(StringRef what) {
  if (consumeIf(TokenKind::Name))
    return true;
  emitUnexpected(what);
  return false;
}

std::nullptr_t Parser::emitError(SMLoc loc, const llvm::Twine &message) {
  if (!failed()) {
    errorLoc = loc;
    errorMessage = message.str();
  }
  return nullptr;
}

std::nullptr_t Parser::emitError(const Token &at, const llvm::Twine &message) {
  return emitError(at.getLoc(), message);
}

std::nullptr_t Parser::emitUnexpected(StringRef expected) {
  if (tok.is(TokenKind::Error))
    return emitError(tok, lexer.getErrorMessage());
  if (tok.is(TokenKind::Indent))
    return emitError(tok, "unexpected indent");
  if (tok.is(TokenKind::Dedent) || tok.is(TokenKind::Newline) ||
      tok.is(TokenKind::EndOfFile))
    return emitError(tok, "expected " + expected + ", found " +
                              getTokenKindName(tok.kind));
  return emitError(tok, "expected " + expected + ", found '" + tok.spelling +
                            "'");
}

SourceLocation Parser::startLocation(const Token &t) const {
  SourceLocation loc;
  loc.range = t.getRange();
  loc.line = t.line;
  loc.col = t.col;
  return loc;
}

void Parser::finish(SourceLocation &loc) const {
  if (prevTok.spelling.data() >= loc.range.Start.getPointer())
    loc.range.End = prevTok.getEndLoc();
}

StringRef Parser::restOfBuffer(const Token &from) const {
  const char *end = sourceMgr.getMemoryBuffer(bufferId)->getBufferEnd();
  return StringRef(from.spelling.data(), end - from.spelling.data());
}

//===----------------------------------------------------------------------===//
// Module level
//===----------------------------------------------------------------------===//

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
static bool decoratorsIncludeJit(StringRef text) {
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

/// The name after the first `def` from `start` (a `def` or decorator), or
/// empty; lexes at most a bounded number of tokens.
static StringRef findDefName(StringRef text) {
  Lexer probe(text);
  Token last;
  for (unsigned i = 0; i < 4096; ++i) {
    Token t = probe.lex();
    if (t.is(TokenKind::EndOfFile) || t.is(TokenKind::Error))
      break;
    if (last.is(TokenKind::KwDef))
      return t.is(TokenKind::Name) ? t.spelling : StringRef();
    last = t;
  }
  return {};
}

/// file_input: (NEWLINE | import_stmt | decorated | funcdef | stmt)* ENDMARKER
llvm::Expected<std::unique_ptr<Module>> Parser::parseModule() {
  auto module = std::make_unique<Module>();
  module->fileName =
      sourceMgr.getMemoryBuffer(bufferId)->getBufferIdentifier().str();
  while (tok.isNot(TokenKind::EndOfFile)) {
    if (consumeIf(TokenKind::Newline))
      continue;
    Token itemStart = tok;
    bool strict = false;
    if (parseTopLevelItem(*module, strict))
      continue;
    assert(failed() && "a failed parse must record an error");
    if (strict)
      return makeSourceError(sourceMgr, errorLoc, errorMessage);
    // Host code: skip it by indentation and remember why.
    SkippedCode skipped;
    skipped.location = startLocation(itemStart);
    skipped.errorLoc = errorLoc;
    skipped.diagnostic = formatDiagnostic(sourceMgr, errorLoc, errorMessage);
    if (itemStart.is(TokenKind::KwDef) || itemStart.is(TokenKind::At))
      skipped.name = findDefName(restOfBuffer(itemStart)).str();
    module->skipped.push_back(std::move(skipped));
    const char *errorPos = errorLoc.getPointer();
    lexer.skipToTopLevel(itemStart.spelling.data(),
                         errorPos ? errorPos : itemStart.spelling.data());
    errorLoc = SMLoc();
    errorMessage.clear();
    exprDepth = loopDepth = 0;
    tok = Token();
    consume();
  }
  return std::move(module);
}

/// Parses one top-level item; on failure `strict` says whether the item was a
/// jit kernel (whose errors are fatal).
bool Parser::parseTopLevelItem(Module &module, bool &strict) {
  switch (tok.kind) {
  case TokenKind::KwImport:
  case TokenKind::KwFrom:
    return parseImport(module);
  case TokenKind::At:
  case TokenKind::KwDef: {
    // A kernel is strict from its first decorator on, even if an earlier
    // decorator (say `@triton.autotune(...)`) fails to parse.
    strict = tok.is(TokenKind::At) && decoratorsIncludeJit(restOfBuffer(tok));
    std::vector<Decorator> decorators;
    while (tok.is(TokenKind::At)) {
      Decorator decorator;
      bool isJitLike = false;
      bool ok = parseDecorator(decorator, isJitLike);
      strict |= isJitLike;
      if (!ok)
        return false;
      decorators.push_back(std::move(decorator));
    }
    if (tok.isNot(TokenKind::KwDef)) {
      emitUnexpected("'def' after decorator");
      return false;
    }
    auto def = parseFunctionDef(std::move(decorators));
    if (!def)
      return false;
    module.functions.push_back(std::move(def));
    return true;
  }
  case TokenKind::Indent:
    emitError(tok, "unexpected indent");
    return false;
  default:
    break;
  }
  // Any other statement: a module constant `NAME = value` or
  // `NAME: annotation = value`, or host code that is parsed and dropped.
  if (tok.is(TokenKind::Name)) {
    ExprStmtParts parts;
    if (!parseExprStmtParts(parts))
      return false;
    if (tok.isNot(TokenKind::Newline) && tok.isNot(TokenKind::Semicolon)) {
      emitUnexpected("newline");
      return false;
    }
    ast::StmtList rest;
    if (consumeIf(TokenKind::Semicolon) && !parseSimpleStatements(rest))
      return false;
    consumeIf(TokenKind::Newline);
    if (parts.value && !parts.augOp && parts.targets.size() == 1 &&
        llvm::isa<NameExpr>(*parts.targets[0])) {
      ModuleConstant constant;
      constant.location = parts.location;
      constant.name = llvm::cast<NameExpr>(*parts.targets[0]).getName().str();
      constant.annotation = std::move(parts.annotation);
      constant.value = std::move(parts.value);
      module.constants.push_back(std::move(constant));
    }
    return true;
  }
  ast::StmtList dropped;
  return parseStatement(dropped);
}

/// import_stmt: 'import' dotted_as_name (',' dotted_as_name)* NEWLINE
///            | 'from' dotted_name 'import' ('(' names ')' | names) NEWLINE
/// dotted_as_name: dotted_name ['as' NAME]
/// names: NAME ['as' NAME] (',' NAME ['as' NAME])* [',']
bool Parser::parseImport(Module &module) {
  if (consumeIf(TokenKind::KwImport)) {
    do {
      Import import;
      import.location = startLocation(tok);
      if (!parseDottedName(import.module))
        return false;
      if (consumeIf(TokenKind::KwAs)) {
        import.alias = tok.spelling.str();
        if (!expectName("a name after 'as'"))
          return false;
      }
      finish(import.location);
      module.imports.push_back(std::move(import));
    } while (consumeIf(TokenKind::Comma));
    return expect(TokenKind::Newline, "after import");
  }
  expect(TokenKind::KwFrom);
  std::string from;
  // Relative imports (`from . import x`) keep their dots.
  while (tok.is(TokenKind::Dot) || tok.is(TokenKind::Ellipsis)) {
    from += tok.spelling.str();
    consume();
  }
  if (tok.isNot(TokenKind::KwImport)) {
    std::string rest;
    if (!parseDottedName(rest))
      return false;
    from += rest;
  }
  if (!expect(TokenKind::KwImport, "in from-import"))
    return false;
  bool paren = consumeIf(TokenKind::LParen);
  if (tok.is(TokenKind::Star)) {
    emitError(tok, "'from ... import *' is not supported");
    return false;
  }
  do {
    if (paren && tok.is(TokenKind::RParen))
      break;
    Import import;
    import.location = startLocation(tok);
    import.isFrom = true;
    import.module = from;
    import.name = tok.spelling.str();
    if (!expectName("a name to import"))
      return false;
    if (consumeIf(TokenKind::KwAs)) {
      import.alias = tok.spelling.str();
      if (!expectName("a name after 'as'"))
        return false;
    }
    finish(import.location);
    module.imports.push_back(std::move(import));
  } while (consumeIf(TokenKind::Comma));
  if (paren && !expect(TokenKind::RParen, "to close the import list"))
    return false;
  return expect(TokenKind::Newline, "after import");
}

/// dotted_name: NAME ('.' NAME)*
bool Parser::parseDottedName(std::string &name) {
  name = tok.spelling.str();
  if (!expectName("a module name"))
    return false;
  while (consumeIf(TokenKind::Dot)) {
    name += "." + tok.spelling.str();
    if (!expectName("a name after '.'"))
      return false;
  }
  return true;
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
  // A function starts a fresh loop context: `break` in it needs its own loop.
  unsigned savedLoopDepth = loopDepth;
  loopDepth = 0;
  bool ok = parseBlock(def->body, defTok, "function definition");
  loopDepth = savedLoopDepth;
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

//===----------------------------------------------------------------------===//
// Entry point
//===----------------------------------------------------------------------===//

llvm::Expected<unsigned> mgp::addSourceFile(llvm::SourceMgr &sourceMgr,
                                           StringRef path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFileOrSTDIN(path, /*IsText=*/true);
  if (std::error_code ec = buffer.getError())
    return llvm::createStringError(ec, "cannot open input file '%s': %s",
                                   path.str().c_str(), ec.message().c_str());
  return sourceMgr.AddNewSourceBuffer(std::move(*buffer), SMLoc());
}

llvm::Expected<std::unique_ptr<Module>>
mgp::parseSourceFile(llvm::SourceMgr &sourceMgr, unsigned bufferId) {
  Parser parser(sourceMgr, bufferId);
  return parser.parseModule();
}
