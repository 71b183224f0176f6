//===- ElementwiseLoops.h - block loops of elementwise ops ------*- C++ -*-===//
//
// This file implements the loops every elementwise op of the interpreter runs:
// templates over the element function (so it is inlined into the loop) for
// float unary / binary ops (results rounded to their type), integer binary
// ops (results wrapped to their width) and comparisons (i1 results as 0 / -1).
// An operand of one element is broadcast. It also declares the constant and
// cast compilers of CastOps.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef MGP_RUNTIME_INTERP_ELEMENTWISELOOPS_H
#define MGP_RUNTIME_INTERP_ELEMENTWISELOOPS_H

#include "runtime/interp/InterpProgram.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

#include <algorithm>
#include <type_traits>

namespace mgp::interp {

/// Stride of an operand of length \p len in a result of length \p n.
inline size_t strideOf(size_t len) { return len == 1 ? 0 : 1; }

template <typename Fn>
Instr floatBinary(int a, int b, int d, DType kind, Fn fn) {
  return [=](Frame &frame) {
    const std::vector<double> &x = frame.slots[a].f, &y = frame.slots[b].f;
    std::vector<double> &r = frame.slots[d].f;
    size_t n = std::max(x.size(), y.size()), sx = strideOf(x.size()),
           sy = strideOf(y.size());
    r.resize(n);
    if (kind == DType::F32 && sx && sy) {
      for (size_t k = 0; k < n; ++k)
        r[k] = static_cast<float>(fn(x[k], y[k]));
    } else if (kind == DType::F32) {
      for (size_t k = 0; k < n; ++k)
        r[k] = static_cast<float>(fn(x[k * sx], y[k * sy]));
    } else {
      for (size_t k = 0; k < n; ++k)
        r[k] = roundTo(kind, fn(x[k * sx], y[k * sy]));
    }
    return true;
  };
}

template <typename Fn> Instr floatUnary(int a, int d, DType kind, Fn fn) {
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
    if (sx && sy) {
      for (size_t k = 0; k < n; ++k)
        r[k] = wrapSigned(static_cast<uint64_t>(fn(x[k], y[k])), width);
      return true;
    }
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

/// arith.constant: the value is computed once and becomes a frame constant
/// (Compiler::constants); no instruction runs for it.
llvm::Error compileConstant(Compiler &c, mlir::arith::ConstantOp op,
                                      DType kind);

/// Casts from \p from in slot \p a to \p to in slot \p d: extsi, extui,
/// trunci, extf, truncf, sitofp, uitofp, fptosi, fptoui, bitcast, index_cast,
/// index_castui (named by \p name).
llvm::Expected<Instr> compileCast(mlir::Operation *op, llvm::StringRef name, int a,
                                  DType from, int d, DType to);

} // namespace mgp::interp

#endif // MGP_RUNTIME_INTERP_ELEMENTWISELOOPS_H
