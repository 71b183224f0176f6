//===- MemoryOps.cpp - mgp.load and mgp.store on host memory --------------===//
//
// This file implements the interpreter's memory ops. Pointers are host
// addresses. A masked-off lane of a load gives `other` (or 0) and never
// touches memory; a masked-off lane of a store writes nothing. Every active
// lane is checked against the launch's valid ranges first; an access outside
// them stops the program with an error naming the op, the program, the lane
// and the address.
// The software pipeliner's ops run synchronously: a memdesc is a Buf holding
// its elements row-major (layouts and swizzles mean nothing here);
// mgp.local_alloc without a source gives zeros, mgp.memdesc_subview copies
// out buffer `index`, mgp.async_copy_global_to_local loads at once and writes
// the buffer it views (through a subview: into the multi-buffer too);
// commit and wait groups do nothing.
//
//===----------------------------------------------------------------------===//
#include "runtime/interp/InterpProgram.h"

#include "compiler/ir/MgpDialect.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

#include <type_traits>

using namespace mgp;
using namespace mgp::interp;

namespace {

/// Bounds checks with a one-entry cache of the last range that matched.
class RangeChecker {
public:
  explicit RangeChecker(const MemoryMap &memory) : memory(memory) {}
  bool ok(uint64_t addr, uint64_t bytes) {
    if (addr - lastBase <= lastBytes && bytes <= lastBytes - (addr - lastBase))
      return true;
    for (const MemRange &r : memory.ranges)
      if (addr - r.base <= r.bytes && bytes <= r.bytes - (addr - r.base)) {
        lastBase = r.base;
        lastBytes = r.bytes;
        return true;
      }
    return false;
  }

private:
  const MemoryMap &memory;
  uint64_t lastBase = 0, lastBytes = 0;
};

std::string outOfBounds(const char *what, unsigned bytes, uint64_t addr, size_t lane) {
  return llvm::formatv("out-of-bounds {0} of {1} bytes at address {2} (lane {3})",
                       what, bytes, llvm::format_hex(addr, 18), lane)
      .str();
}

/// Calls \p fn with \p kind as a compile-time constant
/// (std::integral_constant), so per-element switches fold away.
template <typename Fn> bool withKind(DType kind, Fn &&fn) {
  switch (kind) {
#define MGP_KIND_CASE(K)                                                       \
  case DType::K:                                                            \
    return fn(std::integral_constant<DType, DType::K>{});
    MGP_KIND_CASE(I1)
    MGP_KIND_CASE(I8)
    MGP_KIND_CASE(I16)
    MGP_KIND_CASE(I32)
    MGP_KIND_CASE(I64)
    MGP_KIND_CASE(F16)
    MGP_KIND_CASE(BF16)
    MGP_KIND_CASE(F32)
    MGP_KIND_CASE(F64)
    MGP_KIND_CASE(U64) // kPointerKind
    MGP_KIND_CASE(F8E4NV)
    MGP_KIND_CASE(F8E5)
#undef MGP_KIND_CASE
  case DType::U8:
  case DType::U16:
  case DType::U32:
  case DType::F8E4B15: // i8 by the time a kernel reaches the interpreter
    break;
  }
  llvm_unreachable("unknown element kind");
}

/// Compiles the pipeliner's ops (see the file comment); false for others.
llvm::Expected<bool> tryCompileAsyncOp(Compiler &c, mlir::Operation *op,
                                       std::vector<Instr> &out) {
  if (llvm::isa<mgp::AsyncCommitGroupOp, mgp::AsyncWaitOp>(op))
    return true;
  if (auto alloc = llvm::dyn_cast<mgp::LocalAllocOp>(op)) {
    if (alloc.getSrc())
      return false;
    llvm::Expected<DType> kind = elemKindOf(op, alloc.getType());
    if (!kind)
      return kind.takeError();
    bool isFloat = isFloatDType(*kind);
    int64_t n = numElements(shapeOf(alloc.getType()));
    int d = c.slot(alloc.getResult());
    out.push_back([=](Frame &frame) {
      Buf &r = frame.slots[d];
      if (isFloat)
        r.f.assign(n, 0.0);
      else
        r.i.assign(n, 0);
      return true;
    });
    return true;
  }
  if (auto view = llvm::dyn_cast<mgp::MemDescSubviewOp>(op)) {
    llvm::Expected<DType> kind = elemKindOf(op, view.getType());
    if (!kind)
      return kind.takeError();
    bool isFloat = isFloatDType(*kind);
    int64_t n = numElements(shapeOf(view.getType()));
    int64_t count = view.getSrc().getType().getShape()[0];
    int src = c.slot(view.getSrc()), index = c.slot(view.getIndex());
    int d = c.slot(view.getResult());
    std::string where = describeOp(op);
    out.push_back([=](Frame &frame) {
      int64_t at = frame.slots[index].i[0];
      if (at < 0 || at >= count)
        return fail(
            frame, where,
            llvm::formatv("buffer index {0} out of range [0, {1})", at, count)
                .str());
      const Buf &from = frame.slots[src];
      Buf &r = frame.slots[d];
      if (isFloat)
        r.f.assign(from.f.begin() + at * n, from.f.begin() + (at + 1) * n);
      else
        r.i.assign(from.i.begin() + at * n, from.i.begin() + (at + 1) * n);
      return true;
    });
    return true;
  }
  auto copy = llvm::dyn_cast<mgp::AsyncCopyGlobalToLocalOp>(op);
  if (!copy)
    return false;
  llvm::Expected<DType> kind = elemKindOf(op, copy.getDst().getType());
  if (!kind)
    return kind.takeError();
  DType k = *kind;
  bool isFloat = isFloatDType(k);
  unsigned bytes = dtypeBytes(k);
  int ptr = c.slot(copy.getPtr()), dst = c.slot(copy.getDst());
  int mask = copy.getMask() ? c.slot(copy.getMask()) : -1;
  // Through a subview, the multi-buffer and the buffer index too.
  int parent = -1, index = -1;
  if (auto view = copy.getDst().getDefiningOp<mgp::MemDescSubviewOp>()) {
    parent = c.slot(view.getSrc());
    index = c.slot(view.getIndex());
  }
  std::string where = describeOp(op);
  out.push_back([=](Frame &frame) {
    const std::vector<int64_t> &p = frame.slots[ptr].i;
    const std::vector<int64_t> *m =
        mask >= 0 ? &frame.slots[mask].i : nullptr;
    size_t n = p.size();
    Buf &view = frame.slots[dst];
    Buf *whole = parent >= 0 ? &frame.slots[parent] : nullptr;
    size_t base = whole ? static_cast<size_t>(frame.slots[index].i[0]) * n : 0;
    RangeChecker check(*frame.memory);
    return withKind(k, [&](auto kindConstant) {
      constexpr DType K = decltype(kindConstant)::value;
      for (size_t e = 0; e < n; ++e) {
        double fv = 0;
        int64_t iv = 0;
        if (!m || (*m)[e]) {
          uint64_t addr = static_cast<uint64_t>(p[e]);
          if (!check.ok(addr, bytes))
            return fail(frame, where, outOfBounds("copy", bytes, addr, e));
          loadElement(K, reinterpret_cast<const void *>(addr), fv, iv);
        }
        if (isFloat) {
          view.f[e] = fv;
          if (whole)
            whole->f[base + e] = fv;
        } else {
          view.i[e] = iv;
          if (whole)
            whole->i[base + e] = iv;
        }
      }
      return true;
    });
  });
  return true;
}

} // namespace

llvm::Expected<bool> mgp::interp::tryCompileMemoryOp(Compiler &c, mlir::Operation *op,
                                                     std::vector<Instr> &out) {
  llvm::Expected<bool> async = tryCompileAsyncOp(c, op, out);
  if (!async || *async)
    return async;
  if (auto load = llvm::dyn_cast<mgp::LoadOp>(op)) {
    llvm::Expected<DType> kind = elemKindOf(op, load.getResult().getType());
    if (!kind)
      return kind.takeError();
    DType k = *kind;
    bool isFloat = isFloatDType(k);
    unsigned bytes = dtypeBytes(k);
    int ptr = c.slot(load.getPtr()), d = c.slot(load.getResult());
    int mask = load.getMask() ? c.slot(load.getMask()) : -1;
    int other = load.getOther() ? c.slot(load.getOther()) : -1;
    std::string where = describeOp(op);
    out.push_back([=](Frame &frame) {
      const std::vector<int64_t> &p = frame.slots[ptr].i;
      const std::vector<int64_t> *m = mask >= 0 ? &frame.slots[mask].i : nullptr;
      const Buf *o = other >= 0 ? &frame.slots[other] : nullptr;
      size_t n = p.size();
      size_t sm = m && m->size() == 1 ? 0 : 1;
      size_t so = o && (isFloat ? o->f.size() : o->i.size()) == 1 ? 0 : 1;
      Buf &r = frame.slots[d];
      if (isFloat)
        r.f.resize(n);
      else
        r.i.resize(n);
      RangeChecker check(*frame.memory);
      return withKind(k, [&](auto kindConstant) {
        constexpr DType K = decltype(kindConstant)::value;
        double fv = 0;
        int64_t iv = 0;
        for (size_t e = 0; e < n; ++e) {
          if (m && !(*m)[e * sm]) {
            if (isFloat)
              r.f[e] = o ? o->f[e * so] : 0.0;
            else
              r.i[e] = o ? o->i[e * so] : 0;
            continue;
          }
          uint64_t addr = static_cast<uint64_t>(p[e]);
          if (!check.ok(addr, bytes))
            return fail(frame, where, outOfBounds("load", bytes, addr, e));
          loadElement(K, reinterpret_cast<const void *>(addr), fv, iv);
          if (isFloat)
            r.f[e] = fv;
          else
            r.i[e] = iv;
        }
        return true;
      });
    });
    return true;
  }
  if (auto store = llvm::dyn_cast<mgp::StoreOp>(op)) {
    llvm::Expected<DType> kind = elemKindOf(op, store.getValue().getType());
    if (!kind)
      return kind.takeError();
    DType k = *kind;
    bool isFloat = isFloatDType(k);
    unsigned bytes = dtypeBytes(k);
    int ptr = c.slot(store.getPtr()), val = c.slot(store.getValue());
    int mask = store.getMask() ? c.slot(store.getMask()) : -1;
    std::string where = describeOp(op);
    out.push_back([=](Frame &frame) {
      const std::vector<int64_t> &p = frame.slots[ptr].i;
      const std::vector<int64_t> *m = mask >= 0 ? &frame.slots[mask].i : nullptr;
      const Buf &v = frame.slots[val];
      size_t n = p.size();
      size_t sm = m && m->size() == 1 ? 0 : 1;
      size_t sv = (isFloat ? v.f.size() : v.i.size()) == 1 ? 0 : 1;
      RangeChecker check(*frame.memory);
      return withKind(k, [&](auto kindConstant) {
        constexpr DType K = decltype(kindConstant)::value;
        for (size_t e = 0; e < n; ++e) {
          if (m && !(*m)[e * sm])
            continue;
          uint64_t addr = static_cast<uint64_t>(p[e]);
          if (!check.ok(addr, bytes))
            return fail(frame, where, outOfBounds("store", bytes, addr, e));
          storeElement(K, reinterpret_cast<void *>(addr),
                       isFloat ? v.f[e * sv] : 0.0, isFloat ? 0 : v.i[e * sv]);
        }
        return true;
      });
    });
    return true;
  }
  return false;
}
