//===- BuiltinsMemory.cpp - tl.load and tl.store --------------------------===//
//
// This file implements `load(pointer, mask=, other=)` and
// `store(pointer, value, mask=)`: the pointer is a scalar pointer or a block
// of pointers; mask and pointer broadcast together (a scalar pointer with a
// block mask becomes a block of pointers); `other` and the stored value are
// converted to the pointee type and broadcast to the pointer's shape, as
// Triton does. Cache and eviction hints are accepted and ignored. A padded
// block of pointers (MLIRGenPadding.cpp) has its validity mask and-ed into
// the mask; its padding loads `other`, or 0.
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

Expected<mlir::Value> mgp::detail::getPointer(Generator &g, const BoundArgs &b,
                                              llvm::StringRef name) {
  const SemaValue &p = b.get(0);
  if (!p.isRuntime() || !llvm::isa<PointerType>(getElementType(p.getType())))
    return g.error(b.expr(0), name +
                                  " expects a pointer or a block of "
                                  "pointers, got " +
                                  p.describe());
  return p.getValue();
}

void mgp::detail::maskPadding(Generator &g, mlir::Value ptr, mlir::Value &mask,
                              mlir::Location l) {
  mlir::Value valid = g.getValidMask(ptr, l);
  if (!valid)
    return;
  mask = mask ? g.setLogicalShape(
                    mlir::arith::AndIOp::create(g.builder, l, mask, valid),
                    g.getLogicalShape(ptr))
              : valid;
}

Error mgp::detail::getMask(Generator &g, const BoundArgs &b, unsigned i,
                           mlir::Value &ptr, mlir::Value &mask) {
  if (!b.has(i))
    return Error::success();
  const SemaValue &m = b.get(i);
  if (m.isBool() ||
      (m.isRuntime() && getElementType(m.getType()).isInteger(1))) {
    Expected<mlir::Value> v = g.toRuntime(m, b.expr(i));
    if (!v)
      return v.takeError();
    mask = *v;
    return g.broadcastPair(ptr, mask, g.site(b.expr(i)));
  }
  return g.error(b.expr(i), "a mask must be a boolean (int1) block or "
                            "scalar, got " +
                                m.describe());
}

/// Whether the pointer argument (a pointer block or a block pointer) points
/// at unsigned integers.
static bool pointsToUnsigned(const SemaValue &pointer) {
  if (pointer.isCompound() && !pointer.getElements().empty())
    return pointer.getElements()[0].isUnsigned();
  return pointer.isUnsigned();
}

Error Generator::setCacheModifier(const BoundArgs &b, unsigned i,
                                  mlir::Operation *load) {
  if (!b.has(i))
    return Error::success();
  // Triton's cache modifiers: "" (the default), ".ca" (cache in L1 and L2),
  // ".cg" (L2 only), ".cv" (fetch again, cache nothing).
  const SemaValue &cache = b.get(i);
  llvm::StringRef s = cache.isString() ? cache.getString() : "?";
  if (s != "" && s != ".ca" && s != ".cg" && s != ".cv")
    return error(b.expr(i), "cache_modifier must be \"\", \".ca\", \".cg\" "
                            "or \".cv\", got " +
                                cache.describe());
  if (!s.empty())
    load->setAttr(kCacheModifierAttr, builder.getStringAttr(s.drop_front()));
  return Error::success();
}

Expected<SemaValue> Generator::genMemoryBuiltin(llvm::StringRef name,
                                                CallArgs &args,
                                                const ast::CallExpr &call) {
  mlir::Location l = loc(call);
  if (name == "load") {
    Expected<BoundArgs> b = bindArgs(
        name, args, call,
        {"pointer", "mask", "other", "boundary_check", "padding_option",
         "cache_modifier", "eviction_policy", "volatile"},
        1);
    if (!b)
      return b.takeError();
    Expected<mlir::Value> ptr = getPointer(*this, *b, name);
    if (!ptr)
      return ptr.takeError();
    mlir::Value p = *ptr, mask, other;
    if (Error err = getMask(*this, *b, 1, p, mask))
      return std::move(err);
    if (b->has(2)) {
      if (!mask)
        return error(b->expr(2), "'other' needs a 'mask'");
      mlir::Type elt =
          llvm::cast<PointerType>(getElementType(p.getType())).getPointeeType();
      Expected<mlir::Value> o = toRuntimeAs(b->get(2), elt, b->expr(2));
      if (!o)
        return o.takeError();
      Expected<mlir::Value> ob =
          broadcastTo(*o, getLogicalShape(p), site(b->expr(2)));
      if (!ob)
        return ob.takeError();
      other = *ob;
    }
    if (isPadded(p)) {
      maskPadding(*this, p, mask, l);
      if (!other)
        other =
            setLogicalShape(materializeSplat(SemaValue::getInt(0),
                                             llvm::cast<PointerType>(
                                                 getElementType(p.getType()))
                                                 .getPointeeType(),
                                             getShapeOf(p.getType()), l),
                            getLogicalShape(p));
    }
    auto load = LoadOp::create(builder, l, p, mask, other);
    if (Error err = setCacheModifier(*b, 5, load))
      return std::move(err);
    return runtime(load, pointsToUnsigned(b->get(0)));
  }
  assert(name == "store" && "not a memory builtin");
  Expected<BoundArgs> b =
      bindArgs(name, args, call,
               {"pointer", "value", "mask", "boundary_check", "cache_modifier",
                "eviction_policy"},
               2);
  if (!b)
    return b.takeError();
  Expected<mlir::Value> ptr = getPointer(*this, *b, name);
  if (!ptr)
    return ptr.takeError();
  if (Error err = checkWritable(*ptr, b->expr(0), name))
    return std::move(err);
  mlir::Value p = *ptr, mask;
  mlir::Type elt =
      llvm::cast<PointerType>(getElementType(p.getType())).getPointeeType();
  Expected<mlir::Value> v = toRuntimeAs(
      b->get(1), withSignedness(elt, pointsToUnsigned(b->get(0))), b->expr(1));
  if (!v)
    return v.takeError();
  mlir::Value value = *v;
  if (getShapeOf(value.getType()).size() > getShapeOf(p.getType()).size() ||
      getShapeOf(p.getType()).empty())
    if (Error err = broadcastPair(p, value, site(b->expr(1))))
      return std::move(err);
  Expected<mlir::Value> vb =
      broadcastTo(value, getLogicalShape(p), site(b->expr(1)));
  if (!vb)
    return vb.takeError();
  value = *vb;
  if (Error err = getMask(*this, *b, 2, p, mask))
    return std::move(err);
  if (getLogicalShape(value) != getLogicalShape(p)) {
    Expected<mlir::Value> vb2 =
        broadcastTo(value, getLogicalShape(p), site(b->expr(1)));
    if (!vb2)
      return vb2.takeError();
    value = *vb2;
  }
  maskPadding(*this, p, mask, l);
  StoreOp::create(builder, l, p, value, mask);
  return SemaValue::getNone();
}

Error Generator::checkWritable(mlir::Value ptr, const ast::Expr &where,
                               llvm::StringRef what) {
  // Back through the ops that keep a pointer's origin.
  mlir::Value v = ptr;
  while (mlir::Operation *def = v.getDefiningOp()) {
    if (auto add = llvm::dyn_cast<AddPtrOp>(def))
      v = add.getPtr();
    else if (llvm::isa<SplatOp, BroadcastOp, ExpandDimsOp, ReshapeOp, TransOp,
                       HintOp, PtrCastOp>(def))
      v = def->getOperand(0);
    else
      break;
  }
  auto it = constPointers.find(v);
  if (it == constPointers.end())
    return Error::success();
  return error(where, "cannot " + what + " through '" + it->second +
                          "', a tl.const pointer (its data is read-only)");
}
