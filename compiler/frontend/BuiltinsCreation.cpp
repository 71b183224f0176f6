//===- BuiltinsCreation.cpp - program ids, ranges, fills, casts, hints ----===//
//
// This file implements the builtins that create values or change their
// type: `program_id`, `num_programs`, `arange` (mgp.make_range; constant
// bounds, any length: padded), `zeros`, `full`, `zeros_like`, `full_like`,
// `where` (arith.select after Triton's promotion of both values), `cdiv`,
// `cast` and `x.to(dtype)` (conversions, or arith.bitcast with
// `bitcast=True`), and the axis-analysis hints `multiple_of` and
// `max_contiguous` (mgp.hint).
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

/// `cast(x, dtype, bitcast=True)` (Triton's semantic.bitcast): the bits of
/// each element of `x` reinterpreted as `to`, which must have the same width
/// (arith.bitcast, element-wise, so padded blocks need nothing more). A Python
/// number first becomes a runtime value of its literal type (int32/int64,
/// fp32, int1), as Triton's to_tensor makes it. Pointers are refused.
static Expected<SemaValue> bitcastTo(Generator &g, const BoundArgs &b,
                                     mlir::Type to, const ast::CallExpr &call) {
  Expected<mlir::Value> v = g.toRuntime(b.get(0), b.expr(0));
  if (!v)
    return v.takeError();
  mlir::Type from = getElementType(v->getType());
  if (llvm::isa<PointerType>(from) || llvm::isa<PointerType>(to))
    return g.error(call, "bitcast of pointers is not supported: " +
                             getTypeName(from) + " -> " + getTypeName(to));
  if (from == to)
    return g.runtime(*v);
  unsigned fromBits = from.getIntOrFloatBitWidth();
  unsigned toBits = to.getIntOrFloatBitWidth();
  if (fromBits != toBits)
    return g.error(
        call, "bitcast needs types of the same width: " + getTypeName(from) +
                  " (" + llvm::Twine(fromBits) + " bits) -> " +
                  getTypeName(to) + " (" + llvm::Twine(toBits) + " bits)");
  mlir::Type result = withShape(to, getShapeOf(v->getType()));
  return g.runtime(
      mlir::arith::BitcastOp::create(g.builder, g.loc(call), result, *v));
}

/// A scalar or block of logical shape `shape` filled with `value` (constant
/// or runtime scalar).
static Expected<SemaValue> fill(Generator &g, const SemaValue &value,
                                const ast::Expr &valueExpr, mlir::Type dtype,
                                llvm::ArrayRef<int64_t> shape,
                                mlir::Location l) {
  llvm::SmallVector<int64_t> padded = padShape(shape);
  if (value.isConstNumber())
    return g.runtime(
        g.setLogicalShape(g.materializeSplat(value, dtype, padded, l), shape));
  if (!value.isRuntime() || value.isTensor())
    return g.error(valueExpr,
                   "the fill value must be a scalar, got " + value.describe());
  Expected<mlir::Value> v = g.toRuntimeAs(value, dtype, valueExpr);
  if (!v)
    return v.takeError();
  if (shape.empty())
    return g.runtime(*v);
  return g.runtime(g.setLogicalShape(
      SplatOp::create(g.builder, l, mlir::RankedTensorType::get(padded, dtype),
                      *v),
      shape));
}

Expected<SemaValue> Generator::genCreationBuiltin(llvm::StringRef name,
                                                  CallArgs &args,
                                                  const ast::CallExpr &call) {
  mlir::Location l = loc(call);
  if (name == "program_id" || name == "num_programs") {
    Expected<BoundArgs> b = bindArgs(name, args, call, {"axis"}, 1);
    if (!b)
      return b.takeError();
    Expected<int64_t> axis = getConstInt(*b, 0, "the axis");
    if (!axis)
      return axis.takeError();
    if (*axis < 0 || *axis > 2)
      return error(b->expr(0), "the axis of " + name +
                                   " must be 0, 1 or 2, got " +
                                   llvm::Twine(*axis));
    auto attr = builder.getI32IntegerAttr(*axis);
    if (name == "program_id")
      return runtime(
          ProgramIdOp::create(builder, l, builder.getI32Type(), attr));
    return runtime(
        NumProgramsOp::create(builder, l, builder.getI32Type(), attr));
  }
  if (name == "arange") {
    Expected<BoundArgs> b = bindArgs(name, args, call, {"start", "end"}, 2);
    if (!b)
      return b.takeError();
    for (unsigned i = 0; i < 2; ++i)
      if (!b->get(i).isInt())
        return error(b->expr(i),
                     "arange bounds must be compile-time integers (mark the "
                     "parameter tl.constexpr), got " +
                         b->get(i).describe());
    int64_t start = b->get(0).getInt(), end = b->get(1).getInt();
    if (end <= start)
      return error(call, "arange needs start < end, got " + llvm::Twine(start) +
                             " and " + llvm::Twine(end));
    // A length that is not a power of two is padded (MLIRGenPadding.cpp):
    // the range runs on to the padded end.
    int64_t paddedEnd = start + padShape({end - start})[0];
    if (paddedEnd > std::numeric_limits<int32_t>::max() ||
        start < std::numeric_limits<int32_t>::min())
      return error(call, "arange bounds must fit in int32");
    return runtime(setLogicalShape(
        MakeRangeOp::create(builder, l, static_cast<int32_t>(start),
                            static_cast<int32_t>(paddedEnd)),
        {end - start}));
  }
  if (name == "zeros" || name == "full") {
    bool isFull = name == "full";
    Expected<BoundArgs> b =
        isFull ? bindArgs(name, args, call, {"shape", "value", "dtype"}, 3)
               : bindArgs(name, args, call, {"shape", "dtype"}, 2);
    if (!b)
      return b.takeError();
    Expected<llvm::SmallVector<int64_t>> shape =
        getConstShape(b->get(0), b->expr(0));
    if (!shape)
      return shape.takeError();
    unsigned dtypeIdx = isFull ? 2 : 1;
    Expected<mlir::Type> dtype = getDTypeArg(*b, dtypeIdx);
    if (!dtype)
      return dtype.takeError();
    Expected<SemaValue> r =
        isFull ? fill(*this, b->get(1), b->expr(1), *dtype, *shape, l)
               : fill(*this, SemaValue::getInt(0), b->expr(0), *dtype, *shape,
                      l);
    if (!r)
      return r.takeError();
    return r->withUnsigned(b->get(dtypeIdx).isUnsigned());
  }
  if (name == "zeros_like" || name == "full_like") {
    bool isFull = name == "full_like";
    Expected<BoundArgs> b =
        isFull ? bindArgs(name, args, call, {"input", "value", "dtype"}, 2)
               : bindArgs(name, args, call, {"input", "dtype"}, 1);
    if (!b)
      return b.takeError();
    if (!b->get(0).isRuntime())
      return error(b->expr(0),
                   name + " needs a block, got " + b->get(0).describe());
    mlir::Type type = b->get(0).getLogicalType();
    unsigned dtypeIdx = isFull ? 2 : 1;
    mlir::Type dtype = getElementType(type);
    bool isUnsigned = b->get(0).isUnsigned();
    if (b->has(dtypeIdx)) {
      Expected<mlir::Type> d = getDTypeArg(*b, dtypeIdx);
      if (!d)
        return d.takeError();
      dtype = *d;
      isUnsigned = b->get(dtypeIdx).isUnsigned();
    }
    Expected<SemaValue> r =
        isFull ? fill(*this, b->get(1), b->expr(1), dtype, getShapeOf(type), l)
               : fill(*this, SemaValue::getInt(0), b->expr(0), dtype,
                      getShapeOf(type), l);
    if (!r)
      return r.takeError();
    return r->withUnsigned(isUnsigned);
  }
  if (name == "where") {
    Expected<BoundArgs> b =
        bindArgs(name, args, call, {"condition", "x", "y"}, 3);
    if (!b)
      return b.takeError();
    if (b->get(0).isConstexpr())
      return b->get(0).isTruthy() ? b->get(1) : b->get(2);
    Expected<mlir::Value> c = toCondition(b->get(0), b->expr(0));
    if (!c)
      return c.takeError();
    mlir::Value cond = *c, x, y;
    OpSite s = site(call);
    bool u = false;
    if (Error err = promoteOperands(b->get(1), b->get(2), PromoteMode::Arith,
                                    "where", x, y, s, &u))
      return std::move(err);
    if (Error err = broadcastPair(cond, x, s))
      return std::move(err);
    if (Error err = broadcastPair(cond, y, s))
      return std::move(err);
    if (Error err = broadcastPair(x, y, s))
      return std::move(err);
    return runtime(mlir::arith::SelectOp::create(builder, l, cond, x, y), u);
  }
  if (name == "cdiv" || name == "triton.cdiv") {
    Expected<BoundArgs> b = bindArgs("cdiv", args, call, {"x", "div"}, 2);
    if (!b)
      return b.takeError();
    OpSite s = site(call);
    // (x + div - 1) // div, folded when both are constants.
    Expected<SemaValue> sum =
        binaryOp(ast::BinaryOp::Add, b->get(0), b->get(1), s);
    if (!sum)
      return sum.takeError();
    Expected<SemaValue> dec =
        binaryOp(ast::BinaryOp::Sub, *sum, SemaValue::getInt(1), s);
    if (!dec)
      return dec.takeError();
    Expected<SemaValue> q =
        binaryOp(ast::BinaryOp::FloorDiv, *dec, b->get(1), s);
    // tl.cdiv is a @jit function of Triton's: a number it returns is a 0-d
    // tensor (int32); triton.cdiv is Python's, a constant.
    if (!q || name == "triton.cdiv")
      return q;
    return holdAsTensor(*q);
  }
  if (name == "cast" || name == "to") {
    Expected<BoundArgs> b =
        bindArgs(name, args, call,
                 {"input", "dtype", "fp_downcast_rounding", "bitcast"}, 2);
    if (!b)
      return b.takeError();
    Expected<mlir::Type> dtype = getDTypeArg(*b, 1);
    if (!dtype)
      return dtype.takeError();
    bool toUnsigned = b->get(1).isUnsigned();
    const SemaValue &in = b->get(0);
    if (in.isRuntime() && llvm::isa<PointerType>(getElementType(in.getType())) &&
        llvm::isa<PointerType>(*dtype)) {
      // A pointer viewed as a pointer to another type (`p.to(tl.pointer_type(
      // tl.int8))`): the same addresses.
      mlir::Type to = in.isTensor()
                          ? withShape(*dtype, getShapeOf(in.getType()))
                          : *dtype;
      return runtime(PtrCastOp::create(builder, l, to, in.getValue()),
                     toUnsigned);
    }
    if (b->has(3) && b->get(3).isTruthy()) {
      Expected<SemaValue> r = bitcastTo(*this, *b, *dtype, call);
      if (!r)
        return r.takeError();
      return r->withUnsigned(toUnsigned);
    }
    Expected<mlir::Value> v = toRuntimeAs(
        b->get(0), withSignedness(*dtype, toUnsigned), b->expr(0));
    if (!v)
      return v.takeError();
    return runtime(*v, toUnsigned);
  }
  if (name == "multiple_of" || name == "max_contiguous") {
    Expected<BoundArgs> b = bindArgs(name, args, call, {"input", "values"}, 2);
    if (!b)
      return b.takeError();
    const SemaValue &vals = b->get(1);
    const SemaValue &first = vals.isTuple() && !vals.getElements().empty()
                                 ? vals.getElements()[0]
                                 : vals;
    if (!first.isInt() || !isPowerOf2(first.getInt()))
      return error(b->expr(1), name + " needs a power-of-two constant, got " +
                                   first.describe());
    if (!b->get(0).isRuntime())
      return b->get(0);
    mlir::Value v = b->get(0).getValue();
    mlir::IntegerAttr attr = builder.getI64IntegerAttr(first.getInt());
    bool mult = name == "multiple_of";
    return runtime(HintOp::create(builder, l, v.getType(), v,
                                  mult ? attr : mlir::IntegerAttr(),
                                  mult ? mlir::IntegerAttr() : attr));
  }
  llvm_unreachable("not a creation builtin");
}
