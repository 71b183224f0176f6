//===- Numerics.cpp - element kinds, rounding and integer wrapping --------===//
//
// This file implements the double -> f16 / bf16 conversions, float-to-integer
// conversion with PTX semantics and the element kinds' sizes of Numerics.h.
// A double is rounded to f16 or bf16 through an f32 rounded to odd, which has
// enough bits to make the final round-to-nearest-even of runtime/HalfFloat.h
// exact.
//
//===----------------------------------------------------------------------===//
#include "runtime/interp/Numerics.h"

#include <cmath>

using namespace mgp::interp;

unsigned mgp::interp::intWidth(ElemKind kind) {
  switch (kind) {
  case ElemKind::I1:
    return 1;
  case ElemKind::I8:
    return 8;
  case ElemKind::I16:
    return 16;
  case ElemKind::I32:
    return 32;
  default:
    return 64;
  }
}

unsigned mgp::interp::storageBytes(ElemKind kind) {
  switch (kind) {
  case ElemKind::I1:
  case ElemKind::I8:
    return 1;
  case ElemKind::I16:
  case ElemKind::F16:
  case ElemKind::BF16:
    return 2;
  case ElemKind::I32:
  case ElemKind::F32:
    return 4;
  default:
    return 8;
  }
}

/// \p value as an f32 rounded to odd: exact values stay, inexact ones get
/// the neighbour with an odd last mantissa bit.
static float toFloatRoundOdd(double value) {
  float rounded = static_cast<float>(value);
  if (std::isnan(value) || static_cast<double>(rounded) == value)
    return rounded;
  uint32_t bits = floatBits(rounded);
  if ((bits & 1u) == 0) {
    if (std::fabs(static_cast<double>(rounded)) > std::fabs(value))
      bits -= 1;
    else
      bits += 1;
  }
  return bitsToFloat(bits);
}

uint16_t mgp::interp::doubleToHalfBits(double value) {
  return floatToHalfBits(toFloatRoundOdd(value));
}

uint16_t mgp::interp::doubleToBF16Bits(double value) {
  return floatToBF16Bits(toFloatRoundOdd(value));
}

int64_t mgp::interp::floatToInt(double value, unsigned width, bool isSigned) {
  if (std::isnan(value))
    return 0;
  double t = std::trunc(value);
  if (isSigned) {
    double lo = -std::ldexp(1.0, width - 1);
    double hi = std::ldexp(1.0, width - 1); // exclusive
    if (t <= lo)
      return static_cast<int64_t>(~uint64_t(0) << (width - 1));
    if (t >= hi)
      return static_cast<int64_t>((uint64_t(1) << (width - 1)) - 1);
    return static_cast<int64_t>(t);
  }
  if (t <= 0)
    return 0;
  double hi = std::ldexp(1.0, width);
  uint64_t u = t >= hi ? (width >= 64 ? ~uint64_t(0) : (uint64_t(1) << width) - 1)
                       : static_cast<uint64_t>(t);
  return wrapSigned(u, width);
}
