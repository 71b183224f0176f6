//===- ZeroConstant.h - Matching a constant zero ----------------*- C++ -*-===//
//
// This file declares isZeroConstant, which the passes that treat a zero
// accumulator or a zero `other` specially (the dot combine, the pipeliner,
// the warp-group dot fusion) share.
//
//===----------------------------------------------------------------------===//
#ifndef MGP_IR_ZEROCONSTANT_H
#define MGP_IR_ZEROCONSTANT_H

#include "mlir/IR/Matchers.h"
#include "mlir/IR/Value.h"

namespace mgp {

/// Whether `value` is a constant zero: an integer or float scalar or splat
/// (0, 0.0 or -0.0).
inline bool isZeroConstant(mlir::Value value) {
  return mlir::matchPattern(value, mlir::m_Zero()) ||
         mlir::matchPattern(value, mlir::m_AnyZeroFloat());
}

} // namespace mgp

#endif // MGP_IR_ZEROCONSTANT_H
