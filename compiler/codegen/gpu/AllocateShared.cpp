//===- AllocateShared.cpp - shared-memory offsets -------------------------===//
//
// This file implements `mgp-allocate-shared`: the explicit buffers
// (mgp.local_alloc, live from the alloc to the last use of its memdesc) and
// the scratch of ops (SharedScratch.h, live only at the op) of each function
// get byte offsets by first fit over their live ranges, largest first, as
// Triton's Allocation.cpp does. Ops get `mgp.allocation.offset`, the module
// `mgp.shared` (the dynamic shared memory a launch needs). Offsets are
// multiples of 16 bytes; a swizzled buffer (maxPhase > 1) starts at a
// multiple of 1024 bytes, because wgmma applies the swizzle to the absolute
// shared address (a 128-byte swizzle repeats every 8 rows of 128 bytes).
//
//===----------------------------------------------------------------------===//
#include "compiler/codegen/gpu/Passes.h"
#include "compiler/codegen/gpu/SharedScratch.h"

#include "mlir/IR/Builders.h"
#include "llvm/Support/MathExtras.h"

namespace mgp {
#define GEN_PASS_DEF_MGPALLOCATESHARED
#include "compiler/codegen/gpu/Passes.h.inc"
} // namespace mgp

using namespace mlir;
using namespace mgp;

namespace {

/// One buffer or scratch region: its owner, size and live range (op numbers,
/// inclusive).
struct Buffer {
  Operation *owner;
  int64_t size;
  int64_t first, last;
  int64_t align = kSharedAlignment;
  int64_t offset = -1;
};

/// The alignment a buffer of `type` needs (see the file comment).
int64_t getBufferAlignment(MemDescType type) {
  auto shared = dyn_cast<SharedEncodingAttr>(type.getEncoding());
  return shared && shared.getMaxPhase() > 1 ? 1024 : kSharedAlignment;
}

class FunctionAllocator {
public:
  /// Allocates every buffer of `func` and returns the bytes it needs.
  int64_t run(func::FuncOp func) {
    number(func);
    func.walk([&](Operation *op) {
      if (auto alloc = dyn_cast<LocalAllocOp>(op)) {
        auto type = cast<MemDescType>(alloc.getType());
        buffers.push_back({op, getBufferSizeInBytes(type), firstIndex[op],
                           getLastUse(func, alloc), getBufferAlignment(type)});
      } else if (int64_t size = getScratchSizeInBytes(op)) {
        buffers.push_back({op, size, firstIndex[op], lastIndex[op],
                           getScratchAlignment(op)});
      }
    });
    llvm::stable_sort(buffers, [](const Buffer &a, const Buffer &b) {
      return a.size > b.size;
    });
    int64_t total = 0;
    for (unsigned i = 0; i < buffers.size(); ++i) {
      place(i);
      total = std::max(total, buffers[i].offset + buffers[i].size);
      buffers[i].owner->setAttr(
          "mgp.allocation.offset",
          Builder(func.getContext()).getI32IntegerAttr(buffers[i].offset));
    }
    return llvm::alignTo(total, kSharedAlignment);
  }

private:
  /// Numbers ops in program order; an op with regions spans its body.
  void number(Operation *op) {
    firstIndex[op] = counter++;
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (Operation &nested : block)
          number(&nested);
    lastIndex[op] = counter - 1;
  }

  /// The last op number at which the memdesc of `alloc` (or a
  /// memdesc_subview of it) may be used; a use
  /// inside a loop keeps it alive for the whole loop, and a memdesc that
  /// escapes into control flow (loop-carried, yielded) lives to the end.
  int64_t getLastUse(func::FuncOp func, LocalAllocOp alloc) {
    int64_t last = firstIndex[alloc];
    Block *block = alloc->getBlock();
    SmallVector<Value> views{alloc.getResult()};
    while (!views.empty()) {
      for (Operation *user : views.pop_back_val().getUsers()) {
        if (user->getDialect() != alloc->getDialect())
          return lastIndex[func];
        if (isa<MemDescSubviewOp, MemDescTransOp>(user))
          views.push_back(user->getResult(0)); // views keep the buffer alive
        Operation *ancestor = block->findAncestorOpInBlock(*user);
        last = std::max(last, lastIndex[ancestor ? ancestor : user]);
      }
    }
    return last;
  }

  /// First fit: the lowest aligned offset clear of every placed buffer that
  /// is live at the same time.
  void place(unsigned index) {
    Buffer &buffer = buffers[index];
    SmallVector<const Buffer *> overlapping;
    for (unsigned j = 0; j < index; ++j)
      if (buffers[j].first <= buffer.last && buffer.first <= buffers[j].last)
        overlapping.push_back(&buffers[j]);
    int64_t offset = 0;
    bool moved = true;
    while (moved) {
      moved = false;
      for (const Buffer *other : overlapping)
        if (offset < other->offset + other->size &&
            other->offset < offset + buffer.size) {
          offset = llvm::alignTo(other->offset + other->size, buffer.align);
          moved = true;
        }
    }
    buffer.offset = offset;
  }

  DenseMap<Operation *, int64_t> firstIndex, lastIndex;
  int64_t counter = 0;
  SmallVector<Buffer> buffers;
};

struct AllocateSharedPass
    : public mgp::impl::MgpAllocateSharedBase<AllocateSharedPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    int64_t total = 0;
    for (auto func : module.getOps<func::FuncOp>())
      if (!func.isExternal())
        total = std::max(total, FunctionAllocator().run(func));
    module->setAttr("mgp.shared",
                    Builder(module.getContext()).getI32IntegerAttr(total));
  }
};

} // namespace
