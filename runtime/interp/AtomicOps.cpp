//===- AtomicOps.cpp - atomics, pointer casts, printing, assertions -------===//
//
// This file implements the interpreter's mgp.atomic_rmw and mgp.atomic_cas
// (each element read, combined and written under one process-wide lock, so
// programs running on different worker threads see atomic updates; the old
// value is returned, masked-off elements give 0 and touch nothing; every
// active address is bounds checked), the pointer conversions (a pointer is
// its address here), mgp.print (one line per element to stderr) and
// mgp.assert (the run fails with the message where the condition is false).
//
//===----------------------------------------------------------------------===//
#include "runtime/interp/InterpProgram.h"

#include "compiler/ir/MgpDialect.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <mutex>

using namespace mgp;
using namespace mgp::interp;

namespace {

std::mutex &atomicLock() {
  static std::mutex lock;
  return lock;
}

bool inBounds(const MemoryMap &memory, uint64_t addr, uint64_t bytes) {
  for (const MemRange &r : memory.ranges)
    if (addr - r.base <= r.bytes && bytes <= r.bytes - (addr - r.base))
      return true;
  return false;
}

/// The value an atomic of `kind` stores, given the old and the operand.
void combine(AtomicRMWKind kind, DType k, double oldF, int64_t oldI,
             double valF, int64_t valI, double &newF, int64_t &newI) {
  unsigned w = isFloatDType(k) ? 0 : intWidth(k);
  switch (kind) {
  case AtomicRMWKind::FAdd:
    newF = roundTo(k, oldF + valF);
    return;
  case AtomicRMWKind::FMax:
    newF = std::fmax(oldF, valF);
    return;
  case AtomicRMWKind::FMin:
    newF = std::fmin(oldF, valF);
    return;
  case AtomicRMWKind::Add:
    newI = wrapSigned(uint64_t(oldI) + uint64_t(valI), w);
    return;
  case AtomicRMWKind::Max:
    newI = std::max(oldI, valI);
    return;
  case AtomicRMWKind::Min:
    newI = std::min(oldI, valI);
    return;
  case AtomicRMWKind::UMax:
    newI = asUnsigned(oldI, w) >= asUnsigned(valI, w) ? oldI : valI;
    return;
  case AtomicRMWKind::UMin:
    newI = asUnsigned(oldI, w) <= asUnsigned(valI, w) ? oldI : valI;
    return;
  case AtomicRMWKind::And:
    newI = oldI & valI;
    return;
  case AtomicRMWKind::Or:
    newI = oldI | valI;
    return;
  case AtomicRMWKind::Xor:
    newI = oldI ^ valI;
    return;
  case AtomicRMWKind::Xchg:
    newF = valF;
    newI = valI;
    return;
  }
}

/// Element `e` of `b` (an operand of one element is broadcast).
double floatAt(const Buf &b, size_t e) { return b.f[b.f.size() == 1 ? 0 : e]; }
int64_t intAt(const Buf &b, size_t e) { return b.i[b.i.size() == 1 ? 0 : e]; }

llvm::Expected<bool> compileAtomic(Compiler &c, mlir::Operation *op,
                                   std::vector<Instr> &out) {
  auto rmw = llvm::dyn_cast<AtomicRMWOp>(op);
  auto cas = llvm::dyn_cast<AtomicCASOp>(op);
  mlir::Value ptrValue = rmw ? rmw.getPtr() : cas.getPtr();
  llvm::Expected<DType> kind = elemKindOf(op, op->getResult(0).getType());
  if (!kind)
    return kind.takeError();
  DType k = *kind;
  bool isFloat = isFloatDType(k);
  unsigned bytes = dtypeBytes(k);
  int ptr = c.slot(ptrValue), d = c.slot(op->getResult(0));
  int val = c.slot(rmw ? rmw.getVal() : cas.getVal());
  int cmp = cas ? c.slot(cas.getCmp()) : -1;
  int mask = rmw && rmw.getMask() ? c.slot(rmw.getMask()) : -1;
  AtomicRMWKind rmwKind = rmw ? rmw.getKind() : AtomicRMWKind::Xchg;
  std::string where = describeOp(op);
  out.push_back([=](Frame &frame) {
    const std::vector<int64_t> &p = frame.slots[ptr].i;
    const Buf &v = frame.slots[val];
    size_t n = p.size();
    Buf r;
    if (isFloat)
      r.f.assign(n, 0.0);
    else
      r.i.assign(n, 0);
    std::lock_guard<std::mutex> guard(atomicLock());
    for (size_t e = 0; e < n; ++e) {
      if (mask >= 0 && !intAt(frame.slots[mask], e))
        continue;
      uint64_t addr = static_cast<uint64_t>(p[e]);
      if (!inBounds(*frame.memory, addr, bytes))
        return fail(frame, where,
                    "out-of-bounds atomic of " + std::to_string(bytes) +
                        " bytes at address " +
                        llvm::formatv("{0}", llvm::format_hex(addr, 18)).str() +
                        " (lane " + std::to_string(e) + ")");
      void *at = reinterpret_cast<void *>(addr);
      double oldF = 0, newF = 0;
      int64_t oldI = 0, newI = 0;
      loadElement(k, at, oldF, oldI);
      if (cas) {
        // Bitwise comparison (integers here; floats by their bits).
        bool equal = isFloat ? oldF == floatAt(frame.slots[cmp], e)
                             : oldI == intAt(frame.slots[cmp], e);
        if (equal)
          storeElement(k, at, isFloat ? floatAt(v, e) : 0.0,
                       isFloat ? 0 : intAt(v, e));
      } else {
        combine(rmwKind, k, oldF, oldI, isFloat ? floatAt(v, e) : 0.0,
                isFloat ? 0 : intAt(v, e), newF, newI);
        storeElement(k, at, newF, newI);
      }
      if (isFloat)
        r.f[e] = oldF;
      else
        r.i[e] = oldI;
    }
    frame.slots[d] = std::move(r);
    return true;
  });
  return true;
}

llvm::Expected<bool> compilePrint(Compiler &c, PrintOp print,
                                  std::vector<Instr> &out) {
  std::vector<int> args;
  std::vector<bool> isFloat;
  for (mlir::Value v : print.getArgs()) {
    llvm::Expected<DType> kind = elemKindOf(print, v.getType());
    if (!kind)
      return kind.takeError();
    args.push_back(c.slot(v));
    isFloat.push_back(isFloatDType(*kind));
  }
  std::string prefix = print.getPrefix().str();
  bool hex = print.getHex();
  out.push_back([=](Frame &frame) {
    std::string text;
    llvm::raw_string_ostream os(text);
    size_t n = 1;
    for (size_t a = 0; a < args.size(); ++a) {
      const Buf &b = frame.slots[args[a]];
      n = std::max(n, isFloat[a] ? b.f.size() : b.i.size());
    }
    for (size_t e = 0; e < n; ++e) {
      os << "pid (" << frame.programId[0] << ", " << frame.programId[1] << ", "
         << frame.programId[2] << ") idx (" << e << ")" << prefix;
      for (size_t a = 0; a < args.size(); ++a) {
        const Buf &b = frame.slots[args[a]];
        os << (a ? ", " : "");
        if (isFloat[a])
          os << floatAt(b, e);
        else if (hex)
          os << llvm::format_hex(uint64_t(intAt(b, e)), 10);
        else
          os << intAt(b, e);
      }
      os << "\n";
    }
    llvm::errs() << text;
    return true;
  });
  return true;
}

} // namespace

llvm::Expected<bool>
mgp::interp::tryCompileAtomicOrDebugOp(Compiler &c, mlir::Operation *op,
                                       std::vector<Instr> &out) {
  if (llvm::isa<AtomicRMWOp, AtomicCASOp>(op))
    return compileAtomic(c, op, out);
  if (llvm::isa<PtrToIntOp, IntToPtrOp, PtrCastOp>(op)) {
    int s = c.slot(op->getOperand(0)), d = c.slot(op->getResult(0));
    out.push_back([=](Frame &frame) {
      frame.slots[d] = frame.slots[s];
      return true;
    });
    return true;
  }
  if (auto print = llvm::dyn_cast<PrintOp>(op))
    return compilePrint(c, print, out);
  if (auto assertOp = llvm::dyn_cast<AssertOp>(op)) {
    int cond = c.slot(assertOp.getCondition());
    std::string where = describeOp(op);
    std::string message =
        (assertOp.getFile() + ":" + llvm::Twine(assertOp.getLine()) + ": " +
         assertOp.getFunction() + ": Assertion `" + assertOp.getMessage() +
         "` failed.")
            .str();
    out.push_back([=](Frame &frame) {
      for (int64_t v : frame.slots[cond].i)
        if (!v)
          return fail(frame, where, "device assertion: " + message);
      return true;
    });
    return true;
  }
  return false;
}
