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

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
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

/// In a loop that mgp-pipeline gave a spare operand buffer (or whose
/// copies it issued after the dot, `mgp.wgmma_copies_after_dot`), a dot
/// whose operands are both pipeline slots and whose accumulator is only
/// carried from one iteration to the next runs asynchronously: each
/// iteration waits for the previous iteration's wgmma only (its slot is
/// then free; with the copies after the dot, once a barrier follows) and an
/// mgp.warp_group_dot_wait right after the loop waits for the last one
/// before anything reads the result. An operand staged from registers in
/// the loop stays synchronous: the next iteration rewrites its buffer.
void makeAsync(WarpGroupDotOp dot) {
  auto loop = dyn_cast<scf::ForOp>(dot->getParentOp());
  auto arg = dyn_cast<BlockArgument>(dot.getC());
  if (!loop ||
      !(loop->hasAttr("mgp.wgmma_spare_buffer") ||
        loop->hasAttr("mgp.wgmma_copies_after_dot")) ||
      !arg ||
      arg.getOwner() != loop.getBody() || arg.getArgNumber() == 0 ||
      !dot.getD().hasOneUse() || !isPipelineSlot(dot.getA(), loop) ||
      !isPipelineSlot(dot.getB(), loop))
    return;
  unsigned index = arg.getArgNumber() - 1;
  Operation *yield = loop.getBody()->getTerminator();
  if (*dot.getD().getUsers().begin() != yield ||
      yield->getOperand(index) != dot.getD())
    return;
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
      dot.getInputPrecisionAttr(), UnitAttr());
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
