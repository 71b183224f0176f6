//===- MLIRGenOps.cpp - typed operations: folding, promotion, broadcast ---===//
//
// This file implements the Generator's typed operations: binary and
// comparison operators (folded with Python semantics when both operands are
// compile-time constants, else emitted as arith ops after Triton's type
// promotion and numpy broadcasting), pointer arithmetic (mgp.addptr),
// materialising constants, conversions between number types, and
// broadcasting (mgp.splat, mgp.expand_dims, mgp.broadcast).
//
//===----------------------------------------------------------------------===//
#include "compiler/frontend/MLIRGenImpl.h"

#include "compiler/frontend/SemaFold.h"
#include "compiler/frontend/SemaTypes.h"
#include "compiler/ir/MgpDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <cmath>

using namespace mgp;
using namespace mgp::detail;
using ast::BinaryOp;
using llvm::Error;
using llvm::Expected;

//===----------------------------------------------------------------------===//
// Constants and conversions
//===----------------------------------------------------------------------===//

static mlir::TypedAttr getConstAttr(mlir::Type type, const SemaValue &c) {
  if (auto ft = llvm::dyn_cast<mlir::FloatType>(type))
    return mlir::FloatAttr::get(ft, c.getAsDouble());
  unsigned width = type.getIntOrFloatBitWidth();
  // A float toward zero (a bool then as that integer != 0, as Triton's store
  // through an i1 pointer converts to i8), truncated to the width.
  int64_t v = c.isFloat() ? convertFloatToInt(c.getFloat(), width) : c.getInt();
  if (width == 1)
    v = v != 0;
  llvm::APInt ap(width, static_cast<uint64_t>(v), /*isSigned=*/true,
                 /*implicitTrunc=*/true);
  return mlir::IntegerAttr::get(type, ap);
}

mlir::Value Generator::materialize(const SemaValue &c, mlir::Type type,
                                   mlir::Location l) {
  assert(c.isConstNumber() && type.isIntOrFloat() && "not a number");
  if (isFp8E4B15(type)) // converted as a value would be
    return castToFp8E4B15(materialize(c, builder.getF32Type(), l), l);
  return mlir::arith::ConstantOp::create(builder, l, getConstAttr(type, c));
}

mlir::Value Generator::materializeSplat(const SemaValue &c,
                                        mlir::Type elementType,
                                        llvm::ArrayRef<int64_t> shape,
                                        mlir::Location l) {
  if (shape.empty())
    return materialize(c, elementType, l);
  if (isFp8E4B15(elementType))
    return castToFp8E4B15(
        materializeSplat(c, builder.getF32Type(), shape, l), l);
  auto type = mlir::RankedTensorType::get(shape, elementType);
  auto attr = mlir::DenseElementsAttr::get(type, getConstAttr(elementType, c));
  return mlir::arith::ConstantOp::create(builder, l, attr);
}

/// The type a compile-time number takes when it becomes a runtime value.
static mlir::Type getLiteralType(mlir::MLIRContext *ctx, const SemaValue &c) {
  if (c.isHeld())
    return c.getType();
  if (c.isBool())
    return mlir::IntegerType::get(ctx, 1);
  if (c.isInt())
    return getIntLiteralType(ctx, c.getWideInt());
  return getFloatLiteralType(ctx, c.getFloat());
}

Expected<mlir::Value> Generator::toRuntime(const SemaValue &v,
                                           const ast::Expr &where) {
  if (v.isRuntime())
    return v.getValue();
  if (v.isConstNumber())
    return materialize(v, getLiteralType(&context, v), loc(where));
  return error(where, "expected a number or a block, got " + v.describe());
}

Expected<mlir::Value> Generator::toRuntimeAs(const SemaValue &v,
                                             mlir::Type type,
                                             const ast::Expr &where) {
  if (v.isConstNumber())
    return materialize(v, toSignless(type), loc(where));
  if (!v.isRuntime())
    return error(where, "expected a number or a block, got " + v.describe());
  if (llvm::isa<PointerType>(getElementType(v.getType())))
    return error(where, "expected a number, got " + v.describe());
  return castTo(v.getValue(), type, loc(where), v.isUnsigned());
}

/// True for the fp8 types PTX converts (float8e4b15 is integer
/// arithmetic: MLIRGenFp8E4B15.cpp).
static bool isFp8(mlir::Type t) {
  return llvm::isa<mlir::Float8E4M3FNType, mlir::Float8E5M2Type>(t);
}

mlir::Value Generator::castTo(mlir::Value v, mlir::Type to, mlir::Location l,
                              bool fromUnsigned) {
  bool toUnsigned = isUnsignedType(to);
  to = toSignless(to);
  mlir::Type from = getElementType(v.getType());
  if (from == to)
    return v;
  llvm::ArrayRef<int64_t> shape = getShapeOf(v.getType());
  mlir::Type result = withShape(to, shape);
  namespace arith = mlir::arith;
  // Pointers convert through their 64-bit address, as Triton's
  // int_to_ptr / ptr_to_int / pointer bitcast: `x.to(tl.pointer_type(T))`.
  if (llvm::isa<PointerType>(to)) {
    mlir::Type i64 = builder.getI64Type();
    mlir::Value address =
        llvm::isa<PointerType>(from)
            ? PtrToIntOp::create(builder, l, withShape(i64, shape), v)
            : castTo(v, i64, l);
    return IntToPtrOp::create(builder, l, result, address);
  }
  if (llvm::isa<PointerType>(from)) {
    mlir::Value address = PtrToIntOp::create(
        builder, l, withShape(builder.getI64Type(), shape), v);
    return castTo(address, to, l);
  }
  if (isFp8E4B15(from))
    return castTo(castFromFp8E4B15(v, l), withSignedness(to, toUnsigned), l);
  if (isFp8E4B15(to))
    return castToFp8E4B15(v, l);
  // fp8 converts only to and from f16 (exactly) and f32 (rounding to
  // nearest even, saturating, as Triton's fp_to_fp); other types go through
  // them.
  if (isFp8(from) && !to.isF16()) {
    mlir::Value half = arith::ExtFOp::create(
        builder, l, withShape(builder.getF16Type(), shape), v);
    return castTo(half, to, l);
  }
  if (isFp8(to) && !from.isF32() && !from.isF16())
    return arith::TruncFOp::create(builder, l, result,
                                   castTo(v, builder.getF32Type(), l));
  if (isFp8(from))
    return arith::ExtFOp::create(builder, l, result, v);
  if (isFp8(to))
    return arith::TruncFOp::create(builder, l, result, v);
  if (to.isInteger(1)) {
    // Conversion to bool is a comparison with zero.
    return toBool(v, l);
  }
  if (from.isInteger() && to.isInteger()) {
    if (to.getIntOrFloatBitWidth() < from.getIntOrFloatBitWidth())
      return arith::TruncIOp::create(builder, l, result, v);
    if (from.isInteger(1) || fromUnsigned)
      return arith::ExtUIOp::create(builder, l, result, v);
    return arith::ExtSIOp::create(builder, l, result, v);
  }
  if (from.isInteger()) {
    if (from.isInteger(1) || fromUnsigned)
      return arith::UIToFPOp::create(builder, l, result, v);
    return arith::SIToFPOp::create(builder, l, result, v);
  }
  if (to.isInteger())
    return toUnsigned ? arith::FPToUIOp::create(builder, l, result, v)
                            .getResult()
                      : arith::FPToSIOp::create(builder, l, result, v)
                            .getResult();
  if (to.getIntOrFloatBitWidth() > from.getIntOrFloatBitWidth())
    return arith::ExtFOp::create(builder, l, result, v);
  if (to.getIntOrFloatBitWidth() < from.getIntOrFloatBitWidth())
    return arith::TruncFOp::create(builder, l, result, v);
  // fp16 <-> bf16: through f32.
  mlir::Value wide = arith::ExtFOp::create(
      builder, l, withShape(builder.getF32Type(), shape), v);
  return arith::TruncFOp::create(builder, l, result, wide);
}

Expected<mlir::Value> Generator::toCondition(const SemaValue &v,
                                             const ast::Expr &where) {
  if (v.isConstexpr())
    return materialize(SemaValue::getBool(v.isTruthy()), builder.getI1Type(),
                       loc(where));
  if (!v.isRuntime() || !getElementType(v.getType()).isIntOrFloat())
    return error(where,
                 "expected a number or boolean condition, got " + v.describe());
  return toBool(v.getValue(), loc(where));
}

mlir::Value Generator::toBool(mlir::Value v, mlir::Location l) {
  mlir::Type elt = getElementType(v.getType());
  if (elt.isInteger(1))
    return v;
  mlir::Value zero =
      materializeSplat(SemaValue::getInt(0), elt, getShapeOf(v.getType()), l);
  if (elt.isInteger())
    return mlir::arith::CmpIOp::create(builder, l,
                                       mlir::arith::CmpIPredicate::ne, v, zero);
  return mlir::arith::CmpFOp::create(builder, l,
                                     mlir::arith::CmpFPredicate::UNE, v, zero);
}

//===----------------------------------------------------------------------===//
// Broadcasting
//===----------------------------------------------------------------------===//

Expected<mlir::Value> Generator::broadcastTo(mlir::Value v,
                                             llvm::ArrayRef<int64_t> shape,
                                             const OpSite &s) {
  // Checked on logical shapes; built on padded ones (MLIRGenPadding.cpp).
  llvm::SmallVector<int64_t> from = getLogicalShape(v);
  if (llvm::ArrayRef<int64_t>(from) == shape)
    return v;
  mlir::Type elt = getElementType(v.getType());
  llvm::SmallVector<int64_t> padded = padShape(shape);
  auto target = mlir::RankedTensorType::get(padded, elt);
  if (from.empty())
    return setLogicalShape(SplatOp::create(builder, s.mlirLoc, target, v),
                           shape);
  if (from.size() > shape.size())
    return error(s.loc,
                 "cannot broadcast a block of shape " + describeShape(from) +
                     " to shape " + describeShape(shape),
                 s.ranges);
  for (size_t i = 0; i < from.size(); ++i) {
    int64_t d = from[i], t = shape[shape.size() - from.size() + i];
    if (d != t && d != 1)
      return error(s.loc,
                   "cannot broadcast a block of shape " + describeShape(from) +
                       " to shape " + describeShape(shape),
                   s.ranges);
  }
  while (getShapeOf(v.getType()).size() < shape.size())
    v = ExpandDimsOp::create(builder, s.mlirLoc, v, 0);
  if (getShapeOf(v.getType()) != llvm::ArrayRef<int64_t>(padded))
    v = BroadcastOp::create(builder, s.mlirLoc, target, v);
  return setLogicalShape(v, shape);
}

Error Generator::broadcastPair(mlir::Value &a, mlir::Value &b,
                               const OpSite &s) {
  llvm::SmallVector<int64_t> sa = getLogicalShape(a);
  llvm::SmallVector<int64_t> sb = getLogicalShape(b);
  if (sa == sb)
    return Error::success();
  auto shape = broadcastShapes(sa, sb);
  if (!shape)
    return error(s.loc,
                 "incompatible shapes " + describeShape(sa) + " and " +
                     describeShape(sb) + " cannot be broadcast together",
                 s.ranges);
  Expected<mlir::Value> na = broadcastTo(a, *shape, s);
  if (!na)
    return na.takeError();
  Expected<mlir::Value> nb = broadcastTo(b, *shape, s);
  if (!nb)
    return nb.takeError();
  a = *na;
  b = *nb;
  return Error::success();
}

Error Generator::broadcastAll(llvm::MutableArrayRef<mlir::Value> values,
                              const OpSite &s) {
  for (size_t i = 0; i < values.size(); ++i)
    for (size_t j = 0; j < values.size(); ++j)
      if (i != j)
        if (Error err = broadcastPair(values[i], values[j], s))
          return err;
  return Error::success();
}

//===----------------------------------------------------------------------===//
// Promotion
//===----------------------------------------------------------------------===//

mlir::Type Generator::getSemanticElementType(const SemaValue &v) {
  if (v.isHeld())
    return withSignedness(v.getType(), v.isUnsigned());
  if (v.isInt())
    return getIntLiteralType(&context, v.getWideInt(), /*allowUnsigned=*/true);
  if (v.isConstNumber())
    return getLiteralType(&context, v);
  if (v.isRuntime())
    return withSignedness(getElementType(v.getType()), v.isUnsigned());
  return {};
}

SemaValue Generator::holdAsTensor(const SemaValue &v) {
  if (v.isTuple()) {
    std::vector<SemaValue> elts;
    for (const SemaValue &e : v.getElements())
      elts.push_back(holdAsTensor(e));
    return SemaValue::getTuple(std::move(elts));
  }
  if (!v.isConstNumber() || v.isHeld())
    return v;
  mlir::Type t = getSemanticElementType(v); // i1, i32, ui32, i64, f32, f64
  return SemaValue::getHeld(v, toSignless(t), isUnsignedType(t));
}

/// The constant `v` computes to, or null: `v` itself, or an operation whose
/// operands do (a few levels deep: a conversion before the operation).
static mlir::Attribute foldToAttr(mlir::Value v, int depth = 0) {
  mlir::Attribute attr;
  if (mlir::matchPattern(v, mlir::m_Constant(&attr)))
    return attr;
  mlir::Operation *op = v.getDefiningOp();
  if (!op || depth > 3 || op->getNumResults() != 1 || op->getNumRegions())
    return {};
  llvm::SmallVector<mlir::Attribute> operands;
  for (mlir::Value o : op->getOperands()) {
    operands.push_back(foldToAttr(o, depth + 1));
    if (!operands.back())
      return {};
  }
  llvm::SmallVector<mlir::OpFoldResult> results;
  if (mlir::failed(op->fold(operands, results)) || results.size() != 1)
    return {};
  if (auto a = llvm::dyn_cast_if_present<mlir::Attribute>(results[0]))
    return a;
  // An identity (x + 0 is x): the constant of that operand.
  auto same = llvm::dyn_cast_if_present<mlir::Value>(results[0]);
  return same && same != v ? foldToAttr(same, depth + 1) : mlir::Attribute();
}

/// Erases `v`'s operation and the operations only it used.
static void eraseDead(mlir::Value v) {
  mlir::Operation *op = v.getDefiningOp();
  if (!op || !mlir::isOpTriviallyDead(op))
    return;
  llvm::SmallVector<mlir::Value> operands(op->getOperands());
  op->erase();
  for (mlir::Value o : operands)
    eraseDead(o);
}

SemaValue Generator::foldHeld(SemaValue r) {
  if (!r.isRuntime() || !r.getType().isIntOrFloat())
    return r;
  mlir::Attribute attr = foldToAttr(r.getValue());
  SemaValue n;
  if (auto i = llvm::dyn_cast_if_present<mlir::IntegerAttr>(attr))
    n = i.getType().isInteger(1) ? SemaValue::getBool(!i.getValue().isZero())
        : r.isUnsigned()         ? SemaValue::getInt(static_cast<int64_t>(
                                       i.getValue().getZExtValue()))
                                 : SemaValue::getInt(i.getValue().getSExtValue());
  else if (auto f = llvm::dyn_cast_if_present<mlir::FloatAttr>(attr))
    n = SemaValue::getFloat(f.getValueAsDouble());
  else
    return r;
  mlir::Type t = r.getType();
  eraseDead(r.getValue());
  return SemaValue::getHeld(n, t, r.isUnsigned());
}

Error Generator::promoteOperands(const SemaValue &lhs, const SemaValue &rhs,
                                 PromoteMode mode, llvm::StringRef opName,
                                 mlir::Value &a, mlir::Value &b,
                                 const OpSite &s, bool *isUnsigned) {
  auto typeOf = [&](const SemaValue &v, mlir::Type &t, bool &lit) -> bool {
    lit = v.isConstNumber() && !v.isHeld();
    t = getSemanticElementType(v);
    return t && t.isIntOrFloat();
  };
  mlir::Type ta, tb;
  bool la, lb;
  if (!typeOf(lhs, ta, la) || !typeOf(rhs, tb, lb))
    return error(s.loc,
                 "unsupported operand types for '" + opName +
                     "': " + lhs.describe() + " and " + rhs.describe(),
                 s.ranges);
  mlir::Type compute;
  std::string why;
  if (mode == PromoteMode::Bitwise) {
    if (!ta.isInteger() || !tb.isInteger())
      // Triton's wording (its tests match "invalid operands of type").
      return error(s.loc,
                   "invalid operands of type " + getTypeName(ta) + " and " +
                       getTypeName(tb) + " for operator '" + opName +
                       "' (it needs integer operands)",
                   s.ranges);
    // As in arithmetic, a literal of a kind not above the block's takes the
    // block's type (Triton's bitwise_op_type_checking_impl types operands
    // like binary arithmetic first): uint16 << 6 is uint16, int8 & 3 is
    // int8, but a bool block & 3 is int32.
    if (la != lb && getTypeKind(la ? ta : tb) <= getTypeKind(la ? tb : ta))
      compute = la ? tb : ta;
    else
      compute = promoteIntegers(ta, tb);
  } else {
    compute =
        computeArithmeticType(ta, la, tb, lb, mode == PromoteMode::DivMod, why);
    if (!compute)
      return error(s.loc,
                   "invalid operand types for '" + opName +
                       "': " + getTypeName(ta) + " and " + getTypeName(tb) +
                       " (" + why + ")",
                   s.ranges);
  }
  if (isUnsigned)
    *isUnsigned = isUnsignedType(compute);
  mlir::Type signless = toSignless(compute);
  a = lhs.isConstNumber()
          ? materialize(lhs, signless, s.mlirLoc)
          : castTo(lhs.getValue(), compute, s.mlirLoc, lhs.isUnsigned());
  b = rhs.isConstNumber()
          ? materialize(rhs, signless, s.mlirLoc)
          : castTo(rhs.getValue(), compute, s.mlirLoc, rhs.isUnsigned());
  return broadcastPair(a, b, s);
}

//===----------------------------------------------------------------------===//
// Binary operators
//===----------------------------------------------------------------------===//

static bool isPointerValue(const SemaValue &v) {
  return v.isRuntime() && llvm::isa<PointerType>(getElementType(v.getType()));
}

Expected<SemaValue> Generator::binaryOp(BinaryOp op, const SemaValue &lhs,
                                        const SemaValue &rhs, const OpSite &s) {
  llvm::StringRef opName = ast::spell(op);
  // Numbers held as Triton's 0-d tensors compute in their types (below,
  // folded back to a number); literals and `**` fold as Python does.
  bool held = lhs.isHeld() || rhs.isHeld();
  if (lhs.isConstNumber() && rhs.isConstNumber() &&
      (!held || op == BinaryOp::Pow)) {
    std::string why;
    if (auto v = foldBinary(op, lhs, rhs, why))
      return *v;
    return error(s.loc, "invalid constant expression: " + why, s.ranges);
  }
  if (lhs.isTuple() && rhs.isTuple() && op == BinaryOp::Add) {
    std::vector<SemaValue> elts = lhs.getElements();
    llvm::append_range(elts, rhs.getElements());
    return SemaValue::getTuple(std::move(elts));
  }
  // Python's tuple repetition: `(1,) * N`, `N * (0,)`.
  if (op == BinaryOp::Mul && ((lhs.isTuple() && rhs.isInt()) ||
                              (lhs.isInt() && rhs.isTuple()))) {
    const SemaValue &t = lhs.isTuple() ? lhs : rhs;
    int64_t n = lhs.isTuple() ? rhs.getInt() : lhs.getInt();
    if (n > 1024 || (n > 0 && t.getElements().size() * n > 4096))
      return error(s.loc, "tuple repetition of " + llvm::Twine(n) +
                              " is too large",
                   s.ranges);
    std::vector<SemaValue> elts;
    for (int64_t i = 0; i < n; ++i)
      llvm::append_range(elts, t.getElements());
    return SemaValue::getTuple(std::move(elts));
  }
  if (lhs.isString() && rhs.isString() && op == BinaryOp::Add)
    return SemaValue::getString((lhs.getString() + rhs.getString()).str());
  namespace arith = mlir::arith;
  mlir::Location l = s.mlirLoc;
  // Pointer arithmetic: ptr + int, int + ptr, ptr - int.
  if (isPointerValue(lhs) || isPointerValue(rhs)) {
    bool ptrLeft = isPointerValue(lhs);
    const SemaValue &ptr = ptrLeft ? lhs : rhs, &off = ptrLeft ? rhs : lhs;
    bool offIsInt =
        (off.isConstNumber() && !off.isFloat()) ||
        (off.isRuntime() && getElementType(off.getType()).isInteger() &&
         !getElementType(off.getType()).isInteger(1));
    if (!offIsInt || !(op == BinaryOp::Add || (op == BinaryOp::Sub && ptrLeft)))
      return error(s.loc,
                   "unsupported pointer arithmetic: " + lhs.describe() + " " +
                       opName + " " + rhs.describe() +
                       " (only pointer + integer and pointer - integer)",
                   s.ranges);
    mlir::Value p = ptr.getValue();
    mlir::Value o = off.isConstNumber()
                        ? materialize(off, getLiteralType(&context,
                                                          off.asLiteral()),
                                      l)
                        : off.getValue();
    if (op == BinaryOp::Sub) {
      mlir::Value zero =
          materializeSplat(SemaValue::getInt(0), getElementType(o.getType()),
                           getShapeOf(o.getType()), l);
      o = arith::SubIOp::create(builder, l, zero, o);
    }
    if (Error err = broadcastPair(p, o, s))
      return std::move(err);
    return runtime(AddPtrOp::create(builder, l, p.getType(), p, o),
                   ptr.isUnsigned());
  }
  if (op == BinaryOp::Pow || op == BinaryOp::MatMul)
    return error(s.loc,
                 "operator '" + opName + "' is not supported on blocks" +
                     (op == BinaryOp::MatMul ? " (use tl.dot)" : ""),
                 s.ranges);
  bool bitwise = op == BinaryOp::BitAnd || op == BinaryOp::BitOr ||
                 op == BinaryOp::BitXor || op == BinaryOp::LShift ||
                 op == BinaryOp::RShift;
  bool divOrMod =
      op == BinaryOp::Div || op == BinaryOp::Mod || op == BinaryOp::FloorDiv;
  PromoteMode mode = bitwise    ? PromoteMode::Bitwise
                     : divOrMod ? PromoteMode::DivMod
                                : PromoteMode::Arith;
  mlir::Value a, b;
  bool u = false;
  if (Error err = promoteOperands(lhs, rhs, mode, opName, a, b, s, &u))
    return std::move(err);
  mlir::Type t = getElementType(a.getType());
  bool isInt = t.isInteger();
  mlir::Value r;
  switch (op) {
  case BinaryOp::Add:
    r = isInt ? arith::AddIOp::create(builder, l, a, b).getResult()
              : arith::AddFOp::create(builder, l, a, b).getResult();
    break;
  case BinaryOp::Sub:
    r = isInt ? arith::SubIOp::create(builder, l, a, b).getResult()
              : arith::SubFOp::create(builder, l, a, b).getResult();
    break;
  case BinaryOp::Mul:
    r = isInt ? arith::MulIOp::create(builder, l, a, b).getResult()
              : arith::MulFOp::create(builder, l, a, b).getResult();
    break;
  case BinaryOp::Div:
    if (isInt) {
      // Triton: integer true division computes in fp32.
      a = castTo(a, builder.getF32Type(), l, u);
      b = castTo(b, builder.getF32Type(), l, u);
      u = false;
    }
    r = arith::DivFOp::create(builder, l, a, b);
    break;
  case BinaryOp::FloorDiv:
    if (!isInt)
      return error(s.loc,
                   "floor division '//' needs integer operands, got " +
                       getTypeName(t),
                   s.ranges);
    r = u ? arith::DivUIOp::create(builder, l, a, b).getResult()
          : arith::DivSIOp::create(builder, l, a, b).getResult();
    break;
  case BinaryOp::Mod:
    r = !isInt ? arith::RemFOp::create(builder, l, a, b).getResult()
        : u    ? arith::RemUIOp::create(builder, l, a, b).getResult()
               : arith::RemSIOp::create(builder, l, a, b).getResult();
    break;
  case BinaryOp::BitAnd:
    r = arith::AndIOp::create(builder, l, a, b);
    break;
  case BinaryOp::BitOr:
    r = arith::OrIOp::create(builder, l, a, b);
    break;
  case BinaryOp::BitXor:
    r = arith::XOrIOp::create(builder, l, a, b);
    break;
  case BinaryOp::LShift:
    r = arith::ShLIOp::create(builder, l, a, b);
    break;
  case BinaryOp::RShift: {
    // Triton: the shifted value's own signedness picks the shift (an int32
    // shifted by a uint64 is an arithmetic shift in uint64).
    const SemaValue &shifted = lhs.isRuntime() || lhs.isHeld() ? lhs : rhs;
    bool logical = shifted.isUnsigned() || getElementType(shifted.getType())
                                               .isInteger(1);
    r = logical ? arith::ShRUIOp::create(builder, l, a, b).getResult()
                : arith::ShRSIOp::create(builder, l, a, b).getResult();
    break;
  }
  case BinaryOp::Pow:
  case BinaryOp::MatMul:
    llvm_unreachable("handled above");
  }
  if (lhs.isConstNumber() && rhs.isConstNumber())
    return foldHeld(runtime(r, u));
  return runtime(r, u);
}

//===----------------------------------------------------------------------===//
// Comparisons
//===----------------------------------------------------------------------===//

Expected<SemaValue> Generator::compareOp(ast::CmpOp op, const SemaValue &lhs,
                                         const SemaValue &rhs,
                                         const OpSite &s) {
  using ast::CmpOp;
  if (op == CmpOp::Is || op == CmpOp::IsNot) {
    bool same;
    if (lhs.isConstexpr() && rhs.isConstexpr())
      same = lhs.getKind() == rhs.getKind() && lhs.constEquals(rhs);
    else if (lhs.isNone() || rhs.isNone())
      same = false; // a runtime value is never None
    else
      return error(s.loc, "'is' is only supported with None or constants",
                   s.ranges);
    return SemaValue::getBool(op == CmpOp::Is ? same : !same);
  }
  if (op == CmpOp::In || op == CmpOp::NotIn) {
    if (rhs.isTuple() && lhs.isConstexpr() && rhs.isConstexpr()) {
      bool found = llvm::any_of(rhs.getElements(), [&](const SemaValue &e) {
        return e.constEquals(lhs);
      });
      return SemaValue::getBool(op == CmpOp::In ? found : !found);
    }
    return error(s.loc, "'in' is only supported on constant tuples", s.ranges);
  }
  bool held = (lhs.isHeld() || rhs.isHeld()) && lhs.isConstNumber() &&
              rhs.isConstNumber();
  if (lhs.isConstexpr() && rhs.isConstexpr() && !held) {
    if (lhs.isConstNumber() && rhs.isConstNumber()) {
      double x = lhs.getAsDouble(), y = rhs.getAsDouble();
      bool bothInt = !lhs.isFloat() && !rhs.isFloat();
      __int128 xi = lhs.getWideInt(), yi = rhs.getWideInt();
      auto cmp = [&](auto a, auto b) {
        switch (op) {
        case CmpOp::Eq:
          return a == b;
        case CmpOp::NotEq:
          return a != b;
        case CmpOp::Lt:
          return a < b;
        case CmpOp::LtE:
          return a <= b;
        case CmpOp::Gt:
          return a > b;
        default:
          return a >= b;
        }
      };
      return SemaValue::getBool(bothInt ? cmp(xi, yi) : cmp(x, y));
    }
    if (op == CmpOp::Eq || op == CmpOp::NotEq) {
      bool eq = lhs.constEquals(rhs);
      return SemaValue::getBool(op == CmpOp::Eq ? eq : !eq);
    }
    return error(s.loc,
                 "cannot order " + lhs.describe() + " and " + rhs.describe(),
                 s.ranges);
  }
  llvm::StringRef opName = ast::spell(op);
  mlir::Value a, b;
  bool u = false;
  if (Error err =
          promoteOperands(lhs, rhs, PromoteMode::Arith, opName, a, b, s, &u))
    return std::move(err);
  namespace arith = mlir::arith;
  mlir::Type t = getElementType(a.getType());
  mlir::Value r;
  if (t.isInteger()) {
    using P = arith::CmpIPredicate;
    P p;
    switch (op) {
    case CmpOp::Eq:
      p = P::eq;
      break;
    case CmpOp::NotEq:
      p = P::ne;
      break;
    case CmpOp::Lt:
      p = u ? P::ult : P::slt;
      break;
    case CmpOp::LtE:
      p = u ? P::ule : P::sle;
      break;
    case CmpOp::Gt:
      p = u ? P::ugt : P::sgt;
      break;
    default:
      p = u ? P::uge : P::sge;
      break;
    }
    r = arith::CmpIOp::create(builder, s.mlirLoc, p, a, b);
  } else {
    arith::CmpFPredicate p;
    switch (op) {
    case CmpOp::Eq:
      p = arith::CmpFPredicate::OEQ;
      break;
    case CmpOp::NotEq:
      p = arith::CmpFPredicate::UNE;
      break;
    case CmpOp::Lt:
      p = arith::CmpFPredicate::OLT;
      break;
    case CmpOp::LtE:
      p = arith::CmpFPredicate::OLE;
      break;
    case CmpOp::Gt:
      p = arith::CmpFPredicate::OGT;
      break;
    default:
      p = arith::CmpFPredicate::OGE;
      break;
    }
    r = arith::CmpFOp::create(builder, s.mlirLoc, p, a, b);
  }
  if (lhs.isConstNumber() && rhs.isConstNumber())
    return foldHeld(runtime(r));
  return runtime(r);
}
