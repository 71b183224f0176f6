//===- MLIRGenLoops.cpp - for and while -----------------------------------===//
//
// This file implements the Generator's loops. `for` over `tl.static_range` or
// a constant tuple is unrolled here; over `range`/`tl.range` it becomes
// scf.for whose loop-carried values are the variables the body reassigns;
// `while` becomes scf.while. A carried variable that starts as a constant
// takes the type the body gives it (found by generating the body once into
// a scratch block); one that starts as a runtime value must keep its type.
// A loop whose body breaks or continues becomes scf.while carrying a
// "broke" flag, with the statements after a possible break under scf.if.
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

/// Most iterations a loop may be unrolled at compile time.
static constexpr int64_t kMaxUnroll = 4096;

//===----------------------------------------------------------------------===//
// Loops
//===----------------------------------------------------------------------===//

namespace {
/// A variable a loop may carry: a whole variable, or one leaf (at `path`) of
/// a compound one (a tuple or a block pointer: `whole` is its value before
/// the loop).
struct LoopVar {
  std::string name;
  SemaValue init;
  mlir::Type type; ///< the carried type (null: not carried)
  bool flexible;   ///< starts as a constant: takes the body's type
  llvm::SmallVector<int64_t> logical = {}; ///< its logical shape (padding)
  std::vector<int> path = {};
  SemaValue whole = {};
};
} // namespace

/// The variables defined before the loop that `body` reassigns; a compound
/// variable contributes one LoopVar per leaf.
static std::vector<LoopVar> getLoopVars(Generator &g, const ast::StmtList &body,
                                        llvm::StringRef skip) {
  llvm::SetVector<llvm::StringRef> names;
  collectAssignedNames(body, names);
  std::vector<LoopVar> vars;
  auto add = [&](llvm::StringRef name, const SemaValue &v,
                 std::vector<int> path, const SemaValue &whole) {
    // A block pointer's block_shape and order stay constants (yieldValues
    // checks that the body leaves them as they were).
    bool fixed = !path.empty() && isConstexprField(whole.getTag(), path[0]);
    LoopVar lv{name.str(), v, mlir::Type(), false, {}, std::move(path), whole};
    if (fixed) {
      // not carried: lv.type stays null
    } else if (v.isRuntime()) {
      lv.type = v.getType();
      lv.logical = g.getLogicalShape(v.getValue());
    } else if (v.isConstNumber()) {
      lv.type = getDefaultType(&g.context, v);
      lv.flexible = true;
    }
    vars.push_back(lv);
  };
  for (llvm::StringRef name : names) {
    auto it = g.frame().vars.find(name);
    if (name == skip || it == g.frame().vars.end())
      continue;
    const SemaValue &v = it->second;
    if (v.isCompound() && !v.isConstexpr()) {
      std::vector<std::pair<std::vector<int>, SemaValue>> leaves;
      collectLeaves(v, {}, leaves);
      for (auto &[path, leaf] : leaves)
        add(name, leaf, path, v);
      continue;
    }
    add(name, v, {}, {});
  }
  return vars;
}

/// Binds every var to `valueOf(var)`: whole variables directly, leaves into
/// their compound variable (built from its value before the loop).
static void bindVars(Generator &g, std::vector<LoopVar> &vars,
                     llvm::function_ref<SemaValue(LoopVar &)> valueOf) {
  llvm::StringMap<SemaValue> wholes;
  for (LoopVar &v : vars) {
    SemaValue value = valueOf(v);
    if (v.path.empty()) {
      g.frame().vars[v.name] = value;
      continue;
    }
    SemaValue &w = wholes.try_emplace(v.name, v.whole).first->second;
    w = replaceLeaf(w, v.path, value);
  }
  for (auto &entry : wholes)
    g.frame().vars[entry.getKey()] = entry.getValue();
}

namespace {
/// Generates a loop body (and, for while, its condition) against block
/// arguments, and checks what it leaves in the carried variables.
struct LoopBodyGen {
  Generator &g;
  const ast::Stmt &loop;
  std::vector<LoopVar> &vars;

  /// Binds the carried variables to `args` (in order, skipping non-carried),
  /// runs `gen`, and returns the end values of all vars.
  Expected<std::vector<SemaValue>> run(mlir::ValueRange args,
                                       llvm::function_ref<Error()> gen) {
    size_t a = 0;
    bindVars(g, vars, [&](LoopVar &v) {
      if (!v.type)
        return v.init;
      g.setLogicalShape(args[a], v.logical);
      return g.runtime(args[a++], v.init.isUnsigned());
    });
    ++g.frame().loopDepth;
    Error err = gen();
    --g.frame().loopDepth;
    if (err)
      return std::move(err);
    std::vector<SemaValue> ends;
    for (LoopVar &v : vars) {
      auto it = g.frame().vars.find(v.name);
      if (it == g.frame().vars.end())
        return g.error(loop, "variable '" + v.name +
                                 "' is undefined at the end of the loop body");
      if (v.path.empty()) {
        ends.push_back(it->second);
        continue;
      }
      if (!sameStructure(it->second, v.whole))
        return g.error(loop, "variable '" + v.name + "' is " +
                                 v.whole.describe() + " before the loop but " +
                                 it->second.describe() +
                                 " at the end of the body");
      ends.push_back(*getLeaf(it->second, v.path));
    }
    return ends;
  }

  /// Checks the end values of a real run and returns the values to yield.
  Expected<llvm::SmallVector<mlir::Value>>
  yieldValues(const std::vector<SemaValue> &ends, mlir::Location l) {
    llvm::SmallVector<mlir::Value> out;
    for (size_t i = 0; i < vars.size(); ++i) {
      LoopVar &v = vars[i];
      if (!v.type) {
        if (!ends[i].constEquals(v.init) ||
            ends[i].getKind() != v.init.getKind())
          return g.error(loop, "variable '" + v.name + "' (" +
                                   v.init.describe() +
                                   ") cannot change inside a loop");
        continue;
      }
      mlir::Value y = coerceTo(g, ends[i], v.type, l);
      if (!y || (ends[i].isRuntime() &&
                 g.getLogicalShape(y) != llvm::ArrayRef<int64_t>(v.logical)))
        return g.error(
            loop,
            "loop-carried variable '" + v.name + "' is " +
                describeType(withShape(getElementType(v.type), v.logical)) +
                " before the loop but " + describeVar(ends[i]) +
                " at the end of the body");
      out.push_back(y);
    }
    return out;
  }

  llvm::SmallVector<mlir::Type> types() const {
    llvm::SmallVector<mlir::Type> t;
    for (const LoopVar &v : vars)
      if (v.type)
        t.push_back(v.type);
    return t;
  }

  /// Settles the types of constant-initialised variables by generating the
  /// body into scratch blocks until they stop changing.
  Error inferTypes(llvm::ArrayRef<mlir::Type> leadingArgs,
                   llvm::function_ref<Error()> gen, mlir::Location l) {
    if (llvm::none_of(vars, [](const LoopVar &v) { return v.flexible; }))
      return Error::success();
    for (int iter = 0; iter < 4; ++iter) {
      llvm::StringMap<SemaValue> saved = g.frame().vars;
      auto scratch = std::make_unique<mlir::Block>();
      for (mlir::Type t : leadingArgs)
        scratch->addArgument(t, l);
      for (mlir::Type t : types())
        scratch->addArgument(t, l);
      mlir::OpBuilder::InsertionGuard guard(g.builder);
      g.builder.setInsertionPointToStart(scratch.get());
      Expected<std::vector<SemaValue>> ends =
          run(scratch->getArguments().drop_front(leadingArgs.size()), gen);
      g.frame().vars = std::move(saved);
      g.forgetValues(*scratch);
      scratch->dropAllDefinedValueUses();
      scratch->dropAllReferences();
      scratch.reset();
      if (!ends)
        return ends.takeError();
      bool changed = false;
      for (size_t i = 0; i < vars.size(); ++i) {
        LoopVar &v = vars[i];
        const SemaValue &e = (*ends)[i];
        if (!v.flexible || !v.type)
          continue;
        if (e.isConstNumber() && e.constEquals(v.init) &&
            e.getKind() == v.init.getKind()) {
          v.type = mlir::Type(); // stays the same constant
          changed = true;
        } else if (e.isRuntime() && e.getType() != v.type &&
                   getElementType(e.getType()).isIntOrFloat()) {
          v.type = e.getType();
          v.logical.assign(getShapeOf(e.getLogicalType()).begin(),
                           getShapeOf(e.getLogicalType()).end());
          changed = true;
        }
      }
      if (!changed)
        break;
    }
    return Error::success();
  }

  /// The initial values of the carried variables, at the insertion point.
  llvm::SmallVector<mlir::Value> initValues(mlir::Location l) {
    llvm::SmallVector<mlir::Value> out;
    for (LoopVar &v : vars)
      if (v.type)
        out.push_back(v.init.isRuntime() ? v.init.getValue()
                                         : coerceTo(g, v.init, v.type, l));
    return out;
  }

  /// Rebinds the variables after the loop to its results.
  void bindResults(mlir::ValueRange results) {
    size_t r = 0;
    bindVars(g, vars, [&](LoopVar &v) {
      if (!v.type)
        return v.init;
      g.setLogicalShape(results[r], v.logical);
      return g.runtime(results[r++], v.init.isUnsigned());
    });
  }
};
} // namespace

/// Emits scf.while carrying `vars`: `genCond` evaluates the condition
/// (against the carried values) into its argument, `genBody` the body.
static Error genWhileLoop(Generator &g, const ast::Stmt &s,
                          std::vector<LoopVar> &vars,
                          llvm::function_ref<Error(mlir::Value &)> genCond,
                          llvm::function_ref<Error()> genBody) {
  mlir::Location l = g.loc(s.getLocation());
  LoopBodyGen body{g, s, vars};
  mlir::Value condOut;
  auto cond = [&]() -> Error { return genCond(condOut); };
  auto all = [&]() -> Error {
    if (Error err = genCond(condOut))
      return err;
    return genBody();
  };
  if (Error err = body.inferTypes({}, all, l))
    return err;
  llvm::StringMap<SemaValue> before = g.frame().vars;
  llvm::SmallVector<mlir::Type> types = body.types();
  llvm::SmallVector<mlir::Location> locs(types.size(), l);
  auto whileOp =
      mlir::scf::WhileOp::create(g.builder, l, types, body.initValues(l));
  {
    mlir::OpBuilder::InsertionGuard guard(g.builder);
    mlir::Block *beforeBlock =
        g.builder.createBlock(&whileOp.getBefore(), {}, types, locs);
    Expected<std::vector<SemaValue>> condEnds =
        body.run(beforeBlock->getArguments(), cond);
    if (!condEnds)
      return condEnds.takeError();
    mlir::scf::ConditionOp::create(g.builder, l, condOut,
                                   beforeBlock->getArguments());
    mlir::Block *afterBlock =
        g.builder.createBlock(&whileOp.getAfter(), {}, types, locs);
    Expected<std::vector<SemaValue>> ends =
        body.run(afterBlock->getArguments(), genBody);
    if (!ends)
      return ends.takeError();
    Expected<llvm::SmallVector<mlir::Value>> ys = body.yieldValues(*ends, l);
    if (!ys)
      return ys.takeError();
    mlir::scf::YieldOp::create(g.builder, l, *ys);
  }
  g.frame().vars = std::move(before);
  body.bindResults(whileOp.getResults());
  return Error::success();
}

/// True if `body` breaks or continues its own loop.
static bool hasBreakOrContinue(const ast::StmtList &body) {
  llvm::SetVector<llvm::StringRef> names;
  collectAssignedNames(body, names);
  return names.contains(kBreakFlag) || names.contains(kContinueFlag);
}

namespace {
/// Hides the break/continue flags of an enclosing loop while an inner loop
/// is generated, and restores them afterwards.
struct HiddenFlags {
  Generator &g;
  std::optional<SemaValue> saved[2];
  explicit HiddenFlags(Generator &g) : g(g) {
    llvm::StringLiteral names[2] = {kBreakFlag, kContinueFlag};
    for (int i = 0; i < 2; ++i) {
      auto it = g.frame().vars.find(names[i]);
      if (it != g.frame().vars.end()) {
        saved[i] = it->second;
        g.frame().vars.erase(it);
      }
    }
  }
  ~HiddenFlags() {
    llvm::StringLiteral names[2] = {kBreakFlag, kContinueFlag};
    for (int i = 0; i < 2; ++i) {
      if (saved[i])
        g.frame().vars[names[i]] = *saved[i];
      else
        g.frame().vars.erase(names[i]);
    }
  }
};
} // namespace

/// A loop whose body breaks or continues, as scf.while carrying a "broke"
/// flag (and the induction variable of a range loop): the condition is
/// `not broke and (iv < ub | test)`, statements after a possible
/// break/continue are guarded by scf.if.
static Error genFlaggedLoop(Generator &g, const ast::Stmt &s,
                            const ast::StmtList &bodyStmts,
                            const ast::NameExpr *target, mlir::Value lb,
                            mlir::Value ub, mlir::Value step,
                            const ast::Expr *test) {
  HiddenFlags hidden(g);
  mlir::Location l = g.loc(s.getLocation());
  std::vector<LoopVar> vars =
      getLoopVars(g, bodyStmts, target ? target->getName() : "");
  std::optional<SemaValue> savedTarget;
  if (target)
    if (auto it = g.frame().vars.find(target->getName());
        it != g.frame().vars.end())
      savedTarget = it->second;
  if (target)
    vars.push_back(
        {target->getName().str(), g.runtime(lb), lb.getType(), false, {}});
  vars.push_back({kBreakFlag.str(),
                  SemaValue::getBool(false),
                  g.builder.getI1Type(),
                  false,
                  {}});
  auto genCond = [&](mlir::Value &out) -> Error {
    mlir::Value broke = g.frame().vars[kBreakFlag].getValue();
    mlir::Value go = mlir::arith::XOrIOp::create(
        g.builder, l, broke,
        g.materialize(SemaValue::getBool(true), g.builder.getI1Type(), l));
    mlir::Value more;
    if (target) {
      more = mlir::arith::CmpIOp::create(
          g.builder, l, mlir::arith::CmpIPredicate::slt,
          g.frame().vars[target->getName()].getValue(), ub);
    } else {
      Expected<SemaValue> c = g.genExpr(*test);
      if (!c)
        return c.takeError();
      if (c->isTensor())
        return g.error(*test, "the condition of 'while' must be a scalar");
      Expected<mlir::Value> r = g.toCondition(*c, *test);
      if (!r)
        return r.takeError();
      more = *r;
    }
    out = mlir::arith::AndIOp::create(g.builder, l, go, more);
    return Error::success();
  };
  auto genBody = [&]() -> Error {
    mlir::Value iv;
    if (target)
      iv = g.frame().vars[target->getName()].getValue();
    g.frame().vars[kBreakFlag] = SemaValue::getBool(false);
    g.frame().vars[kContinueFlag] = SemaValue::getBool(false);
    if (Error err = g.genBlock(bodyStmts))
      return err;
    g.frame().vars.erase(kContinueFlag);
    if (target)
      g.frame().vars[target->getName()] =
          g.runtime(mlir::arith::AddIOp::create(g.builder, l, iv, step));
    return Error::success();
  };
  if (Error err = genWhileLoop(g, s, vars, genCond, genBody))
    return err;
  if (target) {
    if (savedTarget)
      g.frame().vars[target->getName()] = *savedTarget;
    else
      g.frame().vars.erase(target->getName());
  }
  return Error::success();
}

Error Generator::genStaticFor(const ast::ForStmt &s,
                              llvm::ArrayRef<SemaValue> items) {
  if (static_cast<int64_t>(items.size()) > kMaxUnroll)
    return error(s.getIter(), "cannot unroll more than " +
                                  llvm::Twine(kMaxUnroll) + " iterations");
  HiddenFlags hidden(*this);
  ++frame().loopDepth;
  for (const SemaValue &item : items) {
    if (Error err = assignTarget(s.getTarget(), item)) {
      --frame().loopDepth;
      return err;
    }
    if (Error err = genBlock(s.getBody())) {
      --frame().loopDepth;
      return err;
    }
  }
  --frame().loopDepth;
  return Error::success();
}

Error Generator::genFor(const ast::ForStmt &s) {
  const ast::Expr &iter = s.getIter();
  if (auto *call = llvm::dyn_cast<ast::CallExpr>(&iter)) {
    Expected<SemaValue> callee = genExpr(call->getCallee());
    if (!callee)
      return callee.takeError();
    if (callee->getKind() == SemaValue::Kind::Builtin &&
        (callee->getName() == "range" || callee->getName() == "static_range")) {
      Expected<CallArgs> args = evalCallArgs(*call, nullptr);
      if (!args)
        return args.takeError();
      if (callee->getName() == "range")
        return genRangeFor(s, *args, *call);
      // static_range: compile-time bounds, unrolled.
      Expected<BoundArgs> b =
          bindArgs("static_range", *args, *call, {"arg1", "arg2", "step"}, 1);
      if (!b)
        return b.takeError();
      int64_t vals[3] = {0, 0, 1};
      for (unsigned i = 0; i < 3; ++i) {
        if (!b->has(i))
          continue;
        if (!b->get(i).isInt())
          return error(b->expr(i), "static_range bounds must be "
                                   "compile-time integers, got " +
                                       b->get(i).describe());
        vals[i] = b->get(i).getInt();
      }
      int64_t lo = b->has(1) ? vals[0] : 0, hi = b->has(1) ? vals[1] : vals[0];
      int64_t step = vals[2];
      if (step == 0)
        return error(b->expr(2), "static_range step must not be zero");
      std::vector<SemaValue> items;
      for (int64_t v = lo; step > 0 ? v < hi : v > hi; v += step) {
        items.push_back(SemaValue::getInt(v));
        if (static_cast<int64_t>(items.size()) > kMaxUnroll)
          break;
      }
      return genStaticFor(s, items);
    }
  }
  Expected<SemaValue> seq = genExpr(iter);
  if (!seq)
    return seq.takeError();
  if (seq->isTuple())
    return genStaticFor(s, seq->getElements());
  return error(iter, "a for loop must iterate over range(...), "
                     "tl.static_range(...) or a constant tuple, not " +
                         seq->describe());
}

Error Generator::genRangeFor(const ast::ForStmt &s, CallArgs &args,
                             const ast::CallExpr &call) {
  Expected<BoundArgs> b =
      bindArgs("range", args, call,
               {"arg1", "arg2", "step", "num_stages", "loop_unroll_factor",
                "disallow_acc_multi_buffer", "flatten", "warp_specialize"},
               1);
  if (!b)
    return b.takeError();
  auto *target = llvm::dyn_cast<ast::NameExpr>(&s.getTarget());
  if (!target)
    return error(s.getTarget(), "the target of a range loop must be a name");
  // Bounds: (stop) or (start, stop[, step]).
  SemaValue bounds[3] = {SemaValue::getInt(0), b->get(0), SemaValue::getInt(1)};
  const ast::Expr *exprs[3] = {&call, &b->expr(0), &call};
  if (b->has(1)) {
    bounds[0] = b->get(0);
    bounds[1] = b->get(1);
    exprs[0] = &b->expr(0);
    exprs[1] = &b->expr(1);
  }
  if (b->has(2)) {
    bounds[2] = b->get(2);
    exprs[2] = &b->expr(2);
  }
  mlir::Type ivType = builder.getI32Type();
  for (int i = 0; i < 3; ++i) {
    const SemaValue &v = bounds[i];
    bool ok =
        (v.isInt() || v.isBool()) || (v.isRuntime() && !v.isTensor() &&
                                      getElementType(v.getType()).isInteger());
    if (!ok)
      return error(*exprs[i],
                   "range bounds must be integer scalars, got " + v.describe());
    mlir::Type t =
        v.isRuntime() ? v.getType() : getIntLiteralType(&context, v.getWideInt());
    if (t.getIntOrFloatBitWidth() > 32)
      ivType = t;
  }
  if (bounds[2].isInt() && bounds[2].getInt() <= 0)
    return error(*exprs[2], "range step must be positive (got " +
                                llvm::Twine(bounds[2].getInt()) + ")");
  mlir::Location l = loc(s.getLocation());
  mlir::Value bv[3];
  for (int i = 0; i < 3; ++i) {
    Expected<mlir::Value> v = toRuntimeAs(bounds[i], ivType, *exprs[i]);
    if (!v)
      return v.takeError();
    bv[i] = *v;
  }

  if (hasBreakOrContinue(s.getBody()))
    return genFlaggedLoop(*this, s, s.getBody(), target, bv[0], bv[1], bv[2],
                          nullptr);
  HiddenFlags hidden(*this);
  std::optional<SemaValue> savedTarget;
  if (auto it = frame().vars.find(target->getName()); it != frame().vars.end())
    savedTarget = it->second;
  std::vector<LoopVar> vars =
      getLoopVars(*this, s.getBody(), target->getName());
  LoopBodyGen body{*this, s, vars};
  // While inferring, the induction variable is a scratch block argument.
  mlir::Value iv;
  auto gen = [&]() -> Error {
    frame().vars[target->getName()] = runtime(iv);
    return genBlock(s.getBody());
  };
  {
    llvm::SmallVector<mlir::Type> lead = {ivType};
    // The scratch block's first argument is the induction variable; bind it
    // through `iv` by peeking at the block in `gen`.
    auto genScratch = [&]() -> Error {
      iv = builder.getInsertionBlock()->getArgument(0);
      return gen();
    };
    if (Error err = body.inferTypes(lead, genScratch, l))
      return err;
  }
  llvm::StringMap<SemaValue> before = frame().vars;
  auto forOp = mlir::scf::ForOp::create(builder, l, bv[0], bv[1], bv[2],
                                        body.initValues(l));
  mlir::Block *block = forOp.getBody();
  while (!block->empty())
    block->back().erase();
  {
    mlir::OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToEnd(block);
    iv = forOp.getInductionVar();
    Expected<std::vector<SemaValue>> ends =
        body.run(forOp.getRegionIterArgs(), gen);
    if (!ends)
      return ends.takeError();
    Expected<llvm::SmallVector<mlir::Value>> ys = body.yieldValues(*ends, l);
    if (!ys)
      return ys.takeError();
    mlir::scf::YieldOp::create(builder, l, *ys);
  }
  frame().vars = std::move(before);
  body.bindResults(forOp.getResults());
  if (savedTarget)
    frame().vars[target->getName()] = *savedTarget;
  else
    frame().vars.erase(target->getName());
  return Error::success();
}

Error Generator::genWhile(const ast::WhileStmt &s) {
  {
    // A condition that is a constant false skips the loop. The probe is
    // generated into a scratch block and dropped: a runtime condition may
    // have side effects (`while tl.atomic_cas(lock, 0, 1) == 1`).
    llvm::StringMap<SemaValue> saved = frame().vars;
    auto scratch = std::make_unique<mlir::Block>();
    Expected<SemaValue> c = [&] {
      mlir::OpBuilder::InsertionGuard guard(builder);
      builder.setInsertionPointToStart(scratch.get());
      return genExpr(s.getTest());
    }();
    frame().vars = std::move(saved);
    forgetValues(*scratch);
    scratch->dropAllDefinedValueUses();
    scratch->dropAllReferences();
    if (!c)
      return c.takeError();
    if (c->isConstexpr() && !c->isTruthy())
      return Error::success();
  }
  if (hasBreakOrContinue(s.getBody()))
    return genFlaggedLoop(*this, s, s.getBody(), nullptr, {}, {}, {},
                          &s.getTest());
  HiddenFlags hidden(*this);
  std::vector<LoopVar> vars = getLoopVars(*this, s.getBody(), "");
  auto genCond = [&](mlir::Value &out) -> Error {
    Expected<SemaValue> c = genExpr(s.getTest());
    if (!c)
      return c.takeError();
    if (c->isTensor())
      return error(s.getTest(), "the condition of 'while' must be a scalar");
    Expected<mlir::Value> r = toCondition(*c, s.getTest());
    if (!r)
      return r.takeError();
    out = *r;
    return Error::success();
  };
  return genWhileLoop(*this, s, vars, genCond,
                      [&]() -> Error { return genBlock(s.getBody()); });
}
