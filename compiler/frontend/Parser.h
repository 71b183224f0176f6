//===- Parser.h - the mgp recursive-descent parser --------------*- C++ -*-===//
//
// This file implements the interface of the parser, which turns the tokens of
// one buffer into an ast::Module. It is a recursive-descent parser with one
// token of lookahead that follows Python's grammar (each parse function shows
// its production). The first error is recorded (location and message) and the
// parse functions return null from there on; the module-level loop decides
// whether the error is fatal (inside a jit kernel) or whether the item is
// host code to skip by indentation.
//
//===----------------------------------------------------------------------===//
#ifndef MGP_COMPILER_FRONTEND_PARSER_H
#define MGP_COMPILER_FRONTEND_PARSER_H

#include "compiler/frontend/AST.h"
#include "compiler/frontend/Lexer.h"

#include "llvm/Support/Error.h"

#include <optional>

namespace llvm {
class SourceMgr;
} // namespace llvm

namespace mgp {

/// Parses one buffer of a SourceMgr.
class Parser {
public:
  /// The deepest expression nesting accepted (parentheses, unary operators,
  /// `**` chains, conditional expressions), so no input exhausts the stack.
  static constexpr unsigned kMaxExprDepth = 100;
  /// Operators in one chain of a binary operator level (`a + b + ...`): each
  /// one nests the tree a level deeper (left-associative), and the passes
  /// after the parser recurse on it.
  static constexpr unsigned kMaxBinaryChain = 1000;

  Parser(llvm::SourceMgr &sourceMgr, unsigned bufferId);

  /// Parses the whole buffer.
  llvm::Expected<std::unique_ptr<ast::Module>> parseModule();

private:
  using ExprPtr = ast::ExprPtr;
  using StmtPtr = ast::StmtPtr;

  /// The pieces of an expression statement before it is known which
  /// statement it is (assignment, augmented or annotated assignment).
  struct ExprStmtParts {
    ast::SourceLocation location;
    ast::ExprList targets; ///< Assignment targets (or the lone expression).
    ExprPtr value;         ///< The assigned value; null for a bare expression.
    ExprPtr annotation;    ///< `x: T`.
    std::optional<ast::BinaryOp> augOp;
  };

  // Tokens and errors (Parser.cpp).
  void consume();
  bool consumeIf(TokenKind kind);
  bool expect(TokenKind kind, llvm::StringRef context = "");
  /// Consumes a Name token or reports "expected <what>, found ...".
  bool expectName(llvm::StringRef what);
  std::nullptr_t emitError(llvm::SMLoc loc, const llvm::Twine &message);
  std::nullptr_t emitError(const Token &tok, const llvm::Twine &message);
  std::nullptr_t emitUnexpected(llvm::StringRef expected);
  bool failed() const { return errorLoc.isValid(); }
  ast::SourceLocation startLocation(const Token &tok) const;
  void finish(ast::SourceLocation &loc) const;
  /// The source text from `from` to the end of the buffer.
  llvm::StringRef restOfBuffer(const Token &from) const;

  // Module level (Parser.cpp).
  bool parseTopLevelItem(ast::Module &module, bool &strict);
  bool parseImport(ast::Module &module);
  bool parseDecorator(ast::Decorator &decorator, bool &isJitLike);
  std::unique_ptr<ast::FunctionDef>
  parseFunctionDef(std::vector<ast::Decorator> decorators);
  bool parseParams(std::vector<ast::Param> &params, TokenKind close,
                   bool allowAnnotations);
  bool parseDottedName(std::string &name);
  /// Whether the decorator lines starting at `text` include a jit form.
  static bool decoratorsIncludeJit(llvm::StringRef text);

  // Statements (ParserStmt.cpp).
  bool parseBlock(ast::StmtList &body, const Token &header,
                  llvm::StringRef what);
  bool parseStatement(ast::StmtList &body);
  bool parseSimpleStatements(ast::StmtList &body);
  StmtPtr parseSmallStatement();
  bool parseExprStmtParts(ExprStmtParts &parts);
  StmtPtr parseIf(bool isElif);
  StmtPtr parseWhile();
  StmtPtr parseFor();
  StmtPtr parseNestedDef();
  bool checkAssignTarget(const ast::Expr &target, llvm::StringRef what);
  // Host statements inside module-level compound statements (ParserHost.cpp).
  StmtPtr parseHostTry();
  StmtPtr parseHostWith();
  StmtPtr parseHostRaise();
  /// Records `NAME = triton.jit(FN)` and the like as a kernel alias.
  void recordKernelAlias(ast::Module &module, const ast::ModuleConstant &c);

  // Expressions (ParserExpr.cpp).
  ExprPtr parseTest();
  ExprPtr parseTestList(bool allowTrailingTuple = true);
  ExprPtr parseTargetList();
  ExprPtr parseLambda();
  ExprPtr parseOrTest();
  ExprPtr parseAndTest();
  ExprPtr parseNotTest();
  ExprPtr parseComparison();
  ExprPtr parseBinary(unsigned minPrecedence);
  ExprPtr parseFactor();
  ExprPtr parsePower();
  ExprPtr parseAtomExpr();
  ExprPtr parseAtom();
  ExprPtr parseParenthesized();
  ExprPtr parseList();
  ExprPtr parseDict();
  ExprPtr parseCallTrailer(ExprPtr callee);
  /// comp_for: 'for' exprlist 'in' or_test ('if' or_test)* [comp_for]; the
  /// current token is the first 'for'; the caller consumes the closing
  /// bracket (ParserHost.cpp).
  ExprPtr parseComprehension(ast::SourceLocation loc,
                             ast::ComprehensionExpr::CompKind kind, ExprPtr elt,
                             ExprPtr value);
  ExprPtr parseSubscriptTrailer(ExprPtr value);
  ExprPtr parseSubscriptItem();
  ExprPtr parseNumber();
  ExprPtr parseStrings();

  /// Counts expression nesting; see kMaxExprDepth.
  class DepthGuard {
  public:
    explicit DepthGuard(Parser &p) : parser(p) { ++parser.exprDepth; }
    ~DepthGuard() { --parser.exprDepth; }
    bool tooDeep() const { return parser.exprDepth > kMaxExprDepth; }

  private:
    Parser &parser;
  };

  llvm::SourceMgr &sourceMgr;
  unsigned bufferId;
  Lexer lexer;
  Token tok;     ///< The current token.
  Token prevTok; ///< The last consumed token (for end locations).
  unsigned exprDepth = 0;
  unsigned loopDepth = 0;
  /// True while parsing host code: a non-jit decorator (autotune
  /// configurations) or a module-level statement. Host code may contain
  /// dict literals, comprehensions and `*`/`**` call arguments.
  bool allowDict = false;
  /// The module being parsed.
  ast::Module *currentModule = nullptr;
  /// Nesting of module-level compound statements (`if`, `try`, `with`, ...)
  /// around the current statement, outside any function: their imports and
  /// function definitions belong to the module.
  unsigned moduleCompoundDepth = 0;
  /// The first error since the last reset.
  llvm::SMLoc errorLoc;
  std::string errorMessage;
};

} // namespace mgp

#endif // MGP_COMPILER_FRONTEND_PARSER_H
