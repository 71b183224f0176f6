//===- MLIRGenStmt.cpp - simple statements --------------------------------===//
//
// This file implements the Generator's statements other than control flow:
// assignment (with tuple unpacking), augmented and annotated assignment,
// expression statements, `return` (helpers), `pass`, `assert` (checked at
// compile time when the condition is a constant) and the syntactic
// collection of the names a block assigns, which decides the values carried
// by loops and yielded by runtime `if`s.
//
//===----------------------------------------------------------------------===//
#include "compiler/frontend/MLIRGenImpl.h"

using namespace mgp;
using namespace mgp::detail;
using llvm::Error;
using llvm::Expected;

static void collectTargetNames(const ast::Expr &target,
                               llvm::SetVector<llvm::StringRef> &names) {
  if (auto *n = llvm::dyn_cast<ast::NameExpr>(&target)) {
    names.insert(n->getName());
  } else if (auto *t = llvm::dyn_cast<ast::TupleExpr>(&target)) {
    for (const ast::ExprPtr &e : t->getElts())
      collectTargetNames(*e, names);
  } else if (auto *l = llvm::dyn_cast<ast::ListExpr>(&target)) {
    for (const ast::ExprPtr &e : l->getElts())
      collectTargetNames(*e, names);
  }
}

void mgp::detail::collectAssignedNames(
    const ast::StmtList &stmts, llvm::SetVector<llvm::StringRef> &names) {
  for (const ast::StmtPtr &s : stmts) {
    if (auto *a = llvm::dyn_cast<ast::AssignStmt>(s.get())) {
      for (const ast::ExprPtr &t : a->getTargets())
        collectTargetNames(*t, names);
    } else if (auto *a = llvm::dyn_cast<ast::AugAssignStmt>(s.get())) {
      collectTargetNames(a->getTarget(), names);
    } else if (auto *a = llvm::dyn_cast<ast::AnnAssignStmt>(s.get())) {
      if (a->getValue())
        collectTargetNames(a->getTarget(), names);
    } else if (auto *i = llvm::dyn_cast<ast::IfStmt>(s.get())) {
      collectAssignedNames(i->getBody(), names);
      collectAssignedNames(i->getOrElse(), names);
    } else if (auto *f = llvm::dyn_cast<ast::ForStmt>(s.get())) {
      collectAssignedNames(f->getBody(), names);
    } else if (auto *w = llvm::dyn_cast<ast::WhileStmt>(s.get())) {
      collectAssignedNames(w->getBody(), names);
    }
  }
}

Error Generator::genBlock(const ast::StmtList &stmts) {
  for (const ast::StmtPtr &s : stmts) {
    if (frame().returned)
      break; // code after a return never runs
    if (Error err = genStmt(*s))
      return err;
  }
  return Error::success();
}

Error Generator::assignTarget(const ast::Expr &target, SemaValue value) {
  if (auto *n = llvm::dyn_cast<ast::NameExpr>(&target))
    return assignName(n->getName(), std::move(value), target);
  const ast::ExprList *elts = nullptr;
  if (auto *t = llvm::dyn_cast<ast::TupleExpr>(&target))
    elts = &t->getElts();
  else if (auto *l = llvm::dyn_cast<ast::ListExpr>(&target))
    elts = &l->getElts();
  if (!elts)
    return error(target, "only names and tuples of names can be assigned to "
                         "in kernels");
  if (!value.isTuple())
    return error(target, "cannot unpack " + value.describe());
  if (value.getElements().size() != elts->size())
    return error(target, "cannot unpack a tuple of " +
                             llvm::Twine(value.getElements().size()) +
                             " values into " + llvm::Twine(elts->size()) +
                             " targets");
  for (size_t i = 0; i < elts->size(); ++i)
    if (Error err = assignTarget(*(*elts)[i], value.getElements()[i]))
      return err;
  return Error::success();
}

Error Generator::genStmt(const ast::Stmt &s) {
  switch (s.getKind()) {
  case ast::Stmt::Kind::Assign: {
    auto &a = llvm::cast<ast::AssignStmt>(s);
    Expected<SemaValue> v = genExpr(a.getValue());
    if (!v)
      return v.takeError();
    for (const ast::ExprPtr &t : a.getTargets())
      if (Error err = assignTarget(*t, *v))
        return err;
    return Error::success();
  }
  case ast::Stmt::Kind::AugAssign: {
    auto &a = llvm::cast<ast::AugAssignStmt>(s);
    auto *name = llvm::dyn_cast<ast::NameExpr>(&a.getTarget());
    if (!name)
      return error(a.getTarget(), "only names can be targets of '" +
                                      ast::spell(a.getOp()) + "='");
    Expected<SemaValue> cur = lookupName(*name);
    if (!cur)
      return cur.takeError();
    Expected<SemaValue> rhs = genExpr(a.getValue());
    if (!rhs)
      return rhs.takeError();
    OpSite site{s.getLoc(),
                {a.getTarget().getRange(), a.getValue().getRange()},
                loc(s.getLocation())};
    Expected<SemaValue> r = binaryOp(a.getOp(), *cur, *rhs, site);
    if (!r)
      return r.takeError();
    return assignName(name->getName(), *r, *name);
  }
  case ast::Stmt::Kind::AnnAssign: {
    auto &a = llvm::cast<ast::AnnAssignStmt>(s);
    if (!a.getValue())
      return Error::success();
    Expected<SemaValue> v = genExpr(*a.getValue());
    if (!v)
      return v.takeError();
    return assignTarget(a.getTarget(), *v);
  }
  case ast::Stmt::Kind::Expr: {
    Expected<SemaValue> v = genExpr(llvm::cast<ast::ExprStmt>(s).getValue());
    return v ? Error::success() : v.takeError();
  }
  case ast::Stmt::Kind::If:
    return genIf(llvm::cast<ast::IfStmt>(s));
  case ast::Stmt::Kind::For:
    return genFor(llvm::cast<ast::ForStmt>(s));
  case ast::Stmt::Kind::While:
    return genWhile(llvm::cast<ast::WhileStmt>(s));
  case ast::Stmt::Kind::Break:
  case ast::Stmt::Kind::Continue:
    return error(s, llvm::Twine("'") +
                        (llvm::isa<ast::BreakStmt>(s) ? "break" : "continue") +
                        "' is not supported yet");
  case ast::Stmt::Kind::Return: {
    auto &r = llvm::cast<ast::ReturnStmt>(s);
    if (frame().loopDepth > 0)
      return error(s, "'return' inside a loop is not supported");
    SemaValue v = SemaValue::getNone();
    if (r.getValue()) {
      Expected<SemaValue> e = genExpr(*r.getValue());
      if (!e)
        return e.takeError();
      v = *e;
      if (frames.size() == 1 && !v.isNone())
        return error(*r.getValue(), "a kernel cannot return a value");
    }
    frame().returnValue = v;
    frame().returned = true;
    return Error::success();
  }
  case ast::Stmt::Kind::Pass:
    return Error::success();
  case ast::Stmt::Kind::Assert: {
    auto &a = llvm::cast<ast::AssertStmt>(s);
    Expected<SemaValue> t = genExpr(a.getTest());
    if (!t)
      return t.takeError();
    if (!t->isConstexpr())
      return Error::success(); // runtime asserts are not checked (as Triton
                               // without debug mode)
    if (t->isTruthy())
      return Error::success();
    std::string msg = "assertion failed";
    if (a.getMsg()) {
      Expected<SemaValue> m = genExpr(*a.getMsg());
      if (!m)
        return m.takeError();
      if (m->isString())
        msg += ": " + m->getString().str();
    }
    return error(a.getTest(), msg);
  }
  case ast::Stmt::Kind::FunctionDef:
    return error(s, "nested function definitions are not supported in "
                    "kernels");
  }
  llvm_unreachable("bad statement kind");
}
