//===- MLIRGenExpr.cpp - expressions --------------------------------------===//
//
// This file implements the Generator's expression evaluation: names and
// literals, attributes, calls (builtins, helpers, methods such as `x.to`),
// subscripts (`x[:, None]`, tuple indexing), operators (delegating to the
// typed operations of MLIRGenOps.cpp), `and`/`or`/`not`, chained comparisons
// and conditional expressions. Compile-time operands fold; runtime ones emit
// IR at the builder's insertion point.
//
//===----------------------------------------------------------------------===//
#include "compiler/frontend/MLIRGenImpl.h"

#include "compiler/frontend/SemaTypes.h"
#include "compiler/ir/MgpDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mgp;
using namespace mgp::detail;
using llvm::Error;
using llvm::Expected;

Expected<SemaValue> Generator::genExpr(const ast::Expr &e) {
  switch (e.getKind()) {
  case ast::Expr::Kind::Name:
    return lookupName(llvm::cast<ast::NameExpr>(e));
  case ast::Expr::Kind::Constant: {
    auto &c = llvm::cast<ast::ConstantExpr>(e);
    switch (c.getConstKind()) {
    case ast::ConstantExpr::ConstKind::Int:
      if (c.isUInt64())
        return SemaValue::getUInt64(uint64_t(c.getInt()));
      return SemaValue::getInt(c.getInt());
    case ast::ConstantExpr::ConstKind::Float:
      return SemaValue::getFloat(c.getFloat());
    case ast::ConstantExpr::ConstKind::Bool:
      return SemaValue::getBool(c.getBool());
    case ast::ConstantExpr::ConstKind::None:
      return SemaValue::getNone();
    case ast::ConstantExpr::ConstKind::String:
      return SemaValue::getString(c.getString());
    case ast::ConstantExpr::ConstKind::Ellipsis:
      return error(e, "'...' is not supported in kernels");
    }
    llvm_unreachable("bad constant kind");
  }
  case ast::Expr::Kind::BinOp:
    return genBinOp(llvm::cast<ast::BinOpExpr>(e));
  case ast::Expr::Kind::UnaryOp:
    return genUnaryOp(llvm::cast<ast::UnaryOpExpr>(e));
  case ast::Expr::Kind::BoolOp:
    return genBoolOp(llvm::cast<ast::BoolOpExpr>(e));
  case ast::Expr::Kind::Compare:
    return genCompare(llvm::cast<ast::CompareExpr>(e));
  case ast::Expr::Kind::IfExp:
    return genIfExp(llvm::cast<ast::IfExpExpr>(e));
  case ast::Expr::Kind::Call:
    return genCall(llvm::cast<ast::CallExpr>(e));
  case ast::Expr::Kind::Attribute: {
    auto &a = llvm::cast<ast::AttributeExpr>(e);
    Expected<SemaValue> base = genExpr(a.getValue());
    if (!base)
      return base.takeError();
    return getAttribute(*base, a);
  }
  case ast::Expr::Kind::Subscript:
    return genSubscript(llvm::cast<ast::SubscriptExpr>(e));
  case ast::Expr::Kind::Tuple:
  case ast::Expr::Kind::List: {
    const ast::ExprList &elts = llvm::isa<ast::TupleExpr>(e)
                                    ? llvm::cast<ast::TupleExpr>(e).getElts()
                                    : llvm::cast<ast::ListExpr>(e).getElts();
    std::vector<SemaValue> values;
    for (const ast::ExprPtr &elt : elts) {
      Expected<SemaValue> v = genExpr(*elt);
      if (!v)
        return v.takeError();
      values.push_back(*v);
    }
    return SemaValue::getTuple(std::move(values));
  }
  case ast::Expr::Kind::Slice:
    return error(e, "a slice is only allowed inside a subscript");
  case ast::Expr::Kind::Lambda:
    return error(e, "lambda is not supported in kernels");
  case ast::Expr::Kind::Dict:
    return error(e, "dict is not supported in kernels");
  case ast::Expr::Kind::Comprehension:
    return error(e, "comprehensions are not supported in kernels");
  case ast::Expr::Kind::Starred:
    return error(e, "'*' and '**' arguments are not supported in kernels");
  }
  llvm_unreachable("bad expression kind");
}

Expected<SemaValue> Generator::genBinOp(const ast::BinOpExpr &e) {
  Expected<SemaValue> lhs = genExpr(e.getLHS());
  if (!lhs)
    return lhs.takeError();
  Expected<SemaValue> rhs = genExpr(e.getRHS());
  if (!rhs)
    return rhs.takeError();
  OpSite s{e.getOpLocation().getLoc(),
           {e.getLHS().getRange(), e.getRHS().getRange()},
           loc(e.getOpLocation())};
  return binaryOp(e.getOp(), *lhs, *rhs, s);
}

Expected<SemaValue> Generator::genUnaryOp(const ast::UnaryOpExpr &e) {
  Expected<SemaValue> v = genExpr(e.getOperand());
  if (!v)
    return v.takeError();
  namespace arith = mlir::arith;
  mlir::Location l = loc(e);
  switch (e.getOp()) {
  case ast::UnaryOp::Pos:
    return *v;
  case ast::UnaryOp::Not:
    if (v->isConstexpr())
      return SemaValue::getBool(!v->isTruthy());
    if (v->isRuntime() && getElementType(v->getType()).isIntOrFloat()) {
      mlir::Value b = toBool(v->getValue(), l);
      mlir::Value one =
          materializeSplat(SemaValue::getBool(true), builder.getI1Type(),
                           getShapeOf(b.getType()), l);
      return runtime(arith::XOrIOp::create(builder, l, b, one));
    }
    break;
  case ast::UnaryOp::Neg:
    if (v->isHeld() && v->isFloat())
      return SemaValue::getHeld(SemaValue::getFloat(-v->getFloat()),
                                v->getType());
    if (v->isHeld()) // 0 - v in v's type (wraps)
      return binaryOp(ast::BinaryOp::Sub, SemaValue::getInt(0), *v, site(e));
    if (v->isInt() || v->isBool()) {
      if (std::optional<SemaValue> r = SemaValue::getWideInt(-v->getWideInt()))
        return *r;
      return error(e, "invalid constant expression: integer overflow: -" +
                          v->describe() + " does not fit in int64");
    }
    if (v->isFloat())
      return SemaValue::getFloat(-v->getFloat());
    if (v->isRuntime() && getElementType(v->getType()).isIntOrFloat()) {
      if (getElementType(v->getType()).isInteger()) { // 0 - v, in v's type
        mlir::Value zero = materializeSplat(SemaValue::getInt(0),
                                            getElementType(v->getType()),
                                            getShapeOf(v->getType()), l);
        return runtime(arith::SubIOp::create(builder, l, zero, v->getValue()),
                       v->isUnsigned());
      }
      mlir::Value x = v->getValue();
      if (isFp8E4B15(getElementType(x.getType()))) // computes in fp16
        x = castTo(x, builder.getF16Type(), l);
      return runtime(arith::NegFOp::create(builder, l, x));
    }
    break;
  case ast::UnaryOp::Invert:
    if (v->isHeld() && v->isBool()) // i1: all ones is 1
      return SemaValue::getHeld(SemaValue::getBool(!v->getBool()),
                                v->getType());
    if (v->isHeld() && v->isInt())
      return binaryOp(ast::BinaryOp::BitXor, *v, SemaValue::getInt(-1),
                      site(e));
    if (v->isInt() || v->isBool()) {
      if (std::optional<SemaValue> r =
              SemaValue::getWideInt(-v->getWideInt() - 1))
        return *r;
      return error(e, "invalid constant expression: integer overflow: ~" +
                          v->describe() + " does not fit in int64");
    }
    if (v->isRuntime() && getElementType(v->getType()).isInteger()) {
      mlir::Value ones =
          materializeSplat(SemaValue::getInt(-1), getElementType(v->getType()),
                           getShapeOf(v->getType()), l);
      return runtime(arith::XOrIOp::create(builder, l, v->getValue(), ones),
                     v->isUnsigned());
    }
    break;
  }
  return error(e, "bad operand for unary '" + ast::spell(e.getOp()) +
                      "': " + v->describe());
}

/// `a and b` / `a or b` on two already evaluated values.
static Expected<SemaValue> combineBool(Generator &g, ast::BoolOp op,
                                       const SemaValue &a, const SemaValue &b,
                                       const ast::Expr &where) {
  if (a.isConstexpr() && b.isConstexpr())
    return (op == ast::BoolOp::And) == a.isTruthy() ? b : a;
  Expected<mlir::Value> ra = g.toCondition(a, where);
  if (!ra)
    return ra.takeError();
  Expected<mlir::Value> rb = g.toCondition(b, where);
  if (!rb)
    return rb.takeError();
  mlir::Location l = g.loc(where);
  mlir::Value x = *ra, y = *rb;
  if (Error err = g.broadcastPair(x, y, g.site(where)))
    return std::move(err);
  if (op == ast::BoolOp::And)
    return g.runtime(mlir::arith::AndIOp::create(g.builder, l, x, y));
  return g.runtime(mlir::arith::OrIOp::create(g.builder, l, x, y));
}

Expected<SemaValue> Generator::genBoolOp(const ast::BoolOpExpr &e) {
  Expected<SemaValue> acc = genExpr(*e.getValues().front());
  if (!acc)
    return acc.takeError();
  for (size_t i = 1; i < e.getValues().size(); ++i) {
    // Compile-time short circuit.
    if (acc->isConstexpr() && acc->isTruthy() == (e.getOp() == ast::BoolOp::Or))
      return *acc;
    Expected<SemaValue> next = genExpr(*e.getValues()[i]);
    if (!next)
      return next.takeError();
    acc = combineBool(*this, e.getOp(), *acc, *next, e);
    if (!acc)
      return acc.takeError();
  }
  return *acc;
}

Expected<SemaValue> Generator::genCompare(const ast::CompareExpr &e) {
  Expected<SemaValue> left = genExpr(e.getLeft());
  if (!left)
    return left.takeError();
  std::optional<SemaValue> result;
  const ast::Expr *leftExpr = &e.getLeft();
  for (size_t i = 0; i < e.getOps().size(); ++i) {
    const ast::Expr &rightExpr = *e.getComparators()[i];
    Expected<SemaValue> right = genExpr(rightExpr);
    if (!right)
      return right.takeError();
    OpSite s{e.getLoc(), {leftExpr->getRange(), rightExpr.getRange()}, loc(e)};
    Expected<SemaValue> c = compareOp(e.getOps()[i], *left, *right, s);
    if (!c)
      return c.takeError();
    if (!result) {
      result = *c;
    } else {
      Expected<SemaValue> r =
          combineBool(*this, ast::BoolOp::And, *result, *c, e);
      if (!r)
        return r.takeError();
      result = *r;
    }
    left = std::move(right);
    leftExpr = &rightExpr;
  }
  return *result;
}

Expected<SemaValue> Generator::genIfExp(const ast::IfExpExpr &e) {
  Expected<SemaValue> test = genExpr(e.getTest());
  if (!test)
    return test.takeError();
  if (test->isConstexpr())
    return genExpr(test->isTruthy() ? e.getBody() : e.getOrElse());
  // A runtime condition selects between both (evaluated) values.
  Expected<SemaValue> a = genExpr(e.getBody());
  if (!a)
    return a.takeError();
  Expected<SemaValue> b = genExpr(e.getOrElse());
  if (!b)
    return b.takeError();
  Expected<mlir::Value> cond = toCondition(*test, e.getTest());
  if (!cond)
    return cond.takeError();
  mlir::Value x, y, c = *cond;
  OpSite s = site(e);
  bool u = false;
  if (Error err =
          promoteOperands(*a, *b, PromoteMode::Arith, "if-else", x, y, s, &u))
    return std::move(err);
  if (Error err = broadcastPair(c, x, s))
    return std::move(err);
  if (Error err = broadcastPair(c, y, s))
    return std::move(err);
  if (Error err = broadcastPair(x, y, s))
    return std::move(err);
  return runtime(mlir::arith::SelectOp::create(builder, loc(e), c, x, y), u);
}

Expected<CallArgs> Generator::evalCallArgs(const ast::CallExpr &call,
                                           const SemaValue *receiver) {
  CallArgs args;
  if (receiver) {
    args.args.push_back(*receiver);
    args.argExprs.push_back(
        &llvm::cast<ast::AttributeExpr>(call.getCallee()).getValue());
  }
  for (const ast::ExprPtr &a : call.getArgs()) {
    Expected<SemaValue> v = genExpr(*a);
    if (!v)
      return v.takeError();
    args.args.push_back(*v);
    args.argExprs.push_back(a.get());
  }
  for (const ast::Keyword &kw : call.getKeywords()) {
    Expected<SemaValue> v = genExpr(*kw.value);
    if (!v)
      return v.takeError();
    args.keywordValues.push_back(*v);
    args.keywords.push_back(&kw);
  }
  return args;
}

Expected<SemaValue> Generator::genCall(const ast::CallExpr &call) {
  Expected<SemaValue> callee = genExpr(call.getCallee());
  if (!callee)
    return callee.takeError();
  bool isMethod = callee->getKind() == SemaValue::Kind::Method;
  Expected<CallArgs> argsOr =
      evalCallArgs(call, isMethod ? &callee->getElements()[0] : nullptr);
  if (!argsOr)
    return argsOr.takeError();
  CallArgs &args = *argsOr;
  switch (callee->getKind()) {
  case SemaValue::Kind::Method:
    if (callee->getElements()[0].isDType())
      return callDTypeMethod(callee->getElements()[0], callee->getName(), args,
                             call);
    return callBuiltin(callee->getName(), args, call);
  case SemaValue::Kind::Builtin:
    return callBuiltin(callee->getName(), args, call);
  case SemaValue::Kind::DType:
    return callDType(*callee, args, call);
  case SemaValue::Kind::Function:
    return callFunction(*callee->getFunction(), args, call);
  default:
    return error(call.getCallee(), callee->describe() + " is not callable");
  }
}

Expected<SemaValue> Generator::genSubscript(const ast::SubscriptExpr &e) {
  Expected<SemaValue> base = genExpr(e.getValue());
  if (!base)
    return base.takeError();
  const ast::ExprList &indices = e.getIndices();
  if (base->isTuple()) {
    if (indices.size() != 1)
      return error(e, "a tuple takes one index");
    Expected<SemaValue> idx = genExpr(*indices[0]);
    if (!idx)
      return idx.takeError();
    int64_t n = base->getElements().size();
    if (!idx->isInt())
      return error(*indices[0], "a tuple index must be a constant integer");
    int64_t i = idx->getInt() < 0 ? idx->getInt() + n : idx->getInt();
    if (i < 0 || i >= n)
      return error(*indices[0], "tuple index " + llvm::Twine(idx->getInt()) +
                                    " out of range (size " + llvm::Twine(n) +
                                    ")");
    return base->getElements()[i];
  }
  if (!base->isTensor())
    return error(e.getValue(), "cannot subscript " + base->describe() +
                                   " (only blocks and tuples)");
  mlir::Value v = base->getValue();
  size_t rank = getShapeOf(v.getType()).size();
  size_t numSlices = 0;
  for (const ast::ExprPtr &idx : indices) {
    if (auto *s = llvm::dyn_cast<ast::SliceExpr>(idx.get())) {
      if (s->getLower() || s->getUpper() || s->getStep())
        return error(*idx, "slices with bounds are not supported; only ':' "
                           "and None");
      ++numSlices;
      continue;
    }
    auto *c = llvm::dyn_cast<ast::ConstantExpr>(idx.get());
    if (!c || !c->isNone())
      return error(*idx, "a block index must be ':' or None (indexing blocks "
                         "by value is not supported)");
  }
  if (numSlices > rank)
    return error(e, "too many ':' indices for a block of rank " +
                        llvm::Twine(rank));
  int32_t pos = 0;
  for (const ast::ExprPtr &idx : indices) {
    if (!llvm::isa<ast::SliceExpr>(idx.get()))
      v = ExpandDimsOp::create(builder, loc(*idx), v, pos);
    ++pos;
  }
  return runtime(v, base->isUnsigned());
}
