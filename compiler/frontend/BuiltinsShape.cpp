//===- BuiltinsShape.cpp - shape builtins and reductions ------------------===//
//
// This file implements the builtins that change a block's shape
// (`broadcast_to`, `reshape`/`view`, `trans`/`permute`, `expand_dims`) and
// the reductions `sum`, `max`, `min`, `argmax`, `argmin` (mgp.reduce with a
// combiner region; `axis=None` reduces the flattened block, `keep_dims`
// keeps the reduced axis with size 1; argmax/argmin reduce values and
// indices together, ties going to the lower index). The padding of a padded
// block (MLIRGenPadding.cpp) is replaced by the combiner's neutral element.
//
//===----------------------------------------------------------------------===//
#include "compiler/frontend/MLIRGenImpl.h"

#include "compiler/frontend/SemaTypes.h"
#include "compiler/ir/MgpDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

#include <limits>
#include <numeric>

using namespace mgp;
using namespace mgp::detail;
using llvm::Error;
using llvm::Expected;

/// The shape given as `f(x, (a, b))` or `f(x, a, b)`, starting at argument 1.
static Expected<llvm::SmallVector<int64_t>>
getVarShape(Generator &g, CallArgs &args, const ast::CallExpr &call,
            llvm::StringRef name) {
  if (args.args.size() < 2)
    return g.error(call, "'" + name + "' needs a shape");
  std::vector<SemaValue> dims;
  if (args.args.size() == 2 && args.args[1].isTuple())
    dims = args.args[1].getElements();
  else
    dims.assign(args.args.begin() + 1, args.args.end());
  llvm::SmallVector<int64_t> shape;
  for (const SemaValue &d : dims) {
    if (!d.isInt() || d.getInt() <= 0)
      return g.error(*args.argExprs[1],
                     "'" + name +
                         "' needs positive compile-time dimensions, got " +
                         d.describe());
    shape.push_back(d.getInt());
  }
  return shape;
}

static Expected<mlir::Value> getBlockArg(Generator &g, CallArgs &args,
                                         const ast::CallExpr &call,
                                         llvm::StringRef name) {
  if (args.args.empty())
    return g.error(call, "'" + name + "' needs a block argument");
  if (!args.args[0].isTensor())
    return g.error(*args.argExprs[0], "'" + name + "' needs a block, got " +
                                          args.args[0].describe());
  return args.args[0].getValue();
}

static Error checkKeywords(Generator &g, CallArgs &args, llvm::StringRef name,
                           llvm::ArrayRef<llvm::StringRef> allowed) {
  for (const ast::Keyword *kw : args.keywords)
    if (!llvm::is_contained(allowed, kw->name))
      return g.error(kw->location.getLoc(),
                     "unknown keyword argument '" + kw->name + "' for '" +
                         name + "'",
                     kw->location.getRange());
  return Error::success();
}

Expected<SemaValue> Generator::genShapeBuiltin(llvm::StringRef name,
                                               CallArgs &args,
                                               const ast::CallExpr &call) {
  mlir::Location l = loc(call);
  if (name == "expand_dims") {
    Expected<BoundArgs> b = bindArgs(name, args, call, {"input", "axis"}, 2);
    if (!b)
      return b.takeError();
    Expected<mlir::Value> in = toRuntime(b->get(0), b->expr(0));
    if (!in)
      return in.takeError();
    mlir::Value v = *in;
    std::vector<SemaValue> axes = b->get(1).isTuple()
                                      ? b->get(1).getElements()
                                      : std::vector<SemaValue>{b->get(1)};
    int64_t newRank = getShapeOf(v.getType()).size() + axes.size();
    llvm::SmallVector<int64_t> norm;
    for (const SemaValue &a : axes) {
      if (!a.isInt() || a.getInt() < -newRank || a.getInt() >= newRank)
        return error(b->expr(1),
                     "expand_dims axis out of range: " + a.describe());
      norm.push_back(a.getInt() < 0 ? a.getInt() + newRank : a.getInt());
    }
    llvm::sort(norm);
    if (getShapeOf(v.getType()).empty())
      v = SplatOp::create(builder, l,
                          mlir::RankedTensorType::get({1}, v.getType()), v);
    else
      v = ExpandDimsOp::create(builder, l, v, norm[0]);
    for (size_t i = 1; i < norm.size(); ++i)
      v = ExpandDimsOp::create(builder, l, v, norm[i]);
    return runtime(v);
  }
  Expected<mlir::Value> in = getBlockArg(*this, args, call, name);
  if (!in)
    return in.takeError();
  mlir::Value v = *in;
  auto type = llvm::cast<mlir::RankedTensorType>(v.getType());
  // The logical shape: the MLIR one is padded (MLIRGenPadding.cpp).
  llvm::SmallVector<int64_t> from = getLogicalShape(v);
  if (name == "broadcast_to") {
    if (Error err = checkKeywords(*this, args, name, {}))
      return std::move(err);
    Expected<llvm::SmallVector<int64_t>> shape =
        getVarShape(*this, args, call, name);
    if (!shape)
      return shape.takeError();
    Expected<mlir::Value> r = broadcastTo(v, *shape, site(call));
    if (!r)
      return r.takeError();
    return runtime(*r);
  }
  if (name == "reshape" || name == "view") {
    if (Error err = checkKeywords(*this, args, name, {"can_reorder"}))
      return std::move(err);
    Expected<llvm::SmallVector<int64_t>> shape =
        getVarShape(*this, args, call, name);
    if (!shape)
      return shape.takeError();
    auto numel = [](llvm::ArrayRef<int64_t> s) {
      return std::accumulate(s.begin(), s.end(), int64_t(1),
                             std::multiplies<int64_t>());
    };
    if (numel(*shape) != numel(from))
      return error(call, "cannot reshape a block of shape " +
                             describeShape(from) + " to " +
                             describeShape(*shape) +
                             " (different element counts)");
    // Padding keeps the row-major order only when no dimension after the
    // first non-unit one is padded.
    auto keepsOrder = [](llvm::ArrayRef<int64_t> s) {
      const int64_t *first = llvm::find_if(s, [](int64_t d) { return d != 1; });
      return first == s.end() ||
             llvm::all_of(llvm::make_range(first + 1, s.end()),
                          [](int64_t d) { return isPowerOf2(d); });
    };
    if ((padShape(from) != from || padShape(*shape) != *shape) &&
        (!keepsOrder(from) || !keepsOrder(*shape)))
      return error(call, "cannot reshape a block of shape " +
                             describeShape(from) + " to " +
                             describeShape(*shape) +
                             ": with dimensions that are not powers of two, "
                             "only the leading one (of size > 1) may be one");
    return runtime(setLogicalShape(
        ReshapeOp::create(builder, l,
                          mlir::RankedTensorType::get(padShape(*shape),
                                                      type.getElementType()),
                          v),
        *shape));
  }
  // trans / permute.
  if (Error err = checkKeywords(*this, args, name, {}))
    return std::move(err);
  llvm::SmallVector<int32_t> order;
  if (args.args.size() == 1) {
    if (from.size() != 2)
      return error(call, "'" + name + "' without dims needs a 2-D block, got " +
                             describeShape(from));
    order = {1, 0};
  } else {
    std::vector<SemaValue> dims =
        args.args.size() == 2 && args.args[1].isTuple()
            ? args.args[1].getElements()
            : std::vector<SemaValue>(args.args.begin() + 1, args.args.end());
    llvm::SmallVector<bool> seen(from.size(), false);
    for (const SemaValue &d : dims) {
      if (!d.isInt() || d.getInt() < 0 ||
          d.getInt() >= static_cast<int64_t>(from.size()) || seen[d.getInt()])
        return error(*args.argExprs[1],
                     "'" + name + "' needs a permutation of the " +
                         llvm::Twine(from.size()) + " dimensions");
      seen[d.getInt()] = true;
      order.push_back(d.getInt());
    }
    if (order.size() != from.size())
      return error(*args.argExprs[1], "'" + name +
                                          "' needs a permutation of "
                                          "the " +
                                          llvm::Twine(from.size()) +
                                          " dimensions");
  }
  llvm::SmallVector<int64_t> shape;
  for (int32_t o : order)
    shape.push_back(type.getShape()[o]);
  return runtime(TransOp::create(
      builder, l, mlir::RankedTensorType::get(shape, type.getElementType()), v,
      builder.getDenseI32ArrayAttr(order)));
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

/// The i32 indices along `axis`, broadcast to `shape`.
static mlir::Value makeIndices(Generator &g, llvm::ArrayRef<int64_t> shape,
                               int32_t axis, mlir::Location l) {
  mlir::Value idx =
      MakeRangeOp::create(g.builder, l, 0, static_cast<int32_t>(shape[axis]));
  for (int32_t d = 0; d < axis; ++d)
    idx = ExpandDimsOp::create(g.builder, l, idx, 0);
  while (getShapeOf(idx.getType()).size() < shape.size())
    idx = ExpandDimsOp::create(g.builder, l, idx,
                               getShapeOf(idx.getType()).size());
  if (getShapeOf(idx.getType()) != shape)
    idx = BroadcastOp::create(
        g.builder, l,
        mlir::RankedTensorType::get(shape, g.builder.getI32Type()), idx);
  return idx;
}

Expected<SemaValue> Generator::genReduceBuiltin(llvm::StringRef name,
                                                CallArgs &args,
                                                const ast::CallExpr &call) {
  bool isArg = name == "argmax" || name == "argmin";
  bool isMax = name == "max" || name == "argmax";
  llvm::SmallVector<llvm::StringRef> params = {"input", "axis"};
  unsigned keepIdx;
  if (name == "sum") {
    params.append({"keep_dims", "dtype"});
    keepIdx = 2;
  } else if (isArg) {
    params.append({"tie_break_left", "keep_dims"});
    keepIdx = 3;
  } else {
    params.append(
        {"return_indices", "return_indices_tie_break_left", "keep_dims"});
    keepIdx = 4;
  }
  Expected<BoundArgs> b = bindArgs(name, args, call, params, isArg ? 2 : 1);
  if (!b)
    return b.takeError();
  mlir::Location l = loc(call);
  const SemaValue &in = b->get(0);
  if (!in.isTensor() || !getElementType(in.getType()).isIntOrFloat())
    return error(b->expr(0), "'" + name + "' needs a block of numbers, got " +
                                 in.describe());
  mlir::Value src = in.getValue();
  llvm::SmallVector<int64_t> shape(getShapeOf(src.getType())); // padded
  int64_t rank = shape.size();
  int32_t axis = 0;
  bool flattened = !b->has(1);
  if (!flattened) {
    Expected<int64_t> a = getConstInt(*b, 1, "the axis");
    if (!a)
      return a.takeError();
    if (*a < -rank || *a >= rank)
      return error(b->expr(1), "axis " + llvm::Twine(*a) +
                                   " is out of range for a block of rank " +
                                   llvm::Twine(rank));
    axis = *a < 0 ? *a + rank : *a;
  }
  bool withIndices =
      isArg || (!isArg && name != "sum" && b->has(2) && b->get(2).isTruthy());
  // float8e4b15 is bytes to the passes after the front end: max and min
  // reduce it in fp32, as Triton's standard.py reduces every type narrower
  // than 32 bits, the others in fp16 (exact).
  if (isFp8E4B15(getElementType(src.getType())))
    src = castTo(src,
                 name != "sum" && !withIndices ? builder.getF32Type()
                                               : builder.getF16Type(),
                 l);
  // Triton's standard.py: max and min (argmax and argmin through them)
  // compare bf16 in fp32, and without indices reduce every type narrower
  // than 32 bits in fp32 or int32 (signed; unsigned and bool values widen
  // with zeros): tl.max of fp16 is fp32, of uint8 int32.
  bool widenedToInt32 = false;
  if (name != "sum") {
    mlir::Type t = getElementType(src.getType());
    if (t.isBF16()) {
      src = castTo(src, builder.getF32Type(), l);
    } else if (!withIndices && t.getIntOrFloatBitWidth() < 32) {
      widenedToInt32 = t.isInteger();
      src = castTo(src,
                   t.isInteger() ? mlir::Type(builder.getI32Type())
                                 : mlir::Type(builder.getF32Type()),
                   l, in.isUnsigned());
    }
  }
  mlir::Type elt = getElementType(src.getType());
  // Unsigned integers compare (and widen) as unsigned.
  bool u = in.isUnsigned() && elt.isInteger() && !elt.isInteger(1) &&
           !widenedToInt32;
  if (name == "sum") {
    mlir::Type acc = elt;
    bool accUnsigned = u;
    if (b->has(3)) {
      Expected<mlir::Type> d = getDTypeArg(*b, 3);
      if (!d)
        return d.takeError();
      acc = *d;
      accUnsigned = b->get(3).isUnsigned();
    } else if (elt.isInteger() && elt.getIntOrFloatBitWidth() < 32) {
      // uint8 and uint16 sum as uint32; so does bool, which Triton counts
      // among the unsigned types (core.py's UINT_TYPES).
      acc = builder.getI32Type();
      accUnsigned = u || elt.isInteger(1);
    }
    src = castTo(src, withSignedness(acc, accUnsigned), l, u);
    elt = acc;
    u = accUnsigned && elt.isInteger();
  }
  // The padding of a padded block (MLIRGenPadding.cpp) becomes the
  // combiner's neutral element; a flattened argmax/argmin numbers the
  // elements by their logical row-major position.
  mlir::Value indices;
  if (isPadded(src)) {
    llvm::SmallVector<int64_t> logical = getLogicalShape(src);
    if (withIndices && flattened && rank > 1) {
      int64_t stride = 1;
      for (int64_t k = rank - 1; k >= 0; --k) {
        mlir::Value ik = makeIndices(*this, shape, k, l);
        if (stride != 1)
          ik = mlir::arith::MulIOp::create(
              builder, l, ik,
              materializeSplat(SemaValue::getInt(stride), builder.getI32Type(),
                               shape, l));
        indices = indices ? mlir::arith::AddIOp::create(builder, l, indices, ik)
                                .getResult()
                          : ik;
        stride *= logical[k];
      }
    }
    SemaValue neutral = SemaValue::getInt(0);
    if (name != "sum" && llvm::isa<mlir::FloatType>(elt))
      neutral =
          SemaValue::getFloat(isMax ? -std::numeric_limits<double>::infinity()
                                    : std::numeric_limits<double>::infinity());
    else if (name != "sum" && u)
      neutral = SemaValue::getInt(isMax ? 0 : -1); // all ones: the largest
    else if (name != "sum")
      neutral = SemaValue::getInt(
          isMax ? llvm::APInt::getSignedMinValue(elt.getIntOrFloatBitWidth())
                      .getSExtValue()
                : llvm::APInt::getSignedMaxValue(elt.getIntOrFloatBitWidth())
                      .getSExtValue());
    src = fillPadding(src, neutral, l);
  }
  if (flattened && rank > 1) {
    int64_t n = 1;
    for (int64_t d : shape)
      n *= d;
    auto flat = [&](mlir::Value v) -> mlir::Value {
      return ReshapeOp::create(
          builder, l,
          mlir::RankedTensorType::get({n}, getElementType(v.getType())), v);
    };
    src = flat(src);
    if (indices)
      indices = flat(indices);
  }
  llvm::SmallVector<mlir::Value> srcs = {src};
  if (withIndices)
    srcs.push_back(
        indices ? indices
                : makeIndices(*this, getShapeOf(src.getType()), axis, l));
  auto op = ReduceOp::create(builder, l, srcs, axis);
  {
    mlir::OpBuilder::InsertionGuard guard(builder);
    llvm::SmallVector<mlir::Type> argTypes;
    for (int k = 0; k < 2; ++k)
      for (mlir::Value s : srcs)
        argTypes.push_back(getElementType(s.getType()));
    llvm::SmallVector<mlir::Location> locs(argTypes.size(), l);
    // The op's builder may already have made the combiner block.
    mlir::Block *blk =
        op.getCombineOp().empty()
            ? builder.createBlock(&op.getCombineOp(), {}, argTypes, locs)
            : &op.getCombineOp().front();
    builder.setInsertionPointToEnd(blk);
    namespace arith = mlir::arith;
    bool isInt = elt.isInteger();
    if (!withIndices) {
      mlir::Value a = blk->getArgument(0), c = blk->getArgument(1), r;
      if (name == "sum")
        r = isInt ? arith::AddIOp::create(builder, l, a, c).getResult()
                  : arith::AddFOp::create(builder, l, a, c).getResult();
      else if (isInt && u)
        r = isMax ? arith::MaxUIOp::create(builder, l, a, c).getResult()
                  : arith::MinUIOp::create(builder, l, a, c).getResult();
      else if (isInt)
        r = isMax ? arith::MaxSIOp::create(builder, l, a, c).getResult()
                  : arith::MinSIOp::create(builder, l, a, c).getResult();
      else
        r = isMax ? arith::MaxNumFOp::create(builder, l, a, c).getResult()
                  : arith::MinNumFOp::create(builder, l, a, c).getResult();
      ReduceReturnOp::create(builder, l, mlir::ValueRange{r});
    } else {
      mlir::Value v1 = blk->getArgument(0), i1 = blk->getArgument(1);
      mlir::Value v2 = blk->getArgument(2), i2 = blk->getArgument(3);
      mlir::Value better, eq;
      if (isInt) {
        using P = arith::CmpIPredicate;
        better = arith::CmpIOp::create(
            builder, l, isMax ? (u ? P::ugt : P::sgt) : (u ? P::ult : P::slt),
            v1, v2);
        eq =
            arith::CmpIOp::create(builder, l, arith::CmpIPredicate::eq, v1, v2);
      } else {
        better = arith::CmpFOp::create(builder, l,
                                       isMax ? arith::CmpFPredicate::OGT
                                             : arith::CmpFPredicate::OLT,
                                       v1, v2);
        eq = arith::CmpFOp::create(builder, l, arith::CmpFPredicate::OEQ, v1,
                                   v2);
      }
      mlir::Value lower =
          arith::CmpIOp::create(builder, l, arith::CmpIPredicate::slt, i1, i2);
      mlir::Value tie = arith::AndIOp::create(builder, l, eq, lower);
      mlir::Value pick = arith::OrIOp::create(builder, l, better, tie);
      mlir::Value v = arith::SelectOp::create(builder, l, pick, v1, v2);
      mlir::Value i = arith::SelectOp::create(builder, l, pick, i1, i2);
      ReduceReturnOp::create(builder, l, mlir::ValueRange{v, i});
    }
  }
  bool keepDims = b->has(keepIdx) && b->get(keepIdx).isTruthy();
  std::vector<SemaValue> results;
  for (mlir::Value r : op.getResults()) {
    bool unsignedResult = u && results.empty(); // the values, not indices
    if (keepDims) {
      if (flattened) {
        llvm::SmallVector<int64_t> ones(rank, 1);
        r = SplatOp::create(builder, l,
                            mlir::RankedTensorType::get(ones, r.getType()), r);
      } else if (getShapeOf(r.getType()).empty()) {
        r = SplatOp::create(builder, l,
                            mlir::RankedTensorType::get({1}, r.getType()), r);
      } else {
        r = ExpandDimsOp::create(builder, l, r, axis);
      }
    }
    results.push_back(runtime(r, unsignedResult));
  }
  if (isArg)
    return results[1];
  if (withIndices)
    return SemaValue::getTuple(std::move(results));
  return results[0];
}
