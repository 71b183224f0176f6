//===- ASTDump.cpp - the indented text form of the mgp AST ----------------===//
//
// This file implements dumpAST, the `mgpc -emit=ast` output: one node per
// line, children indented by two spaces, each line ending with the node's
// `@line:col`. Child roles that are not obvious are prefixed (`target:`,
// `value:`, `annotation:`, ...).
//
//===----------------------------------------------------------------------===//
#include "compiler/frontend/Frontend.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <cstdlib>

using namespace mgp;
using namespace mgp::ast;
using llvm::raw_ostream;
using llvm::StringRef;

namespace {
/// Writes the tree; `indent` is the current depth.
class ASTDumper {
public:
  explicit ASTDumper(raw_ostream &os) : os(os) {}
  void dump(const Module &module);

private:
  raw_ostream &line(StringRef role = "") {
    os.indent(indent * 2);
    if (!role.empty())
      os << role << ": ";
    return os;
  }
  void end(const SourceLocation &loc) {
    os << " @" << loc.line << ":" << loc.col << "\n";
  }
  struct Nest {
    Nest(ASTDumper &d) : d(d) { ++d.indent; }
    ~Nest() { --d.indent; }
    ASTDumper &d;
  };

  void dump(const FunctionDef &def);
  void dump(const Param &param);
  void dump(const StmtList &body, StringRef role);
  void dump(const Stmt &stmt);
  void dump(const Expr &expr, StringRef role = "");
  void dumpFloat(double value);

  raw_ostream &os;
  unsigned indent = 0;
};
} // namespace

void ASTDumper::dumpFloat(double value) {
  // The shortest decimal form that reads back as the same double.
  char buffer[32];
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(buffer, sizeof(buffer), "%.*g", precision, value);
    if (std::strtod(buffer, nullptr) == value)
      break;
  }
  os << buffer;
  if (StringRef(buffer).find_first_of(".en") == StringRef::npos)
    os << ".0";
}

void ASTDumper::dump(const Module &module) {
  line() << "Module \"" << module.fileName << "\"\n";
  Nest nest(*this);
  for (const Import &import : module.imports) {
    if (import.isFrom)
      line() << "ImportFrom " << import.module << " import " << import.name;
    else
      line() << "Import " << import.module;
    if (!import.alias.empty())
      os << " as " << import.alias;
    end(import.location);
  }
  for (const ModuleConstant &constant : module.constants) {
    line() << "ModuleConstant " << constant.name;
    end(constant.location);
    Nest inner(*this);
    if (constant.annotation)
      dump(*constant.annotation, "annotation");
    dump(*constant.value, "value");
  }
  for (const auto &def : module.functions)
    dump(*def);
  for (const KernelAlias &alias : module.kernelAliases) {
    line() << "KernelAlias " << alias.name << " = " << alias.function
           << (alias.viaJit ? " jit" : "")
           << (module.findKernel(alias.name) ? " kernel" : "");
    end(alias.location);
  }
  for (const SkippedCode &skipped : module.skipped) {
    line() << "Skipped";
    if (!skipped.name.empty())
      os << " function " << skipped.name;
    end(skipped.location);
    Nest inner(*this);
    line() << "reason: " << StringRef(skipped.diagnostic).split('\n').first
           << "\n";
  }
}

void ASTDumper::dump(const FunctionDef &def) {
  line() << "FunctionDef " << def.name << (def.isKernel() ? " kernel" : "");
  end(def.location);
  Nest nest(*this);
  for (const Decorator &decorator : def.decorators) {
    line() << "Decorator" << (decorator.isJit ? " jit" : "");
    end(decorator.location);
    Nest inner(*this);
    dump(*decorator.expr);
  }
  for (const Param &param : def.params)
    dump(param);
  if (def.returns)
    dump(*def.returns, "returns");
  dump(def.body, "Body");
}

void ASTDumper::dump(const Param &param) {
  line() << "Param " << param.name;
  end(param.location);
  Nest nest(*this);
  if (param.annotation)
    dump(*param.annotation, "annotation");
  if (param.defaultValue)
    dump(*param.defaultValue, "default");
}

void ASTDumper::dump(const StmtList &body, StringRef role) {
  line() << role << "\n";
  Nest nest(*this);
  for (const StmtPtr &stmt : body)
    dump(*stmt);
}

void ASTDumper::dump(const Stmt &stmt) {
  switch (stmt.getKind()) {
  case Stmt::Kind::Assign: {
    auto &s = llvm::cast<AssignStmt>(stmt);
    line() << "Assign";
    end(s.getLocation());
    Nest inner(*this);
    for (const ExprPtr &target : s.getTargets())
      dump(*target, "target");
    dump(s.getValue(), "value");
    return;
  }
  case Stmt::Kind::AugAssign: {
    auto &s = llvm::cast<AugAssignStmt>(stmt);
    line() << "AugAssign " << spell(s.getOp()) << "=";
    end(s.getLocation());
    Nest inner(*this);
    dump(s.getTarget(), "target");
    dump(s.getValue(), "value");
    return;
  }
  case Stmt::Kind::AnnAssign: {
    auto &s = llvm::cast<AnnAssignStmt>(stmt);
    line() << "AnnAssign";
    end(s.getLocation());
    Nest inner(*this);
    dump(s.getTarget(), "target");
    dump(s.getAnnotation(), "annotation");
    if (s.getValue())
      dump(*s.getValue(), "value");
    return;
  }
  case Stmt::Kind::Expr: {
    auto &s = llvm::cast<ExprStmt>(stmt);
    line() << "ExprStmt";
    end(s.getLocation());
    Nest inner(*this);
    dump(s.getValue());
    return;
  }
  case Stmt::Kind::If: {
    auto &s = llvm::cast<IfStmt>(stmt);
    line() << (s.isElif() ? "Elif" : "If");
    end(s.getLocation());
    Nest inner(*this);
    dump(s.getTest(), "test");
    dump(s.getBody(), "Then");
    if (!s.getOrElse().empty())
      dump(s.getOrElse(), "Else");
    return;
  }
  case Stmt::Kind::For: {
    auto &s = llvm::cast<ForStmt>(stmt);
    line() << "For";
    end(s.getLocation());
    Nest inner(*this);
    dump(s.getTarget(), "target");
    dump(s.getIter(), "iter");
    dump(s.getBody(), "Body");
    return;
  }
  case Stmt::Kind::While: {
    auto &s = llvm::cast<WhileStmt>(stmt);
    line() << "While";
    end(s.getLocation());
    Nest inner(*this);
    dump(s.getTest(), "test");
    dump(s.getBody(), "Body");
    return;
  }
  case Stmt::Kind::Break:
    line() << "Break";
    end(stmt.getLocation());
    return;
  case Stmt::Kind::Continue:
    line() << "Continue";
    end(stmt.getLocation());
    return;
  case Stmt::Kind::Pass:
    line() << "Pass";
    end(stmt.getLocation());
    return;
  case Stmt::Kind::Return: {
    auto &s = llvm::cast<ReturnStmt>(stmt);
    line() << "Return";
    end(s.getLocation());
    Nest inner(*this);
    if (s.getValue())
      dump(*s.getValue());
    return;
  }
  case Stmt::Kind::Assert: {
    auto &s = llvm::cast<AssertStmt>(stmt);
    line() << "Assert";
    end(s.getLocation());
    Nest inner(*this);
    dump(s.getTest(), "test");
    if (s.getMsg())
      dump(*s.getMsg(), "msg");
    return;
  }
  case Stmt::Kind::FunctionDef:
    dump(llvm::cast<FunctionDefStmt>(stmt).getDef());
    return;
  }
}

void ASTDumper::dump(const Expr &expr, StringRef role) {
  raw_ostream &out = line(role);
  switch (expr.getKind()) {
  case Expr::Kind::Name:
    out << "Name " << llvm::cast<NameExpr>(expr).getName();
    end(expr.getLocation());
    return;
  case Expr::Kind::Constant: {
    auto &c = llvm::cast<ConstantExpr>(expr);
    out << "Constant ";
    switch (c.getConstKind()) {
    case ConstantExpr::ConstKind::Int:
      if (c.isUInt64())
        out << "int " << uint64_t(c.getInt());
      else
        out << "int " << c.getInt();
      break;
    case ConstantExpr::ConstKind::Float:
      out << "float ";
      dumpFloat(c.getFloat());
      break;
    case ConstantExpr::ConstKind::Bool:
      out << "bool " << (c.getBool() ? "True" : "False");
      break;
    case ConstantExpr::ConstKind::None: out << "None"; break;
    case ConstantExpr::ConstKind::Ellipsis: out << "..."; break;
    case ConstantExpr::ConstKind::String:
      out << "str \"";
      out.write_escaped(c.getString());
      out << "\"";
      break;
    }
    end(expr.getLocation());
    return;
  }
  case Expr::Kind::BinOp: {
    auto &e = llvm::cast<BinOpExpr>(expr);
    out << "BinOp " << spell(e.getOp());
    end(expr.getLocation());
    Nest inner(*this);
    dump(e.getLHS());
    dump(e.getRHS());
    return;
  }
  case Expr::Kind::UnaryOp: {
    auto &e = llvm::cast<UnaryOpExpr>(expr);
    out << "UnaryOp " << spell(e.getOp());
    end(expr.getLocation());
    Nest inner(*this);
    dump(e.getOperand());
    return;
  }
  case Expr::Kind::BoolOp: {
    auto &e = llvm::cast<BoolOpExpr>(expr);
    out << "BoolOp " << spell(e.getOp());
    end(expr.getLocation());
    Nest inner(*this);
    for (const ExprPtr &value : e.getValues())
      dump(*value);
    return;
  }
  case Expr::Kind::Compare: {
    auto &e = llvm::cast<CompareExpr>(expr);
    out << "Compare";
    for (CmpOp op : e.getOps())
      out << " " << spell(op);
    end(expr.getLocation());
    Nest inner(*this);
    dump(e.getLeft());
    for (const ExprPtr &c : e.getComparators())
      dump(*c);
    return;
  }
  case Expr::Kind::IfExp: {
    auto &e = llvm::cast<IfExpExpr>(expr);
    out << "IfExp";
    end(expr.getLocation());
    Nest inner(*this);
    dump(e.getTest(), "test");
    dump(e.getBody(), "then");
    dump(e.getOrElse(), "else");
    return;
  }
  case Expr::Kind::Call: {
    auto &e = llvm::cast<CallExpr>(expr);
    out << "Call";
    end(expr.getLocation());
    Nest inner(*this);
    dump(e.getCallee(), "callee");
    for (const ExprPtr &arg : e.getArgs())
      dump(*arg);
    for (const Keyword &kw : e.getKeywords())
      dump(*kw.value, "keyword " + kw.name);
    return;
  }
  case Expr::Kind::Attribute: {
    auto &e = llvm::cast<AttributeExpr>(expr);
    out << "Attribute " << e.getAttr();
    end(expr.getLocation());
    Nest inner(*this);
    dump(e.getValue());
    return;
  }
  case Expr::Kind::Subscript: {
    auto &e = llvm::cast<SubscriptExpr>(expr);
    out << "Subscript";
    end(expr.getLocation());
    Nest inner(*this);
    dump(e.getValue(), "value");
    for (const ExprPtr &index : e.getIndices())
      dump(*index, "index");
    return;
  }
  case Expr::Kind::Slice: {
    auto &e = llvm::cast<SliceExpr>(expr);
    out << "Slice";
    end(expr.getLocation());
    Nest inner(*this);
    if (e.getLower())
      dump(*e.getLower(), "lower");
    if (e.getUpper())
      dump(*e.getUpper(), "upper");
    if (e.getStep())
      dump(*e.getStep(), "step");
    return;
  }
  case Expr::Kind::Tuple:
  case Expr::Kind::List: {
    bool isTuple = llvm::isa<TupleExpr>(expr);
    const ExprList &elts = isTuple ? llvm::cast<TupleExpr>(expr).getElts()
                                   : llvm::cast<ListExpr>(expr).getElts();
    out << (isTuple ? "Tuple" : "List");
    end(expr.getLocation());
    Nest inner(*this);
    for (const ExprPtr &elt : elts)
      dump(*elt);
    return;
  }
  case Expr::Kind::Dict: {
    auto &e = llvm::cast<DictExpr>(expr);
    out << "Dict";
    end(expr.getLocation());
    Nest inner(*this);
    for (size_t i = 0; i < e.getKeys().size(); ++i) {
      dump(*e.getKeys()[i], "key");
      dump(*e.getValues()[i], "value");
    }
    return;
  }
  case Expr::Kind::Lambda: {
    auto &e = llvm::cast<LambdaExpr>(expr);
    out << "Lambda";
    end(expr.getLocation());
    Nest inner(*this);
    for (const Param &param : e.getParams())
      dump(param);
    dump(e.getBody(), "body");
    return;
  }
  case Expr::Kind::Comprehension: {
    auto &e = llvm::cast<ComprehensionExpr>(expr);
    static const char *const names[] = {"ListComp", "GeneratorExp", "SetComp",
                                        "DictComp"};
    out << names[static_cast<int>(e.getCompKind())];
    end(expr.getLocation());
    Nest inner(*this);
    dump(e.getElt(), e.getValue() ? "key" : "elt");
    if (e.getValue())
      dump(*e.getValue(), "value");
    for (const ComprehensionFor &gen : e.getGenerators()) {
      dump(*gen.target, "for");
      dump(*gen.iter, "in");
      for (const ExprPtr &cond : gen.ifs)
        dump(*cond, "if");
    }
    return;
  }
  case Expr::Kind::Starred: {
    auto &e = llvm::cast<StarredExpr>(expr);
    out << (e.isDoubleStar() ? "DoubleStarred" : "Starred");
    end(expr.getLocation());
    Nest inner(*this);
    dump(e.getValue());
    return;
  }
  }
}

void mgp::dumpAST(const Module &module, raw_ostream &os) {
  ASTDumper(os).dump(module);
}
