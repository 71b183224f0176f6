//===- Parser.cpp - the mgp parser: module level --------------------------===//
//
// This file implements the parser's token handling and error recording, the
// module-level loop (imports, decorated functions, module constants, loose
// skipping of host code that does not parse), imports, and the
// addSourceFile/parseSourceFile entry points. Functions are in ParserDecl.cpp.
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
  currentModule = module.get();
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
    exprDepth = loopDepth = moduleCompoundDepth = 0;
    allowDict = false;
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
    allowDict = true;
    bool parsed = parseExprStmtParts(parts);
    allowDict = false;
    if (!parsed)
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
      recordKernelAlias(module, constant);
      module.constants.push_back(std::move(constant));
    }
    return true;
  }
  // A module-level compound statement (`if`, `try`, ...): its imports and
  // function definitions are the module's (an import done under
  // `try`/`except` or a version check).
  ast::StmtList dropped;
  ++moduleCompoundDepth;
  allowDict = true;
  bool ok = parseStatement(dropped);
  allowDict = false;
  --moduleCompoundDepth;
  return ok;
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
