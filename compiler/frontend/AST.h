//===- AST.h - the mgp abstract syntax tree --------------------------------===//
//
// This file implements the abstract syntax tree that the parser builds from a
// .mgp/.py file and that Sema and MLIRGen consume: a Module of functions,
// module-level constants and imports; statements and expressions shaped like
// Python's `ast` module. Every node carries a SourceLocation (line, column and
// an llvm::SMRange for llvm::SourceMgr diagnostics). Nodes use LLVM-style RTTI
// (a Kind enum and classof), so `llvm::isa`/`llvm::dyn_cast` work on them.
//
//===----------------------------------------------------------------------===//
#ifndef MGP_COMPILER_FRONTEND_AST_H
#define MGP_COMPILER_FRONTEND_AST_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Casting.h"
#include "llvm/Support/SMLoc.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace mgp {
namespace ast {

/// Where a node sits in the source: the 1-based line and column of its first
/// character, and its character range in the llvm::SourceMgr buffer.
struct SourceLocation {
  llvm::SMRange range;
  unsigned line = 0;
  unsigned col = 0;

  /// The location of the first character, for llvm::SourceMgr::PrintMessage.
  llvm::SMLoc getLoc() const { return range.Start; }
  llvm::SMRange getRange() const { return range; }
};

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

/// The base of every expression node.
class Expr {
public:
  enum class Kind {
    Name,
    Constant,
    BinOp,
    UnaryOp,
    BoolOp,
    Compare,
    IfExp,
    Call,
    Attribute,
    Subscript,
    Slice,
    Tuple,
    List,
    Lambda,
    Dict,
    Comprehension,
    Starred,
  };

  virtual ~Expr() = default;
  Kind getKind() const { return kind; }
  const SourceLocation &getLocation() const { return location; }
  llvm::SMLoc getLoc() const { return location.getLoc(); }
  llvm::SMRange getRange() const { return location.getRange(); }

protected:
  Expr(Kind kind, SourceLocation location) : kind(kind), location(location) {}

private:
  Kind kind;
  SourceLocation location;
};

using ExprPtr = std::unique_ptr<Expr>;
using ExprList = std::vector<ExprPtr>;

/// A bare identifier: `x`, `tl`, `BLOCK_SIZE`.
class NameExpr : public Expr {
public:
  NameExpr(SourceLocation loc, std::string name)
      : Expr(Kind::Name, loc), name(std::move(name)) {}
  llvm::StringRef getName() const { return name; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::Name; }

private:
  std::string name;
};

/// A literal: int (int64, or Triton's uint64 literals from 2**63 to 2**64 - 1:
/// isUInt64(); the parser rejects wider values), float (double),
/// bool, None, string (escapes decoded; f-strings kept as their raw text) or
/// `...` (Ellipsis).
class ConstantExpr : public Expr {
public:
  enum class ConstKind { Int, Float, Bool, None, String, Ellipsis };

  static std::unique_ptr<ConstantExpr> getInt(SourceLocation l, int64_t v);
  /// An int literal of 2**63 or more (getInt() holds its bits).
  static std::unique_ptr<ConstantExpr> getUInt64(SourceLocation l, uint64_t v);
  static std::unique_ptr<ConstantExpr> getFloat(SourceLocation l, double v);
  static std::unique_ptr<ConstantExpr> getBool(SourceLocation l, bool v);
  static std::unique_ptr<ConstantExpr> getNone(SourceLocation l);
  static std::unique_ptr<ConstantExpr> getString(SourceLocation l,
                                                 std::string v);
  static std::unique_ptr<ConstantExpr> getEllipsis(SourceLocation l);

  ConstKind getConstKind() const { return constKind; }
  bool isInt() const { return constKind == ConstKind::Int; }
  bool isFloat() const { return constKind == ConstKind::Float; }
  bool isBool() const { return constKind == ConstKind::Bool; }
  bool isNone() const { return constKind == ConstKind::None; }
  bool isString() const { return constKind == ConstKind::String; }
  bool isEllipsis() const { return constKind == ConstKind::Ellipsis; }
  int64_t getInt() const { return intValue; }
  bool isUInt64() const { return uint64Value; }
  double getFloat() const { return floatValue; }
  bool getBool() const { return intValue != 0; }
  llvm::StringRef getString() const { return stringValue; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::Constant; }

private:
  ConstantExpr(SourceLocation l, ConstKind k) : Expr(Kind::Constant, l), constKind(k) {}
  ConstKind constKind;
  int64_t intValue = 0;
  bool uint64Value = false;
  double floatValue = 0.0;
  std::string stringValue;
};

/// Binary arithmetic and bitwise operators (Python's `ast.operator`).
enum class BinaryOp {
  Add, Sub, Mul, MatMul, Div, FloorDiv, Mod, Pow, LShift, RShift, BitAnd,
  BitOr, BitXor
};
/// Unary operators: `-x`, `+x`, `not x`, `~x`.
enum class UnaryOp { Neg, Pos, Not, Invert };
/// Short-circuit boolean operators.
enum class BoolOp { And, Or };
/// Comparison operators of a (possibly chained) comparison.
enum class CmpOp { Eq, NotEq, Lt, LtE, Gt, GtE, Is, IsNot, In, NotIn };

/// The Python spelling of an operator (`//`, `<=`, `not in`, ...).
llvm::StringRef spell(BinaryOp op);
llvm::StringRef spell(UnaryOp op);
llvm::StringRef spell(BoolOp op);
llvm::StringRef spell(CmpOp op);

/// `lhs op rhs`.
class BinOpExpr : public Expr {
public:
  BinOpExpr(SourceLocation l, BinaryOp op, SourceLocation opLoc, ExprPtr lhs,
            ExprPtr rhs)
      : Expr(Kind::BinOp, l), op(op), opLocation(opLoc), lhs(std::move(lhs)),
        rhs(std::move(rhs)) {}
  BinaryOp getOp() const { return op; }
  /// Where the operator token is (for "operand types mismatch" carets).
  const SourceLocation &getOpLocation() const { return opLocation; }
  const Expr &getLHS() const { return *lhs; }
  const Expr &getRHS() const { return *rhs; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::BinOp; }

private:
  BinaryOp op;
  SourceLocation opLocation;
  ExprPtr lhs, rhs;
};

/// `op operand`.
class UnaryOpExpr : public Expr {
public:
  UnaryOpExpr(SourceLocation l, UnaryOp op, ExprPtr operand)
      : Expr(Kind::UnaryOp, l), op(op), operand(std::move(operand)) {}
  UnaryOp getOp() const { return op; }
  const Expr &getOperand() const { return *operand; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::UnaryOp; }

private:
  UnaryOp op;
  ExprPtr operand;
};

/// `a and b and c` / `a or b`: two or more values, all with the same operator
/// (`a and b or c` is Or(And(a, b), c)).
class BoolOpExpr : public Expr {
public:
  BoolOpExpr(SourceLocation l, BoolOp op, ExprList values)
      : Expr(Kind::BoolOp, l), op(op), values(std::move(values)) {}
  BoolOp getOp() const { return op; }
  const ExprList &getValues() const { return values; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::BoolOp; }

private:
  BoolOp op;
  ExprList values;
};

/// `left op0 c0 op1 c1 ...`: a chained comparison, meaning
/// `left op0 c0 and c0 op1 c1 and ...`; getOps().size() == getComparators().size().
class CompareExpr : public Expr {
public:
  CompareExpr(SourceLocation l, ExprPtr left, std::vector<CmpOp> ops,
              ExprList comparators)
      : Expr(Kind::Compare, l), left(std::move(left)), ops(std::move(ops)),
        comparators(std::move(comparators)) {}
  const Expr &getLeft() const { return *left; }
  llvm::ArrayRef<CmpOp> getOps() const { return ops; }
  const ExprList &getComparators() const { return comparators; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::Compare; }

private:
  ExprPtr left;
  std::vector<CmpOp> ops;
  ExprList comparators;
};

/// `body if test else orelse`.
class IfExpExpr : public Expr {
public:
  IfExpExpr(SourceLocation l, ExprPtr test, ExprPtr body, ExprPtr orelse)
      : Expr(Kind::IfExp, l), test(std::move(test)), body(std::move(body)),
        orelse(std::move(orelse)) {}
  const Expr &getTest() const { return *test; }
  const Expr &getBody() const { return *body; }
  const Expr &getOrElse() const { return *orelse; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::IfExp; }

private:
  ExprPtr test, body, orelse;
};

/// A keyword argument `name=value` of a call.
struct Keyword {
  SourceLocation location; ///< Of the keyword name.
  std::string name;
  ExprPtr value;
};

/// `callee(args..., name=value...)`. Keyword names are unique and every
/// positional argument precedes every keyword argument (the parser checks).
class CallExpr : public Expr {
public:
  CallExpr(SourceLocation l, ExprPtr callee, ExprList args,
           std::vector<Keyword> keywords)
      : Expr(Kind::Call, l), callee(std::move(callee)), args(std::move(args)),
        keywords(std::move(keywords)) {}
  const Expr &getCallee() const { return *callee; }
  const ExprList &getArgs() const { return args; }
  const std::vector<Keyword> &getKeywords() const { return keywords; }
  /// The keyword argument called `name`, or null.
  const Keyword *findKeyword(llvm::StringRef name) const;
  static bool classof(const Expr *e) { return e->getKind() == Kind::Call; }

private:
  ExprPtr callee;
  ExprList args;
  std::vector<Keyword> keywords;
};

/// `value.attr`: `tl.load`, `x.to`, `tl.float32`, `triton.language`.
class AttributeExpr : public Expr {
public:
  AttributeExpr(SourceLocation l, ExprPtr value, std::string attr,
                SourceLocation attrLoc)
      : Expr(Kind::Attribute, l), value(std::move(value)),
        attr(std::move(attr)), attrLocation(attrLoc) {}
  const Expr &getValue() const { return *value; }
  llvm::StringRef getAttr() const { return attr; }
  const SourceLocation &getAttrLocation() const { return attrLocation; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::Attribute; }

private:
  ExprPtr value;
  std::string attr;
  SourceLocation attrLocation;
};

/// `value[i0, i1, ...]`: one entry per comma-separated index, each a plain
/// expression, a SliceExpr (`:`, `a:b`, `::2`) or a `None` constant;
/// `x[:, None]` has two indices, `x[0]` one.
class SubscriptExpr : public Expr {
public:
  SubscriptExpr(SourceLocation l, ExprPtr value, ExprList indices)
      : Expr(Kind::Subscript, l), value(std::move(value)),
        indices(std::move(indices)) {}
  const Expr &getValue() const { return *value; }
  const ExprList &getIndices() const { return indices; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::Subscript; }

private:
  ExprPtr value;
  ExprList indices;
};

/// `lower:upper:step` inside a subscript; each part may be null.
class SliceExpr : public Expr {
public:
  SliceExpr(SourceLocation l, ExprPtr lower, ExprPtr upper, ExprPtr step)
      : Expr(Kind::Slice, l), lower(std::move(lower)), upper(std::move(upper)),
        step(std::move(step)) {}
  const Expr *getLower() const { return lower.get(); }
  const Expr *getUpper() const { return upper.get(); }
  const Expr *getStep() const { return step.get(); }
  static bool classof(const Expr *e) { return e->getKind() == Kind::Slice; }

private:
  ExprPtr lower, upper, step;
};

/// `(a, b)`, `a, b` or `()`.
class TupleExpr : public Expr {
public:
  TupleExpr(SourceLocation l, ExprList elts)
      : Expr(Kind::Tuple, l), elts(std::move(elts)) {}
  const ExprList &getElts() const { return elts; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::Tuple; }

private:
  ExprList elts;
};

/// `[a, b]`.
class ListExpr : public Expr {
public:
  ListExpr(SourceLocation l, ExprList elts)
      : Expr(Kind::List, l), elts(std::move(elts)) {}
  const ExprList &getElts() const { return elts; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::List; }

private:
  ExprList elts;
};

/// A function parameter (of a def or a lambda).
struct Param {
  SourceLocation location;
  std::string name;
  ExprPtr annotation;   ///< `x: tl.constexpr`; null if absent.
  ExprPtr defaultValue; ///< `x=1`; null if absent.
};

/// `lambda params: body` (host code only; kernels cannot use it).
class LambdaExpr : public Expr {
public:
  LambdaExpr(SourceLocation l, std::vector<Param> params, ExprPtr body)
      : Expr(Kind::Lambda, l), params(std::move(params)), body(std::move(body)) {}
  const std::vector<Param> &getParams() const { return params; }
  const Expr &getBody() const { return *body; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::Lambda; }

private:
  std::vector<Param> params;
  ExprPtr body;
};

/// `{k0: v0, k1: v1}`. Only produced inside the arguments of a decorator
/// that is not a jit form (`@triton.autotune(configs=[triton.Config({...})])`);
/// anywhere else a dict literal is a syntax error, so kernels and helpers
/// never contain one.
class DictExpr : public Expr {
public:
  DictExpr(SourceLocation l, ExprList keys, ExprList values)
      : Expr(Kind::Dict, l), keys(std::move(keys)), values(std::move(values)) {}
  const ExprList &getKeys() const { return keys; }
  const ExprList &getValues() const { return values; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::Dict; }

private:
  ExprList keys, values;
};

/// One `for target in iter if cond...` clause of a comprehension.
struct ComprehensionFor {
  ExprPtr target;
  ExprPtr iter;
  ExprList ifs;
};

/// `[elt for ...]`, `(elt for ...)`, `{elt for ...}` or `{key: value for
/// ...}`. Only produced in host code (decorator arguments such as
/// `@triton.autotune(configs=[triton.Config(...) for ...])` and module-level
/// statements); a kernel that contains one is a syntax error.
class ComprehensionExpr : public Expr {
public:
  enum class CompKind { List, Generator, Set, Dict };

  ComprehensionExpr(SourceLocation l, CompKind kind, ExprPtr elt, ExprPtr value,
                    std::vector<ComprehensionFor> generators)
      : Expr(Kind::Comprehension, l), compKind(kind), elt(std::move(elt)),
        value(std::move(value)), generators(std::move(generators)) {}
  CompKind getCompKind() const { return compKind; }
  /// The element (the key of a dict comprehension).
  const Expr &getElt() const { return *elt; }
  /// The value of a dict comprehension; null otherwise.
  const Expr *getValue() const { return value.get(); }
  const std::vector<ComprehensionFor> &getGenerators() const {
    return generators;
  }
  static bool classof(const Expr *e) {
    return e->getKind() == Kind::Comprehension;
  }

private:
  CompKind compKind;
  ExprPtr elt, value;
  std::vector<ComprehensionFor> generators;
};

/// `*value` or `**value` as a call argument (host code only).
class StarredExpr : public Expr {
public:
  StarredExpr(SourceLocation l, bool doubleStar, ExprPtr value)
      : Expr(Kind::Starred, l), doubleStar(doubleStar),
        value(std::move(value)) {}
  bool isDoubleStar() const { return doubleStar; }
  const Expr &getValue() const { return *value; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::Starred; }

private:
  bool doubleStar;
  ExprPtr value;
};

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

/// The base of every statement node.
class Stmt {
public:
  enum class Kind {
    Assign,
    AugAssign,
    AnnAssign,
    Expr,
    If,
    For,
    While,
    Break,
    Continue,
    Return,
    Pass,
    Assert,
    FunctionDef,
  };

  virtual ~Stmt() = default;
  Kind getKind() const { return kind; }
  const SourceLocation &getLocation() const { return location; }
  llvm::SMLoc getLoc() const { return location.getLoc(); }
  llvm::SMRange getRange() const { return location.getRange(); }

protected:
  Stmt(Kind kind, SourceLocation location) : kind(kind), location(location) {}

private:
  Kind kind;
  SourceLocation location;
};

using StmtPtr = std::unique_ptr<Stmt>;
using StmtList = std::vector<StmtPtr>;

/// `t0 = t1 = value`: usually one target. A target is a NameExpr, a TupleExpr
/// or ListExpr of targets (`a, b = ...`), an AttributeExpr or a SubscriptExpr.
class AssignStmt : public Stmt {
public:
  AssignStmt(SourceLocation l, ExprList targets, ExprPtr value)
      : Stmt(Kind::Assign, l), targets(std::move(targets)),
        value(std::move(value)) {}
  const ExprList &getTargets() const { return targets; }
  const Expr &getValue() const { return *value; }
  static bool classof(const Stmt *s) { return s->getKind() == Kind::Assign; }

private:
  ExprList targets;
  ExprPtr value;
};

/// `target op= value` (`+=`, `//=`, `<<=`, ...); the target is a NameExpr,
/// AttributeExpr or SubscriptExpr.
class AugAssignStmt : public Stmt {
public:
  AugAssignStmt(SourceLocation l, ExprPtr target, BinaryOp op, ExprPtr value)
      : Stmt(Kind::AugAssign, l), target(std::move(target)), op(op),
        value(std::move(value)) {}
  const Expr &getTarget() const { return *target; }
  BinaryOp getOp() const { return op; }
  const Expr &getValue() const { return *value; }
  static bool classof(const Stmt *s) { return s->getKind() == Kind::AugAssign; }

private:
  ExprPtr target;
  BinaryOp op;
  ExprPtr value;
};

/// `target: annotation` or `target: annotation = value` (value may be null).
class AnnAssignStmt : public Stmt {
public:
  AnnAssignStmt(SourceLocation l, ExprPtr target, ExprPtr annotation,
                ExprPtr value)
      : Stmt(Kind::AnnAssign, l), target(std::move(target)),
        annotation(std::move(annotation)), value(std::move(value)) {}
  const Expr &getTarget() const { return *target; }
  const Expr &getAnnotation() const { return *annotation; }
  const Expr *getValue() const { return value.get(); }
  static bool classof(const Stmt *s) { return s->getKind() == Kind::AnnAssign; }

private:
  ExprPtr target, annotation, value;
};

/// An expression evaluated for its effect: `tl.store(...)`, a docstring.
class ExprStmt : public Stmt {
public:
  ExprStmt(SourceLocation l, ExprPtr value)
      : Stmt(Kind::Expr, l), value(std::move(value)) {}
  const Expr &getValue() const { return *value; }
  static bool classof(const Stmt *s) { return s->getKind() == Kind::Expr; }

private:
  ExprPtr value;
};

/// `if test: body else: orelse`. An `elif` is an orelse holding exactly one
/// IfStmt with isElif() true. The orelse is empty when there is no else.
class IfStmt : public Stmt {
public:
  IfStmt(SourceLocation l, ExprPtr test, StmtList body, StmtList orelse,
         bool elif)
      : Stmt(Kind::If, l), test(std::move(test)), body(std::move(body)),
        orelse(std::move(orelse)), elif(elif) {}
  const Expr &getTest() const { return *test; }
  const StmtList &getBody() const { return body; }
  const StmtList &getOrElse() const { return orelse; }
  bool isElif() const { return elif; }
  static bool classof(const Stmt *s) { return s->getKind() == Kind::If; }

private:
  ExprPtr test;
  StmtList body, orelse;
  bool elif;
};

/// `for target in iter: body` (target: a NameExpr or a TupleExpr of names).
class ForStmt : public Stmt {
public:
  ForStmt(SourceLocation l, ExprPtr target, ExprPtr iter, StmtList body)
      : Stmt(Kind::For, l), target(std::move(target)), iter(std::move(iter)),
        body(std::move(body)) {}
  const Expr &getTarget() const { return *target; }
  const Expr &getIter() const { return *iter; }
  const StmtList &getBody() const { return body; }
  static bool classof(const Stmt *s) { return s->getKind() == Kind::For; }

private:
  ExprPtr target, iter;
  StmtList body;
};

/// `while test: body`.
class WhileStmt : public Stmt {
public:
  WhileStmt(SourceLocation l, ExprPtr test, StmtList body)
      : Stmt(Kind::While, l), test(std::move(test)), body(std::move(body)) {}
  const Expr &getTest() const { return *test; }
  const StmtList &getBody() const { return body; }
  static bool classof(const Stmt *s) { return s->getKind() == Kind::While; }

private:
  ExprPtr test;
  StmtList body;
};

/// `break` (the parser guarantees it is inside a loop of the same function).
class BreakStmt : public Stmt {
public:
  explicit BreakStmt(SourceLocation l) : Stmt(Kind::Break, l) {}
  static bool classof(const Stmt *s) { return s->getKind() == Kind::Break; }
};

/// `continue` (the parser guarantees it is inside a loop).
class ContinueStmt : public Stmt {
public:
  explicit ContinueStmt(SourceLocation l) : Stmt(Kind::Continue, l) {}
  static bool classof(const Stmt *s) { return s->getKind() == Kind::Continue; }
};

/// `return` or `return value` (`return a, b` returns a TupleExpr).
class ReturnStmt : public Stmt {
public:
  ReturnStmt(SourceLocation l, ExprPtr value)
      : Stmt(Kind::Return, l), value(std::move(value)) {}
  const Expr *getValue() const { return value.get(); }
  static bool classof(const Stmt *s) { return s->getKind() == Kind::Return; }

private:
  ExprPtr value;
};

/// `pass`.
class PassStmt : public Stmt {
public:
  explicit PassStmt(SourceLocation l) : Stmt(Kind::Pass, l) {}
  static bool classof(const Stmt *s) { return s->getKind() == Kind::Pass; }
};

/// `assert test` or `assert test, msg`.
class AssertStmt : public Stmt {
public:
  AssertStmt(SourceLocation l, ExprPtr test, ExprPtr msg)
      : Stmt(Kind::Assert, l), test(std::move(test)), msg(std::move(msg)) {}
  const Expr &getTest() const { return *test; }
  const Expr *getMsg() const { return msg.get(); }
  static bool classof(const Stmt *s) { return s->getKind() == Kind::Assert; }

private:
  ExprPtr test, msg;
};

/// A decorator line `@expr`: `@triton.jit`, `@jit`, `@triton.jit(debug=True)`,
/// `@triton.autotune(...)`.
struct Decorator {
  SourceLocation location;
  ExprPtr expr;
  /// True for the jit forms `@jit`, `@X.jit`, `@jit(...)`, `@X.jit(...)`; Sema
  /// checks that X names triton / mgp / triton.language.
  bool isJit = false;
};

/// `def name(params) -> returns: body`, at module level or nested in a host
/// function (then wrapped in a FunctionDefStmt).
class FunctionDef {
public:
  SourceLocation location;     ///< Of the `def` keyword.
  SourceLocation nameLocation; ///< Of the function name.
  std::string name;
  std::vector<Decorator> decorators;
  std::vector<Param> params;
  ExprPtr returns; ///< The `-> T` annotation; null if absent.
  StmtList body;

  /// True if a decorator is a jit form: the function is a kernel, parsed
  /// strictly. Other defs are helpers (or host code).
  bool isKernel() const;
  /// The parameter called `name`, or null.
  const Param *findParam(llvm::StringRef name) const;
};

/// A `def` inside a function body (host code, e.g. `def grid(meta): ...`).
class FunctionDefStmt : public Stmt {
public:
  FunctionDefStmt(SourceLocation l, std::unique_ptr<FunctionDef> def)
      : Stmt(Kind::FunctionDef, l), def(std::move(def)) {}
  const FunctionDef &getDef() const { return *def; }
  static bool classof(const Stmt *s) {
    return s->getKind() == Kind::FunctionDef;
  }

private:
  std::unique_ptr<FunctionDef> def;
};

//===----------------------------------------------------------------------===//
// Module
//===----------------------------------------------------------------------===//

/// `import a.b`, `import a.b as c`, `from a.b import c`, `from a import c as d`.
struct Import {
  SourceLocation location;
  std::string module;  ///< `triton.language`.
  std::string name;    ///< For `from M import name`; empty for `import M`.
  std::string alias;   ///< The `as` name; empty if absent.
  bool isFrom = false; ///< `from M import name`.

  /// The name this import binds in the module: the alias if any, else `name`
  /// for a from-import, else the first component of `module`.
  llvm::StringRef getBoundName() const;
  /// The dotted path the bound name refers to: `module` (for `import M as x`),
  /// `module.name` (from-imports), or the first component of `module`.
  std::string getTargetPath() const;
};

/// A module-level `NAME = value` or `NAME: annotation = value` (the value is
/// not checked here: Sema folds it if a kernel uses NAME).
struct ModuleConstant {
  SourceLocation location;
  std::string name;
  ExprPtr annotation; ///< Null if absent.
  ExprPtr value;
};

/// Top-level code that did not parse and was skipped by indentation: a host
/// `def` (then `name` holds its name) or any other statement (`name` empty).
/// It becomes an error only if a kernel uses it; `diagnostic` holds the parse
/// error, already formatted (`file:line:col: error: ...` plus source line and
/// caret), and `errorLoc` its location.
struct SkippedCode {
  SourceLocation location; ///< Of the first token of the skipped code.
  std::string name;
  llvm::SMLoc errorLoc;
  std::string diagnostic;
};

/// A module-level `NAME = triton.jit(FN)`, `NAME = triton.jit(...)(FN)` or
/// `NAME = triton.autotune(...)(FN)`: NAME is a kernel whose code is FN's.
/// `viaJit` records whether the call chain includes jit itself (otherwise FN
/// must be a kernel already).
struct KernelAlias {
  SourceLocation location;
  std::string name;
  std::string function;
  bool viaJit = false;
};

/// A parsed file.
class Module {
public:
  std::string fileName;
  std::vector<std::unique_ptr<FunctionDef>> functions; ///< In source order.
  std::vector<ModuleConstant> constants;               ///< In source order.
  std::vector<Import> imports;                         ///< In source order.
  std::vector<SkippedCode> skipped;                    ///< In source order.
  std::vector<KernelAlias> kernelAliases;              ///< In source order.

  /// The last top-level function called `name`, or null.
  const FunctionDef *findFunction(llvm::StringRef name) const;
  /// The last module constant called `name`, or null.
  const ModuleConstant *findConstant(llvm::StringRef name) const;
  /// The skipped (unparsable) function called `name`, or null: Sema reports
  /// "unparsable function NAME" with its diagnostic when a kernel calls it.
  const SkippedCode *findSkippedFunction(llvm::StringRef name) const;
  /// The functions with a jit decorator, in source order.
  std::vector<const FunctionDef *> getKernels() const;
  /// The kernel called `name`: a jit-decorated function, or the function a
  /// kernel alias (`name = triton.jit(fn)`) names; null if neither.
  const FunctionDef *findKernel(llvm::StringRef name) const;
  /// The names of every kernel (jit functions, then aliases), in source
  /// order, without duplicates.
  std::vector<std::string> getKernelNames() const;
};

} // namespace ast
} // namespace mgp

#endif // MGP_COMPILER_FRONTEND_AST_H
