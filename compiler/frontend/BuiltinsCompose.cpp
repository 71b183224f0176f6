//===- BuiltinsCompose.cpp - builtins composed of other ops ---------------===//
//
// This file implements the builtins that mgp builds from its existing ops
// rather than from ops of their own: `join(a, b)` (a new last dimension of
// 2: expand, broadcast, select on an index), `split(x)` (the two halves of
// a last dimension of 2, picked exactly: integers, floats through their
// bits, summed against a one-hot mask), `interleave(a, b)` and `cat(a, b,
// can_reorder=True)` (a join reshaped), `flip(x, dim)` (Triton's own
// method: the dimension reshaped to 2 x 2 x ... and each pair swapped by an
// xor with its xor-sum), `ravel(x)`, `histogram(x, num_bins, mask)`
// (one-hot comparisons summed over the input) and `sort`, `topk` and
// `bitonic_merge` (Triton's bitonic network on the block reshaped to a
// hypercube 2 x 2 x ..., so the results match Triton's element for element,
// ties and NaNs included), and `gather(src, index, axis)` (one mgp.gather
// op).
// Blocks must have power-of-two dimensions here (located errors otherwise).
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
namespace arith = mlir::arith;

/// `v` as a block whose logical shape is its MLIR shape, or an error at
/// `where` naming `name`.
static Expected<mlir::Value> getPowerOf2Block(Generator &g, const SemaValue &v,
                                              const ast::Expr &where,
                                              llvm::StringRef name) {
  if (!v.isTensor())
    return g.error(where, "'" + name + "' needs a block, got " + v.describe());
  if (g.isPadded(v.getValue()))
    return g.error(where, "'" + name +
                              "' needs a block whose dimensions "
                              "are powers of two, got " +
                              describeShape(g.getLogicalShape(v.getValue())));
  return v.getValue();
}

/// An i32 block of `shape` counting along `axis`.
static mlir::Value makeIota(Generator &g, llvm::ArrayRef<int64_t> shape,
                            unsigned axis, mlir::Location l) {
  mlir::Value r = MakeRangeOp::create(g.builder, l, 0, shape[axis]);
  for (unsigned d = 0; d < shape.size(); ++d)
    if (d != axis)
      r = ExpandDimsOp::create(g.builder, l, r, d);
  auto type = mlir::RankedTensorType::get(shape, g.builder.getI32Type());
  if (getShapeOf(r.getType()) != shape)
    r = BroadcastOp::create(g.builder, l, type, r);
  return r;
}

/// The integer type of `t`'s width (i8 for i1 and for pointers' stand-in).
static mlir::Type getBitsType(Generator &g, mlir::Type t) {
  if (llvm::isa<PointerType>(t))
    return g.builder.getI64Type();
  unsigned bits = t.getIntOrFloatBitWidth();
  return g.builder.getIntegerType(bits == 1 ? 8 : bits);
}

/// `v` as integers of its width (bit-exact; pointers as addresses).
static mlir::Value toBits(Generator &g, mlir::Value v, mlir::Location l) {
  mlir::Type elt = getElementType(v.getType());
  mlir::Type bits = getBitsType(g, elt);
  mlir::Type type = withShape(bits, getShapeOf(v.getType()));
  if (llvm::isa<PointerType>(elt))
    return PtrToIntOp::create(g.builder, l, type, v);
  if (elt.isInteger(1))
    return arith::ExtUIOp::create(g.builder, l, type, v);
  if (elt.isInteger())
    return v;
  return arith::BitcastOp::create(g.builder, l, type, v);
}

/// The inverse of toBits.
static mlir::Value fromBits(Generator &g, mlir::Value v, mlir::Type elt,
                            mlir::Location l) {
  mlir::Type type = withShape(elt, getShapeOf(v.getType()));
  if (llvm::isa<PointerType>(elt))
    return IntToPtrOp::create(g.builder, l, type, v);
  if (elt.isInteger(1))
    return arith::TruncIOp::create(g.builder, l, type, v);
  if (elt.isInteger())
    return v;
  return arith::BitcastOp::create(g.builder, l, type, v);
}

/// An integer mgp.reduce along `axis` with `combine` (add or xor).
template <typename CombineOp>
static mlir::Value reduceInt(Generator &g, mlir::Value v, int32_t axis,
                             bool keepDims, mlir::Location l) {
  auto op = ReduceOp::create(g.builder, l, mlir::ValueRange{v}, axis);
  {
    mlir::OpBuilder::InsertionGuard guard(g.builder);
    mlir::Type elt = getElementType(v.getType());
    mlir::Block *block =
        op.getCombineOp().empty()
            ? g.builder.createBlock(&op.getCombineOp(), {}, {elt, elt}, {l, l})
            : &op.getCombineOp().front();
    g.builder.setInsertionPointToEnd(block);
    mlir::Value r = CombineOp::create(g.builder, l, block->getArgument(0),
                                      block->getArgument(1));
    ReduceReturnOp::create(g.builder, l, mlir::ValueRange{r});
  }
  mlir::Value r = op.getResult()[0];
  if (keepDims)
    r = getShapeOf(r.getType()).empty()
            ? SplatOp::create(g.builder, l,
                              mlir::RankedTensorType::get({1}, r.getType()), r)
                  .getResult()
            : ExpandDimsOp::create(g.builder, l, r, axis).getResult();
  return r;
}

mlir::Value Generator::takeAlong(mlir::Value v, unsigned axis, int64_t index,
                                 mlir::Location l) {
  llvm::SmallVector<int64_t> shape(getShapeOf(v.getType()));
  mlir::Type elt = getElementType(v.getType());
  mlir::Value bits = toBits(*this, v, l);
  mlir::Type bitsElt = getElementType(bits.getType());
  mlir::Value pick = arith::CmpIOp::create(
      builder, l, arith::CmpIPredicate::eq, makeIota(*this, shape, axis, l),
      materializeSplat(SemaValue::getInt(index), builder.getI32Type(), shape,
                       l));
  mlir::Value only = arith::SelectOp::create(
      builder, l, pick, bits,
      materializeSplat(SemaValue::getInt(0), bitsElt, shape, l));
  return fromBits(*this, reduceInt<arith::AddIOp>(*this, only, axis, false, l),
                  elt, l);
}

mlir::Value Generator::stackLeading(llvm::ArrayRef<mlir::Value> parts,
                                    mlir::Location l) {
  llvm::SmallVector<int64_t> shape(getShapeOf(parts[0].getType()));
  shape.insert(shape.begin(), parts.size());
  mlir::Type elt = getElementType(parts[0].getType());
  mlir::Type bitsElt = getBitsType(*this, elt);
  mlir::Value iota = makeIota(*this, shape, 0, l);
  mlir::Value sum = materializeSplat(SemaValue::getInt(0), bitsElt, shape, l);
  for (auto [i, part] : llvm::enumerate(parts)) {
    mlir::Value bits = ExpandDimsOp::create(builder, l, toBits(*this, part, l), 0);
    bits = BroadcastOp::create(builder, l, withShape(bitsElt, shape), bits);
    mlir::Value here = arith::CmpIOp::create(
        builder, l, arith::CmpIPredicate::eq, iota,
        materializeSplat(SemaValue::getInt(i), builder.getI32Type(), shape,
                         l));
    sum = arith::AddIOp::create(
        builder, l, sum,
        arith::SelectOp::create(
            builder, l, here, bits,
            materializeSplat(SemaValue::getInt(0), bitsElt, shape, l)));
  }
  return fromBits(*this, sum, elt, l);
}

static mlir::Value reshape(Generator &g, mlir::Value v,
                           llvm::ArrayRef<int64_t> shape, mlir::Location l) {
  return ReshapeOp::create(
      g.builder, l,
      mlir::RankedTensorType::get(shape, getElementType(v.getType())), v);
}

/// Triton's bitonic sort on the hypercube `h` ([2] * n, element i at the
/// bits of its flattened index): compare-and-swap along index bit `bit`,
/// each element meeting its partner (an xor with the pair's xor-sum); `flip`
/// (an i1 block of h's shape) reverses the order where set; `isUnsigned`
/// integers compare as unsigned.
static mlir::Value compareAndSwap(Generator &g, mlir::Value h, mlir::Value flip,
                                  unsigned bit, bool isUnsigned,
                                  mlir::Location l) {
  llvm::ArrayRef<int64_t> shape = getShapeOf(h.getType());
  unsigned axis = shape.size() - 1 - bit;
  mlir::Type elt = getElementType(h.getType());
  mlir::Value bits = toBits(g, h, l);
  mlir::Value pairXor = BroadcastOp::create(
      g.builder, l, bits.getType(),
      reduceInt<arith::XOrIOp>(g, bits, axis, true, l));
  mlir::Value y = fromBits(
      g, arith::XOrIOp::create(g.builder, l, bits, pairXor), elt, l);
  mlir::Value greater;
  if (llvm::isa<mlir::FloatType>(elt))
    greater = arith::CmpFOp::create(g.builder, l, arith::CmpFPredicate::OGT, h,
                                    y);
  else
    greater = arith::CmpIOp::create(g.builder, l,
                                    elt.isInteger(1) || isUnsigned
                                        ? arith::CmpIPredicate::ugt
                                        : arith::CmpIPredicate::sgt,
                                    h, y);
  mlir::Value isRight = arith::CmpIOp::create(
      g.builder, l, arith::CmpIPredicate::eq, makeIota(g, shape, axis, l),
      g.materializeSplat(SemaValue::getInt(1), g.builder.getI32Type(), shape,
                         l));
  mlir::Value want = arith::XOrIOp::create(g.builder, l, flip, isRight);
  mlir::Value swap = arith::CmpIOp::create(
      g.builder, l, arith::CmpIPredicate::ne, greater, want);
  return arith::SelectOp::create(g.builder, l, swap, y, h);
}

/// One bitonic merge of `stage` compare-and-swap rounds; `order` 0 ascending,
/// 1 descending, 2 alternating with index bit `stage`.
static mlir::Value bitonicMerge(Generator &g, mlir::Value h, unsigned stage,
                                int order, bool isUnsigned, mlir::Location l) {
  llvm::ArrayRef<int64_t> shape = getShapeOf(h.getType());
  mlir::Value flip;
  if (order == 2)
    flip = arith::CmpIOp::create(
        g.builder, l, arith::CmpIPredicate::eq,
        makeIota(g, shape, shape.size() - 1 - stage, l),
        g.materializeSplat(SemaValue::getInt(1), g.builder.getI32Type(), shape,
                           l));
  else
    flip = g.materializeSplat(SemaValue::getBool(order == 1),
                              g.builder.getI1Type(), shape, l);
  for (unsigned i = 0; i < stage; ++i)
    h = compareAndSwap(g, h, flip, stage - 1 - i, isUnsigned, l);
  return h;
}

/// Triton's sort_impl: sorts the last dimension of `x` (power-of-two
/// dimensions), keeping its `k` first elements (all when k == n) of the
/// sorted order: a bitonic sort of log2(k) stages, then for each further
/// stage the halves reduced by max (descending) or min and merged again.
static mlir::Value bitonicSort(Generator &g, mlir::Value x, int64_t k,
                               bool descending, bool isUnsigned,
                               mlir::Location l) {
  llvm::SmallVector<int64_t> shape(getShapeOf(x.getType()));
  unsigned logN = llvm::Log2_64(shape.back());
  unsigned logK = llvm::Log2_64(k);
  int64_t numel = llvm::cast<mlir::RankedTensorType>(x.getType())
                      .getNumElements();
  unsigned dims = llvm::Log2_64(numel);
  if (logN == 0)
    return x;
  mlir::Value h = reshape(g, x, llvm::SmallVector<int64_t>(dims, 2), l);
  for (unsigned i = 1; i <= logK; ++i)
    h = bitonicMerge(g, h, i, i < logN ? 2 : int(descending), isUnsigned, l);
  mlir::Type elt = getElementType(x.getType());
  bool isFloat = llvm::isa<mlir::FloatType>(elt);
  for (unsigned i = logK + 1; i <= logN; ++i) {
    unsigned rank = getShapeOf(h.getType()).size();
    int32_t axis = rank - 1 - logK;
    if (isFloat)
      h = descending ? reduceInt<arith::MaxNumFOp>(g, h, axis, false, l)
                     : reduceInt<arith::MinNumFOp>(g, h, axis, false, l);
    else if (isUnsigned)
      h = descending ? reduceInt<arith::MaxUIOp>(g, h, axis, false, l)
                     : reduceInt<arith::MinUIOp>(g, h, axis, false, l);
    else
      h = descending ? reduceInt<arith::MaxSIOp>(g, h, axis, false, l)
                     : reduceInt<arith::MinSIOp>(g, h, axis, false, l);
    h = bitonicMerge(g, h, logK, i < logN ? 2 : int(descending), isUnsigned,
                     l);
  }
  shape.back() = k;
  return reshape(g, h, shape, l);
}

/// join(a, b): shape [..., 2].
static Expected<mlir::Value> join(Generator &g, const SemaValue &a,
                                  const SemaValue &b, const ast::Expr &where,
                                  mlir::Location l) {
  mlir::Value x, y;
  if (Error err = g.promoteOperands(a, b, PromoteMode::Arith, "join", x, y,
                                    g.site(where)))
    return std::move(err);
  if (getShapeOf(x.getType()).empty()) {
    x = SplatOp::create(g.builder, l,
                        mlir::RankedTensorType::get({1}, x.getType()), x);
    y = SplatOp::create(g.builder, l,
                        mlir::RankedTensorType::get({1}, y.getType()), y);
  } else if (g.isPadded(x)) {
    return g.error(where, "'join' needs blocks whose dimensions are powers "
                          "of two, got " +
                              describeShape(g.getLogicalShape(x)));
  }
  llvm::SmallVector<int64_t> shape(getShapeOf(x.getType()));
  unsigned rank = shape.size();
  shape.push_back(2);
  auto type = mlir::RankedTensorType::get(shape, getElementType(x.getType()));
  mlir::Value ex = BroadcastOp::create(
      g.builder, l, type, ExpandDimsOp::create(g.builder, l, x, rank));
  mlir::Value ey = BroadcastOp::create(
      g.builder, l, type, ExpandDimsOp::create(g.builder, l, y, rank));
  mlir::Value iota = makeIota(g, shape, rank, l);
  mlir::Value first = arith::CmpIOp::create(
      g.builder, l, arith::CmpIPredicate::eq, iota,
      g.materializeSplat(SemaValue::getInt(0), g.builder.getI32Type(), shape,
                         l));
  return arith::SelectOp::create(g.builder, l, first, ex, ey).getResult();
}

Expected<SemaValue> Generator::genComposedBuiltin(llvm::StringRef name,
                                                  CallArgs &args,
                                                  const ast::CallExpr &call) {
  mlir::Location l = loc(call);
  if (name == "join" || name == "interleave" || name == "cat") {
    Expected<BoundArgs> b =
        name == "cat"
            ? bindArgs(name, args, call, {"input", "other", "can_reorder"}, 2)
            : bindArgs(name, args, call, {"a", "b"}, 2);
    if (!b)
      return b.takeError();
    if (name == "cat" && !(b->has(2) && b->get(2).isTruthy()))
      return error(call, "tl.cat needs can_reorder=True (the order of the "
                         "elements is unspecified, as in Triton)");
    Expected<mlir::Value> j = join(*this, b->get(0), b->get(1), call, l);
    if (!j)
      return j.takeError();
    if (name == "join")
      return runtime(*j);
    // interleave / cat: the pairs flattened into the last dimension.
    llvm::SmallVector<int64_t> shape(getShapeOf(j->getType()));
    shape.pop_back();
    shape.back() *= 2;
    return runtime(reshape(*this, *j, shape, l));
  }
  if (name == "split") {
    Expected<BoundArgs> b = bindArgs(name, args, call, {"a"}, 1);
    if (!b)
      return b.takeError();
    Expected<mlir::Value> v =
        getPowerOf2Block(*this, b->get(0), b->expr(0), name);
    if (!v)
      return v.takeError();
    llvm::ArrayRef<int64_t> shape = getShapeOf(v->getType());
    if (shape.back() != 2)
      return error(b->expr(0), "'split' needs a last dimension of 2, got " +
                                   describeShape(shape));
    std::vector<SemaValue> halves;
    for (int half = 0; half < 2; ++half)
      halves.push_back(runtime(takeAlong(*v, shape.size() - 1, half, l)));
    return SemaValue::getTuple(std::move(halves));
  }
  if (name == "flip") {
    Expected<BoundArgs> b = bindArgs(name, args, call, {"x", "dim"}, 1);
    if (!b)
      return b.takeError();
    Expected<mlir::Value> v =
        getPowerOf2Block(*this, b->get(0), b->expr(0), name);
    if (!v)
      return v.takeError();
    llvm::SmallVector<int64_t> shape(getShapeOf(v->getType()));
    int64_t rank = shape.size();
    int64_t dim = rank - 1;
    if (b->has(1)) {
      Expected<int64_t> d = getConstInt(*b, 1, "the dimension");
      if (!d)
        return d.takeError();
      if (*d < -rank || *d >= rank)
        return error(b->expr(1), "dimension " + llvm::Twine(*d) +
                                     " is out of range for a block of rank " +
                                     llvm::Twine(rank));
      dim = *d < 0 ? *d + rank : *d;
    }
    int steps = llvm::Log2_64(shape[dim]);
    if (steps == 0)
      return b->get(0);
    mlir::Type elt = getElementType(v->getType());
    mlir::Value y = toBits(*this, *v, l);
    llvm::SmallVector<int64_t> split(shape.begin(), shape.begin() + dim);
    split.append(steps, 2);
    split.append(shape.begin() + dim + 1, shape.end());
    y = reshape(*this, y, split, l);
    // Swap every pair along each bit of the index: y ^ (y0 ^ y1).
    for (int i = 0; i < steps; ++i) {
      mlir::Value pairXor =
          reduceInt<arith::XOrIOp>(*this, y, dim + i, true, l);
      pairXor = BroadcastOp::create(builder, l, y.getType(), pairXor);
      y = arith::XOrIOp::create(builder, l, y, pairXor);
    }
    return runtime(fromBits(*this, reshape(*this, y, shape, l), elt, l));
  }
  if (name == "sort" || name == "topk" || name == "bitonic_merge") {
    Expected<BoundArgs> b =
        name == "topk" ? bindArgs(name, args, call, {"x", "k", "dim"}, 2)
                       : bindArgs(name, args, call, {"x", "dim", "descending"},
                                  1);
    if (!b)
      return b.takeError();
    Expected<mlir::Value> v =
        getPowerOf2Block(*this, b->get(0), b->expr(0), name);
    if (!v)
      return v.takeError();
    llvm::ArrayRef<int64_t> shape = getShapeOf(v->getType());
    int64_t rank = shape.size();
    unsigned dimArg = name == "topk" ? 2 : 1;
    if (b->has(dimArg) && !b->get(dimArg).isNone()) {
      Expected<int64_t> d = getConstInt(*b, dimArg, "the dimension");
      if (!d)
        return d.takeError();
      if (*d != rank - 1)
        return error(b->expr(dimArg),
                     "'" + name + "' sorts along the last dimension only (" +
                         llvm::Twine(rank - 1) + " here, as in Triton), got " +
                         llvm::Twine(*d));
    }
    bool descending = name == "topk";
    if (name != "topk" && b->has(2)) {
      const SemaValue &d = b->get(2);
      if (!d.isConstexpr())
        return error(b->expr(2), "descending must be a compile-time "
                                 "boolean, got " +
                                     d.describe());
      descending = d.isTruthy();
    }
    int64_t k = shape.back();
    if (name == "topk") {
      Expected<int64_t> kk = getConstInt(*b, 1, "k");
      if (!kk)
        return kk.takeError();
      if (!isPowerOf2(*kk) || *kk > k)
        return error(b->expr(1), "k must be a power of two no larger than "
                                 "the last dimension (" +
                                     llvm::Twine(k) + "), got " +
                                     llvm::Twine(*kk));
      k = *kk;
    }
    if (name == "bitonic_merge") {
      // One merge of a block whose halves are sorted in opposite orders.
      llvm::SmallVector<int64_t> cube(
          llvm::Log2_64(llvm::cast<mlir::RankedTensorType>(v->getType())
                            .getNumElements()),
          2);
      mlir::Value h = reshape(*this, *v, cube, l);
      h = bitonicMerge(*this, h, llvm::Log2_64(shape.back()), descending,
                       b->get(0).isUnsigned(), l);
      return runtime(reshape(*this, h, shape, l));
    }
    return runtime(
        bitonicSort(*this, *v, k, descending, b->get(0).isUnsigned(), l));
  }
  if (name == "ravel") {
    Expected<BoundArgs> b = bindArgs(name, args, call, {"x", "can_reorder"}, 1);
    if (!b)
      return b.takeError();
    Expected<mlir::Value> v =
        getPowerOf2Block(*this, b->get(0), b->expr(0), name);
    if (!v)
      return v.takeError();
    int64_t n =
        llvm::cast<mlir::RankedTensorType>(v->getType()).getNumElements();
    return runtime(reshape(*this, *v, {n}, l));
  }
  if (name == "gather")
    return genGather(args, call);
  assert(name == "histogram" && "not a composed builtin");
  Expected<BoundArgs> b =
      bindArgs(name, args, call, {"input", "num_bins", "mask"}, 2);
  if (!b)
    return b.takeError();
  const SemaValue &in = b->get(0);
  if (!in.isTensor() || getShapeOf(in.getType()).size() != 1 ||
      !getElementType(in.getType()).isInteger())
    return error(b->expr(0), "'histogram' needs a 1-D block of integers, got " +
                                 in.describe());
  Expected<int64_t> bins = getConstInt(*b, 1, "num_bins");
  if (!bins)
    return bins.takeError();
  if (*bins <= 0 || !isPowerOf2(*bins))
    return error(b->expr(1), "num_bins must be a positive power of two, got " +
                                 llvm::Twine(*bins));
  mlir::Value x = castTo(in.getValue(), builder.getI32Type(), l);
  int64_t n = getShapeOf(x.getType())[0];
  llvm::SmallVector<int64_t> shape = {n, *bins};
  mlir::Value col = BroadcastOp::create(
      builder, l, mlir::RankedTensorType::get(shape, builder.getI32Type()),
      ExpandDimsOp::create(builder, l, x, 1));
  mlir::Value bin = makeIota(*this, shape, 1, l);
  mlir::Value hit =
      arith::CmpIOp::create(builder, l, arith::CmpIPredicate::eq, col, bin);
  // Padding and masked-off elements count nowhere.
  mlir::Value valid = getValidMask(x, l);
  if (b->has(2)) {
    Expected<mlir::Value> m = toCondition(b->get(2), b->expr(2));
    if (!m)
      return m.takeError();
    mlir::Value mask = *m;
    if (getShapeOf(mask.getType()).empty())
      mask = SplatOp::create(
          builder, l, mlir::RankedTensorType::get({n}, builder.getI1Type()),
          mask);
    if (getShapeOf(mask.getType()) != llvm::ArrayRef<int64_t>{n})
      return error(b->expr(2), "the mask of 'histogram' must have the input's "
                               "shape");
    valid = valid ? arith::AndIOp::create(builder, l, valid, mask).getResult()
                  : mask;
  }
  if (valid) {
    mlir::Value rows = BroadcastOp::create(
        builder, l, mlir::RankedTensorType::get(shape, builder.getI1Type()),
        ExpandDimsOp::create(builder, l, valid, 1));
    hit = arith::AndIOp::create(builder, l, hit, rows);
  }
  mlir::Value counts = arith::ExtUIOp::create(
      builder, l, mlir::RankedTensorType::get(shape, builder.getI32Type()),
      hit);
  return runtime(reduceInt<arith::AddIOp>(*this, counts, 0, false, l));
}

/// tl.gather(src, index, axis): out[i..] = src[i.. with index[i..] at
/// `axis`], one mgp.gather (through shared memory on the GPU). An index
/// outside [0, src.shape[axis]) gives 0 (undefined in Triton).
Expected<SemaValue> Generator::genGather(CallArgs &args,
                                         const ast::CallExpr &call) {
  llvm::StringRef name = "gather";
  mlir::Location l = loc(call);
  Expected<BoundArgs> b = bindArgs(name, args, call, {"src", "index", "axis"}, 3);
  if (!b)
    return b.takeError();
  Expected<mlir::Value> src = getPowerOf2Block(*this, b->get(0), b->expr(0), name);
  if (!src)
    return src.takeError();
  Expected<mlir::Value> index =
      getPowerOf2Block(*this, b->get(1), b->expr(1), name);
  if (!index)
    return index.takeError();
  mlir::Type indexElt = getElementType(index->getType());
  if (!indexElt.isInteger() || indexElt.isInteger(1))
    return error(b->expr(1), "the index of 'gather' must be a block of "
                             "integers, got " +
                                 b->get(1).describe());
  llvm::SmallVector<int64_t> srcShape(getShapeOf(src->getType()));
  llvm::SmallVector<int64_t> indexShape(getShapeOf(index->getType()));
  int64_t rank = srcShape.size();
  if (int64_t(indexShape.size()) != rank)
    return error(b->expr(1), "the index of 'gather' must have the source's "
                             "rank (" +
                                 llvm::Twine(rank) + "), got " +
                                 describeShape(indexShape));
  Expected<int64_t> axisArg = getConstInt(*b, 2, "the axis");
  if (!axisArg)
    return axisArg.takeError();
  int64_t axis = *axisArg < 0 ? *axisArg + rank : *axisArg;
  if (axis < 0 || axis >= rank)
    return error(b->expr(2), "the axis of 'gather' must be in [" +
                                 llvm::Twine(-rank) + ", " +
                                 llvm::Twine(rank) + "), got " +
                                 llvm::Twine(*axisArg));
  for (int64_t d = 0; d < rank; ++d)
    if (d != axis && srcShape[d] != indexShape[d])
      return error(b->expr(1), "the index of 'gather' must match the "
                               "source in every dimension but the axis: " +
                                   describeShape(indexShape) + " against " +
                                   describeShape(srcShape));
  mlir::Type elt = getElementType(src->getType());
  mlir::Value r = GatherOp::create(builder, l, withShape(elt, indexShape), *src,
                                   *index, builder.getI32IntegerAttr(axis));
  return runtime(r);
}
