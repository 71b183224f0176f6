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

#include "mlir/Dialect/Arith/IR/Arith.h"

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

static void collectNames(llvm::ArrayRef<const ast::Stmt *> stmts,
                         llvm::SetVector<llvm::StringRef> &names,
                         bool inNestedLoop);

static void collectNames(const ast::StmtList &stmts,
                         llvm::SetVector<llvm::StringRef> &names,
                         bool inNestedLoop) {
  collectNames(toSequence(stmts), names, inNestedLoop);
}

static void collectNames(llvm::ArrayRef<const ast::Stmt *> stmts,
                         llvm::SetVector<llvm::StringRef> &names,
                         bool inNestedLoop) {
  for (const ast::Stmt *s : stmts) {
    if (auto *a = llvm::dyn_cast<ast::AssignStmt>(s)) {
      for (const ast::ExprPtr &t : a->getTargets())
        collectTargetNames(*t, names);
    } else if (auto *a = llvm::dyn_cast<ast::AugAssignStmt>(s)) {
      collectTargetNames(a->getTarget(), names);
    } else if (auto *a = llvm::dyn_cast<ast::AnnAssignStmt>(s)) {
      if (a->getValue())
        collectTargetNames(a->getTarget(), names);
    } else if (auto *i = llvm::dyn_cast<ast::IfStmt>(s)) {
      collectNames(i->getBody(), names, inNestedLoop);
      collectNames(i->getOrElse(), names, inNestedLoop);
    } else if (auto *f = llvm::dyn_cast<ast::ForStmt>(s)) {
      collectNames(f->getBody(), names, true);
    } else if (auto *w = llvm::dyn_cast<ast::WhileStmt>(s)) {
      collectNames(w->getBody(), names, true);
    } else if (llvm::isa<ast::BreakStmt>(s) && !inNestedLoop) {
      names.insert(kBreakFlag);
    } else if (llvm::isa<ast::ContinueStmt>(s) && !inNestedLoop) {
      names.insert(kContinueFlag);
    }
  }
}

std::vector<const ast::Stmt *>
mgp::detail::toSequence(const ast::StmtList &stmts) {
  std::vector<const ast::Stmt *> seq;
  for (const ast::StmtPtr &s : stmts)
    seq.push_back(s.get());
  return seq;
}

bool mgp::detail::containsReturn(const ast::StmtList &stmts) {
  for (const ast::StmtPtr &s : stmts) {
    if (llvm::isa<ast::ReturnStmt>(s.get()))
      return true;
    if (auto *i = llvm::dyn_cast<ast::IfStmt>(s.get()))
      if (containsReturn(i->getBody()) || containsReturn(i->getOrElse()))
        return true;
  }
  return false;
}

void mgp::detail::collectNamesOf(llvm::ArrayRef<const ast::Stmt *> stmts,
                                 llvm::SetVector<llvm::StringRef> &names) {
  collectNames(stmts, names, false);
}

void mgp::detail::collectAssignedNames(
    const ast::StmtList &stmts, llvm::SetVector<llvm::StringRef> &names) {
  collectNames(stmts, names, false);
}

Error Generator::genBlock(const ast::StmtList &stmts) {
  return genStmts(toSequence(stmts));
}

Error Generator::genStmts(llvm::ArrayRef<const ast::Stmt *> stmts) {
  for (size_t i = 0; i < stmts.size(); ++i) {
    if (frame().returned)
      break; // code after a return never runs
    if (auto *ifStmt = llvm::dyn_cast<ast::IfStmt>(stmts[i])) {
      bool consumed = false;
      if (Error err = genIf(*ifStmt, stmts.drop_front(i + 1), consumed))
        return err;
      if (consumed)
        return Error::success();
    } else if (Error err = genStmt(*stmts[i])) {
      return err;
    }
    if (budgetViolation)
      return error(*stmts[i], *budgetViolation);
    // Inside a loop with break/continue: once a flag may be set, the rest of
    // the block runs only where neither is.
    auto brk = frame().vars.find(kBreakFlag);
    auto cont = frame().vars.find(kContinueFlag);
    if (brk == frame().vars.end() || cont == frame().vars.end())
      continue;
    SemaValue b = brk->second, c = cont->second;
    if ((b.isConstexpr() && b.isTruthy()) || (c.isConstexpr() && c.isTruthy()))
      return Error::success(); // the rest is unreachable
    if (b.isConstexpr() && c.isConstexpr())
      continue;
    if (i + 1 == stmts.size())
      return Error::success();
    llvm::ArrayRef<const ast::Stmt *> rest = stmts.drop_front(i + 1);
    mlir::Location l = loc(stmts[i]->getLocation());
    mlir::Value stop = toBool(materializeFlag(b, l), l);
    stop = mlir::arith::OrIOp::create(builder, l, stop,
                                      toBool(materializeFlag(c, l), l));
    mlir::Value go = mlir::arith::XOrIOp::create(
        builder, l, stop,
        materialize(SemaValue::getBool(true), builder.getI1Type(), l));
    llvm::SetVector<llvm::StringRef> names;
    collectNamesOf(rest, names);
    names.insert(kBreakFlag);
    names.insert(kContinueFlag);
    return genRuntimeIf(
        go, names,
        [&]() -> Error {
          frame().vars[kBreakFlag] = SemaValue::getBool(false);
          frame().vars[kContinueFlag] = SemaValue::getBool(false);
          return genStmts(rest);
        },
        []() { return Error::success(); }, *stmts[i]);
  }
  return Error::success();
}

mlir::Value Generator::materializeFlag(const SemaValue &flag,
                                       mlir::Location l) {
  if (flag.isRuntime())
    return flag.getValue();
  return materialize(SemaValue::getBool(flag.isTruthy()), builder.getI1Type(),
                     l);
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
    SemaValue held = holdAsTensor(*v);
    for (const ast::ExprPtr &t : a.getTargets())
      if (Error err = assignTarget(*t, held))
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
    return assignName(name->getName(), holdAsTensor(*r), *name);
  }
  case ast::Stmt::Kind::AnnAssign: {
    auto &a = llvm::cast<ast::AnnAssignStmt>(s);
    if (!a.getValue())
      return Error::success();
    Expected<SemaValue> v = genExpr(*a.getValue());
    if (!v)
      return v.takeError();
    // `x: tl.constexpr = 0.5` keeps a literal; any other annotation is an
    // ordinary assignment.
    if (isConstexprAnnotation(&a.getAnnotation()))
      return assignTarget(a.getTarget(), v->asLiteral());
    return assignTarget(a.getTarget(), holdAsTensor(*v));
  }
  case ast::Stmt::Kind::Expr: {
    Expected<SemaValue> v = genExpr(llvm::cast<ast::ExprStmt>(s).getValue());
    return v ? Error::success() : v.takeError();
  }
  case ast::Stmt::Kind::If: {
    bool consumed = false;
    return genIf(llvm::cast<ast::IfStmt>(s), {}, consumed);
  }
  case ast::Stmt::Kind::For:
    return genFor(llvm::cast<ast::ForStmt>(s));
  case ast::Stmt::Kind::While:
    return genWhile(llvm::cast<ast::WhileStmt>(s));
  case ast::Stmt::Kind::Break:
  case ast::Stmt::Kind::Continue: {
    bool isBreak = llvm::isa<ast::BreakStmt>(s);
    if (!frame().vars.count(kBreakFlag))
      return error(s, llvm::Twine("'") + (isBreak ? "break" : "continue") +
                          "' is only supported in range() and while loops "
                          "(not in unrolled static_range loops)");
    frame().vars[isBreak ? kBreakFlag : kContinueFlag] =
        SemaValue::getBool(true);
    return Error::success();
  }
  case ast::Stmt::Kind::Return: {
    auto &r = llvm::cast<ast::ReturnStmt>(s);
    if (frame().loopDepth > 0)
      return error(s, "'return' inside a loop is not supported");
    SemaValue v = SemaValue::getNone();
    if (r.getValue()) {
      Expected<SemaValue> e = genExpr(*r.getValue());
      if (!e)
        return e.takeError();
      // Numbers a helper returns are 0-d tensors, as in Triton
      // (visit_Return's decay).
      v = holdAsTensor(*e);
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
