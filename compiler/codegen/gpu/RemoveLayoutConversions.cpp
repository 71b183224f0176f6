//===- RemoveLayoutConversions.cpp - fewer mgp.convert_layout ops ---------===//
//
// This file implements `mgp-remove-layout-conversions`, the small version of
// Triton's RemoveLayoutConversions: canonicalisation patterns for converts
// (LayoutConversionPatterns.cpp)
// (identity, convert of convert, convert of splat, constant or make_range),
// reducing before converting (reduce of a convert becomes a convert of the
// smaller reduced tensor), a gather in its indices' layout whatever its
// source's, and backward rematerialisation: a convert whose source is
// computed by a
// chain of elementwise ops (arith/math, addptr and pointer casts, hints,
// side-effect-free inline asm, extern and mapped functions), broadcast,
// expand_dims, splat, make_range, constants and gathers (a gather in the
// target layout reads its source as it is) is replaced by the same chain
// computed directly in the target layout; loop-carried values (pointers
// advanced each iteration) move to the layout their loop body wants, and a
// value an scf.if in a loop updates gets one copy per layout its converts
// want (duplicateIfResult). A chain
// that mixes layouts (a dot's epilogue: the accumulator with values converted
// into mma; elementwise code between loads of different widths) is
// recomputed in the target layout with one convert of the value that cannot
// be recomputed instead (Rematerializer::collectEpilogue).
//
//===----------------------------------------------------------------------===//
#include "compiler/codegen/gpu/LayoutConversionPatterns.h"
#include "compiler/codegen/gpu/Passes.h"
#include "compiler/codegen/gpu/TensorEncoding.h"
#include "compiler/ir/Layout.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mgp {
#define GEN_PASS_DEF_MGPREMOVELAYOUTCONVERSIONS
#include "compiler/codegen/gpu/Passes.h.inc"
} // namespace mgp

using namespace mlir;
using namespace mgp;

namespace {

/// Whether `encoding` is an operand layout of a version-3 (wgmma) dot.
static bool isWarpGroupDotOperand(Attribute encoding) {
  auto dot = dyn_cast_or_null<DotOperandEncodingAttr>(encoding);
  auto mma = dot ? dyn_cast<MmaEncodingAttr>(dot.getParent()) : nullptr;
  return mma && mma.getVersion() == 3;
}

/// Recomputes cheap chains in the layout their convert wants.
class Rematerializer {
public:
  using Key = std::pair<Value, Attribute>;

  /// Replaces `convert` by its source chain computed in the target layout;
  /// false (and no change) when the chain has an op that cannot be
  /// recomputed.
  bool run(ConvertLayoutOp convert) {
    auto type = cast<RankedTensorType>(convert.getType());
    // A warp-group (mma version 3) dot reads its operands from shared
    // memory: keep the convert, which -mgp-stage-dot-operands turns into
    // the staging, instead of computing the chain in the operand layout.
    if (isWarpGroupDotOperand(type.getEncoding()))
      return false;
    reset();
    if (!collect(convert.getSrc(), type.getEncoding()) &&
        !collectEpilogue(convert))
      return false;
    for (const Key &key : order)
      materialize(key);
    convert.replaceAllUsesWith(lookup(convert.getSrc(), type.getEncoding()));
    convert.erase();
    return true;
  }

  /// A value staged into a tensor-core operand (convert into an mma-parent
  /// dot operand layout: stored to shared memory, any source layout will
  /// do) and computed by element-wise code from a value converted out of
  /// the layout its load chose: the chain is recomputed in that load's
  /// layout, as Triton propagates a load's layout forward, e.g. an fp8
  /// operand upcast and scaled before the dot keeps the load's 16-byte rows
  /// instead of the default one element per thread.
  bool retypeStagedOperand(ConvertLayoutOp toOperand) {
    auto type = cast<RankedTensorType>(toOperand.getType());
    auto dot = dyn_cast_or_null<DotOperandEncodingAttr>(type.getEncoding());
    if (!dot || !isa<MmaEncodingAttr>(dot.getParent()))
      return false;
    Value src = toOperand.getSrc();
    Attribute target = largestConvertedLayout(src);
    if (!target)
      return false;
    // Taken even when it removes no convert itself (the chain's converted
    // load feeds other staged operands too, e.g. both parts of a
    // split-precision operand): once every such operand is retyped, the
    // chain in the other layout is dead.
    SmallVector<Value> retyped = recomputeIn(src, target, 0, /*takeFree=*/true);
    if (retyped.empty())
      return false;
    toOperand.getSrcMutable().assign(retyped[0]);
    return true;
  }

  /// A reduction of element-wise code that reads a value converted out of
  /// its load's layout: reduced in that layout (the chain recomputed there,
  /// the smaller result converted back), as Triton reduces in the layout
  /// its loads propagate; e.g. MX scales [M, K / 32] are reduced where the
  /// load put them instead of across 32 lanes of the default layout.
  bool retypeReduceInput(ReduceOp reduce) {
    Attribute target;
    for (Value operand : reduce.getSrcs()) {
      Attribute candidate = largestConvertedLayout(operand);
      if (!candidate || (target && target != candidate))
        return false;
      target = candidate;
    }
    int64_t resultElements = 0;
    for (Value result : reduce.getResults())
      if (isa<RankedTensorType>(result.getType()))
        resultElements += numElements(result);
    SmallVector<Value> retyped =
        recomputeIn(reduce.getSrcs(), target, resultElements);
    if (retyped.empty())
      return false;
    OpBuilder builder(reduce);
    Operation *clone = builder.clone(*reduce);
    clone->setOperands(retyped);
    Attribute resultEncoding =
        SliceEncodingAttr::get(reduce.getContext(), reduce.getAxis(), target);
    for (auto [oldResult, newResult] :
         llvm::zip(reduce.getResults(), clone->getResults())) {
      auto type = dyn_cast<RankedTensorType>(oldResult.getType());
      if (!type) {
        oldResult.replaceAllUsesWith(newResult);
        continue;
      }
      newResult.setType(withEncoding(type, resultEncoding));
      oldResult.replaceAllUsesWith(
          ConvertLayoutOp::create(builder, reduce.getLoc(), type, newResult));
    }
    reduce.erase();
    return true;
  }

  /// A stored value computed by element-wise code from values converted out
  /// of one load's layout (a layer norm's `(x - mean) * rstd * w + b`, its
  /// three loads wider than the store, whose pointer is unaligned): computed
  /// in that layout and the result converted for the store, one convert
  /// instead of one per load, as Triton propagates the loads' layout
  /// forward to the store.
  bool retypeStoredValue(StoreOp store) {
    Value value = store.getValue();
    auto type = dyn_cast<RankedTensorType>(value.getType());
    if (!type)
      return false;
    Value root = value;
    int64_t added = type.getNumElements();
    if (auto convert = root.getDefiningOp<ConvertLayoutOp>()) {
      if (convert->hasOneUse())
        added = 0;
      root = convert.getSrc();
    }
    Attribute target = largestConvertedLayout(root);
    if (!target ||
        target == cast<RankedTensorType>(root.getType()).getEncoding())
      return false;
    SmallVector<Value> retyped = recomputeIn(root, target, added);
    if (retyped.empty())
      return false;
    OpBuilder builder(store);
    store.getValueMutable().assign(
        ConvertLayoutOp::create(builder, store.getLoc(), type, retyped[0]));
    return true;
  }

  /// Whether `value` could be recomputed in `enc`, taking `leaf` (a loop
  /// argument about to be carried in `enc`) as available. Changes nothing.
  bool canRematerialize(Value value, Attribute enc, Value leaf) {
    reset();
    allowedLeaf = leaf;
    bool result = collect(value, enc);
    reset();
    return result;
  }

  /// Calls `fn` with the source of each convert (or gather: read through
  /// shared memory in any layout, e.g. packed e2m1 bytes unpacked by a
  /// gather) that the element-wise chain computing `value` reads.
  static void forEachConvertedSource(Value value,
                                     function_ref<void(Value)> fn) {
    SmallVector<Value> stack = {value};
    DenseSet<Value> seen;
    while (!stack.empty()) {
      Value current = stack.pop_back_val();
      if (!seen.insert(current).second)
        continue;
      Operation *def = current.getDefiningOp();
      if (!def)
        continue;
      if (auto convert = dyn_cast<ConvertLayoutOp>(def)) {
        fn(convert.getSrc());
        continue;
      }
      if (auto gather = dyn_cast<GatherOp>(def)) {
        fn(gather.getSrc());
        continue;
      }
      if (!isElementwise(def) && !isa<BroadcastOp, ExpandDimsOp>(def))
        continue;
      for (Value operand : def->getOperands())
        if (isa<RankedTensorType>(operand.getType()))
          stack.push_back(operand);
    }
  }

  /// The blocked or mma source layout, of `value`'s rank, of the largest
  /// convert that the element-wise chain computing `value` reads (null when
  /// none).
  static Attribute largestConvertedLayout(Value value) {
    int64_t rank = cast<RankedTensorType>(value.getType()).getRank();
    Attribute best;
    int64_t bestElements = 0;
    forEachConvertedSource(value, [&](Value source) {
      auto srcType = cast<RankedTensorType>(source.getType());
      if (isa<BlockedEncodingAttr, MmaEncodingAttr>(srcType.getEncoding()) &&
          srcType.getRank() == rank &&
          srcType.getNumElements() > bestElements) {
        best = srcType.getEncoding();
        bestElements = srcType.getNumElements();
      }
    });
    return best;
  }

  /// The slice layouts of the converts' sources the element-wise chain
  /// computing `value` reads (reduction results), in the order first met.
  static SmallVector<Attribute> convertedSliceLayouts(Value value) {
    SmallVector<Attribute> layouts;
    forEachConvertedSource(value, [&](Value source) {
      Attribute encoding =
          cast<RankedTensorType>(source.getType()).getEncoding();
      if (isa_and_nonnull<SliceEncodingAttr>(encoding) &&
          !llvm::is_contained(layouts, encoding))
        layouts.push_back(encoding);
    });
    return layouts;
  }

private:
  void reset() {
    order.clear();
    visited.clear();
    mapping.clear();
    allowedLeaf = nullptr;
    relaxed = false;
    newConverts.clear();
    converted.clear();
    foldedElements = 0;
  }

  /// `values` recomputed in `target` by the element-wise code computing
  /// them, values that cannot be recomputed converted as they are (relaxed
  /// mode); empty, changing nothing, unless those converts plus
  /// `addedElsewhere` move fewer elements than the converts looked through
  /// (which die).
  SmallVector<Value> recomputeIn(ValueRange values, Attribute target,
                                 int64_t addedElsewhere,
                                 bool takeFree = false) {
    reset();
    relaxed = true;
    for (Value value : values)
      if (!collect(value, target)) {
        reset();
        return {};
      }
    int64_t added = addedElsewhere;
    for (Value value : newConverts)
      added += numElements(value);
    if (added > foldedElements ||
        (added == foldedElements && !(takeFree && added == 0))) {
      reset();
      return {};
    }
    for (const Key &key : order)
      materialize(key);
    SmallVector<Value> result;
    for (Value value : values)
      result.push_back(lookup(value, target));
    reset();
    return result;
  }

  static int64_t numElements(Value value) {
    return cast<RankedTensorType>(value.getType()).getNumElements();
  }

  /// A chain that mixes values of several layouts: e.g. the epilogue of a
  /// dot, convert(mma -> blocked) of the accumulator mixed with values
  /// converted into the mma layout (a broadcast bias, a loaded residual), or
  /// elementwise code between loads and a store that each want their own
  /// layout. The chain is recomputed in the target layout with one convert
  /// of the value that cannot be recomputed (the accumulator, a load)
  /// instead of one per operand plus the final one: values that cannot be
  /// recomputed are converted themselves, converts met on the way are looked
  /// through. Taken only when the converts it adds move fewer elements than
  /// the ones it removes (the root and the looked-through converts that
  /// have no other user): e.g. two full-size converts for one, or a
  /// convert of 2-D pointers built from a loop-carried row vector for a
  /// convert of that vector.
  bool collectEpilogue(ConvertLayoutOp convert) {
    auto srcType = cast<RankedTensorType>(convert.getSrc().getType());
    auto type = cast<RankedTensorType>(convert.getType());
    // Into an (mma.sync) dot operand: only element-wise code on loads of
    // the operand's element type, e.g. a split-precision dot's split of
    // its fp32 operands, which then runs in the operand's registers, read
    // from the loads' (pipelined) buffers by ldmatrix, as Triton does,
    // instead of being staged through shared memory once per part.
    bool intoOperand = isa<DotOperandEncodingAttr>(type.getEncoding());
    if (intoOperand && convert.getSrc().getDefiningOp<LoadOp>())
      return false;
    reset();
    relaxed = true;
    rootElements = srcType.getNumElements();
    if (!collect(convert.getSrc(), type.getEncoding()))
      return false;
    int64_t added = 0;
    bool loadsOnly = true;
    for (Value value : newConverts) {
      added += numElements(value);
      loadsOnly &= value.getDefiningOp<LoadOp>() &&
                   getElementTypeOrSelf(value.getType()) ==
                       srcType.getElementType();
    }
    if (intoOperand ? loadsOnly && added <= rootElements + foldedElements
                    : added < rootElements + foldedElements)
      return true;
    reset();
    return false;
  }

  /// Relaxed mode: `value` is converted to `enc` as it is.
  bool convertLeaf(Value value, Attribute enc) {
    if (!relaxed || !isa<RankedTensorType>(value.getType()))
      return false;
    Key key(value, enc);
    newConverts.push_back(value);
    visited.insert(key);
    order.push_back(key);
    converted.insert(key);
    return true;
  }

  /// An op computed element by element (every tensor operand and result
  /// in one layout, any layout): arith/math, pointer arithmetic and casts,
  /// hints, and the language's per-element escapes (inline asm, extern and
  /// mapped functions, which may have several results) when they have no
  /// side effects. A chain of them is recomputed in the layout its loads and
  /// stores want, as Triton propagates a load's layout through elementwise
  /// code.
  static bool isElementwise(Operation *op) {
    if (!isMemoryEffectFree(op))
      return false;
    if (isa<InlineAsmElementwiseOp, ExternElementwiseOp, MapElementwiseOp>(op))
      return true;
    if (op->getNumRegions() != 0 || op->getNumResults() != 1)
      return false;
    Dialect *dialect = op->getDialect();
    StringRef ns = dialect ? dialect->getNamespace() : "";
    return ns == "arith" || ns == "math" ||
           isa<AddPtrOp, HintOp, PtrToIntOp, IntToPtrOp, PtrCastOp>(op);
  }

  /// The encoding operand `index` of `op` needs for `op` to produce `enc`.
  /// A gather's source keeps its own (it goes through shared memory
  /// whatever its layout): the result is laid out as its indices.
  static Attribute operandEncoding(Operation *op, unsigned index,
                                   Attribute enc) {
    if (auto expand = dyn_cast<ExpandDimsOp>(op))
      return SliceEncodingAttr::get(op->getContext(), expand.getAxis(), enc);
    if (isa<GatherOp>(op) && index == 0)
      return cast<RankedTensorType>(op->getOperand(0).getType()).getEncoding();
    return enc;
  }

  bool collect(Value value, Attribute enc) {
    auto type = dyn_cast<RankedTensorType>(value.getType());
    if (!type || type.getEncoding() == enc || value == allowedLeaf)
      return true;
    Key key(value, enc);
    if (visited.contains(key))
      return true;
    Operation *def = value.getDefiningOp();
    if (!def || (def->getNumResults() != 1 && !isElementwise(def)))
      return convertLeaf(value, enc);
    bool isLeaf = isa<MakeRangeOp, SplatOp>(def);
    if (auto constant = dyn_cast<arith::ConstantOp>(def)) {
      if (!getSplatIn(constant, withEncoding(type, enc)))
        return convertLeaf(value, enc); // a non-splat constant cannot be
                                        // retyped
      isLeaf = true;
    }
    if (auto inner = dyn_cast<ConvertLayoutOp>(def)) {
      if (cast<RankedTensorType>(inner.getSrc().getType()).getEncoding() !=
          enc) {
        if (!relaxed)
          return false;
        // Looked through: convert(convert(x)) is one convert of x.
        if (!collect(inner.getSrc(), enc))
          return false;
      }
      if (relaxed && value.hasOneUse())
        foldedElements += numElements(value);
      isLeaf = true;
    }
    if (!isLeaf) {
      if (!isElementwise(def) &&
          !isa<BroadcastOp, ExpandDimsOp, GatherOp>(def))
        return convertLeaf(value, enc);
      for (OpOperand &operand : def->getOpOperands())
        if (!collect(operand.get(),
                     operandEncoding(def, operand.getOperandNumber(), enc)))
          return false;
    }
    visited.insert(key);
    order.push_back(key);
    return true;
  }

  Value lookup(Value value, Attribute enc) {
    auto type = dyn_cast<RankedTensorType>(value.getType());
    if (!type || type.getEncoding() == enc)
      return value;
    Value mapped = mapping.lookup(Key(value, enc));
    assert(mapped && "operand not rematerialised before its user");
    return mapped;
  }

  void materialize(const Key &key) {
    auto [value, enc] = key;
    Operation *def = value.getDefiningOp();
    auto type = withEncoding(value.getType(), enc);
    if (converted.contains(key)) {
      OpBuilder builder(value.getContext());
      builder.setInsertionPointAfterValue(value);
      mapping[key] = ConvertLayoutOp::create(
          builder, value.getLoc(), cast<RankedTensorType>(type), value);
      return;
    }
    if (auto inner = dyn_cast<ConvertLayoutOp>(def)) {
      mapping[key] = lookup(inner.getSrc(), enc);
      return;
    }
    OpBuilder builder(def->getContext());
    builder.setInsertionPointAfter(def);
    if (auto constant = dyn_cast<arith::ConstantOp>(def)) {
      mapping[key] = arith::ConstantOp::create(builder, def->getLoc(), type,
                                               getSplatIn(constant, type));
      return;
    }
    // A sibling result of a multi-result op may have made the clone.
    if (mapping.contains(key))
      return;
    Operation *clone = builder.clone(*def);
    for (OpOperand &operand : clone->getOpOperands())
      operand.set(lookup(operand.get(), operandEncoding(
                                            def, operand.getOperandNumber(),
                                            enc)));
    for (auto [result, cloned] :
         llvm::zip(def->getResults(), clone->getResults())) {
      if (isa<RankedTensorType>(result.getType()))
        cloned.setType(withEncoding(result.getType(), enc));
      mapping[Key(result, enc)] = cloned;
    }
  }

  SmallVector<Key> order;
  DenseSet<Key> visited;
  DenseMap<Key, Value> mapping;
  Value allowedLeaf;
  // collectEpilogue's relaxed mode: the values converted as they are (keys
  // in `converted`), and the elements of the converts the chain looks through.
  bool relaxed = false;
  int64_t rootElements = 0;
  SmallVector<Value> newConverts;
  DenseSet<Key> converted;
  int64_t foldedElements = 0;
};

/// Carries a loop argument in the layout Y its body converts it to, when
/// the value yielded for it can be recomputed in Y (pointer increments):
/// the init is converted before the loop, the result after it, and the
/// converts inside become foldable or rematerialisable.
/// `moved` holds the arguments already carried in a new layout, which stay
/// there (their old layout's users convert back until rematerialized).
bool retypeLoopCarried(scf::ForOp forOp, Rematerializer &rematerializer,
                       DenseSet<Value> &moved, bool late = false) {
  bool changed = false;
  Block &body = *forOp.getBody();
  auto yield = cast<scf::YieldOp>(body.getTerminator());
  for (auto [i, arg] : llvm::enumerate(forOp.getRegionIterArgs())) {
    auto type = dyn_cast<RankedTensorType>(arg.getType());
    if (!type || moved.contains(arg))
      continue;
    // Candidates: the layouts the body converts the argument to, the last
    // convert's first (the first the yielded value can be recomputed in
    // wins: an online softmax converts its running max to the rows of two
    // mma layouts, and only the one its reduction ran in takes the new
    // maximum without a convert).
    SmallVector<Attribute> candidates;
    for (Operation *user : arg.getUsers())
      if (auto convert = dyn_cast<ConvertLayoutOp>(user)) {
        Attribute encoding =
            cast<RankedTensorType>(convert.getType()).getEncoding();
        if (!llvm::is_contained(candidates, encoding))
          candidates.push_back(encoding);
      }
    // Else the layout of a dot result or a load the yielded value adds up
    // (`acc += tl.dot(...)` that did not fold into the dot's accumulator,
    // e.g. a split-precision dot; `acc += f(tl.load(...))`, a row sum over
    // blocks): the sum is carried in that layout, as Triton propagates a
    // load's layout forward, instead of converting every operand into the
    // accumulator's default layout each iteration.
    if (candidates.empty())
      if (Attribute largest =
              Rematerializer::largestConvertedLayout(yield.getOperand(i)))
        candidates.push_back(largest);
    std::reverse(candidates.begin(), candidates.end());
    // After the rematerialization (`late`): also the row layout of a
    // reduction the yielded value reads (an online softmax's running sum,
    // updated from a row sum).
    if (late)
      for (Attribute slice :
           Rematerializer::convertedSliceLayouts(yield.getOperand(i)))
        if (!llvm::is_contained(candidates, slice))
          candidates.push_back(slice);
    Attribute target;
    for (Attribute candidate : candidates)
      if (!isWarpGroupDotOperand(candidate) &&
          rematerializer.canRematerialize(yield.getOperand(i), candidate,
                                          arg)) {
        target = candidate;
        break;
      }
    if (!target)
      continue;
    auto newType = withEncoding(type, target);
    OpBuilder builder(&body, body.begin());
    arg.setType(newType);
    auto back = ConvertLayoutOp::create(builder, forOp.getLoc(), type, arg);
    arg.replaceAllUsesExcept(back.getResult(), back);
    builder.setInsertionPoint(yield);
    OpOperand &yielded = yield->getOpOperand(i);
    yielded.set(ConvertLayoutOp::create(builder, forOp.getLoc(), newType,
                                        yielded.get()));
    builder.setInsertionPoint(forOp);
    OpOperand &init = forOp.getInitArgsMutable()[i];
    init.set(ConvertLayoutOp::create(builder, forOp.getLoc(), newType,
                                     init.get()));
    Value result = forOp.getResult(i);
    result.setType(newType);
    builder.setInsertionPointAfter(forOp);
    auto after = ConvertLayoutOp::create(builder, forOp.getLoc(), type, result);
    result.replaceAllUsesExcept(after.getResult(), after);
    moved.insert(arg);
    changed = true;
  }
  return changed;
}

/// A value an scf.if in a loop body yields (the then branch recomputes it,
/// the else branch passes on the loop-carried copy), converted to layout Y
/// every iteration: e.g. a persistent matmul's row and column offsets,
/// updated at a tile's first k step and read in the slice layouts of both
/// operand loads. The if gets one more result in Y (the then branch's value
/// converted there, i.e. recomputed by the rematerializer; the else branch's
/// a loop argument carried in Y, or its value converted), and the convert
/// reads it: the conversion runs when the branch is taken, not each
/// iteration. Triton's backward rematerialization does the same through
/// control flow, one copy per layout.
bool duplicateIfResult(ConvertLayoutOp convert,
                       Rematerializer &rematerializer) {
  auto ifOp = convert.getSrc().getDefiningOp<scf::IfOp>();
  if (!ifOp || ifOp.getElseRegion().empty())
    return false;
  auto forOp = dyn_cast<scf::ForOp>(ifOp->getParentOp());
  if (!forOp || !forOp->isAncestor(convert))
    return false;
  auto newType = cast<RankedTensorType>(convert.getType());
  Attribute target = newType.getEncoding();
  if (isa<DotOperandEncodingAttr>(target))
    return false;
  unsigned index = cast<OpResult>(convert.getSrc()).getResultNumber();
  Value elseValue = ifOp.elseYield().getOperand(index);
  // The else branch passes on a loop argument that the loop carries from
  // this very result, or yields a value that is free to recompute.
  auto carried = dyn_cast<BlockArgument>(elseValue);
  if (carried && (carried.getOwner() != forOp.getBody() ||
                  carried.getArgNumber() == 0 ||
                  forOp.getYieldedValues()[carried.getArgNumber() - 1] !=
                      convert.getSrc()))
    return false;
  if (!carried && !rematerializer.canRematerialize(elseValue, target, nullptr))
    return false;

  Location loc = convert.getLoc();
  IRRewriter rewriter(convert.getContext());
  Value carriedInTarget;
  if (carried) {
    rewriter.setInsertionPoint(forOp);
    Value init = ConvertLayoutOp::create(
        rewriter, loc, newType,
        forOp.getInitArgs()[carried.getArgNumber() - 1]);
    FailureOr<LoopLikeOpInterface> newLoop = forOp.replaceWithAdditionalYields(
        rewriter, init, /*replaceInitOperandUsesInLoop=*/false,
        [](OpBuilder &, Location, ArrayRef<BlockArgument> newArgs) {
          return SmallVector<Value>(newArgs.begin(), newArgs.end());
        });
    if (failed(newLoop))
      return false;
    forOp = cast<scf::ForOp>(newLoop->getOperation());
    carriedInTarget = forOp.getRegionIterArgs().back();
  }

  rewriter.setInsertionPoint(ifOp);
  SmallVector<Type> types(ifOp.getResultTypes());
  types.push_back(newType);
  auto newIf = scf::IfOp::create(rewriter, ifOp.getLoc(), types,
                                 ifOp.getCondition(), /*withElseRegion=*/true);
  newIf.getThenRegion().takeBody(ifOp.getThenRegion());
  newIf.getElseRegion().takeBody(ifOp.getElseRegion());
  scf::YieldOp thenYield = newIf.thenYield();
  rewriter.setInsertionPoint(thenYield);
  thenYield->insertOperands(
      thenYield->getNumOperands(),
      ConvertLayoutOp::create(rewriter, loc, newType,
                              thenYield.getOperand(index))
          .getResult());
  scf::YieldOp elseYield = newIf.elseYield();
  rewriter.setInsertionPoint(elseYield);
  Value elseInTarget =
      carriedInTarget ? carriedInTarget
                      : ConvertLayoutOp::create(rewriter, loc, newType,
                                                elseYield.getOperand(index))
                            .getResult();
  elseYield->insertOperands(elseYield->getNumOperands(), elseInTarget);
  for (auto [oldResult, newResult] :
       llvm::zip(ifOp.getResults(), newIf.getResults()))
    oldResult.replaceAllUsesWith(newResult);
  ifOp.erase();
  Value inTarget = newIf.getResults().back();
  if (carriedInTarget)
    forOp.getYieldedValuesMutable()->back().set(inTarget);
  convert.replaceAllUsesWith(inTarget);
  convert.erase();
  return true;
}

/// A loop-invariant dot operand (the query block of an attention loop) is
/// converted into its operand layout once, before the loop, instead of
/// being staged through shared memory every iteration. (A warp-group dot
/// reads its operands from shared memory inside its loop; those stay.)
void hoistInvariantOperandConverts(ModuleOp module) {
  module.walk([&](ConvertLayoutOp convert) {
    auto type = cast<RankedTensorType>(convert.getType());
    if (!isa_and_nonnull<DotOperandEncodingAttr>(type.getEncoding()) ||
        isWarpGroupDotOperand(type.getEncoding()))
      return;
    while (auto forOp = dyn_cast<scf::ForOp>(convert->getParentOp())) {
      if (!forOp.isDefinedOutsideOfLoop(convert.getSrc()))
        return;
      convert->moveBefore(forOp);
    }
  });
}

struct RemoveLayoutConversionsPass
    : public mgp::impl::MgpRemoveLayoutConversionsBase<
          RemoveLayoutConversionsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    RewritePatternSet patterns(&getContext());
    populateLayoutConversionPatterns(patterns);
    FrozenRewritePatternSet frozen(std::move(patterns));
    if (failed(applyPatternsGreedily(module, frozen)))
      return signalPassFailure();

    Rematerializer rematerializer;
    bool retyped = false;
    // Until no argument moves: carrying one argument in a new layout can
    // make another's yielded value recomputable there (an online softmax's
    // running sum reads its running max).
    DenseSet<Value> moved;
    module.walk([&](scf::ForOp forOp) {
      for (unsigned round = 0; round < forOp.getNumRegionIterArgs(); ++round) {
        if (!retypeLoopCarried(forOp, rematerializer, moved))
          break;
        retyped = true;
      }
    });
    // Values an scf.if in a loop updates, one copy per layout converted to:
    // each round may expose converts of the new results.
    auto duplicateIfResults = [&]() {
      bool any = false;
      for (int round = 0; round < 4; ++round) {
        SmallVector<ConvertLayoutOp> fromIfs;
        module.walk([&](ConvertLayoutOp convert) {
          if (convert.getSrc().getDefiningOp<scf::IfOp>())
            fromIfs.push_back(convert);
        });
        bool duplicated = false;
        for (ConvertLayoutOp convert : fromIfs)
          duplicated |= duplicateIfResult(convert, rematerializer);
        if (!duplicated)
          break;
        any = true;
        (void)applyPatternsGreedily(module, frozen);
      }
      return any;
    };
    retyped |= duplicateIfResults();
    if (retyped && failed(applyPatternsGreedily(module, frozen)))
      return signalPassFailure();

    // Rematerializes the sources of every convert_layout of the module.
    auto rematerializeConverts = [&]() {
      SmallVector<ConvertLayoutOp> converts;
      module.walk(
          [&](ConvertLayoutOp convert) { converts.push_back(convert); });
      for (ConvertLayoutOp convert : converts)
        (void)rematerializer.run(convert);
    };
    rematerializeConverts();
    SmallVector<ReduceOp> reduces;
    module.walk([&](ReduceOp reduce) { reduces.push_back(reduce); });
    for (ReduceOp reduce : reduces)
      (void)rematerializer.retypeReduceInput(reduce);
    SmallVector<StoreOp> stores;
    module.walk([&](StoreOp store) { stores.push_back(store); });
    for (StoreOp store : stores)
      (void)rematerializer.retypeStoredValue(store);
    if (failed(applyPatternsGreedily(module, frozen)))
      return signalPassFailure();
    // Loop arguments the rematerialization left converted in the body (a
    // running max whose update now runs in the rows of an mma layout).
    bool lateRetyped = false;
    module.walk([&](scf::ForOp forOp) {
      for (unsigned round = 0; round < forOp.getNumRegionIterArgs(); ++round) {
        if (!retypeLoopCarried(forOp, rematerializer, moved, /*late=*/true))
          break;
        lateRetyped = true;
      }
    });
    if (lateRetyped) {
      if (failed(applyPatternsGreedily(module, frozen)))
        return signalPassFailure();
      rematerializeConverts();
      if (failed(applyPatternsGreedily(module, frozen)))
        return signalPassFailure();
    }
    SmallVector<ConvertLayoutOp> converts;
    module.walk([&](ConvertLayoutOp convert) { converts.push_back(convert); });
    for (ConvertLayoutOp convert : converts)
      (void)rematerializer.retypeStagedOperand(convert);
    hoistInvariantOperandConverts(module);

    if (failed(applyPatternsGreedily(module, frozen)))
      return signalPassFailure();
    // The rematerialization above may convert such values again.
    if (duplicateIfResults()) {
      rematerializeConverts();
      if (failed(applyPatternsGreedily(module, frozen)))
        return signalPassFailure();
    }
  }
};

} // namespace
