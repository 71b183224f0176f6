//===- MLIRGenControlFlow.cpp - if, for and while -------------------------===//
//
// This file implements the Generator's `if`: on a constant it picks its
// branch at compile time; on a runtime scalar it becomes scf.if yielding
// every variable either branch assigns (and a return value when both
// branches return), merging a constant with a runtime value in the runtime
// value's type. It also holds the helpers loops share with it.
//
//===----------------------------------------------------------------------===//
#include "compiler/frontend/MLIRGenImpl.h"

#include "compiler/frontend/SemaTypes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mgp;
using namespace mgp::detail;
using llvm::Error;
using llvm::Expected;

/// The runtime type a constant number takes by default.
mlir::Type mgp::detail::getDefaultType(mlir::MLIRContext *ctx,
                                       const SemaValue &c) {
  if (c.isHeld())
    return c.getType();
  if (c.isBool())
    return mlir::IntegerType::get(ctx, 1);
  if (c.isInt())
    return getIntLiteralType(ctx, c.getWideInt());
  return getFloatLiteralType(ctx, c.getFloat());
}

/// `v` as a runtime value of exactly `type` at the builder's insertion point,
/// or null if it cannot be (then the caller reports it).
mlir::Value mgp::detail::coerceTo(Generator &g, const SemaValue &v,
                                  mlir::Type type, mlir::Location l) {
  if (v.isRuntime())
    return v.getType() == type ? v.getValue() : mlir::Value();
  if (!v.isConstNumber() || !getElementType(type).isIntOrFloat())
    return {};
  return g.materializeSplat(v, getElementType(type), getShapeOf(type), l);
}

std::string mgp::detail::describeVar(const SemaValue &v) {
  return v.isRuntime() ? describeType(v.getLogicalType()) : v.describe();
}

//===----------------------------------------------------------------------===//
// if
//===----------------------------------------------------------------------===//

Error Generator::genIf(const ast::IfStmt &s,
                       llvm::ArrayRef<const ast::Stmt *> rest,
                       bool &consumedRest) {
  consumedRest = false;
  Expected<SemaValue> test = genExpr(s.getTest());
  if (!test)
    return test.takeError();
  if (test->isConstexpr()) {
    // The chosen branch and the rest form one sequence, so that an early
    // return inside the branch also skips the rest.
    consumedRest = true;
    std::vector<const ast::Stmt *> seq =
        toSequence(test->isTruthy() ? s.getBody() : s.getOrElse());
    seq.insert(seq.end(), rest.begin(), rest.end());
    return genStmts(seq);
  }
  if (!test->isRuntime() || !getElementType(test->getType()).isIntOrFloat())
    return error(s.getTest(), "the condition of 'if' must be a number, got " +
                                  test->describe());
  if (test->isTensor())
    return error(s.getTest(), "the condition of 'if' must be a scalar, got a "
                              "block " +
                                  describeType(test->getLogicalType()) +
                                  " (use tl.where)");
  mlir::Value cond = toBool(test->getValue(), loc(s.getLocation()));
  llvm::SetVector<llvm::StringRef> names;
  collectAssignedNames(s.getBody(), names);
  collectAssignedNames(s.getOrElse(), names);
  if (!containsReturn(s.getBody()) && !containsReturn(s.getOrElse()))
    return genRuntimeIf(
        cond, names, [&]() { return genBlock(s.getBody()); },
        [&]() { return genBlock(s.getOrElse()); }, s);
  // An early return: the rest of the sequence runs in each branch that
  // has not returned (Triton's visit_if_top_level), so both branches end
  // the function.
  consumedRest = true;
  collectNamesOf(rest, names);
  std::vector<const ast::Stmt *> thenSeq = toSequence(s.getBody());
  std::vector<const ast::Stmt *> elseSeq = toSequence(s.getOrElse());
  thenSeq.insert(thenSeq.end(), rest.begin(), rest.end());
  elseSeq.insert(elseSeq.end(), rest.begin(), rest.end());
  return genRuntimeIf(
      cond, names, [&]() { return genStmts(thenSeq); },
      [&]() { return genStmts(elseSeq); }, s, /*endsFunction=*/true);
}

Error Generator::genRuntimeIf(mlir::Value cond,
                              const llvm::SetVector<llvm::StringRef> &names,
                              llvm::function_ref<Error()> thenGen,
                              llvm::function_ref<Error()> elseGen,
                              const ast::Stmt &s, bool endsFunction) {
  mlir::Location l = loc(s.getLocation());
  llvm::StringMap<SemaValue> before = frame().vars;
  auto tmp = mlir::scf::IfOp::create(builder, l, mlir::TypeRange{}, cond,
                                     /*withElseRegion=*/true);
  mlir::Block *blocks[2] = {&tmp.getThenRegion().front(),
                            &tmp.getElseRegion().front()};
  llvm::StringMap<SemaValue> vars[2];
  bool returned[2];
  std::optional<SemaValue> retValue[2];
  llvm::function_ref<Error()> bodies[2] = {thenGen, elseGen};
  for (int i = 0; i < 2; ++i) {
    while (!blocks[i]->empty())
      blocks[i]->back().erase();
    builder.setInsertionPointToEnd(blocks[i]);
    frame().vars = before;
    frame().returned = false;
    frame().returnValue.reset();
    if (Error err = bodies[i]())
      return err;
    vars[i] = frame().vars;
    returned[i] = frame().returned;
    retValue[i] = frame().returnValue;
  }
  frame().vars = before;
  frame().returned = false;
  frame().returnValue.reset();
  if (returned[0] != returned[1]) {
    // Only where the branches end the function: the one that falls off its
    // end returns None.
    int ret = returned[0] ? 0 : 1;
    if (!endsFunction)
      return error(s, "'return' in only one branch of an 'if' with a "
                      "runtime condition is not supported here (inside a "
                      "loop)");
    if (!retValue[ret]->isNone())
      return error(s, "this 'if' returns a value in one branch only: a "
                      "function that returns a value must return one on "
                      "every path");
    returned[1 - ret] = true;
    retValue[1 - ret] = SemaValue::getNone();
  }

  // What each branch yields.
  llvm::SmallVector<mlir::Value> yields[2];
  llvm::SmallVector<std::pair<std::string, int>> yieldNames; // name, result
  llvm::SmallVector<mlir::Type> types;
  llvm::SmallVector<bool> unsignedResults; // per result: the values' signedness
  llvm::SmallVector<llvm::SmallVector<int64_t>> logical; // per yielded value
  // Merges one value; returns true if it must be yielded.
  auto merge = [&](llvm::StringRef what, const SemaValue &a,
                   const SemaValue &b) -> Expected<bool> {
    if ((a.isConstexpr() || a.isRuntime()) && a.getKind() == b.getKind() &&
        a.constEquals(b))
      return false;
    mlir::Type type;
    if (a.isRuntime())
      type = a.getType();
    else if (b.isRuntime())
      type = b.getType();
    else if (a.isConstNumber() && b.isConstNumber()) {
      std::string why;
      type =
          computeArithmeticType(getDefaultType(&context, a), true,
                                getDefaultType(&context, b), true, false, why);
    }
    mlir::Value v[2];
    const SemaValue *sv[2] = {&a, &b};
    for (int i = 0; i < 2 && type; ++i) {
      builder.setInsertionPointToEnd(blocks[i]);
      v[i] = coerceTo(*this, *sv[i], type, l);
    }
    // Padded blocks must agree on their logical shapes too.
    bool sameLogical =
        !a.isRuntime() || !b.isRuntime() ||
        getShapeOf(a.getLogicalType()) == getShapeOf(b.getLogicalType());
    if (!type || !v[0] || !v[1] || !sameLogical)
      return error(s, what + " is " + describeVar(a) +
                          " in the 'if' branch but " + describeVar(b) +
                          " in the 'else' branch");
    logical.push_back(getLogicalShape(a.isRuntime() ? v[0] : v[1]));
    yields[0].push_back(v[0]);
    yields[1].push_back(v[1]);
    types.push_back(type);
    unsignedResults.push_back(a.isRuntime() ? a.isUnsigned() : b.isUnsigned());
    return true;
  };
  // Compound variables (tuples, block pointers) merge leaf by leaf.
  struct CompoundYield {
    std::string name;
    SemaValue whole; // the 'if' branch's value
    std::vector<std::pair<std::vector<int>, int>> leaves; // path, result
  };
  std::vector<CompoundYield> compounds;
  for (llvm::StringRef name : names) {
    auto a = vars[0].find(name), b = vars[1].find(name);
    if (a == vars[0].end() || b == vars[1].end()) {
      frame().vars.erase(name); // defined in one branch only
      continue;
    }
    if ((a->second.isCompound() && !a->second.isConstexpr()) ||
        (b->second.isCompound() && !b->second.isConstexpr())) {
      if (!sameStructure(a->second, b->second))
        return error(s, "variable '" + name + "' is " + a->second.describe() +
                            " in the 'if' branch but " + b->second.describe() +
                            " in the 'else' branch");
      std::vector<std::pair<std::vector<int>, SemaValue>> la, lb;
      collectLeaves(a->second, {}, la);
      collectLeaves(b->second, {}, lb);
      CompoundYield c{name.str(), a->second, {}};
      for (size_t k = 0; k < la.size(); ++k) {
        Expected<bool> yielded =
            merge("variable '" + name.str() + "'", la[k].second, lb[k].second);
        if (!yielded)
          return yielded.takeError();
        if (*yielded)
          c.leaves.push_back({la[k].first, static_cast<int>(types.size()) - 1});
      }
      compounds.push_back(std::move(c));
      continue;
    }
    Expected<bool> yielded =
        merge("variable '" + name.str() + "'", a->second, b->second);
    if (!yielded)
      return yielded.takeError();
    if (*yielded)
      yieldNames.push_back({name.str(), static_cast<int>(types.size()) - 1});
    else
      frame().vars[name] = a->second;
  }
  // Both branches returned: the return values merge like variables.
  std::vector<SemaValue> retParts[2];
  std::vector<int> retSlots; // -1: same constant in both branches
  if (returned[0]) {
    bool tuple = retValue[0]->isTuple();
    for (int i = 0; i < 2; ++i)
      retParts[i] = tuple ? retValue[i]->getElements()
                          : std::vector<SemaValue>{*retValue[i]};
    if (tuple != retValue[1]->isTuple() ||
        retParts[0].size() != retParts[1].size())
      return error(s, "the branches of this 'if' return different kinds of "
                      "values");
    for (size_t k = 0; k < retParts[0].size(); ++k) {
      Expected<bool> yielded =
          merge("the return value", retParts[0][k], retParts[1][k]);
      if (!yielded)
        return yielded.takeError();
      retSlots.push_back(*yielded ? static_cast<int>(types.size()) - 1 : -1);
    }
  }

  for (int i = 0; i < 2; ++i) {
    builder.setInsertionPointToEnd(blocks[i]);
    mlir::scf::YieldOp::create(builder, l, yields[i]);
  }
  builder.setInsertionPoint(tmp);
  auto ifOp = mlir::scf::IfOp::create(builder, l, types, cond,
                                      /*withElseRegion=*/true);
  ifOp.getThenRegion().takeBody(tmp.getThenRegion());
  ifOp.getElseRegion().takeBody(tmp.getElseRegion());
  tmp.erase();
  builder.setInsertionPointAfter(ifOp);
  for (size_t k = 0; k < ifOp.getNumResults(); ++k)
    setLogicalShape(ifOp.getResult(k), logical[k]);
  for (auto &[name, result] : yieldNames)
    frame().vars[name] =
        runtime(ifOp.getResult(result), unsignedResults[result]);
  for (CompoundYield &c : compounds) {
    SemaValue w = c.whole;
    for (auto &[path, result] : c.leaves)
      w = replaceLeaf(w, path,
                      runtime(ifOp.getResult(result), unsignedResults[result]));
    frame().vars[c.name] = w;
  }
  if (returned[0]) {
    std::vector<SemaValue> parts;
    for (size_t k = 0; k < retSlots.size(); ++k)
      parts.push_back(retSlots[k] < 0 ? retParts[0][k]
                                      : runtime(ifOp.getResult(retSlots[k]),
                                                unsignedResults[retSlots[k]]));
    frame().returned = true;
    frame().returnValue = retValue[0]->isTuple()
                              ? SemaValue::getTuple(std::move(parts))
                              : parts[0];
  }
  return Error::success();
}
