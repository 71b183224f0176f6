//===- ElementwiseOps.cpp - arith and math ops over whole blocks ----------===//
//
// This file implements the interpreter's elementwise ops: arith (constants,
// integer and float arithmetic with C division semantics and two's-complement
// wrapping, comparisons, select, bit operations, shifts, casts) and math.
// Every op runs as one loop over its operands' flat buffers; an operand of
// one element is broadcast, which lets a reduce combiner written on scalars
// run over whole vectors at once. Float results are rounded to their type.
//
//===----------------------------------------------------------------------===//
#include "runtime/interp/ElementwiseLoops.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

#include <cmath>

using namespace mgp;
using namespace mgp::interp;

namespace {

int64_t divSigned(int64_t x, int64_t y) {
  if (y == 0)
    return -1; // PTX gives all ones; masked-off lanes must not trap
  if (y == -1)
    return static_cast<int64_t>(0 - static_cast<uint64_t>(x));
  return x / y;
}
int64_t remSigned(int64_t x, int64_t y) {
  if (y == 0)
    return x;
  if (y == -1)
    return 0;
  return x % y;
}

Instr compileFloatCompare(mlir::arith::CmpFPredicate pred, int a, int b, int d) {
  using P = mlir::arith::CmpFPredicate;
  auto uno = [](double x, double y) { return std::isnan(x) || std::isnan(y); };
  switch (pred) {
  case P::AlwaysFalse:
    return compare<double>(a, b, d, [](double, double) { return false; });
  case P::AlwaysTrue:
    return compare<double>(a, b, d, [](double, double) { return true; });
  case P::OEQ:
    return compare<double>(a, b, d, [](double x, double y) { return x == y; });
  case P::OGT:
    return compare<double>(a, b, d, [](double x, double y) { return x > y; });
  case P::OGE:
    return compare<double>(a, b, d, [](double x, double y) { return x >= y; });
  case P::OLT:
    return compare<double>(a, b, d, [](double x, double y) { return x < y; });
  case P::OLE:
    return compare<double>(a, b, d, [](double x, double y) { return x <= y; });
  case P::ONE:
    return compare<double>(a, b, d, [=](double x, double y) { return !uno(x, y) && x != y; });
  case P::ORD:
    return compare<double>(a, b, d, [=](double x, double y) { return !uno(x, y); });
  case P::UEQ:
    return compare<double>(a, b, d, [=](double x, double y) { return uno(x, y) || x == y; });
  case P::UGT:
    return compare<double>(a, b, d, [=](double x, double y) { return uno(x, y) || x > y; });
  case P::UGE:
    return compare<double>(a, b, d, [=](double x, double y) { return uno(x, y) || x >= y; });
  case P::ULT:
    return compare<double>(a, b, d, [=](double x, double y) { return uno(x, y) || x < y; });
  case P::ULE:
    return compare<double>(a, b, d, [=](double x, double y) { return uno(x, y) || x <= y; });
  case P::UNE:
    return compare<double>(a, b, d, [](double x, double y) { return x != y; });
  case P::UNO:
    return compare<double>(a, b, d, uno);
  }
  llvm_unreachable("unknown cmpf predicate");
}

Instr compileIntCompare(mlir::arith::CmpIPredicate pred, unsigned w, int a, int b,
                        int d) {
  using P = mlir::arith::CmpIPredicate;
  auto u = [w](int64_t v) { return asUnsigned(v, w); };
  switch (pred) {
  case P::eq:
    return compare<int64_t>(a, b, d, [](int64_t x, int64_t y) { return x == y; });
  case P::ne:
    return compare<int64_t>(a, b, d, [](int64_t x, int64_t y) { return x != y; });
  case P::slt:
    return compare<int64_t>(a, b, d, [](int64_t x, int64_t y) { return x < y; });
  case P::sle:
    return compare<int64_t>(a, b, d, [](int64_t x, int64_t y) { return x <= y; });
  case P::sgt:
    return compare<int64_t>(a, b, d, [](int64_t x, int64_t y) { return x > y; });
  case P::sge:
    return compare<int64_t>(a, b, d, [](int64_t x, int64_t y) { return x >= y; });
  case P::ult:
    return compare<int64_t>(a, b, d, [=](int64_t x, int64_t y) { return u(x) < u(y); });
  case P::ule:
    return compare<int64_t>(a, b, d, [=](int64_t x, int64_t y) { return u(x) <= u(y); });
  case P::ugt:
    return compare<int64_t>(a, b, d, [=](int64_t x, int64_t y) { return u(x) > u(y); });
  case P::uge:
    return compare<int64_t>(a, b, d, [=](int64_t x, int64_t y) { return u(x) >= u(y); });
  }
  llvm_unreachable("unknown cmpi predicate");
}

/// Each table maps an op name to a factory that instantiates the block loop
/// with the element function inlined.
using IntFactory = Instr (*)(int a, int b, int d, unsigned width);
using Float2Factory = Instr (*)(int a, int b, int d, DType kind);
using Float1Factory = Instr (*)(int a, int d, DType kind);

#define INT_OP(NAME, ...)                                                      \
  {                                                                            \
    NAME, [](int a, int b, int d, unsigned w) {                                \
      return intBinary(a, b, d, w,                                             \
                       [w](int64_t x, int64_t y) -> int64_t __VA_ARGS__);      \
    }                                                                          \
  }
#define FLOAT2_OP(NAME, ...)                                                   \
  {                                                                            \
    NAME, [](int a, int b, int d, DType k) {                                \
      return floatBinary(a, b, d, k, [](double x, double y) -> double __VA_ARGS__); \
    }                                                                          \
  }
#define FLOAT1_OP(NAME, ...)                                                   \
  {                                                                            \
    NAME, [](int a, int d, DType k) {                                       \
      return floatUnary(a, d, k, [](double x) -> double __VA_ARGS__);          \
    }                                                                          \
  }

/// Integer binary ops by name; each gets the width for unsigned views/shifts.
const llvm::StringMap<IntFactory> &intBinaryOps() {
  static const llvm::StringMap<IntFactory> ops = {
      INT_OP("arith.addi", { return int64_t(uint64_t(x) + uint64_t(y)); }),
      INT_OP("arith.subi", { return int64_t(uint64_t(x) - uint64_t(y)); }),
      INT_OP("arith.muli", { return int64_t(uint64_t(x) * uint64_t(y)); }),
      INT_OP("arith.divsi", { return divSigned(x, y); }),
      INT_OP("arith.remsi", { return remSigned(x, y); }),
      INT_OP("arith.divui", {
         uint64_t ux = asUnsigned(x, w), uy = asUnsigned(y, w);
         return uy == 0 ? int64_t(-1) : int64_t(ux / uy);
       }),
      INT_OP("arith.remui", {
         uint64_t ux = asUnsigned(x, w), uy = asUnsigned(y, w);
         return uy == 0 ? x : int64_t(ux % uy);
       }),
      INT_OP("arith.ceildivsi", {
         int64_t q = divSigned(x, y), r = remSigned(x, y);
         return (y != 0 && r != 0 && ((r > 0) == (y > 0))) ? q + 1 : q;
       }),
      INT_OP("arith.ceildivui", {
         uint64_t ux = asUnsigned(x, w), uy = asUnsigned(y, w);
         return uy == 0 ? int64_t(-1) : int64_t(ux / uy + (ux % uy != 0));
       }),
      INT_OP("arith.floordivsi", {
         int64_t q = divSigned(x, y), r = remSigned(x, y);
         return (y != 0 && r != 0 && ((r < 0) != (y < 0))) ? q - 1 : q;
       }),
      INT_OP("arith.maxsi", { return std::max(x, y); }),
      INT_OP("arith.minsi", { return std::min(x, y); }),
      INT_OP("arith.maxui", { return asUnsigned(x, w) >= asUnsigned(y, w) ? x : y; }),
      INT_OP("arith.minui", { return asUnsigned(x, w) <= asUnsigned(y, w) ? x : y; }),
      INT_OP("arith.andi", { return x & y; }),
      INT_OP("arith.ori", { return x | y; }),
      INT_OP("arith.xori", { return x ^ y; }),
      INT_OP("arith.shli", {
         uint64_t s = asUnsigned(y, w);
         return s >= w ? int64_t(0) : int64_t(uint64_t(x) << s);
       }),
      INT_OP("arith.shrsi", {
         uint64_t s = asUnsigned(y, w);
         return s >= w ? (x < 0 ? int64_t(-1) : int64_t(0)) : (x >> s);
       }),
      INT_OP("arith.shrui", {
         uint64_t s = asUnsigned(y, w);
         return s >= w ? int64_t(0) : int64_t(asUnsigned(x, w) >> s);
       }),
  };
  return ops;
}

const llvm::StringMap<Float2Factory> &floatBinaryOps() {
  static const llvm::StringMap<Float2Factory> ops = {
      FLOAT2_OP("arith.addf", { return x + y; }),
      FLOAT2_OP("arith.subf", { return x - y; }),
      FLOAT2_OP("arith.mulf", { return x * y; }),
      FLOAT2_OP("arith.divf", { return x / y; }),
      FLOAT2_OP("arith.remf", { return std::fmod(x, y); }),
      FLOAT2_OP("arith.maximumf", {
         if (std::isnan(x) || std::isnan(y))
           return std::nan("");
         if (x == y)
           return std::signbit(x) ? y : x;
         return x > y ? x : y;
       }),
      FLOAT2_OP("arith.minimumf", {
         if (std::isnan(x) || std::isnan(y))
           return std::nan("");
         if (x == y)
           return std::signbit(x) ? x : y;
         return x < y ? x : y;
       }),
      FLOAT2_OP("arith.maxnumf", { return std::fmax(x, y); }),
      FLOAT2_OP("arith.minnumf", { return std::fmin(x, y); }),
      FLOAT2_OP("math.powf", { return std::pow(x, y); }),
      FLOAT2_OP("math.atan2", { return std::atan2(x, y); }),
      FLOAT2_OP("math.copysign", { return std::copysign(x, y); }),
  };
  return ops;
}

const llvm::StringMap<Float1Factory> &floatUnaryOps() {
  static const llvm::StringMap<Float1Factory> ops = {
      FLOAT1_OP("arith.negf", { return -x; }),
      FLOAT1_OP("math.exp", { return std::exp(x); }),
      FLOAT1_OP("math.exp2", { return std::exp2(x); }),
      FLOAT1_OP("math.expm1", { return std::expm1(x); }),
      FLOAT1_OP("math.log", { return std::log(x); }),
      FLOAT1_OP("math.log2", { return std::log2(x); }),
      FLOAT1_OP("math.log10", { return std::log10(x); }),
      FLOAT1_OP("math.log1p", { return std::log1p(x); }),
      FLOAT1_OP("math.sqrt", { return std::sqrt(x); }),
      FLOAT1_OP("math.rsqrt", { return 1.0 / std::sqrt(x); }),
      FLOAT1_OP("math.cbrt", { return std::cbrt(x); }),
      FLOAT1_OP("math.absf", { return std::fabs(x); }),
      FLOAT1_OP("math.erf", { return std::erf(x); }),
      FLOAT1_OP("math.erfc", { return std::erfc(x); }),
      FLOAT1_OP("math.tanh", { return std::tanh(x); }),
      FLOAT1_OP("math.sinh", { return std::sinh(x); }),
      FLOAT1_OP("math.cosh", { return std::cosh(x); }),
      FLOAT1_OP("math.sin", { return std::sin(x); }),
      FLOAT1_OP("math.cos", { return std::cos(x); }),
      FLOAT1_OP("math.tan", { return std::tan(x); }),
      FLOAT1_OP("math.asin", { return std::asin(x); }),
      FLOAT1_OP("math.acos", { return std::acos(x); }),
      FLOAT1_OP("math.atan", { return std::atan(x); }),
      FLOAT1_OP("math.floor", { return std::floor(x); }),
      FLOAT1_OP("math.ceil", { return std::ceil(x); }),
      FLOAT1_OP("math.trunc", { return std::trunc(x); }),
      FLOAT1_OP("math.round", { return std::round(x); }),
      FLOAT1_OP("math.roundeven", { return std::nearbyint(x); }),
  };
  return ops;
}

} // namespace

llvm::Expected<bool> mgp::interp::tryCompileElementwise(Compiler &c,
                                                        mlir::Operation *op,
                                                        std::vector<Instr> &out) {
  llvm::StringRef name = op->getName().getStringRef();
  if (!name.starts_with("arith.") && !name.starts_with("math."))
    return false;
  if (op->getNumResults() != 1)
    return opError(op, "the interpreter does not support this op");
  mlir::Value result = op->getResult(0);
  llvm::Expected<DType> kind = elemKindOf(op, result.getType());
  if (!kind)
    return kind.takeError();
  if (auto constant = llvm::dyn_cast<mlir::arith::ConstantOp>(op)) {
    if (llvm::Error err = compileConstant(c, constant, *kind))
      return std::move(err);
    return true;
  }
  std::vector<int> in;
  for (mlir::Value v : op->getOperands())
    in.push_back(c.slot(v));
  int d = c.slot(result);
  DType k = *kind;
  if (auto cmp = llvm::dyn_cast<mlir::arith::CmpFOp>(op)) {
    out.push_back(compileFloatCompare(cmp.getPredicate(), in[0], in[1], d));
    return true;
  }
  if (auto cmp = llvm::dyn_cast<mlir::arith::CmpIOp>(op)) {
    llvm::Expected<DType> opKind = elemKindOf(op, cmp.getLhs().getType());
    if (!opKind)
      return opKind.takeError();
    out.push_back(compileIntCompare(cmp.getPredicate(), intWidth(*opKind), in[0],
                                    in[1], d));
    return true;
  }
  if (llvm::isa<mlir::arith::SelectOp>(op)) {
    bool isFloat = isFloatDType(k);
    int cnd = in[0], x = in[1], y = in[2];
    out.push_back([=](Frame &frame) {
      const std::vector<int64_t> &cv = frame.slots[cnd].i;
      Buf &r = frame.slots[d];
      const Buf &bx = frame.slots[x], &by = frame.slots[y];
      size_t lx = isFloat ? bx.f.size() : bx.i.size();
      size_t ly = isFloat ? by.f.size() : by.i.size();
      size_t n = std::max({cv.size(), lx, ly});
      size_t sc = strideOf(cv.size()), sx = strideOf(lx), sy = strideOf(ly);
      if (isFloat) {
        r.f.resize(n);
        for (size_t e = 0; e < n; ++e)
          r.f[e] = cv[e * sc] ? bx.f[e * sx] : by.f[e * sy];
      } else {
        r.i.resize(n);
        for (size_t e = 0; e < n; ++e)
          r.i[e] = cv[e * sc] ? bx.i[e * sx] : by.i[e * sy];
      }
      return true;
    });
    return true;
  }
  static const llvm::StringSet<> castOps = {
      "arith.extsi",  "arith.extui",  "arith.trunci",     "arith.extf",
      "arith.truncf", "arith.sitofp", "arith.uitofp",     "arith.fptosi",
      "arith.fptoui", "arith.bitcast", "arith.index_cast", "arith.index_castui"};
  if (castOps.contains(name)) {
    llvm::Expected<DType> from = elemKindOf(op, op->getOperand(0).getType());
    if (!from)
      return from.takeError();
    llvm::Expected<Instr> instr = compileCast(op, name, in[0], *from, d, k);
    if (!instr)
      return instr.takeError();
    out.push_back(std::move(*instr));
    return true;
  }
  if (isFloatDType(k)) {
    if (auto it = floatBinaryOps().find(name); it != floatBinaryOps().end()) {
      out.push_back(it->second(in[0], in[1], d, k));
      return true;
    }
    if (auto it = floatUnaryOps().find(name); it != floatUnaryOps().end()) {
      out.push_back(it->second(in[0], d, k));
      return true;
    }
    if (name == "math.fma") {
      int x = in[0], y = in[1], z = in[2];
      out.push_back([=](Frame &frame) {
        const std::vector<double> &a = frame.slots[x].f, &b = frame.slots[y].f,
                                  &e = frame.slots[z].f;
        std::vector<double> &r = frame.slots[d].f;
        size_t n = std::max({a.size(), b.size(), e.size()});
        size_t sa = strideOf(a.size()), sb = strideOf(b.size()), se = strideOf(e.size());
        r.resize(n);
        for (size_t q = 0; q < n; ++q)
          r[q] = roundTo(k, std::fma(a[q * sa], b[q * sb], e[q * se]));
        return true;
      });
      return true;
    }
  } else {
    unsigned w = intWidth(k);
    if (auto it = intBinaryOps().find(name); it != intBinaryOps().end()) {
      out.push_back(it->second(in[0], in[1], d, w));
      return true;
    }
    if (name == "math.absi") {
      int x = in[0];
      out.push_back([=](Frame &frame) {
        const std::vector<int64_t> &a = frame.slots[x].i;
        std::vector<int64_t> &r = frame.slots[d].i;
        r.resize(a.size());
        for (size_t q = 0; q < a.size(); ++q)
          r[q] = wrapSigned(a[q] < 0 ? 0 - uint64_t(a[q]) : uint64_t(a[q]), w);
        return true;
      });
      return true;
    }
  }
  return opError(op, "the interpreter does not support this op");
}
