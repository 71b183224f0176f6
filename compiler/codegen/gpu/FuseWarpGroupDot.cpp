//===- FuseWarpGroupDot.cpp - wgmma dots read shared memory directly ------===//
//
// This file implements `mgp-fuse-warp-group-dot` (docs/wgmma.md): before
// shared memory is allocated, each mgp.dot with an #mgp.mma version 3
// accumulator, `dot(local_load A, local_load B, C)`, becomes
// `warp_group_dot(A, B, C)` and the local_loads are erased (wgmma reads the
// operands from shared memory through matrix descriptors; a 16-bit A left in
// registers by mgp-stage-dot-operands stays there), so the buffers
// stay live up to the dot and mgp-insert-barriers sees the reads there (and
// adds the proxy fence the wgmma needs). Moving the reads from the
// local_loads down to the dot crosses only the ops between them, none of
// which may write the operand buffers (the other operand's local_alloc may
// sit there: it has its own bytes). In a loop mgp-pipeline gave a spare
// operand buffer or whose copies it issued after the dot, a loop-carried
// dot becomes asynchronous (makeAsync).
//
//===----------------------------------------------------------------------===//
#include "compiler/codegen/gpu/Passes.h"
#include "compiler/codegen/gpu/SharedScratch.h"
#include "compiler/ir/MgpDialect.h"
#include "compiler/ir/NvmmaLayout.h"
#include "compiler/ir/ZeroConstant.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mgp {
#define GEN_PASS_DEF_MGPFUSEWARPGROUPDOT
#include "compiler/codegen/gpu/Passes.h.inc"
} // namespace mgp

using namespace mlir;
using namespace mgp;

namespace {

bool isVersion3(DotOp dot) {
  auto type = cast<RankedTensorType>(dot.getD().getType());
  auto mma = dyn_cast_or_null<MmaEncodingAttr>(type.getEncoding());
  return mma && mma.getVersion() == 3;
}

/// Whether `op` may write `buffer` (the allocation a dot operand was read
/// from): anything with side effects or regions, except local_loads,
/// barriers, the wgmma dots fused before (they read shared memory and write
/// registers: dots sharing an operand, as a split-precision dot's parts do)
/// and the initialisation of another buffer (a local_alloc live together
/// with `buffer` has its own bytes).
bool mayWrite(Operation *op, Operation *buffer) {
  if (isa<LocalLoadOp, BarrierOp, WarpGroupDotOp, WarpGroupDotWaitOp>(op))
    return false;
  if (isa<LocalAllocOp>(op))
    return !buffer || op == buffer;
  return op->getNumRegions() != 0 || !isMemoryEffectFree(op);
}

/// Whether `memdesc` is a slot of a multi-buffer allocated outside `loop`
/// (mgp-pipeline's form), which the next iteration does not overwrite, or a
/// transposed view of one.
bool isPipelineSlot(Value memdesc, scf::ForOp loop) {
  if (auto trans = memdesc.getDefiningOp<MemDescTransOp>())
    memdesc = trans.getSrc();
  auto view = memdesc.getDefiningOp<MemDescSubviewOp>();
  return view && loop.isDefinedOutsideOfLoop(view.getSrc()) &&
         view.getSrc().getDefiningOp<LocalAllocOp>();
}

/// The accumulator reset of a loop over (tile, K step) pairs, Triton's
/// persistent style: after the dot, `next = select(last, 0, d)` (or
/// `select(c, d, 0)`) on a scalar condition is what the loop carries, and
/// the tile's epilogue reads `d` inside one scf.if. `epilogue` is that
/// scf.if, null when nothing but the select reads `d`.
struct AccumulatorReset {
  arith::SelectOp select;
  bool resetWhenTrue = false;
  scf::IfOp epilogue;
};

std::optional<AccumulatorReset> matchReset(WarpGroupDotOp dot, Value carried) {
  auto select = carried.getDefiningOp<arith::SelectOp>();
  if (!select || select->getBlock() != dot->getBlock() ||
      !select->hasOneUse() || !select.getCondition().getType().isInteger(1))
    return std::nullopt;
  AccumulatorReset reset{select, false, {}};
  Value d = dot.getD();
  if (select.getFalseValue() == d && isZeroConstant(select.getTrueValue()))
    reset.resetWhenTrue = true;
  else if (select.getTrueValue() != d ||
           !isZeroConstant(select.getFalseValue()))
    return std::nullopt;
  Block *body = dot->getBlock();
  for (Operation *user : d.getUsers()) {
    if (user == select.getOperation())
      continue;
    auto epilogue =
        dyn_cast_or_null<scf::IfOp>(body->findAncestorOpInBlock(*user));
    if (!epilogue || epilogue == user || !dot->isBeforeInBlock(epilogue) ||
        (reset.epilogue && reset.epilogue != epilogue))
      return std::nullopt;
    reset.epilogue = epilogue;
  }
  return reset;
}

/// Rewrites a reset (matchReset) of the accumulator of `dot`, carried as
/// `loop`'s iter arg `index`, so that the loop carries `d` itself: a new i1
/// iter arg (true on entry) says whether the next dot accumulates, which is
/// the dot's useC (wgmma's scale-d: false starts the tile from a @ b alone);
/// the epilogue waits for the dot (warp_group_dot_wait 0) before reading
/// `d` and yields the waited value, which the loop carries, so no read of
/// the in-flight accumulator is left outside a wait. After the loop, what
/// read the loop's result reads it selected against zero by the last flag
/// (makeAsync puts its wait before the select). Returns the new loop.
scf::ForOp rewriteReset(scf::ForOp loop, unsigned index, WarpGroupDotOp dot,
                        AccumulatorReset reset) {
  Location loc = dot.getLoc();
  IRRewriter rewriter(loop->getContext());
  rewriter.setInsertionPoint(loop);
  Value initTrue = arith::ConstantIntOp::create(rewriter, loc, 1, 1);
  Value condition = reset.select.getCondition();
  bool resetWhenTrue = reset.resetWhenTrue;
  DictionaryAttr attrs = loop->getDiscardableAttrDictionary();
  auto replaced = loop.replaceWithAdditionalYields(
      rewriter, initTrue, /*replaceInitOperandUsesInLoop=*/false,
      [&](OpBuilder &b, Location yieldLoc, ArrayRef<BlockArgument>) {
        Value next = condition;
        if (resetWhenTrue)
          next = arith::XOrIOp::create(b, yieldLoc, condition, initTrue);
        return SmallVector<Value>{next};
      });
  auto newLoop = cast<scf::ForOp>(replaced->getOperation());
  newLoop->setDiscardableAttrs(attrs);
  Value useC = newLoop.getRegionIterArgs().back();
  dot.getUseCMutable().assign(useC);
  Value d = dot.getD();
  Value zero = reset.select.getTrueValue() == d ? reset.select.getFalseValue()
                                                : reset.select.getTrueValue();
  Operation *yield = newLoop.getBody()->getTerminator();
  Value carried = d;
  if (scf::IfOp epilogue = reset.epilogue) {
    rewriter.setInsertionPoint(epilogue);
    SmallVector<Type> types(epilogue.getResultTypes());
    types.push_back(d.getType());
    auto withAcc = scf::IfOp::create(rewriter, epilogue.getLoc(), types,
                                     epilogue.getCondition(),
                                     /*addThenBlock=*/false,
                                     /*addElseBlock=*/false);
    withAcc.getThenRegion().takeBody(epilogue.getThenRegion());
    if (epilogue.getElseRegion().empty()) {
      rewriter.createBlock(&withAcc.getElseRegion());
      scf::YieldOp::create(rewriter, epilogue.getLoc());
    } else {
      withAcc.getElseRegion().takeBody(epilogue.getElseRegion());
    }
    for (Region *region :
         {&withAcc.getThenRegion(), &withAcc.getElseRegion()}) {
      Block &block = region->front();
      Value out = d;
      if (llvm::any_of(d.getUsers(), [&](Operation *user) {
            return region->isAncestor(user->getParentRegion());
          })) {
        rewriter.setInsertionPointToStart(&block);
        auto wait = WarpGroupDotWaitOp::create(rewriter, loc, d.getType(), d,
                                               rewriter.getI32IntegerAttr(0));
        d.replaceUsesWithIf(wait.getOutput(), [&](OpOperand &use) {
          return use.getOwner() != wait &&
                 region->isAncestor(use.getOwner()->getParentRegion());
        });
        out = wait.getOutput();
      }
      Operation *terminator = block.getTerminator();
      terminator->insertOperands(terminator->getNumOperands(), out);
    }
    rewriter.replaceOp(epilogue, withAcc.getResults().drop_back());
    carried = withAcc.getResults().back();
  }
  yield->setOperand(index, carried);
  rewriter.eraseOp(reset.select);
  Value result = newLoop.getResult(index);
  if (!result.use_empty()) {
    rewriter.setInsertionPointAfter(newLoop);
    if (!zero.getParentRegion()->isAncestor(newLoop->getParentRegion()))
      zero = rewriter.clone(*zero.getDefiningOp())->getResult(0);
    auto kept = arith::SelectOp::create(
        rewriter, loc, newLoop.getResults().back(), result, zero);
    result.replaceAllUsesExcept(kept.getResult(), kept);
  }
  return newLoop;
}

/// In a loop that mgp-pipeline gave a spare operand buffer (or whose
/// copies it issued after the dot, `mgp.wgmma_copies_after_dot`), a dot
/// whose operands are both pipeline slots and whose accumulator is only
/// carried from one iteration to the next runs asynchronously: each
/// iteration waits for the previous iteration's wgmma only (its slot is
/// then free; with the copies after the dot, once a barrier follows) and an
/// mgp.warp_group_dot_wait right after the loop waits for the last one
/// before anything reads the result. An accumulator reset by a select on a
/// scalar, read by an epilogue in an scf.if, becomes that form first
/// (rewriteReset). An operand staged from registers in the loop stays
/// synchronous: the next iteration rewrites its buffer.
void makeAsync(WarpGroupDotOp dot) {
  auto loop = dyn_cast<scf::ForOp>(dot->getParentOp());
  auto arg = dyn_cast<BlockArgument>(dot.getC());
  if (!loop ||
      !(loop->hasAttr("mgp.wgmma_spare_buffer") ||
        loop->hasAttr("mgp.wgmma_copies_after_dot")) ||
      !arg || arg.getOwner() != loop.getBody() || arg.getArgNumber() == 0 ||
      dot.getUseC() || !isPipelineSlot(dot.getA(), loop) ||
      !isPipelineSlot(dot.getB(), loop))
    return;
  unsigned index = arg.getArgNumber() - 1;
  Operation *yield = loop.getBody()->getTerminator();
  Value carried = yield->getOperand(index);
  if (carried == dot.getD()) {
    if (!dot.getD().hasOneUse())
      return;
  } else if (std::optional<AccumulatorReset> reset = matchReset(dot, carried)) {
    loop = rewriteReset(loop, index, dot, *reset);
  } else {
    return;
  }
  dot.setIsAsync(true);
  OpBuilder builder(loop->getContext());
  builder.setInsertionPointAfter(loop);
  Value result = loop.getResult(index);
  auto wait = WarpGroupDotWaitOp::create(builder, dot.getLoc(),
                                         result.getType(), result,
                                         builder.getI32IntegerAttr(0));
  result.replaceAllUsesExcept(wait.getOutput(), wait);
}

LogicalResult fuse(DotOp dot) {
  auto loadA = dot.getA().getDefiningOp<LocalLoadOp>();
  auto loadB = dot.getB().getDefiningOp<LocalLoadOp>();
  // A 16-bit A that mgp-stage-dot-operands left in registers (its value
  // already in the wgmma A fragment's layout) is read from there.
  bool aInRegisters =
      !loadA && cast<RankedTensorType>(dot.getA().getType())
                        .getElementTypeBitWidth() == 16;
  if ((!loadA && !aInRegisters) || !loadB ||
      (loadA && loadA->getBlock() != dot->getBlock()) ||
      loadB->getBlock() != dot->getBlock())
    return dot.emitError("a version-3 mma dot needs both operands read from "
                         "shared memory by mgp.local_load in its block");
  SmallVector<LocalLoadOp> loads = {loadB};
  if (loadA)
    loads.push_back(loadA);
  for (LocalLoadOp load : loads)
    for (Operation *op = load->getNextNode(); op != dot.getOperation();
         op = op->getNextNode())
      if (mayWrite(op, getBufferAllocation(load.getSrc())))
        return dot.emitError("a version-3 mma dot's operand load is "
                             "separated from it by ")
               << op->getName() << ", which may write shared memory";
  OpBuilder builder(dot);
  auto fused = WarpGroupDotOp::create(
      builder, dot.getLoc(), dot.getD().getType(),
      loadA ? Value(loadA.getSrc()) : dot.getA(), loadB.getSrc(), dot.getC(),
      Value(), dot.getInputPrecisionAttr(), UnitAttr());
  dot.getD().replaceAllUsesWith(fused.getD());
  dot.erase();
  for (LocalLoadOp load : loads)
    if (load->use_empty())
      load->erase();
  makeAsync(fused);
  return success();
}

/// Synchronous dots chained through their accumulators in one block (d1's
/// result only the accumulator of d2, and so on: the products of a
/// split-precision dot): the operands a later dot of the chain stages from
/// registers are staged before the chain's first dot (when their values are
/// computed before it), so the chain reads shared memory after one barrier,
/// and each dot followed by register ops alone before the next is marked
/// kWgmmaChainedAttr (issued without a wait; the last dot's wait_group 0
/// waits for the chain). A staged buffer is never rewritten while a dot of
/// the chain may read it: nothing but register ops sits between a chained
/// dot and the next one.
void chainDots(Block &block) {
  llvm::DenseMap<Operation *, Operation *> head;
  SmallVector<WarpGroupDotOp> dots(block.getOps<WarpGroupDotOp>());
  for (WarpGroupDotOp dot : dots) {
    if (dot.getIsAsync() || !dot.getD().hasOneUse())
      continue;
    auto next = dyn_cast<WarpGroupDotOp>(*dot.getD().getUsers().begin());
    if (!next || next->getBlock() != &block || next.getC() != dot.getD() ||
        next.getIsAsync())
      continue;
    Operation *first = head.lookup(dot) ? head.lookup(dot) : dot.getOperation();
    head[next] = first;
    for (Value operand : {next.getA(), Value(next.getB())}) {
      auto alloc = operand.getDefiningOp<LocalAllocOp>();
      if (!alloc || alloc->getBlock() != &block || !alloc.getSrc() ||
          alloc->isBeforeInBlock(first))
        continue;
      Operation *src = alloc.getSrc().getDefiningOp();
      if (src && src->getBlock() == &block && !src->isBeforeInBlock(first))
        continue; // computed inside the chain
      alloc->moveBefore(first);
    }
    bool registersOnly = true;
    for (Operation *op = dot->getNextNode(); op != next.getOperation();
         op = op->getNextNode())
      registersOnly &= op->getNumRegions() == 0 && isMemoryEffectFree(op);
    if (registersOnly)
      dot->setAttr(kWgmmaChainedAttr, UnitAttr::get(dot.getContext()));
  }
}

struct FuseWarpGroupDotPass
    : public mgp::impl::MgpFuseWarpGroupDotBase<FuseWarpGroupDotPass> {
  void runOnOperation() override {
    SmallVector<DotOp> dots;
    getOperation().walk([&](DotOp dot) {
      if (isVersion3(dot))
        dots.push_back(dot);
    });
    for (DotOp dot : dots)
      if (failed(fuse(dot)))
        return signalPassFailure();
    llvm::SetVector<Block *> blocks;
    getOperation().walk([&](WarpGroupDotOp dot) {
      blocks.insert(dot->getBlock());
    });
    for (Block *block : blocks)
      chainDots(*block);
  }
};

} // namespace
