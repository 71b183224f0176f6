//===- Coalesce.cpp - memory-coalescing layouts for loads and stores ------===//
//
// This file implements `mgp-coalesce` (Triton's Coalesce/CoalesceUtils): each
// mgp.load and mgp.store on a tensor of pointers gets the blocked layout in
// which a thread owns as many consecutive, aligned elements as the axis
// analysis proves (up to 16 bytes; a load as many as the widest access
// connected to it by def-use chains, of its shape and order), with converts
// around it, and the
// `mgp.vector_width` attribute that tells the lowering how wide its vector
// accesses may be; on sm_90, so do fp32 atomic adds and fp16/bf16 atomic
// max/min (vector atom). An fp16/bf16 atomic max/min whose elements are
// consecutive but not provably aligned or unmasked gets the layout of its
// contiguity anyway and `mgp.checked_vector_width`: its lowering checks
// alignment and mask per group at run time (one vector atom, else a
// compare-and-swap loop per element), as a lone 16-bit float max/min has no
// atom of its own.
//
//===----------------------------------------------------------------------===//
#include "compiler/codegen/gpu/AxisInfo.h"
#include "compiler/codegen/gpu/Passes.h"
#include "compiler/codegen/gpu/TensorEncoding.h"
#include "compiler/ir/Layout.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/IR/Builders.h"

namespace mgp {
#define GEN_PASS_DEF_MGPCOALESCE
#include "compiler/codegen/gpu/Passes.h.inc"
} // namespace mgp

using namespace mlir;
using namespace mgp;

namespace {

/// Elements a thread may access as one vector along the fastest dim:
/// Triton's getNumElementsPerThread.
int64_t getElementsPerAccess(const ModuleAxisInfo &axis, Value ptr,
                             ArrayRef<unsigned> order) {
  auto type = cast<RankedTensorType>(ptr.getType());
  int64_t elemBits = getPointeeBytes(type) * 8;
  int64_t alignment =
      std::min(axis.getPtrContiguity(ptr, order[0]), type.getShape()[order[0]]);
  return std::max<int64_t>(1, std::min<int64_t>(alignment, 128 / elemBits));
}

/// Consecutive elements a thread may reach as one vector along the fastest
/// dim when alignment and masks are checked at run time: the contiguity
/// alone. Only for fp16/bf16 atomic max/min, whose single-element form is a
/// compare-and-swap loop; 1 otherwise.
int64_t getCheckedElementsPerAccess(const ModuleAxisInfo &axis, Operation *op,
                                    Value ptr, ArrayRef<unsigned> order) {
  auto atomic = dyn_cast<AtomicRMWOp>(op);
  if (!atomic || (atomic.getKind() != AtomicRMWKind::FMax &&
                  atomic.getKind() != AtomicRMWKind::FMin))
    return 1;
  auto type = cast<RankedTensorType>(ptr.getType());
  int64_t elemBits = getPointeeBytes(type) * 8;
  if (elemBits != 16)
    return 1;
  int64_t contiguity = std::min(axis.get(ptr).getContiguity(order[0]),
                                type.getShape()[order[0]]);
  return std::max<int64_t>(1, std::min<int64_t>(contiguity, 128 / elemBits));
}

class Coalescer {
public:
  Coalescer(ModuleOp module, const ModuleAxisInfo &axis)
      : axis(axis), numWarps(getModuleNumWarps(module)),
        threadsPerWarp(getModuleThreadsPerWarp(module)) {}

  /// The order and the elements per access of each access, before any is
  /// rewritten (the analysis answers for the IR as it was).
  void prepare(ArrayRef<std::tuple<Operation *, Value, Value>> accesses) {
    for (auto [op, ptr, mask] : accesses) {
      SmallVector<unsigned> order = getOrderFromContiguity(axis.get(ptr));
      int64_t perAccess = getElementsPerAccess(axis, ptr, order);
      Access &access = info[op];
      access.shape =
          llvm::to_vector(cast<RankedTensorType>(ptr.getType()).getShape());
      access.order = order;
      access.perAccess = perAccess;
      int64_t checked = getCheckedElementsPerAccess(axis, op, ptr, order);
      access.checkedPerAccess = std::max(perAccess, checked);
      access.checkable = checked > 1;
    }
    // The accesses connected to each by def-use chains (Triton's
    // multi-root slice), with the same shape and order: a load takes the
    // widest of their accesses, so that the values it feeds and theirs
    // share a layout (an unaligned row loaded next to aligned weights).
    for (auto [op, ptr, mask] : accesses) {
      if (!ptr.getDefiningOp())
        continue;
      const Access &self = info[op];
      for (Operation *other : getSlice(op)) {
        auto it = info.find(other);
        if (it == info.end() || other == op || it->second.shape != self.shape ||
            it->second.order != self.order)
          continue;
        widest[op] = std::max(widest.lookup(op), it->second.checkedPerAccess);
      }
    }
  }

  void run(Operation *op, Value ptr, Value mask) {
    auto ptrType = cast<RankedTensorType>(ptr.getType());
    const Access &self = info[op];
    SmallVector<unsigned> order = self.order;
    int64_t numThreads = numWarps * threadsPerWarp;
    int64_t perThread = std::min<int64_t>(
        std::max(self.checkedPerAccess, widest.lookup(op)),
        std::max<int64_t>(ptrType.getNumElements() / numThreads, 1));
    // Stores and atomics keep their own width: wider, a warp's write would
    // leave gaps (loads go through L1, where gaps do not matter).
    if (!isa<LoadOp>(op))
      perThread = std::min(perThread, self.checkedPerAccess);
    SmallVector<unsigned> sizePerThread(ptrType.getRank(), 1);
    sizePerThread[order[0]] = perThread;
    BlockedEncodingAttr layout =
        getBlockedEncoding(op->getContext(), ptrType.getShape(), sizePerThread,
                           order, numWarps, threadsPerWarp);
    rewrite(op, layout);

    int64_t contigPerThread =
        getContigPerThread(layout, ptrType.getShape())[order[0]];
    int64_t vec = std::min(contigPerThread, self.perAccess);
    if (mask)
      vec = std::min(vec, axis.getMaskConstancy(mask, order[0]));
    Builder builder(op->getContext());
    op->setAttr("mgp.vector_width",
                builder.getI32IntegerAttr(std::max<int64_t>(vec, 1)));
    int64_t checked = std::min(contigPerThread, self.checkedPerAccess);
    if (self.checkable && checked > std::max<int64_t>(vec, 1))
      op->setAttr("mgp.checked_vector_width",
                  builder.getI32IntegerAttr(checked));
  }

  /// A tensor-map load or store reads or writes its block in shared memory,
  /// row-major: 16 bytes per thread along the last dimension where the block
  /// has that many elements per thread (vector ld/st.shared).
  void runTensorMap(Operation *op, RankedTensorType type) {
    int64_t bytes = std::max<int64_t>(type.getElementTypeBitWidth() / 8, 1);
    int64_t perThread = std::min<int64_t>(
        {16 / bytes, type.getShape().back(),
         std::max<int64_t>(type.getNumElements() / (numWarps * threadsPerWarp),
                           1)});
    unsigned rank = type.getRank();
    SmallVector<unsigned> order, sizePerThread(rank, 1);
    for (unsigned d = rank; d-- > 0;)
      order.push_back(d);
    sizePerThread[rank - 1] = std::max<int64_t>(perThread, 1);
    rewrite(op, getBlockedEncoding(op->getContext(), type.getShape(),
                                   sizePerThread, order, numWarps,
                                   threadsPerWarp));
  }

private:
  struct Access {
    SmallVector<int64_t> shape;
    SmallVector<unsigned> order;
    int64_t perAccess = 1;
    // Elements per access with alignment and masks checked at run time,
    // and whether the lowering can check them (fp16/bf16 atomic max/min).
    int64_t checkedPerAccess = 1;
    bool checkable = false;
  };
  DenseMap<Operation *, Access> info;
  DenseMap<Operation *, int64_t> widest;

  /// Puts every tensor operand and result of `op` in `layout`.
  void rewrite(Operation *op, Attribute layout) {
    OpBuilder builder(op);
    for (OpOperand &operand : op->getOpOperands()) {
      auto type = dyn_cast<RankedTensorType>(operand.get().getType());
      if (!type || type.getEncoding() == layout)
        continue;
      operand.set(ConvertLayoutOp::create(
          builder, op->getLoc(), withEncoding(type, layout), operand.get()));
    }
    builder.setInsertionPointAfter(op);
    for (Value result : op->getResults()) {
      auto type = dyn_cast<RankedTensorType>(result.getType());
      if (!type || type.getEncoding() == layout)
        continue;
      result.setType(withEncoding(type, layout));
      auto back = ConvertLayoutOp::create(builder, op->getLoc(), type, result);
      result.replaceAllUsesExcept(back.getResult(), back);
    }
  }

  const ModuleAxisInfo &axis;
  unsigned numWarps;
  unsigned threadsPerWarp;
};

struct CoalescePass : public mgp::impl::MgpCoalesceBase<CoalescePass> {
  using MgpCoalesceBase::MgpCoalesceBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    ModuleAxisInfo axis(module);
    Coalescer coalescer(module, axis);
    // Collect first: the analysis answers for the IR as it was.
    SmallVector<std::tuple<Operation *, Value, Value>> accesses;
    module.walk([&](Operation *op) {
      if (auto load = dyn_cast<LoadOp>(op))
        accesses.emplace_back(op, load.getPtr(), load.getMask());
      else if (auto store = dyn_cast<StoreOp>(op))
        accesses.emplace_back(op, store.getPtr(), store.getMask());
      else if (auto atomic = dyn_cast<AtomicRMWOp>(op);
               atomic && vectorAtomics &&
               hasVectorAtomicForm(
                   atomic.getKind(),
                   getElementTypeOrSelf(atomic.getVal().getType())))
        accesses.emplace_back(op, atomic.getPtr(), atomic.getMask());
    });
    llvm::erase_if(accesses, [](const auto &access) {
      return !isa<RankedTensorType>(std::get<1>(access).getType());
    });
    coalescer.prepare(accesses);
    for (auto [op, ptr, mask] : accesses)
      coalescer.run(op, ptr, mask);
    module.walk([&](Operation *op) {
      if (auto load = dyn_cast<TensorMapLoadOp>(op))
        coalescer.runTensorMap(op, load.getType());
      else if (auto store = dyn_cast<TensorMapStoreOp>(op))
        coalescer.runTensorMap(op, store.getValue().getType());
    });
  }
};

} // namespace
