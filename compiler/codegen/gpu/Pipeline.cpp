//===- Pipeline.cpp - software pipelining of loads that feed dots ---------===//
//
// This file implements `mgp-pipeline`, a simplified version of Triton's
// Ampere pipeliner (notes/triton-lowering.md §4). In an scf.for, an
// mgp.load whose block goes to a dot through shared memory, either
//   load -> local_alloc -> local_load(s)      (mgp-stage-dot-operands) or
//   load -> convert_layout(s) to #mgp.dot_op  (the FMA path) or
//   load -> register ops -> dot operand       (an operand computed from the
//                                              block: a split-precision
//                                              dot's parts, a dequantization),
// becomes an asynchronous copy into one of numStages buffers allocated before
// the loop (a nonzero `other` comes back as a select on the slot read in the
// load's layout, which the readers then stage as before; a computed
// operand's ops read the slot back in the load's layout likewise):
//   slot = ((iv - lb) / step) mod numStages
//   async_copy_global_to_local ptr, memdesc_subview(buf, slot) mask m
//   async_commit_group                      (one group per iteration)
//   async_wait N; local_load memdesc_subview(buf, slot)
// MLIR's scf::pipelineForLoop then expands the loop with two stages: stage
// 0 (the copies and the ops their pointers and masks need, including the
// updates of loop-carried values they read) runs numStages - 1 iterations
// ahead of stage numStages - 1 (everything else). The prologue issues
// iterations 0..S-2; the kernel waits for iteration i (N = S - 2 groups may
// stay pending; mgp-insert-barriers puts a barrier after the wait), copies
// iteration i+S-1 into the slot iteration i-1 read before that barrier, then
// reads and computes iteration i. Copies past the end are masked off
// (zero-fill into a slot nobody reads), so no epilogue is peeled.
// `async_wait 0` (and its barrier) follows the loop.
// A loop whose buffers would pass the shared budget (an option: 96 KiB for
// sm_80-sm_89, more on sm_90) with numStages copies gets fewer stages (down
// to 2; none below); buffers staged before the loop and read in it and the
// largest scratch of an op in the loop (a persistent loop's epilogue
// conversion) count against the budget too. A loop whose dot becomes an
// mgp.warp_group_dot gets numStages + 1 buffers (slot = index mod
// numStages + 1, the attribute `mgp.wgmma_spare_buffer`): its wgmma may
// still read the slot of iteration i while iteration i + 1 copies into the
// slot of i + numStages (mgp-fuse-warp-group-dot then makes the dot
// asynchronous). When that spare buffer is what keeps a second block off an
// sm_90 SM (two blocks'
// buffers fit its 228 KiB with numStages slots, not with numStages + 1)
// and the dot will be asynchronous (both operands read from the loop's
// slots, the accumulator only carried to the next iteration), the loop
// takes Triton's order instead (`mgp.wgmma_copies_after_dot`): numStages
// slots, the copies issued after the dot, whose wgmma has then waited for
// the previous iteration's group; mgp-insert-barriers puts a barrier
// between them, and the copies overwrite the slot that group read.
//
//===----------------------------------------------------------------------===//
#include "compiler/codegen/gpu/AsyncCopyWidth.h"
#include "compiler/codegen/gpu/Passes.h"
#include "compiler/codegen/gpu/SharedScratch.h"
#include "compiler/codegen/gpu/TensorEncoding.h"
#include "compiler/ir/Layout.h"
#include "compiler/ir/ZeroConstant.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"

namespace mgp {
#define GEN_PASS_DEF_MGPPIPELINE
#include "compiler/codegen/gpu/Passes.h.inc"
} // namespace mgp

using namespace mlir;
using namespace mgp;

namespace {

constexpr llvm::StringLiteral kWaitMarker = "mgp.pipeline_wait";

constexpr llvm::StringLiteral kSpareBufferAttr = "mgp.wgmma_spare_buffer";
constexpr llvm::StringLiteral kCopiesAfterDotAttr =
    "mgp.wgmma_copies_after_dot";

/// An sm_90 SM's shared memory, and what the driver keeps per block; its
/// registers and threads.
constexpr int64_t kHopperSharedPerSM = 228 * 1024;
constexpr int64_t kSharedReservedPerBlock = 1024;
constexpr int64_t kRegistersPerSM = 64 * 1024;
constexpr int64_t kThreadsPerSM = 2048;
/// Registers per thread besides the warp-group accumulators, as estimated
/// for the blocks-per-SM count: ptxas gave a 128x64 fp16 convolution tile 142
/// on one warp group (64 accumulator registers) and 85 on two (32).
constexpr int64_t kRegistersBesidesAccumulator = 64;

/// Whether `dot` becomes a warp_group_dot (an #mgp.mma version 3
/// accumulator).
bool isWarpGroupDot(DotOp dot) {
  auto type = cast<RankedTensorType>(dot.getD().getType());
  auto mma = dyn_cast_or_null<MmaEncodingAttr>(type.getEncoding());
  return mma && mma.getVersion() == 3;
}

/// Whether `loop` holds such a dot: it gets one spare buffer per load, so
/// the wgmma of iteration i may still read its slot while iteration i + 1
/// copies.
bool hasWarpGroupDot(scf::ForOp loop) {
  return llvm::any_of(loop.getBody()->getOps<DotOp>(), isWarpGroupDot);
}

/// How many blocks of the kernel `loop` is in an SM holds when each takes
/// `sharedBytes` of shared memory: the fewest that shared memory, threads and
/// registers allow, the registers estimated from the loop's warp-group
/// accumulators.
int64_t blocksPerSM(scf::ForOp loop, int64_t sharedBytes) {
  int64_t threads =
      int64_t(getModuleNumWarps(loop)) * getModuleThreadsPerWarp(loop);
  int64_t accumulators = 0;
  for (auto dot : loop.getBody()->getOps<DotOp>())
    if (isWarpGroupDot(dot)) {
      auto type = cast<RankedTensorType>(dot.getD().getType());
      accumulators += llvm::divideCeil(
          type.getNumElements() * type.getElementTypeBitWidth(), threads * 32);
    }
  int64_t registers =
      llvm::alignTo(accumulators + kRegistersBesidesAccumulator, 8);
  return std::min({kHopperSharedPerSM / sharedBytes, kThreadsPerSM / threads,
                   kRegistersPerSM / (registers * threads)});
}

/// A load to turn into asynchronous copies, and how its block reaches the
/// dot: through a local_alloc (`alloc`), through convert_layouts, or
/// (`computed`) through register ops that compute a dot operand from it.
struct Candidate {
  LoadOp load;
  LocalAllocOp alloc;
  MemDescType bufferType; // one buffer, no leading dim
  unsigned vectorWidth = 1;
  bool computed = false;
};

bool isDotOperand(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor &&
         isa_and_nonnull<DotOperandEncodingAttr>(tensor.getEncoding());
}

/// Whether `load`'s block reaches an operand of a dot in its loop body
/// through side-effect-free register ops (e.g. the split of an fp32 operand
/// into tf32 parts, a dequantization), and through the staging of the
/// operands they compute (local_alloc / local_load).
bool feedsDotThroughRegisters(LoadOp load) {
  Block *body = load->getBlock();
  SmallVector<Operation *> worklist(load->getUsers().begin(),
                                    load->getUsers().end());
  llvm::SmallPtrSet<Operation *, 16> seen;
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    if (op->getBlock() != body || !seen.insert(op).second)
      continue;
    if (isa<DotOp>(op))
      return true;
    if (!isa<LocalAllocOp, LocalLoadOp>(op) &&
        (op->getNumRegions() || !isMemoryEffectFree(op)))
      continue;
    llvm::append_range(worklist, op->getUsers());
  }
  return false;
}

/// The candidate for `load` (a direct child of a loop body), if any.
std::optional<Candidate> matchCandidate(LoadOp load) {
  auto type = dyn_cast<RankedTensorType>(load.getType());
  if (!type || !type.getEncoding() || load.getResult().use_empty())
    return std::nullopt;
  // cp.async caches in L2 at least: a ".cv" load (fetch again, cache
  // nothing) stays a load.
  if (auto cache = load->getAttrOfType<StringAttr>(kCacheModifierAttr))
    if (cache.getValue() == "cv")
      return std::nullopt;
  Block *body = load->getBlock();
  Candidate candidate{load, {}, {}, 1};
  if (auto width = load->getAttrOfType<IntegerAttr>("mgp.vector_width"))
    candidate.vectorWidth = width.getInt();
  Operation *user = *load->getUsers().begin();
  if (auto alloc = dyn_cast<LocalAllocOp>(user)) {
    if (!load->hasOneUse() || alloc->getBlock() != body)
      return std::nullopt;
    // Readers: local_loads, or transposed views read by local_loads.
    for (Operation *reader : alloc->getUsers()) {
      if (reader->getBlock() != body)
        return std::nullopt;
      if (isa<MemDescTransOp>(reader)) {
        for (Operation *load : reader->getUsers())
          if (!isa<LocalLoadOp>(load) || load->getBlock() != body)
            return std::nullopt;
      } else if (!isa<LocalLoadOp>(reader)) {
        return std::nullopt;
      }
    }
    auto allocType = alloc.getType();
    candidate.alloc = alloc;
    candidate.bufferType =
        MemDescType::get(allocType.getShape(), allocType.getElementType(),
                         allocType.getEncoding(), /*isMutable=*/true);
  } else {
    for (Operation *reader : load->getUsers())
      if (!isa<ConvertLayoutOp>(reader) || reader->getBlock() != body ||
          !isDotOperand(reader->getResult(0).getType()))
        candidate.computed = true;
    if (candidate.computed && !feedsDotThroughRegisters(load))
      return std::nullopt;
    SmallVector<unsigned> order = getOrder(type.getEncoding());
    auto encoding = SharedEncodingAttr::get(load.getContext(), 1, 1, 1, order);
    candidate.bufferType = MemDescType::get(
        type.getShape(), type.getElementType(), encoding, /*isMutable=*/true);
  }
  if (!getAsyncCopyWidth(cast<RankedTensorType>(load.getPtr().getType()),
                         candidate.bufferType, candidate.vectorWidth))
    return std::nullopt;
  return candidate;
}

/// Whether `operand` is read by a local_load from the buffer of one of
/// `candidates` (directly or through a transposed view of it).
bool readsCandidateBuffer(Value operand, ArrayRef<Candidate> candidates) {
  auto read = operand.getDefiningOp<LocalLoadOp>();
  if (!read)
    return false;
  Value memdesc = read.getSrc();
  if (auto trans = memdesc.getDefiningOp<MemDescTransOp>())
    memdesc = trans.getSrc();
  return llvm::any_of(candidates, [&](Candidate c) {
    return c.alloc && c.alloc.getResult() == memdesc;
  });
}

/// Whether `loop` holds a dot that becomes a warp_group_dot which
/// mgp-fuse-warp-group-dot makes asynchronous (its makeAsync): an #mgp.mma
/// version 3 accumulator that is a loop-carried value yielded only to the
/// next iteration, and both operands read from pipelined buffers.
bool hasAsyncWarpGroupDot(scf::ForOp loop, ArrayRef<Candidate> candidates) {
  Operation *yield = loop.getBody()->getTerminator();
  for (auto dot : loop.getBody()->getOps<DotOp>()) {
    auto arg = dyn_cast<BlockArgument>(dot.getC());
    if (!isWarpGroupDot(dot) || !arg ||
        arg.getOwner() != loop.getBody() || arg.getArgNumber() == 0 ||
        !dot.getD().hasOneUse() || *dot.getD().getUsers().begin() != yield ||
        yield->getOperand(arg.getArgNumber() - 1) != dot.getD())
      continue;
    if (readsCandidateBuffer(dot.getA(), candidates) &&
        readsCandidateBuffer(dot.getB(), candidates))
      return true;
  }
  return false;
}

/// Whether `op` may run ahead of its iteration, as often as the copies do:
/// no memory effects, and no regions but those of an scf.if whose ops have
/// none either (the persistent style's `if ki == 0:` that moves a program's
/// offsets to its next tile).
bool canRunAhead(Operation *op) {
  if (op->getNumRegions() && !isa<scf::IfOp>(op))
    return false;
  return isMemoryEffectFree(op);
}

/// The ops of `body` that `roots` need, following loop-carried values to
/// the ops that yield them and an scf.if's regions to the values they read;
/// nullopt when one of them cannot run ahead (canRunAhead).
std::optional<llvm::SetVector<Operation *>>
getAheadSlice(scf::ForOp loop, ArrayRef<Value> roots) {
  Block *body = loop.getBody();
  Operation *yield = body->getTerminator();
  llvm::SetVector<Operation *> slice;
  llvm::DenseSet<Value> seen;
  SmallVector<Value> worklist(roots.begin(), roots.end());
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    if (!value || !seen.insert(value).second)
      continue;
    if (auto arg = dyn_cast<BlockArgument>(value)) {
      if (arg.getOwner() == body && arg.getArgNumber() > 0)
        worklist.push_back(yield->getOperand(arg.getArgNumber() - 1));
      continue;
    }
    Operation *op = value.getDefiningOp();
    if (op->getBlock() != body)
      continue;
    if (!canRunAhead(op))
      return std::nullopt;
    if (!slice.insert(op))
      continue;
    worklist.append(op->operand_begin(), op->operand_end());
    if (op->getNumRegions()) {
      llvm::SetVector<Value> captured;
      getUsedValuesDefinedAbove(op->getRegions(), captured);
      worklist.append(captured.begin(), captured.end());
    }
  }
  return slice;
}

/// The asynchronous form of a loop body: the ops of stage 0, the copies, the
/// iteration's commit and the wait before the first reader.
struct AsyncForm {
  llvm::SetVector<Operation *> ahead;
  SmallVector<Operation *> copies;
  Operation *commit = nullptr, *wait = nullptr;
};

/// Rewrites the candidates of `loop` into the asynchronous form; `ahead`
/// starts as the slice the copies need.
AsyncForm rewriteToAsync(scf::ForOp loop, ArrayRef<Candidate> candidates,
                         llvm::SetVector<Operation *> ahead, int numBuffers) {
  AsyncForm form;
  OpBuilder b(loop);
  Location loc = loop.getLoc();
  SmallVector<Value> buffers;
  for (const Candidate &c : candidates) {
    SmallVector<int64_t> shape{numBuffers};
    llvm::append_range(shape, c.bufferType.getShape());
    auto type = MemDescType::get(shape, c.bufferType.getElementType(),
                                 c.bufferType.getEncoding(), true);
    buffers.push_back(LocalAllocOp::create(b, loc, type, Value()));
  }

  // slot = ((iv - lb) / step) mod numBuffers, as i32, unsigned: scf.for
  // steps are positive, so iv - lb is never negative in the loop (nor in the
  // predicated iterations past its end).
  Block *body = loop.getBody();
  b.setInsertionPointToStart(body);
  Value iv = loop.getInductionVar();
  Value index = arith::DivUIOp::create(
      b, loc, arith::SubIOp::create(b, loc, iv, loop.getLowerBound()),
      loop.getStep());
  Value stages = arith::ConstantOp::create(
      b, loc, b.getIntegerAttr(iv.getType(), numBuffers));
  Value slot = arith::RemUIOp::create(b, loc, index, stages);
  for (Operation *op :
       {index.getDefiningOp(), stages.getDefiningOp(), slot.getDefiningOp(),
        index.getDefiningOp()->getOperand(0).getDefiningOp()})
    ahead.insert(op);
  if (!slot.getType().isInteger(32)) {
    slot = arith::IndexCastOp::create(b, loc, b.getI32Type(), slot);
    ahead.insert(slot.getDefiningOp());
  }

  Operation *lastCopy = nullptr;
  SmallVector<Operation *> consumers;
  for (auto [cref, buffer] : llvm::zip(candidates, buffers)) {
    Candidate c = cref;
    b.setInsertionPoint(c.load);
    auto view = MemDescSubviewOp::create(b, loc, buffer, slot);
    auto copy = AsyncCopyGlobalToLocalOp::create(
        b, c.load.getLoc(), c.load.getPtr(), view, c.load.getMask(), Value());
    copy->setAttr("mgp.vector_width", b.getI32IntegerAttr(c.vectorWidth));
    if (Attribute cache = c.load->getAttr(kCacheModifierAttr))
      copy->setAttr(kCacheModifierAttr, cache);
    ahead.insert(view);
    ahead.insert(copy);
    form.copies.push_back(copy);
    lastCopy = copy;
    // Readers: a subview of the same slot, then local_load.
    auto readView = [&](Operation *reader) {
      b.setInsertionPoint(reader);
      return MemDescSubviewOp::create(b, loc, buffer, slot);
    };
    Value other = c.load.getOther();
    bool nonzeroOther = other && !isZeroConstant(other);
    if (nonzeroOther || c.computed) {
      // Read the slot back in the load's layout for the readers. The copy
      // zero-fills masked-off elements: a nonzero `other` goes there.
      Operation *firstUse = nullptr;
      for (Operation *user : c.load->getUsers())
        if (!firstUse || user->isBeforeInBlock(firstUse))
          firstUse = user;
      // When every reader converts the value to one layout (the computing
      // code's), the slot is read in that layout instead: the shared
      // memory round trip of the convert is the copy's.
      Type readType = c.load.getType();
      SmallVector<ConvertLayoutOp> converts;
      if (!nonzeroOther) {
        for (Operation *user : c.load->getUsers()) {
          auto convert = dyn_cast<ConvertLayoutOp>(user);
          if (!convert || (!converts.empty() &&
                           convert.getType() != converts.front().getType())) {
            converts.clear();
            break;
          }
          converts.push_back(convert);
        }
        if (!converts.empty() &&
            isa<BlockedEncodingAttr>(converts.front().getType().getEncoding()))
          readType = converts.front().getType();
        else
          converts.clear();
      }
      auto local = LocalLoadOp::create(b, c.load.getLoc(), readType,
                                       readView(firstUse));
      for (ConvertLayoutOp convert : converts) {
        convert.replaceAllUsesWith(local.getResult());
        convert.erase();
      }
      Value filled = local;
      if (nonzeroOther)
        filled = arith::SelectOp::create(b, c.load.getLoc(), c.load.getMask(),
                                         local, other);
      c.load.getResult().replaceAllUsesWith(filled);
      consumers.push_back(local);
      c.load->erase();
      continue;
    }
    if (c.alloc) {
      for (Operation *reader :
           llvm::make_early_inc_range(c.alloc->getUsers())) {
        reader->setOperand(0, readView(reader));
        // A transposed view of the slot is mutable like the slot.
        if (auto trans = dyn_cast<MemDescTransOp>(reader)) {
          MemDescType type = trans.getType();
          trans.getResult().setType(
              MemDescType::get(type.getShape(), type.getElementType(),
                               type.getEncoding(), /*isMutable=*/true));
        }
        consumers.push_back(reader);
      }
      c.alloc->erase();
    } else {
      for (Operation *reader : llvm::make_early_inc_range(c.load->getUsers())) {
        Value view = readView(reader);
        auto local = LocalLoadOp::create(b, reader->getLoc(),
                                         reader->getResult(0).getType(), view);
        reader->getResult(0).replaceAllUsesWith(local.getResult());
        reader->erase();
        consumers.push_back(local);
      }
    }
    c.load->erase();
  }
  b.setInsertionPointAfter(lastCopy);
  form.commit = AsyncCommitGroupOp::create(b, loc);
  ahead.insert(form.commit);
  // The wait goes before the first reader in program order.
  Operation *first = consumers.front();
  for (Operation *op : consumers)
    if (op->isBeforeInBlock(first))
      first = op;
  b.setInsertionPoint(first->getOperand(0).getDefiningOp());
  form.wait = AsyncWaitOp::create(b, loc, 0);
  form.wait->setAttr(kWaitMarker, b.getUnitAttr());
  b.setInsertionPointAfter(loop);
  AsyncWaitOp::create(b, loc, 0);
  form.ahead = std::move(ahead);
  return form;
}

/// When the loop cannot be expanded: each copy completes before anything
/// after it (commit + `async_wait 0` right after it), which is correct
/// whatever the order of the loads and their readers.
void makeSynchronous(AsyncForm &form) {
  form.commit->erase();
  form.wait->erase();
  for (Operation *copy : form.copies) {
    OpBuilder b(copy->getContext());
    b.setInsertionPointAfter(copy);
    AsyncCommitGroupOp::create(b, copy->getLoc());
    AsyncWaitOp::create(b, copy->getLoc(), 0);
  }
}

/// The conjunction node (a single-use arith.andi in `block`) that defines
/// `mask`, if any.
arith::AndIOp conjunctionIn(Value mask, Block *block) {
  auto andOp = mask.getDefiningOp<arith::AndIOp>();
  if (!andOp || !andOp->hasOneUse() || andOp->getBlock() != block)
    return {};
  return andOp;
}

/// How many distinct values `mask` has at most, as its definition tells: a
/// splat one, a broadcast its source's, a conjunction its operands'
/// product; otherwise its element count.
int64_t distinctValues(Value mask, Block *block) {
  if (mask.getDefiningOp<SplatOp>())
    return 1;
  if (auto broadcast = mask.getDefiningOp<BroadcastOp>())
    return distinctValues(broadcast.getSrc(), block);
  if (arith::AndIOp andOp = conjunctionIn(mask, block))
    return distinctValues(andOp.getLhs(), block) *
           distinctValues(andOp.getRhs(), block);
  if (auto type = dyn_cast<RankedTensorType>(mask.getType()))
    return type.getNumElements();
  return 1;
}

/// Whether `value` is defined before `op`: in `op`'s block or one around it.
bool isDefinedBefore(Value value, Operation *op) {
  Operation *def = value.getDefiningOp();
  Block *block = def ? def->getBlock() : cast<BlockArgument>(value).getOwner();
  Operation *ancestor = block->findAncestorOpInBlock(*op);
  return ancestor && (!def || def->isBeforeInBlock(ancestor));
}

/// `mask & pred` (pred an i1 scalar): where mask is a conjunction whose
/// nodes come after pred, pred is anded into the operand with
/// the fewest distinct values, recursively, so that the lowering ands it
/// once per such value (a channel mask broadcast over a tile's rows: once
/// per column) and the rest of each element's mask chains onto that
/// (`(rows ok) & (columns ok & pred)` instead of `((rows ok) & (columns ok))
/// & pred`, a predicate test less per copy once compiled).
Value andPredicate(RewriterBase &rewriter, Location loc, Value mask, Value pred,
                   Block *block) {
  arith::AndIOp andOp = conjunctionIn(mask, block);
  if (andOp && isDefinedBefore(pred, andOp)) {
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(andOp);
    unsigned operand = distinctValues(andOp.getLhs(), block) <=
                               distinctValues(andOp.getRhs(), block)
                           ? 0
                           : 1;
    Value updated =
        andPredicate(rewriter, loc, andOp->getOperand(operand), pred, block);
    rewriter.modifyOpInPlace(andOp,
                             [&] { andOp->setOperand(operand, updated); });
    return mask;
  }
  auto type = cast<RankedTensorType>(mask.getType());
  Value splat = SplatOp::create(rewriter, loc, type, pred);
  return arith::AndIOp::create(rewriter, loc, mask, splat);
}

/// Predicates an op of an early stage with `pred`: copies get it in their
/// mask (masked-off elements are zero-filled, into a slot nobody reads);
/// every other early op is side-effect free or a commit and runs as is.
Operation *predicate(RewriterBase &rewriter, Operation *op, Value pred) {
  auto copy = dyn_cast<AsyncCopyGlobalToLocalOp>(op);
  if (!copy)
    return op;
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(copy);
  auto ptrType = copy.getPtr().getType();
  auto maskType = RankedTensorType::get(
      ptrType.getShape(), rewriter.getI1Type(), ptrType.getEncoding());
  Value mask;
  if (copy.getMask())
    mask = andPredicate(rewriter, copy.getLoc(), copy.getMask(), pred,
                        copy->getBlock());
  else
    mask = SplatOp::create(rewriter, copy.getLoc(), maskType, pred);
  rewriter.modifyOpInPlace(copy, [&] { copy.getMaskMutable().assign(mask); });
  return op;
}

/// Pipelines `loop` if it has candidates; leaves it alone otherwise. Fails
/// only if the expansion failed after changing the IR.
LogicalResult pipelineLoop(scf::ForOp loop, int numStages,
                           int64_t sharedBudget) {
  SmallVector<Candidate> candidates;
  SmallVector<Value> roots;
  for (auto load : loop.getBody()->getOps<LoadOp>())
    if (std::optional<Candidate> c = matchCandidate(load)) {
      candidates.push_back(*c);
      roots.push_back(load.getPtr());
      roots.push_back(load.getMask());
    }
  if (candidates.empty())
    return success();
  int64_t bytesPerStage = 0;
  for (const Candidate &c : candidates)
    bytesPerStage += getBufferSizeInBytes(c.bufferType);
  // Buffers staged before the loop and read in it (a loop-invariant dot
  // operand) share the budget.
  int64_t hoisted = 0;
  loop->getParentWithTrait<OpTrait::IsIsolatedFromAbove>()->walk(
      [&](LocalAllocOp alloc) {
    if (alloc.getSrc() && !loop->isAncestor(alloc) &&
        llvm::any_of(alloc->getUsers(),
                     [&](Operation *user) { return loop->isAncestor(user); }))
      hoisted += getBufferSizeInBytes(alloc.getType());
  });
  sharedBudget -= hoisted;
  // So does the scratch of the ops in the loop (a layout conversion in a
  // persistent loop's epilogue): it is live while every slot is. A copied
  // load's conversions become reads of its slot in their layout, no scratch.
  int64_t scratch = 0;
  loop.getBody()->walk([&](Operation *op) {
    if (auto convert = dyn_cast<ConvertLayoutOp>(op))
      if (llvm::any_of(candidates, [&](const Candidate &c) {
            return convert.getSrc() == c.load->getResult(0);
          }))
        return;
    scratch = std::max(scratch, getScratchSizeInBytes(op));
  });
  sharedBudget -= scratch;
  int spare = hasWarpGroupDot(loop) ? 1 : 0;
  numStages =
      std::min<int64_t>(numStages, sharedBudget / bytesPerStage - spare);
  if (numStages < 2)
    return success();
  // Triton's order when the spare buffer alone keeps a block off an SM
  // (two blocks instead of one, or three instead of two: a 128x64 fp16
  // convolution tile on one warp group ran 11 % faster with three).
  auto blocks = [&](int64_t buffers) {
    return blocksPerSM(loop, buffers * bytesPerStage + hoisted + scratch +
                                 kSharedReservedPerBlock);
  };
  bool copiesAfterDot = spare && blocks(numStages + 1) < blocks(numStages) &&
                        hasAsyncWarpGroupDot(loop, candidates);
  if (copiesAfterDot)
    spare = 0;
  std::optional<llvm::SetVector<Operation *>> slice =
      getAheadSlice(loop, roots);
  if (!slice)
    return success();
  AsyncForm form =
      rewriteToAsync(loop, candidates, *slice, numStages + spare);
  const llvm::SetVector<Operation *> &ahead = form.ahead;

  scf::PipeliningOption options;
  options.peelEpilogue = false;
  options.supportDynamicLoops = true;
  options.predicateFn = predicate;
  int lastStage = numStages - 1;
  options.getScheduleFn =
      [&](scf::ForOp forOp,
          std::vector<std::pair<Operation *, unsigned>> &schedule) {
        Block *body = forOp.getBody();
        for (Operation &op : body->without_terminator())
          if (op.hasAttr(kWaitMarker))
            schedule.push_back({&op, lastStage});
        auto scheduleAhead = [&] {
          for (Operation &op : body->without_terminator())
            if (ahead.contains(&op))
              schedule.push_back({&op, 0});
        };
        if (!copiesAfterDot)
          scheduleAhead();
        for (Operation &op : body->without_terminator())
          if (!ahead.contains(&op) && !op.hasAttr(kWaitMarker))
            schedule.push_back({&op, lastStage});
        if (copiesAfterDot)
          scheduleAhead();
      };
  IRRewriter rewriter(loop.getContext());
  rewriter.setInsertionPoint(loop);
  bool modified = false;
  FailureOr<scf::ForOp> pipelined =
      scf::pipelineForLoop(rewriter, loop, options, &modified);
  if (failed(pipelined)) {
    if (modified)
      return loop.emitError("software pipelining failed half way");
    makeSynchronous(form);
    return success();
  }
  if (spare)
    (*pipelined)->setAttr(kSpareBufferAttr, rewriter.getUnitAttr());
  if (copiesAfterDot)
    (*pipelined)->setAttr(kCopiesAfterDotAttr, rewriter.getUnitAttr());
  pipelined->walk([&](AsyncWaitOp wait) {
    if (wait->hasAttr(kWaitMarker)) {
      wait.setNum(numStages - 2);
      wait->removeAttr(kWaitMarker);
    }
  });
  return success();
}

struct PipelinePass : public mgp::impl::MgpPipelineBase<PipelinePass> {
  using MgpPipelineBase::MgpPipelineBase;

  void runOnOperation() override {
    if (numStages < 2)
      return;
    SmallVector<scf::ForOp> loops;
    getOperation().walk([&](scf::ForOp loop) { loops.push_back(loop); });
    for (scf::ForOp loop : loops)
      if (failed(pipelineLoop(loop, numStages, sharedBudget)))
        return signalPassFailure();
  }
};

} // namespace
