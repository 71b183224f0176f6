//===- CastOps.cpp - arith constants and casts ----------------------------===//
//
// This file implements the interpreter's arith.constant (scalars, splat and
// dense tensors, computed once at compile time) and the casts between element
// kinds: integer extension and truncation with two's-complement wrapping,
// float extension and rounding, int <-> float conversions (float to int as
// PTX cvt.rzi: truncate, saturate, NaN -> 0), bitcasts and index casts.
//
//===----------------------------------------------------------------------===//
#include "runtime/interp/ElementwiseLoops.h"

#include "mlir/IR/BuiltinAttributes.h"

using namespace mgp;
using namespace mgp::interp;

llvm::Error mgp::interp::compileConstant(Compiler &c, mlir::arith::ConstantOp op,
                                      DType kind) {
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
    if (isFloatDType(kind))
      for (const llvm::APFloat &v : dense.getValues<llvm::APFloat>())
        value.f.push_back(roundTo(kind, toDouble(v)));
    else
      for (const llvm::APInt &v : dense.getValues<llvm::APInt>())
        value.i.push_back(v.getSExtValue());
  } else {
    return opError(op, "unsupported constant attribute");
  }
  c.constants.push_back({c.slot(op.getResult()), std::move(value)});
  return llvm::Error::success();
}

llvm::Expected<Instr> mgp::interp::compileCast(mlir::Operation *op, llvm::StringRef name, int a,
                                  DType from, int d, DType to) {
  unsigned wf = intWidth(from), wt = intWidth(to);
  bool srcFloat = isFloatDType(from), dstFloat = isFloatDType(to);
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
  if (name == "arith.bitcast" && srcFloat && dstFloat) // f16 <-> bf16
    return floatUnary(a, d, to, [from, to](double x) {
      uint64_t bits = 0;
      storeElement(from, &bits, x, 0);
      double r;
      int64_t unused;
      loadElement(to, &bits, r, unused);
      return r;
    });
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

