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
#include "runtime/interp/InterpProgram.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

#include <cmath>

using namespace mgp;
using namespace mgp::interp;

namespace {

/// Stride of an operand of length \p len in a result of length \p n.
inline size_t strideOf(size_t len) { return len == 1 ? 0 : 1; }

template <typename Fn>
Instr floatBinary(int a, int b, int d, ElemKind kind, Fn fn) {
  return [=](Frame &frame) {
    const std::vector<double> &x = frame.slots[a].f, &y = frame.slots[b].f;
    std::vector<double> &r = frame.slots[d].f;
    size_t n = std::max(x.size(), y.size()), sx = strideOf(x.size()),
           sy = strideOf(y.size());
    r.resize(n);
    if (kind == ElemKind::F32) {
      for (size_t k = 0; k < n; ++k)
        r[k] = static_cast<float>(fn(x[k * sx], y[k * sy]));
    } else {
      for (size_t k = 0; k < n; ++k)
        r[k] = roundTo(kind, fn(x[k * sx], y[k * sy]));
    }
    return true;
  };
}

template <typename Fn> Instr floatUnary(int a, int d, ElemKind kind, Fn fn) {
  return [=](Frame &frame) {
    const std::vector<double> &x = frame.slots[a].f;
    std::vector<double> &r = frame.slots[d].f;
    r.resize(x.size());
    for (size_t k = 0; k < x.size(); ++k)
      r[k] = roundTo(kind, fn(x[k]));
    return true;
  };
}

/// \p fn(x, y) gets sign-extended operands and returns the raw 64-bit result,
/// which is wrapped to \p width bits.
template <typename Fn> Instr intBinary(int a, int b, int d, unsigned width, Fn fn) {
  return [=](Frame &frame) {
    const std::vector<int64_t> &x = frame.slots[a].i, &y = frame.slots[b].i;
    std::vector<int64_t> &r = frame.slots[d].i;
    size_t n = std::max(x.size(), y.size()), sx = strideOf(x.size()),
           sy = strideOf(y.size());
    r.resize(n);
    for (size_t k = 0; k < n; ++k)
      r[k] = wrapSigned(static_cast<uint64_t>(fn(x[k * sx], y[k * sy])), width);
    return true;
  };
}

/// Comparisons: \p fn gives a bool; the i1 result is stored as 0 / -1.
template <typename T, typename Fn> Instr compare(int a, int b, int d, Fn fn) {
  return [=](Frame &frame) {
    const std::vector<T> *x, *y;
    if constexpr (std::is_same_v<T, double>) {
      x = &frame.slots[a].f;
      y = &frame.slots[b].f;
    } else {
      x = &frame.slots[a].i;
      y = &frame.slots[b].i;
    }
    std::vector<int64_t> &r = frame.slots[d].i;
    size_t n = std::max(x->size(), y->size()), sx = strideOf(x->size()),
           sy = strideOf(y->size());
    r.resize(n);
    for (size_t k = 0; k < n; ++k)
      r[k] = fn((*x)[k * sx], (*y)[k * sy]) ? -1 : 0;
    return true;
  };
}

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

using IntFn = int64_t (*)(int64_t, int64_t, unsigned);

/// Integer binary ops by name; each gets the width for unsigned views/shifts.
const llvm::StringMap<IntFn> &intBinaryOps() {
  static const llvm::StringMap<IntFn> ops = {
      {"arith.addi", [](int64_t x, int64_t y, unsigned) { return int64_t(uint64_t(x) + uint64_t(y)); }},
      {"arith.subi", [](int64_t x, int64_t y, unsigned) { return int64_t(uint64_t(x) - uint64_t(y)); }},
      {"arith.muli", [](int64_t x, int64_t y, unsigned) { return int64_t(uint64_t(x) * uint64_t(y)); }},
      {"arith.divsi", [](int64_t x, int64_t y, unsigned) { return divSigned(x, y); }},
      {"arith.remsi", [](int64_t x, int64_t y, unsigned) { return remSigned(x, y); }},
      {"arith.divui",
       [](int64_t x, int64_t y, unsigned w) {
         uint64_t ux = asUnsigned(x, w), uy = asUnsigned(y, w);
         return uy == 0 ? int64_t(-1) : int64_t(ux / uy);
       }},
      {"arith.remui",
       [](int64_t x, int64_t y, unsigned w) {
         uint64_t ux = asUnsigned(x, w), uy = asUnsigned(y, w);
         return uy == 0 ? x : int64_t(ux % uy);
       }},
      {"arith.ceildivsi",
       [](int64_t x, int64_t y, unsigned) {
         int64_t q = divSigned(x, y), r = remSigned(x, y);
         return (y != 0 && r != 0 && ((r > 0) == (y > 0))) ? q + 1 : q;
       }},
      {"arith.ceildivui",
       [](int64_t x, int64_t y, unsigned w) {
         uint64_t ux = asUnsigned(x, w), uy = asUnsigned(y, w);
         return uy == 0 ? int64_t(-1) : int64_t(ux / uy + (ux % uy != 0));
       }},
      {"arith.floordivsi",
       [](int64_t x, int64_t y, unsigned) {
         int64_t q = divSigned(x, y), r = remSigned(x, y);
         return (y != 0 && r != 0 && ((r < 0) != (y < 0))) ? q - 1 : q;
       }},
      {"arith.maxsi", [](int64_t x, int64_t y, unsigned) { return std::max(x, y); }},
      {"arith.minsi", [](int64_t x, int64_t y, unsigned) { return std::min(x, y); }},
      {"arith.maxui",
       [](int64_t x, int64_t y, unsigned w) { return asUnsigned(x, w) >= asUnsigned(y, w) ? x : y; }},
      {"arith.minui",
       [](int64_t x, int64_t y, unsigned w) { return asUnsigned(x, w) <= asUnsigned(y, w) ? x : y; }},
      {"arith.andi", [](int64_t x, int64_t y, unsigned) { return x & y; }},
      {"arith.ori", [](int64_t x, int64_t y, unsigned) { return x | y; }},
      {"arith.xori", [](int64_t x, int64_t y, unsigned) { return x ^ y; }},
      {"arith.shli",
       [](int64_t x, int64_t y, unsigned w) {
         uint64_t s = asUnsigned(y, w);
         return s >= w ? int64_t(0) : int64_t(uint64_t(x) << s);
       }},
      {"arith.shrsi",
       [](int64_t x, int64_t y, unsigned w) {
         uint64_t s = asUnsigned(y, w);
         return s >= w ? (x < 0 ? int64_t(-1) : int64_t(0)) : (x >> s);
       }},
      {"arith.shrui",
       [](int64_t x, int64_t y, unsigned w) {
         uint64_t s = asUnsigned(y, w);
         return s >= w ? int64_t(0) : int64_t(asUnsigned(x, w) >> s);
       }},
  };
  return ops;
}

using FloatFn2 = double (*)(double, double);
const llvm::StringMap<FloatFn2> &floatBinaryOps() {
  static const llvm::StringMap<FloatFn2> ops = {
      {"arith.addf", [](double x, double y) { return x + y; }},
      {"arith.subf", [](double x, double y) { return x - y; }},
      {"arith.mulf", [](double x, double y) { return x * y; }},
      {"arith.divf", [](double x, double y) { return x / y; }},
      {"arith.remf", [](double x, double y) { return std::fmod(x, y); }},
      {"arith.maximumf",
       [](double x, double y) {
         if (std::isnan(x) || std::isnan(y))
           return std::nan("");
         if (x == y)
           return std::signbit(x) ? y : x;
         return x > y ? x : y;
       }},
      {"arith.minimumf",
       [](double x, double y) {
         if (std::isnan(x) || std::isnan(y))
           return std::nan("");
         if (x == y)
           return std::signbit(x) ? x : y;
         return x < y ? x : y;
       }},
      {"arith.maxnumf", [](double x, double y) { return std::fmax(x, y); }},
      {"arith.minnumf", [](double x, double y) { return std::fmin(x, y); }},
      {"math.powf", [](double x, double y) { return std::pow(x, y); }},
      {"math.atan2", [](double x, double y) { return std::atan2(x, y); }},
      {"math.copysign", [](double x, double y) { return std::copysign(x, y); }},
  };
  return ops;
}

using FloatFn1 = double (*)(double);
const llvm::StringMap<FloatFn1> &floatUnaryOps() {
  static const llvm::StringMap<FloatFn1> ops = {
      {"arith.negf", [](double x) { return -x; }},
      {"math.exp", [](double x) { return std::exp(x); }},
      {"math.exp2", [](double x) { return std::exp2(x); }},
      {"math.expm1", [](double x) { return std::expm1(x); }},
      {"math.log", [](double x) { return std::log(x); }},
      {"math.log2", [](double x) { return std::log2(x); }},
      {"math.log10", [](double x) { return std::log10(x); }},
      {"math.log1p", [](double x) { return std::log1p(x); }},
      {"math.sqrt", [](double x) { return std::sqrt(x); }},
      {"math.rsqrt", [](double x) { return 1.0 / std::sqrt(x); }},
      {"math.cbrt", [](double x) { return std::cbrt(x); }},
      {"math.absf", [](double x) { return std::fabs(x); }},
      {"math.erf", [](double x) { return std::erf(x); }},
      {"math.erfc", [](double x) { return std::erfc(x); }},
      {"math.tanh", [](double x) { return std::tanh(x); }},
      {"math.sinh", [](double x) { return std::sinh(x); }},
      {"math.cosh", [](double x) { return std::cosh(x); }},
      {"math.sin", [](double x) { return std::sin(x); }},
      {"math.cos", [](double x) { return std::cos(x); }},
      {"math.tan", [](double x) { return std::tan(x); }},
      {"math.asin", [](double x) { return std::asin(x); }},
      {"math.acos", [](double x) { return std::acos(x); }},
      {"math.atan", [](double x) { return std::atan(x); }},
      {"math.floor", [](double x) { return std::floor(x); }},
      {"math.ceil", [](double x) { return std::ceil(x); }},
      {"math.trunc", [](double x) { return std::trunc(x); }},
      {"math.round", [](double x) { return std::round(x); }},
      {"math.roundeven", [](double x) { return std::nearbyint(x); }},
  };
  return ops;
}

/// arith.constant: the value is computed once and copied into its slot.
llvm::Expected<Instr> compileConstant(Compiler &c, mlir::arith::ConstantOp op,
                                      ElemKind kind) {
  Buf value;
  mlir::Attribute attr = op.getValue();
  auto toDouble = [](llvm::APFloat v) {
    bool lost;
    v.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmNearestTiesToEven, &lost);
    return v.convertToDouble();
  };
  if (auto i = llvm::dyn_cast<mlir::IntegerAttr>(attr)) {
    value.i.assign(1, op.getType().isIndex() ? i.getInt() : i.getValue().getSExtValue());
  } else if (auto f = llvm::dyn_cast<mlir::FloatAttr>(attr)) {
    value.f.assign(1, roundTo(kind, toDouble(f.getValue())));
  } else if (auto dense = llvm::dyn_cast<mlir::DenseElementsAttr>(attr)) {
    if (isFloatKind(kind))
      for (const llvm::APFloat &v : dense.getValues<llvm::APFloat>())
        value.f.push_back(roundTo(kind, toDouble(v)));
    else
      for (const llvm::APInt &v : dense.getValues<llvm::APInt>())
        value.i.push_back(v.getSExtValue());
  } else {
    return opError(op, "unsupported constant attribute");
  }
  int d = c.slot(op.getResult());
  return Instr([=](Frame &frame) {
    frame.slots[d] = value;
    return true;
  });
}

/// Casts between element kinds (ext/trunc, int<->float, bitcast, index_cast).
llvm::Expected<Instr> compileCast(mlir::Operation *op, llvm::StringRef name, int a,
                                  ElemKind from, int d, ElemKind to) {
  unsigned wf = intWidth(from), wt = intWidth(to);
  bool srcFloat = isFloatKind(from), dstFloat = isFloatKind(to);
  auto intToInt = [=](auto fn) -> Instr {
    return [=](Frame &frame) {
      const std::vector<int64_t> &x = frame.slots[a].i;
      std::vector<int64_t> &r = frame.slots[d].i;
      r.resize(x.size());
      for (size_t k = 0; k < x.size(); ++k)
        r[k] = fn(x[k]);
      return true;
    };
  };
  if (name == "arith.extsi" || name == "arith.trunci" || name == "arith.index_cast" ||
      (name == "arith.bitcast" && !srcFloat && !dstFloat))
    return intToInt([=](int64_t v) { return wrapSigned(uint64_t(v), wt); });
  if (name == "arith.extui" || name == "arith.index_castui")
    return intToInt([=](int64_t v) { return wrapSigned(asUnsigned(v, wf), wt); });
  if (name == "arith.extf" || name == "arith.truncf" ||
      (name == "arith.bitcast" && srcFloat && dstFloat && from == to))
    return floatUnary(a, d, to, [](double x) { return x; });
  if (name == "arith.sitofp" || name == "arith.uitofp") {
    bool isSigned = name == "arith.sitofp";
    return Instr([=](Frame &frame) {
      const std::vector<int64_t> &x = frame.slots[a].i;
      std::vector<double> &r = frame.slots[d].f;
      r.resize(x.size());
      for (size_t k = 0; k < x.size(); ++k)
        r[k] = roundTo(to, isSigned ? double(x[k]) : double(asUnsigned(x[k], wf)));
      return true;
    });
  }
  if (name == "arith.fptosi" || name == "arith.fptoui") {
    bool isSigned = name == "arith.fptosi";
    return Instr([=](Frame &frame) {
      const std::vector<double> &x = frame.slots[a].f;
      std::vector<int64_t> &r = frame.slots[d].i;
      r.resize(x.size());
      for (size_t k = 0; k < x.size(); ++k)
        r[k] = floatToInt(x[k], wt, isSigned);
      return true;
    });
  }
  if (name == "arith.bitcast" && srcFloat && !dstFloat)
    return Instr([=](Frame &frame) {
      const std::vector<double> &x = frame.slots[a].f;
      std::vector<int64_t> &r = frame.slots[d].i;
      r.resize(x.size());
      for (size_t k = 0; k < x.size(); ++k) {
        uint64_t bits = 0;
        storeElement(from, &bits, x[k], 0); // little-endian host
        r[k] = wrapSigned(bits, wt);
      }
      return true;
    });
  if (name == "arith.bitcast" && !srcFloat && dstFloat)
    return Instr([=](Frame &frame) {
      const std::vector<int64_t> &x = frame.slots[a].i;
      std::vector<double> &r = frame.slots[d].f;
      r.resize(x.size());
      for (size_t k = 0; k < x.size(); ++k) {
        uint64_t bits = asUnsigned(x[k], wf);
        int64_t unused;
        loadElement(to, &bits, r[k], unused);
      }
      return true;
    });
  return opError(op, "unsupported cast");
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
  llvm::Expected<ElemKind> kind = elemKindOf(op, result.getType());
  if (!kind)
    return kind.takeError();
  if (auto constant = llvm::dyn_cast<mlir::arith::ConstantOp>(op)) {
    llvm::Expected<Instr> instr = compileConstant(c, constant, *kind);
    if (!instr)
      return instr.takeError();
    out.push_back(std::move(*instr));
    return true;
  }
  std::vector<int> in;
  for (mlir::Value v : op->getOperands())
    in.push_back(c.slot(v));
  int d = c.slot(result);
  ElemKind k = *kind;
  if (auto cmp = llvm::dyn_cast<mlir::arith::CmpFOp>(op)) {
    out.push_back(compileFloatCompare(cmp.getPredicate(), in[0], in[1], d));
    return true;
  }
  if (auto cmp = llvm::dyn_cast<mlir::arith::CmpIOp>(op)) {
    llvm::Expected<ElemKind> opKind = elemKindOf(op, cmp.getLhs().getType());
    if (!opKind)
      return opKind.takeError();
    out.push_back(compileIntCompare(cmp.getPredicate(), intWidth(*opKind), in[0],
                                    in[1], d));
    return true;
  }
  if (llvm::isa<mlir::arith::SelectOp>(op)) {
    bool isFloat = isFloatKind(k);
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
    llvm::Expected<ElemKind> from = elemKindOf(op, op->getOperand(0).getType());
    if (!from)
      return from.takeError();
    llvm::Expected<Instr> instr = compileCast(op, name, in[0], *from, d, k);
    if (!instr)
      return instr.takeError();
    out.push_back(std::move(*instr));
    return true;
  }
  if (isFloatKind(k)) {
    if (auto it = floatBinaryOps().find(name); it != floatBinaryOps().end()) {
      out.push_back(floatBinary(in[0], in[1], d, k, it->second));
      return true;
    }
    if (auto it = floatUnaryOps().find(name); it != floatUnaryOps().end()) {
      out.push_back(floatUnary(in[0], d, k, it->second));
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
      IntFn fn = it->second;
      out.push_back(intBinary(in[0], in[1], d, w,
                              [=](int64_t x, int64_t y) { return fn(x, y, w); }));
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
