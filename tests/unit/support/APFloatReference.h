//===- APFloatReference.h - fp16 / bf16 reference bits ----------*- C++ -*-===//
//
// This file implements the independent reference of the tests of 16-bit float
// conversions (runtime, interpreter, graph storage): llvm::APFloat's round to
// nearest even from fp32 to a 16-bit format, and back.
//
//===----------------------------------------------------------------------===//
#ifndef MGP_TESTS_UNIT_SUPPORT_APFLOATREFERENCE_H
#define MGP_TESTS_UNIT_SUPPORT_APFLOATREFERENCE_H

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/APInt.h"

#include <cstdint>

namespace mgp::test {

/// The bits of \p value rounded to nearest even in the 16-bit \p sem.
inline uint16_t apfloatBits(float value, const llvm::fltSemantics &sem) {
  llvm::APFloat v(value);
  bool lost;
  v.convert(sem, llvm::APFloat::rmNearestTiesToEven, &lost);
  return static_cast<uint16_t>(v.bitcastToAPInt().getZExtValue());
}

/// The fp32 value of the 16-bit \p bits in \p sem.
inline float apfloatValue(uint16_t bits, const llvm::fltSemantics &sem) {
  return llvm::APFloat(sem, llvm::APInt(16, bits)).convertToFloat();
}

} // namespace mgp::test

#endif // MGP_TESTS_UNIT_SUPPORT_APFLOATREFERENCE_H
