//===- BuiltinsAtomic.cpp - atomics ---------------------------------------===//
//
// This file implements Triton's atomics: `atomic_add/max/min/and/or/xor/
// xchg(pointer, val, mask=None, sem=None, scope=None)` (mgp.atomic_rmw) and
// `atomic_cas(pointer, cmp, val, sem=None, scope=None)` (mgp.atomic_cas), each
// returning the old values. As in Triton's semantic.py: pointer, value and
// mask broadcast together (a scalar pointer with a block value becomes a
// block of pointers); the value converts to the pointee type; `sem` is
// "acq_rel" (default), "acquire", "release" or "relaxed" and `scope` "gpu"
// (default), "cta" or "sys"; atomic_max/min of floats is an integer max on
// the bits of non-negative values and an unsigned min on the bits of
// negative ones (IEEE orders them that way), through the same address
// viewed as integers. A tensor descriptor's atomic_min/max also takes fp16
// and bf16 elements (as Triton's TMA reductions do): a 16-bit float max/min
// (mgp.atomic_rmw fmax/fmin, NaN-avoiding as PTX's max.f16).
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

/// The `sem` argument, or acq_rel.
static Expected<MemSemantic> getSemantic(Generator &g, const BoundArgs &b,
                                         unsigned i) {
  if (!b.has(i))
    return MemSemantic::AcqRel;
  const SemaValue &v = b.get(i);
  if (v.isString()) {
    llvm::StringRef s = v.getString();
    if (s == "acq_rel")
      return MemSemantic::AcqRel;
    if (s == "acquire")
      return MemSemantic::Acquire;
    if (s == "release")
      return MemSemantic::Release;
    if (s == "relaxed")
      return MemSemantic::Relaxed;
  }
  return g.error(b.expr(i), "sem must be \"acq_rel\", \"acquire\", "
                            "\"release\" or \"relaxed\", got " +
                                v.describe());
}

/// The `scope` argument, or gpu.
static Expected<MemScope> getScope(Generator &g, const BoundArgs &b,
                                   unsigned i) {
  if (!b.has(i))
    return MemScope::GPU;
  const SemaValue &v = b.get(i);
  if (v.isString()) {
    llvm::StringRef s = v.getString();
    if (s == "gpu")
      return MemScope::GPU;
    if (s == "cta")
      return MemScope::CTA;
    if (s == "sys")
      return MemScope::System;
  }
  return g.error(b.expr(i), "scope must be \"gpu\", \"cta\" or \"sys\", got " +
                                v.describe());
}

/// `value` converted to `elt` and broadcast with `ptr` (both may grow).
static Error broadcastValue(Generator &g, const SemaValue &value,
                            const ast::Expr &where, mlir::Type elt,
                            mlir::Value &ptr, mlir::Value &v) {
  Expected<mlir::Value> converted = g.toRuntimeAs(value, elt, where);
  if (!converted)
    return converted.takeError();
  v = *converted;
  return g.broadcastPair(ptr, v, g.site(where));
}

Expected<SemaValue> Generator::genAtomicBuiltin(llvm::StringRef name,
                                                CallArgs &args,
                                                const ast::CallExpr &call,
                                                bool halfMinMax) {
  mlir::Location l = loc(call);
  bool isCas = name == "atomic_cas";
  Expected<BoundArgs> b =
      isCas ? bindArgs(name, args, call,
                       {"pointer", "cmp", "val", "sem", "scope"}, 3)
            : bindArgs(name, args, call,
                       {"pointer", "val", "mask", "sem", "scope"}, 2);
  if (!b)
    return b.takeError();
  Expected<mlir::Value> ptrOr = getPointer(*this, *b, name);
  if (!ptrOr)
    return ptrOr.takeError();
  if (Error err = checkWritable(*ptrOr, b->expr(0), name))
    return std::move(err);
  mlir::Value ptr = *ptrOr;
  auto ptrType = llvm::cast<PointerType>(getElementType(ptr.getType()));
  mlir::Type elt = ptrType.getPointeeType();
  unsigned semIdx = 3, scopeIdx = 4;
  Expected<MemSemantic> sem = getSemantic(*this, *b, semIdx);
  if (!sem)
    return sem.takeError();
  Expected<MemScope> scope = getScope(*this, *b, scopeIdx);
  if (!scope)
    return scope.takeError();
  unsigned bits = elt.getIntOrFloatBitWidth();
  bool isFloat = llvm::isa<mlir::FloatType>(elt);
  // The pointee's signedness: unsigned max/min compare as unsigned.
  bool u = !isFloat && b->get(0).isUnsigned();
  if (isCas) {
    if (bits != 16 && bits != 32 && bits != 64)
      return error(call, "atomic_cas needs 16-, 32- or 64-bit elements, got " +
                             getTypeName(elt));
    mlir::Value cmp, val;
    if (Error err = broadcastValue(*this, b->get(1), b->expr(1), elt, ptr, cmp))
      return std::move(err);
    if (Error err = broadcastValue(*this, b->get(2), b->expr(2), elt, ptr, val))
      return std::move(err);
    if (Error err = broadcastPair(ptr, cmp, site(b->expr(1))))
      return std::move(err);
    if (isPadded(ptr))
      return error(call, "atomic_cas has no mask, so its block of pointers "
                         "must have power-of-two dimensions, got " +
                             describeShape(getLogicalShape(ptr)));
    return runtime(AtomicCASOp::create(builder, l, cmp.getType(), ptr, cmp, val,
                                       *sem, *scope),
                   u);
  }
  mlir::Value val, mask;
  if (Error err = broadcastValue(*this, b->get(1), b->expr(1), elt, ptr, val))
    return std::move(err);
  if (Error err = getMask(*this, *b, 2, ptr, mask))
    return std::move(err);
  if (mask && getShapeOf(val.getType()) != getShapeOf(ptr.getType())) {
    Expected<mlir::Value> vb =
        broadcastTo(val, getLogicalShape(ptr), site(b->expr(1)));
    if (!vb)
      return vb.takeError();
    val = *vb;
  }
  maskPadding(*this, ptr, mask, l);
  auto rmw = [&](AtomicRMWKind kind, mlir::Value p, mlir::Value v,
                 mlir::Value m) {
    return AtomicRMWOp::create(builder, l, v.getType(), p, v, m, kind, *sem,
                               *scope)
        .getResult();
  };
  auto bad = [&](llvm::StringRef what) {
    return error(call, name + " does not support " + what + " (got " +
                           getTypeName(elt) + ")");
  };
  if (name == "atomic_add") {
    if (isFloat) {
      if (bits == 8)
        return bad("fp8 values");
      return runtime(rmw(AtomicRMWKind::FAdd, ptr, val, mask));
    }
    if (bits != 32 && bits != 64)
      return bad("integers other than 32- and 64-bit ones");
    return runtime(rmw(AtomicRMWKind::Add, ptr, val, mask), u);
  }
  if (name == "atomic_xchg") {
    if (bits != 32 && bits != 64)
      return bad("values other than 32- and 64-bit ones");
    return runtime(rmw(AtomicRMWKind::Xchg, ptr, val, mask), u);
  }
  if (name == "atomic_and" || name == "atomic_or" || name == "atomic_xor") {
    if (isFloat || (bits != 32 && bits != 64))
      return bad("values other than 32- and 64-bit integers");
    AtomicRMWKind kind = name == "atomic_and"  ? AtomicRMWKind::And
                         : name == "atomic_or" ? AtomicRMWKind::Or
                                               : AtomicRMWKind::Xor;
    return runtime(rmw(kind, ptr, val, mask), u);
  }
  bool isMax = name == "atomic_max";
  if (!isFloat) {
    if (bits != 32 && bits != 64)
      return bad("integers other than 32- and 64-bit ones");
    if (u)
      return runtime(rmw(isMax ? AtomicRMWKind::UMax : AtomicRMWKind::UMin,
                         ptr, val, mask),
                     true);
    return runtime(
        rmw(isMax ? AtomicRMWKind::Max : AtomicRMWKind::Min, ptr, val, mask));
  }
  if (bits == 16 && halfMinMax)
    return runtime(rmw(isMax ? AtomicRMWKind::FMax : AtomicRMWKind::FMin, ptr,
                       val, mask));
  if (bits != 32 && bits != 64)
    return bad("floats other than fp32 and fp64");
  // Floats: signed integer max (min) on the bits of values >= 0 (sign bit
  // clear), unsigned integer min (max) on those of negative values.
  namespace arith = mlir::arith;
  mlir::Type intElt = builder.getIntegerType(bits);
  mlir::Type intType = withShape(intElt, getShapeOf(val.getType()));
  mlir::Value bitsV = arith::BitcastOp::create(builder, l, intType, val);
  mlir::Type intPtrType =
      withShape(PointerType::get(intElt, ptrType.getAddressSpace()),
                getShapeOf(ptr.getType()));
  mlir::Value intPtr = PtrCastOp::create(builder, l, intPtrType, ptr);
  mlir::Value zero =
      materializeSplat(SemaValue::getInt(0), intElt, getShapeOf(intType), l);
  mlir::Value nonNeg =
      arith::CmpIOp::create(builder, l, arith::CmpIPredicate::sge, bitsV, zero);
  mlir::Value trueV = materializeSplat(
      SemaValue::getBool(true), builder.getI1Type(), getShapeOf(intType), l);
  mlir::Value neg = arith::XOrIOp::create(builder, l, nonNeg, trueV);
  mlir::Value posMask = nonNeg, negMask = neg;
  if (mask) {
    posMask = arith::AndIOp::create(builder, l, mask, nonNeg);
    negMask = arith::AndIOp::create(builder, l, mask, neg);
  }
  mlir::Value posOld = rmw(isMax ? AtomicRMWKind::Max : AtomicRMWKind::Min,
                           intPtr, bitsV, posMask);
  mlir::Value negOld = rmw(isMax ? AtomicRMWKind::UMin : AtomicRMWKind::UMax,
                           intPtr, bitsV, negMask);
  mlir::Value old = arith::SelectOp::create(builder, l, nonNeg, posOld, negOld);
  return runtime(arith::BitcastOp::create(builder, l, val.getType(), old));
}
