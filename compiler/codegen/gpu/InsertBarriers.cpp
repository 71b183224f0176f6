//===- InsertBarriers.cpp - barriers between shared-memory accesses -------===//
//
// This file implements `mgp-insert-barriers`, a small Membar: walking each
// function in program order it keeps the shared byte ranges read and written
// since the last barrier and inserts mgp.barrier before an op that would
// write what was read or written, or read what was written. Offsets come
// from mgp-allocate-shared. Loops: a barrier before the loop when what is
// pending conflicts with the body, and one before the back edge when the end
// of the body conflicts with its beginning (the accesses before the body's
// first barrier): before the first op of the body that conflicts, as
// Membar places it; scf.if joins its branches.
// Asynchronous copies (mgp.async_copy_global_to_local) are checked as writes
// when issued (against earlier reads and writes: WAR, WAW) but are not
// pending afterwards: their data lands at an mgp.async_wait, and every wait
// gets a barrier right after it, which orders the copies of all threads
// before any later read. mgp.warp_group_dot reads both operand buffers; its
// proxy fence, for operands that st.shared may have written, is placed last
// (fenceOperands).
//
//===----------------------------------------------------------------------===//
#include "compiler/codegen/gpu/Passes.h"
#include "compiler/codegen/gpu/SharedScratch.h"

#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/LoopLikeInterface.h"

namespace mgp {
#define GEN_PASS_DEF_MGPINSERTBARRIERS
#include "compiler/codegen/gpu/Passes.h.inc"
} // namespace mgp

using namespace mlir;
using namespace mgp;

namespace {

/// A half-open byte range [begin, end) of shared memory.
struct Interval {
  int64_t begin, end;
  bool overlaps(const Interval &other) const {
    return begin < other.end && other.begin < end;
  }
};

/// Shared memory read and written since the last barrier.
struct AccessSet {
  SmallVector<Interval> reads, writes;

  static bool anyOverlap(ArrayRef<Interval> a, ArrayRef<Interval> b) {
    for (const Interval &x : a)
      for (const Interval &y : b)
        if (x.overlaps(y))
          return true;
    return false;
  }
  /// Whether doing `next` after this needs a barrier in between.
  bool conflictsWith(const AccessSet &next) const {
    return anyOverlap(next.writes, reads) || anyOverlap(next.writes, writes) ||
           anyOverlap(next.reads, writes);
  }
  void join(const AccessSet &other) {
    reads.append(other.reads);
    writes.append(other.writes);
  }
  bool empty() const { return reads.empty() && writes.empty(); }
  void clear() {
    reads.clear();
    writes.clear();
  }
};

void createBarrierBefore(Operation *op) {
  OpBuilder builder(op);
  BarrierOp::create(builder, op->getLoc());
}

/// The byte range of an op's allocation (`mgp.allocation.offset`): a
/// local_alloc's buffer or another op's scratch; nullopt without one.
std::optional<Interval> getAllocatedRange(Operation *op) {
  auto offset = op->getAttrOfType<IntegerAttr>("mgp.allocation.offset");
  if (!offset)
    return std::nullopt;
  int64_t size = 0;
  if (auto alloc = dyn_cast<LocalAllocOp>(op))
    size = getBufferSizeInBytes(cast<MemDescType>(alloc.getType()));
  else
    size = getScratchSizeInBytes(op);
  return Interval{offset.getInt(), offset.getInt() + size};
}

/// The ops that may have written with st.shared (generic-proxy stores) the
/// shared bytes `dot` reads as `memdesc` before it: initialised local_allocs,
/// local_stores and ops' scratch on any of those bytes (buffers share bytes
/// across live ranges), above the dot in program order or in a loop around
/// it; nullopt when the buffer cannot be traced. Buffers filled only by
/// cp.async, whose data is ordered before the wgmma by cp.async.wait_group
/// and the barrier after it, have none (as in Triton, whose fence insertion
/// fences only register-to-shared copies).
std::optional<SmallVector<Operation *>>
getGenericWriters(WarpGroupDotOp dot, Value memdesc, Operation *func) {
  LocalAllocOp alloc = getBufferAllocation(memdesc);
  std::optional<Interval> range =
      alloc ? getAllocatedRange(alloc) : std::nullopt;
  if (!range)
    return std::nullopt;
  SmallVector<Operation *> loops;
  for (Operation *op = dot->getParentOp(); op != func; op = op->getParentOp())
    if (isa<LoopLikeOpInterface>(op))
      loops.push_back(op);
  bool afterDot = false;
  SmallVector<Operation *> writers;
  func->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (op == dot.getOperation())
      afterDot = true;
    if (afterDot && llvm::none_of(loops, [&](Operation *loop) {
          return loop->isAncestor(op);
        }))
      return;
    std::optional<Interval> written;
    if (auto init = dyn_cast<LocalAllocOp>(op)) {
      if (init.getSrc())
        written = getAllocatedRange(op);
    } else if (auto store = dyn_cast<LocalStoreOp>(op)) {
      LocalAllocOp target = getBufferAllocation(store.getDst());
      written = target ? getAllocatedRange(target) : range;
    } else {
      written = getAllocatedRange(op); // scratch
    }
    if (written && written->overlaps(*range))
      writers.push_back(op);
  });
  return writers;
}

/// wgmma reads its operands through the async proxy: each thread fences its
/// generic-proxy writes (st.shared) before the barrier that orders them
/// before the read. When every such write runs outside loops (a
/// loop-invariant operand staged before the loop), the fence goes right
/// after each write, so a loop around the dot does not fence every
/// iteration; the barrier mgp-insert-barriers put between the write and the
/// dot completes the order. Otherwise the fence goes before the nearest
/// barrier above `dot` in its block (barriers are in place: that one follows
/// the last operand write); with none, or an op in between whose regions
/// hold a barrier (a nearer one), a fence and a barrier go right before
/// `dot`. Ops whose regions hold no barrier (a reduction's combiner) are
/// looked past. Operands that only cp.async writes get no fence.
void fenceOperands(WarpGroupDotOp dot, Operation *func) {
  SmallVector<Value> buffers = {dot.getB()};
  if (isa<MemDescType>(dot.getA().getType()))
    buffers.push_back(dot.getA());
  SmallVector<Operation *> writers;
  bool traced = true;
  for (Value buffer : buffers) {
    std::optional<SmallVector<Operation *>> found =
        getGenericWriters(dot, buffer, func);
    if (!found)
      traced = false;
    else
      writers.append(found->begin(), found->end());
  }
  if (traced && writers.empty())
    return;
  if (traced && llvm::none_of(writers, [](Operation *writer) {
        return writer->getParentOfType<LoopLikeOpInterface>();
      })) {
    for (Operation *writer : writers) {
      if (isa_and_nonnull<FenceAsyncSharedOp>(writer->getNextNode()))
        continue;
      OpBuilder builder(writer->getContext());
      builder.setInsertionPointAfter(writer);
      FenceAsyncSharedOp::create(builder, dot.getLoc());
    }
    return;
  }
  OpBuilder builder(dot);
  for (Operation *op = dot->getPrevNode(); op; op = op->getPrevNode()) {
    if (isa<BarrierOp>(op)) {
      builder.setInsertionPoint(op);
      FenceAsyncSharedOp::create(builder, dot.getLoc());
      return;
    }
    if (op->getNumRegions() != 0 &&
        op->walk([](BarrierOp) { return WalkResult::interrupt(); })
            .wasInterrupted())
      break;
  }
  FenceAsyncSharedOp::create(builder, dot.getLoc());
  BarrierOp::create(builder, dot.getLoc());
}

class BarrierInserter {
public:
  explicit BarrierInserter(int64_t totalShared) : totalShared(totalShared) {}

  void processBlock(Block &block, AccessSet &pending) {
    for (Operation &op : llvm::make_early_inc_range(block))
      processOp(&op, pending);
  }

private:
  void processOp(Operation *op, AccessSet &pending) {
    if (isa<BarrierOp>(op))
      return pending.clear();
    if (isa<AsyncWaitOp>(op)) {
      if (!isa_and_nonnull<BarrierOp>(op->getNextNode())) {
        OpBuilder builder(op->getContext());
        builder.setInsertionPointAfter(op);
        BarrierOp::create(builder, op->getLoc());
      }
      return pending.clear();
    }
    if (isa<scf::ForOp, scf::WhileOp>(op))
      return processLoop(op, pending);
    if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
      AccessSet elsePending = pending;
      processBlock(*ifOp.thenBlock(), pending);
      if (ifOp.elseBlock())
        processBlock(*ifOp.elseBlock(), elsePending);
      return pending.join(elsePending);
    }
    AccessSet accesses = getAccesses(op);
    if (accesses.empty())
      return;
    if (pending.conflictsWith(accesses)) {
      createBarrierBefore(op);
      pending.clear();
    }
    if (!isa<AsyncCopyGlobalToLocalOp>(op))
      pending.join(accesses);
  }

  void processLoop(Operation *loop, AccessSet &pending) {
    if (getNestedAccesses(loop).empty())
      return;
    AccessSet body = getLeadingAccesses(loop);
    if (pending.conflictsWith(body)) {
      createBarrierBefore(loop);
      pending.clear();
    }
    AccessSet entry = pending;
    for (Region &region : loop->getRegions())
      processBlock(region.front(), pending);
    // The back edge: the next iteration starts with the body's accesses.
    // The barrier goes before the first of them that conflicts with the
    // end of the body (Membar's placement): the accesses above it, and
    // the global loads that feed them, are not held behind it.
    if (pending.conflictsWith(body)) {
      Operation *first = getFirstConflict(loop, pending);
      createBarrierBefore(first);
      if (first->hasTrait<OpTrait::IsTerminator>())
        pending.clear();
    }
    pending.join(entry); // the loop may run zero times
  }

  /// The first top-level op of `loop`'s body (before its first barrier)
  /// whose accesses conflict with `pending`; the terminator when there is
  /// none (the loop has several regions).
  Operation *getFirstConflict(Operation *loop, const AccessSet &pending) {
    Block &body = loop->getRegions().back().front();
    if (loop->getNumRegions() == 1)
      for (Operation &op : body) {
        if (isa<BarrierOp, AsyncWaitOp>(op))
          break;
        AccessSet accesses = getAccesses(&op);
        accesses.join(getNestedAccesses(&op));
        if (pending.conflictsWith(accesses))
          return &op;
      }
    return body.getTerminator();
  }

  /// Every shared access of the ops nested in `op`.
  AccessSet getNestedAccesses(Operation *op) {
    AccessSet all;
    op->walk([&](Operation *nested) {
      if (nested != op)
        all.join(getAccesses(nested));
    });
    return all;
  }

  /// The accesses a loop's regions make before their first top-level
  /// barrier or async_wait (which gets one): what the start of an iteration
  /// can conflict with.
  AccessSet getLeadingAccesses(Operation *loop) {
    AccessSet leading;
    for (Region &region : loop->getRegions())
      for (Operation &op : region.front()) {
        if (isa<BarrierOp, AsyncWaitOp>(op))
          break;
        leading.join(getAccesses(&op));
        leading.join(getNestedAccesses(&op));
      }
    return leading;
  }

  /// The buffer a memdesc value views: its local_alloc's range (through
  /// memdesc_subview: the whole multi-buffer), or all of shared memory when
  /// it cannot be traced.
  Interval getBuffer(Value memdesc) {
    if (LocalAllocOp alloc = getBufferAllocation(memdesc))
      if (auto offset =
              alloc->getAttrOfType<IntegerAttr>("mgp.allocation.offset")) {
        int64_t size = getBufferSizeInBytes(cast<MemDescType>(alloc.getType()));
        return {offset.getInt(), offset.getInt() + size};
      }
    return {0, std::max<int64_t>(totalShared, 1)};
  }

  AccessSet getAccesses(Operation *op) {
    AccessSet set;
    if (auto alloc = dyn_cast<LocalAllocOp>(op)) {
      if (alloc.getSrc())
        set.writes.push_back(getBuffer(alloc.getResult()));
    } else if (auto store = dyn_cast<LocalStoreOp>(op)) {
      set.writes.push_back(getBuffer(store.getDst()));
    } else if (auto load = dyn_cast<LocalLoadOp>(op)) {
      set.reads.push_back(getBuffer(load.getSrc()));
    } else if (auto dot = dyn_cast<WarpGroupDotOp>(op)) {
      if (isa<MemDescType>(dot.getA().getType()))
        set.reads.push_back(getBuffer(dot.getA()));
      set.reads.push_back(getBuffer(dot.getB()));
    } else if (auto copy = dyn_cast<AsyncCopyGlobalToLocalOp>(op)) {
      set.writes.push_back(getBuffer(copy.getDst()));
    } else if (auto offset =
                   op->getAttrOfType<IntegerAttr>("mgp.allocation.offset")) {
      // Scratch: written, then read back inside the op's lowering.
      Interval scratch{offset.getInt(),
                       offset.getInt() + getScratchSizeInBytes(op)};
      set.writes.push_back(scratch);
      set.reads.push_back(scratch);
    }
    return set;
  }

  int64_t totalShared;
};

struct InsertBarriersPass
    : public mgp::impl::MgpInsertBarriersBase<InsertBarriersPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    int64_t total = 0;
    if (auto attr = module->getAttrOfType<IntegerAttr>("mgp.shared"))
      total = attr.getInt();
    for (auto func : module.getOps<func::FuncOp>()) {
      if (func.isExternal())
        continue;
      AccessSet pending;
      BarrierInserter inserter(total);
      for (Block &block : func.getBody())
        inserter.processBlock(block, pending);
      func.walk([&](WarpGroupDotOp dot) { fenceOperands(dot, func); });
    }
  }
};

} // namespace
