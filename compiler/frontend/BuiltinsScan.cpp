//===- BuiltinsScan.cpp - scans and reductions with combine functions -----===//
//
// This file implements `tl.cumsum`, `tl.cumprod`, `tl.associative_scan`
// (mgp.scan) and `tl.reduce`, `tl.xor_sum`, `tl.reduce_or` (mgp.reduce) with
// a combine function: the combiner region takes the running and the new
// scalars of every operand, and a `@jit` combine_fn is inlined into it like
// any helper. A padded block (MLIRGenPadding.cpp) pads after its logical
// elements, which a forward scan never reads; a reverse scan or a reduction
// fills the padding with the combine's neutral element where one is known
// (sum, product, xor, or) and is an error for an arbitrary combine_fn.
//
//===----------------------------------------------------------------------===//
#include "compiler/frontend/MLIRGenImpl.h"

#include "compiler/frontend/SemaTypes.h"
#include "compiler/ir/MgpDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mgp;
using namespace mgp::detail;
using llvm::Error;
using llvm::Expected;

namespace {
/// What combines two elements.
enum class Combine { Add, Mul, Xor, Or, Function };

/// The neutral element of `kind` (none for a function).
std::optional<SemaValue> getNeutral(Combine kind) {
  switch (kind) {
  case Combine::Add:
  case Combine::Xor:
  case Combine::Or:
    return SemaValue::getInt(0);
  case Combine::Mul:
    return SemaValue::getInt(1);
  case Combine::Function:
    return std::nullopt;
  }
  return std::nullopt;
}
} // namespace

/// Replaces each scf.if of \p block (innermost first) whose sides have no
/// memory effects and no loops by both sides computed in front of it and an
/// arith.select per result: a combiner region is one block of straight-line
/// code on the GPU (it is cloned between shuffles) and in the interpreter
/// (it runs over whole vectors), and a combine function has nothing to
/// guard. False when an if or a loop is left (side effects or a loop).
static bool flattenIfs(mlir::OpBuilder &builder, mlir::Block &block) {
  llvm::SmallVector<mlir::scf::IfOp> ifs;
  block.walk<mlir::WalkOrder::PostOrder>(
      [&](mlir::scf::IfOp ifOp) { ifs.push_back(ifOp); });
  for (mlir::scf::IfOp ifOp : ifs) {
    auto straight = [](mlir::Region &region) {
      for (mlir::Operation &op : region.getOps())
        if (!op.hasTrait<mlir::OpTrait::IsTerminator>() &&
            (op.getNumRegions() != 0 || !mlir::isMemoryEffectFree(&op)))
          return false;
      return true;
    };
    if (!straight(ifOp.getThenRegion()) || !straight(ifOp.getElseRegion()))
      continue;
    llvm::SmallVector<mlir::Value> thenValues, elseValues;
    for (mlir::Region *region :
         {&ifOp.getThenRegion(), &ifOp.getElseRegion()}) {
      if (region->empty())
        continue;
      mlir::Block &side = region->front();
      auto yield = llvm::cast<mlir::scf::YieldOp>(side.getTerminator());
      auto &values = region == &ifOp.getThenRegion() ? thenValues : elseValues;
      values.assign(yield.getOperands().begin(), yield.getOperands().end());
      for (mlir::Operation &op :
           llvm::make_early_inc_range(side.without_terminator()))
        op.moveBefore(ifOp);
    }
    builder.setInsertionPoint(ifOp);
    llvm::SmallVector<mlir::Value> selected;
    for (size_t i = 0; i < ifOp.getNumResults(); ++i)
      selected.push_back(mlir::arith::SelectOp::create(
          builder, ifOp.getLoc(), ifOp.getCondition(), thenValues[i],
          elseValues[i]));
    ifOp.replaceAllUsesWith(selected);
    ifOp.erase();
  }
  for (mlir::Operation &op : block)
    if (op.getNumRegions() != 0)
      return false;
  return true;
}

/// Fills `block` (the combiner region's block, arguments created) with the
/// combination of its arguments and the region's terminator `makeReturn`; a
/// combine function sees operand k as unsigned when `unsignedOperands[k]`.
static Error
fillCombiner(Generator &g, mlir::Block *block, Combine kind,
             const SemaValue *fn, llvm::ArrayRef<bool> unsignedOperands,
             const ast::CallExpr &call,
             llvm::function_ref<void(mlir::ValueRange)> makeReturn) {
  size_t numOperands = unsignedOperands.size();
  mlir::OpBuilder::InsertionGuard guard(g.builder);
  g.builder.setInsertionPointToEnd(block);
  mlir::Location l = g.loc(call);
  namespace arith = mlir::arith;
  if (kind != Combine::Function) {
    mlir::Value a = block->getArgument(0), b = block->getArgument(1), r;
    bool isInt = a.getType().isInteger();
    switch (kind) {
    case Combine::Add:
      r = isInt ? arith::AddIOp::create(g.builder, l, a, b).getResult()
                : arith::AddFOp::create(g.builder, l, a, b).getResult();
      break;
    case Combine::Mul:
      r = isInt ? arith::MulIOp::create(g.builder, l, a, b).getResult()
                : arith::MulFOp::create(g.builder, l, a, b).getResult();
      break;
    case Combine::Xor:
      r = arith::XOrIOp::create(g.builder, l, a, b);
      break;
    default:
      r = arith::OrIOp::create(g.builder, l, a, b);
      break;
    }
    makeReturn(r);
    return Error::success();
  }
  CallArgs args;
  for (mlir::BlockArgument arg : block->getArguments()) {
    args.args.push_back(SemaValue::getRuntime(arg).withUnsigned(
        unsignedOperands[arg.getArgNumber() % numOperands]));
    args.argExprs.push_back(&call);
  }
  Expected<SemaValue> result = g.callFunction(*fn->getFunction(), args, call);
  if (!result)
    return result.takeError();
  std::vector<SemaValue> parts = result->isTuple()
                                     ? result->getElements()
                                     : std::vector<SemaValue>{*result};
  if (parts.size() != numOperands)
    return g.error(call, "the combine function returns " +
                             llvm::Twine(parts.size()) + " values for " +
                             llvm::Twine(numOperands) + " operands");
  llvm::SmallVector<mlir::Value> values;
  for (size_t k = 0; k < numOperands; ++k) {
    mlir::Type want = block->getArgument(k).getType();
    mlir::Value v = coerceTo(g, parts[k], want, l);
    if (!v && parts[k].isRuntime() && !parts[k].isTensor() &&
        getElementType(parts[k].getType()).isIntOrFloat() &&
        want.isIntOrFloat())
      v = g.castTo(parts[k].getValue(), want, l);
    if (!v)
      return g.error(call, "the combine function must return scalars of the "
                           "operands' types (" +
                               getTypeName(want) + "), got " +
                               parts[k].describe());
    values.push_back(v);
  }
  makeReturn(values);
  if (!flattenIfs(g.builder, *block))
    return g.error(call, "the combine function must be straight-line code "
                         "and ifs without side effects (a loop or a "
                         "store, atomic or print in it is not supported)");
  return Error::success();
}

Expected<SemaValue> Generator::genScanBuiltin(llvm::StringRef name,
                                              CallArgs &args,
                                              const ast::CallExpr &call) {
  if (name == "map_elementwise")
    return genMapElementwise(args, call);
  bool isScan =
      name == "cumsum" || name == "cumprod" || name == "associative_scan";
  Combine kind = Combine::Function;
  llvm::SmallVector<llvm::StringRef> params;
  unsigned numRequired = 1;
  unsigned fnIdx = 0, reverseIdx = 0, keepIdx = 0, dtypeIdx = 0;
  if (name == "cumsum" || name == "cumprod") {
    kind = name == "cumsum" ? Combine::Add : Combine::Mul;
    params = {"input", "axis", "reverse", "dtype"};
    reverseIdx = 2;
    dtypeIdx = name == "cumsum" ? 3 : 0;
  } else if (name == "associative_scan") {
    params = {"input", "axis", "combine_fn", "reverse"};
    numRequired = 3;
    fnIdx = 2;
    reverseIdx = 3;
  } else if (name == "reduce") {
    params = {"input", "axis", "combine_fn", "keep_dims"};
    numRequired = 3;
    fnIdx = 2;
    keepIdx = 3;
  } else {
    kind = name == "xor_sum" ? Combine::Xor : Combine::Or;
    params = {"input", "axis", "keep_dims"};
    keepIdx = 2;
  }
  Expected<BoundArgs> b = bindArgs(name, args, call, params, numRequired);
  if (!b)
    return b.takeError();
  mlir::Location l = loc(call);
  const SemaValue *fn = nullptr;
  if (fnIdx) {
    fn = &b->get(fnIdx);
    if (fn->getKind() != SemaValue::Kind::Function)
      return error(b->expr(fnIdx),
                   "combine_fn must be a @jit function, got " + fn->describe());
  }
  // The operands: one block or a tuple of blocks of one shape.
  std::vector<SemaValue> inputs = b->get(0).isTuple()
                                      ? b->get(0).getElements()
                                      : std::vector<SemaValue>{b->get(0)};
  if (inputs.empty() || (kind != Combine::Function && inputs.size() != 1))
    return error(
        b->expr(0),
        "'" + name + "' needs a block" +
            (kind == Combine::Function ? " or a tuple of blocks" : "") +
            ", got " + b->get(0).describe());
  llvm::SmallVector<mlir::Value> srcs;
  for (const SemaValue &in : inputs) {
    if (!in.isTensor() || !getElementType(in.getType()).isIntOrFloat())
      return error(b->expr(0), "'" + name + "' needs blocks of numbers, got " +
                                   in.describe());
    if (!srcs.empty() && getShapeOf(in.getLogicalType()) !=
                             getShapeOf(inputs[0].getLogicalType()))
      return error(b->expr(0),
                   "the blocks of '" + name + "' must have one shape");
    srcs.push_back(in.getValue());
  }
  llvm::SmallVector<int64_t> logical = getLogicalShape(srcs[0]);
  int64_t rank = logical.size();
  int32_t axis = 0;
  if (b->has(1)) {
    Expected<int64_t> a = getConstInt(*b, 1, "the axis");
    if (!a)
      return a.takeError();
    if (*a < -rank || *a >= rank)
      return error(b->expr(1), "axis " + llvm::Twine(*a) +
                                   " is out of range for a block of rank " +
                                   llvm::Twine(rank));
    axis = *a < 0 ? *a + rank : *a;
  } else if (rank != 1) {
    return error(call, "'" + name + "' of a block of rank " +
                           llvm::Twine(rank) + " needs an axis");
  }
  bool reverse =
      reverseIdx && b->has(reverseIdx) && b->get(reverseIdx).isTruthy();
  // Element types, as Triton's standard.py: cumsum and cumprod compute bf16
  // in fp32; cumsum accumulates narrow integers in int32 (uint32 for
  // unsigned ones: the sum rule) or in `dtype`; xor/or need integers.
  llvm::SmallVector<bool> unsignedSrcs;
  for (auto [i, src] : llvm::enumerate(srcs)) {
    if (isFp8E4B15(getElementType(src.getType()))) // scans it in fp16
      src = castTo(src, builder.getF16Type(), l);
    mlir::Type elt = getElementType(src.getType());
    bool u = inputs[i].isUnsigned() && elt.isInteger();
    if ((kind == Combine::Xor || kind == Combine::Or) && !elt.isInteger())
      return error(b->expr(0),
                   "'" + name + "' needs integers, got " + getTypeName(elt));
    bool arithmetic = kind == Combine::Add || kind == Combine::Mul;
    if (isScan && arithmetic && elt.isBF16()) {
      src = castTo(src, builder.getF32Type(), l);
      elt = builder.getF32Type();
    }
    if (dtypeIdx && b->has(dtypeIdx)) {
      Expected<mlir::Type> d = getDTypeArg(*b, dtypeIdx);
      if (!d)
        return d.takeError();
      bool du = b->get(dtypeIdx).isUnsigned();
      src = castTo(src, withSignedness(*d, du), l, u);
      u = du && d->isInteger();
    } else if (kind == Combine::Add && elt.isInteger() &&
               elt.getIntOrFloatBitWidth() < 32) {
      src = castTo(src, builder.getI32Type(), l, u);
      u = u || elt.isInteger(1); // bool sums as uint32, as in Triton
    }
    unsignedSrcs.push_back(u);
  }
  // Padding along the axis: harmless for a forward scan; otherwise filled
  // with the neutral element.
  if (getShapeOf(srcs[0].getType())[axis] != logical[axis] &&
      (!isScan || reverse)) {
    std::optional<SemaValue> neutral = getNeutral(kind);
    if (!neutral)
      return error(call, "'" + name + "' with a combine_fn" +
                             (isScan ? " in reverse" : "") +
                             " needs an axis whose length is a power of two, "
                             "got " +
                             describeShape(logical));
    for (mlir::Value &src : srcs)
      src = fillPadding(src, *neutral, l);
  }
  llvm::SmallVector<mlir::Type> argTypes;
  for (int k = 0; k < 2; ++k)
    for (mlir::Value s : srcs)
      argTypes.push_back(getElementType(s.getType()));
  llvm::SmallVector<mlir::Location> locs(argTypes.size(), l);
  std::vector<SemaValue> results;
  if (isScan) {
    llvm::SmallVector<mlir::Type> types;
    for (mlir::Value s : srcs)
      types.push_back(s.getType());
    auto op = ScanOp::create(builder, l, types, srcs, axis, reverse);
    mlir::Block *block;
    {
      mlir::OpBuilder::InsertionGuard guard(builder);
      block = builder.createBlock(&op.getCombineOp(), {}, argTypes, locs);
    }
    if (Error err = fillCombiner(
            *this, block, kind, fn, unsignedSrcs, call,
            [&](mlir::ValueRange v) { ScanReturnOp::create(builder, l, v); }))
      return std::move(err);
    for (auto [i, r] : llvm::enumerate(op.getResults()))
      results.push_back(
          runtime(setLogicalShape(r, logical), unsignedSrcs[i]));
  } else {
    auto op = ReduceOp::create(builder, l, srcs, axis);
    mlir::Block *block;
    {
      mlir::OpBuilder::InsertionGuard guard(builder);
      block = op.getCombineOp().empty()
                  ? builder.createBlock(&op.getCombineOp(), {}, argTypes, locs)
                  : &op.getCombineOp().front();
    }
    if (Error err = fillCombiner(
            *this, block, kind, fn, unsignedSrcs, call,
            [&](mlir::ValueRange v) { ReduceReturnOp::create(builder, l, v); }))
      return std::move(err);
    bool keepDims = keepIdx && b->has(keepIdx) && b->get(keepIdx).isTruthy();
    for (mlir::Value r : op.getResults()) {
      if (keepDims)
        r = getShapeOf(r.getType()).empty()
                ? SplatOp::create(builder, l,
                                  mlir::RankedTensorType::get({1}, r.getType()),
                                  r)
                      .getResult()
                : ExpandDimsOp::create(builder, l, r, axis).getResult();
      results.push_back(runtime(r, unsignedSrcs[results.size()]));
    }
  }
  if (results.size() == 1 && !b->get(0).isTuple())
    return results[0];
  return SemaValue::getTuple(std::move(results));
}
