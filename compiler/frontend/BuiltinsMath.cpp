//===- BuiltinsMath.cpp - element-wise math and tl.dot --------------------===//
//
// This file implements the element-wise math builtins (`maximum`, `minimum`
// as arith.maxnumf/minnumf or maxsi/minsi; `exp exp2 log log2 sqrt rsqrt erf
// floor ceil sin cos` on floating-point operands as math ops; `abs`; `fma`;
// `sigmoid` as 1 / (1 + exp(-x)); `fdiv`, `div_rn`; `sqrt_rn` and `umulhi`
// through libdevice; `clamp`); `dot` is in BuiltinsDot.cpp.
//
//===----------------------------------------------------------------------===//
#include "compiler/frontend/LibdeviceTable.h"
#include "compiler/frontend/MLIRGenImpl.h"

#include "compiler/frontend/SemaTypes.h"
#include "compiler/ir/MgpDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

using namespace mgp;
using namespace mgp::detail;
using llvm::Error;
using llvm::Expected;

Expected<SemaValue> Generator::genMathBuiltin(llvm::StringRef name,
                                              CallArgs &args,
                                              const ast::CallExpr &call) {
  if (name == "dot")
    return genDotBuiltin(args, call);
  if (name == "dot_scaled")
    return genDotScaled(args, call);
  mlir::Location l = loc(call);
  OpSite callSite = site(call);
  if (name == "sigmoid") {
    // Triton's standard.sigmoid: 1 / (1 + exp(-x)).
    Expected<BoundArgs> b = bindArgs(name, args, call, {"x"}, 1);
    if (!b)
      return b.takeError();
    CallArgs neg;
    Expected<SemaValue> negX =
        binaryOp(ast::BinaryOp::Sub, SemaValue::getInt(0), b->get(0), callSite);
    if (!negX)
      return negX.takeError();
    neg.args = {*negX};
    neg.argExprs = {&b->expr(0)};
    Expected<SemaValue> e = genMathBuiltin("exp", neg, call);
    if (!e)
      return e.takeError();
    Expected<SemaValue> denom =
        binaryOp(ast::BinaryOp::Add, SemaValue::getInt(1), *e, callSite);
    if (!denom)
      return denom.takeError();
    return binaryOp(ast::BinaryOp::Div, SemaValue::getInt(1), *denom, callSite);
  }
  if (name == "fdiv" || name == "div_rn") {
    // x / y as Triton: fdiv is `/` (div.full.f32 on the GPU for fp32, 2 ulp;
    // ieee_rounding is ignored, as in Triton); div_rn is correctly rounded
    // and keeps denormals (div.rn.f32 through its NVVM intrinsic for fp32,
    // Triton's precise_divf; libdevice's __nv_fdiv_rn flushes them under
    // nvvm-reflect-ftz).
    Expected<BoundArgs> b =
        name == "fdiv"
            ? bindArgs(name, args, call, {"x", "y", "ieee_rounding"}, 2)
            : bindArgs(name, args, call, {"x", "y"}, 2);
    if (!b)
      return b.takeError();
    if (name == "div_rn") {
      mlir::Value x, y;
      if (Error err = promoteOperands(b->get(0), b->get(1),
                                      PromoteMode::DivMod, name, x, y,
                                      callSite))
        return std::move(err);
      if (getElementType(x.getType()).isF32())
        return runtime(ExternElementwiseOp::create(
            builder, l, x.getType(), mlir::ValueRange{x, y},
            exactRoundedSymbol("__nv_fdiv_rn")));
      return binaryOp(ast::BinaryOp::Div, b->get(0), b->get(1), callSite);
    }
    // fdiv keeps the operands' promoted float type (Triton's semantic.fdiv:
    // fp16 / fp16 is fp16, where `/` gives fp32); 16-bit quotients are
    // computed in fp32 and rounded once.
    mlir::Value x, y;
    if (Error err = promoteOperands(b->get(0), b->get(1), PromoteMode::Arith,
                                    name, x, y, callSite))
      return std::move(err);
    mlir::Type type = getElementType(x.getType());
    if (!mlir::isa<mlir::FloatType>(type))
      return error(call, "fdiv needs floating-point operands, got " +
                             getTypeName(type));
    Expected<SemaValue> q =
        binaryOp(ast::BinaryOp::Div, runtime(x), runtime(y), callSite);
    if (!q || !(type.isF16() || type.isBF16()))
      return q;
    return runtime(castTo(q->getValue(), type, l));
  }
  if (name == "sqrt_rn") // sqrt.rn.f32 on fp32, as Triton's precise_sqrt
    return genLibdeviceCall("sqrt_rn", args, call, /*exact=*/true);
  if (name == "umulhi") {
    Expected<BoundArgs> b = bindArgs(name, args, call, {"x", "y"}, 2);
    if (!b)
      return b.takeError();
    mlir::Value x, y;
    bool u = false;
    if (Error err = promoteOperands(b->get(0), b->get(1), PromoteMode::Bitwise,
                                    name, x, y, callSite, &u))
      return std::move(err);
    mlir::Type t = getElementType(x.getType());
    if (!t.isInteger(32) && !t.isInteger(64))
      return error(call, "umulhi needs 32- or 64-bit integers, got " +
                             getTypeName(t));
    return runtime(ExternElementwiseOp::create(
        builder, l, x.getType(), mlir::ValueRange{x, y},
        t.isInteger(32) ? "__nv_umulhi" : "__nv_umul64hi"), u);
  }
  if (name == "clamp") {
    // minimum(maximum(x, min), max) (Triton's clamp on floats).
    Expected<BoundArgs> b =
        bindArgs(name, args, call, {"x", "min", "max", "propagate_nan"}, 3);
    if (!b)
      return b.takeError();
    SemaValue propagate =
        b->has(3) ? b->get(3) : SemaValue::getInt(0);
    const ast::Expr &pe = b->has(3) ? b->expr(3) : b->expr(0);
    CallArgs lo;
    lo.args = {b->get(0), b->get(1), propagate};
    lo.argExprs = {&b->expr(0), &b->expr(1), &pe};
    Expected<SemaValue> r = genMathBuiltin("maximum", lo, call);
    if (!r)
      return r.takeError();
    CallArgs hi;
    hi.args = {*r, b->get(2), propagate};
    hi.argExprs = {&b->expr(0), &b->expr(2), &pe};
    return genMathBuiltin("minimum", hi, call);
  }
  namespace arith = mlir::arith;
  namespace math = mlir::math;
  if (name == "maximum" || name == "minimum") {
    Expected<BoundArgs> b =
        bindArgs(name, args, call, {"x", "y", "propagate_nan"}, 2);
    if (!b)
      return b.takeError();
    // As Triton's core.maximum/minimum: numbers become 0-d tensors first
    // (to_tensor: `tl.maximum(x_i8, 1)` is int32, `tl.minimum(x_f16, 0.5)`
    // fp32; two constants fold below to one of their promoted type), and
    // bf16 operands compute in fp32 (_promote_bfloat16_to_float32: the
    // result is fp32; a store of it rounds back exactly).
    auto operand = [&](const SemaValue &v) {
      SemaValue t = holdAsTensor(v);
      if (t.isRuntime() && getElementType(t.getType()).isBF16())
        return runtime(castTo(t.getValue(), builder.getF32Type(), l));
      return t;
    };
    SemaValue x = operand(b->get(0)), y = operand(b->get(1));
    mlir::Value a, c;
    bool u = false;
    if (Error err = promoteOperands(x, y, PromoteMode::Arith, name, a, c,
                                    site(call), &u))
      return std::move(err);
    bool isMax = name == "maximum";
    // propagate_nan=tl.PropagateNan.ALL: a NaN operand gives NaN
    // (arith.maximumf / minimumf); NONE (the default) the other operand.
    bool propagateNaN = false;
    if (b->has(2)) {
      const SemaValue &p = b->get(2);
      if (!p.isInt())
        return error(b->expr(2), "propagate_nan must be tl.PropagateNan.NONE "
                                 "or tl.PropagateNan.ALL, got " +
                                     p.describe());
      propagateNaN = p.getInt() != 0;
    }
    mlir::Value r;
    if (getElementType(a.getType()).isInteger() && u)
      r = isMax ? arith::MaxUIOp::create(builder, l, a, c).getResult()
                : arith::MinUIOp::create(builder, l, a, c).getResult();
    else if (getElementType(a.getType()).isInteger())
      r = isMax ? arith::MaxSIOp::create(builder, l, a, c).getResult()
                : arith::MinSIOp::create(builder, l, a, c).getResult();
    else if (propagateNaN)
      r = isMax ? arith::MaximumFOp::create(builder, l, a, c).getResult()
                : arith::MinimumFOp::create(builder, l, a, c).getResult();
    else
      r = isMax ? arith::MaxNumFOp::create(builder, l, a, c).getResult()
                : arith::MinNumFOp::create(builder, l, a, c).getResult();
    if (x.isConstNumber() && y.isConstNumber())
      return foldHeld(runtime(r, u));
    return runtime(r, u);
  }
  if (name == "fma") {
    Expected<BoundArgs> b = bindArgs(name, args, call, {"x", "y", "z"}, 3);
    if (!b)
      return b.takeError();
    mlir::Value x, y, z, xz;
    OpSite s = site(call);
    if (Error err = promoteOperands(b->get(0), b->get(1), PromoteMode::Arith,
                                    name, x, y, s))
      return std::move(err);
    if (Error err = promoteOperands(runtime(x), b->get(2), PromoteMode::Arith,
                                    name, xz, z, s))
      return std::move(err);
    mlir::Type t = getElementType(z.getType());
    if (!llvm::isa<mlir::FloatType>(t))
      return error(call, "fma needs floating-point operands");
    x = castTo(x, t, l);
    y = castTo(y, t, l);
    if (Error err = broadcastPair(x, z, s))
      return std::move(err);
    if (Error err = broadcastPair(y, z, s))
      return std::move(err);
    if (Error err = broadcastPair(x, y, s))
      return std::move(err);
    return runtime(math::FmaOp::create(builder, l, x, y, z));
  }
  // One-operand math.
  Expected<BoundArgs> b = bindArgs(name, args, call, {"x"}, 1);
  if (!b)
    return b.takeError();
  Expected<mlir::Value> xv = getRuntimeArg(*b, 0);
  if (!xv)
    return xv.takeError();
  mlir::Value x = *xv;
  if (isFp8E4B15(getElementType(x.getType()))) // computes in fp16
    x = castTo(x, builder.getF16Type(), l);
  mlir::Type t = getElementType(x.getType());
  if (name == "abs") {
    if (t.isInteger() && b->get(0).isUnsigned())
      return b->get(0); // |x| of an unsigned x is x
    if (t.isInteger())
      return runtime(math::AbsIOp::create(builder, l, x));
    return runtime(math::AbsFOp::create(builder, l, x));
  }
  if (!llvm::isa<mlir::FloatType>(t))
    return error(b->expr(0), name + " expects a floating-point operand, got " +
                                 describeType(x.getType()) +
                                 " (convert with .to(tl.float32))");
  mlir::Value r;
  if (name == "exp")
    r = math::ExpOp::create(builder, l, x);
  else if (name == "exp2")
    r = math::Exp2Op::create(builder, l, x);
  else if (name == "log")
    r = math::LogOp::create(builder, l, x);
  else if (name == "log2")
    r = math::Log2Op::create(builder, l, x);
  else if (name == "sqrt")
    r = math::SqrtOp::create(builder, l, x);
  else if (name == "rsqrt")
    r = math::RsqrtOp::create(builder, l, x);
  else if (name == "erf")
    r = math::ErfOp::create(builder, l, x);
  else if (name == "floor")
    r = math::FloorOp::create(builder, l, x);
  else if (name == "ceil")
    r = math::CeilOp::create(builder, l, x);
  else if (name == "sin")
    r = math::SinOp::create(builder, l, x);
  else if (name == "cos")
    r = math::CosOp::create(builder, l, x);
  else
    llvm_unreachable("not a math builtin");
  return runtime(r);
}
