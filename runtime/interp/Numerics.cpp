//===- Numerics.cpp - element kinds, rounding and integer wrapping --------===//
//
// This file implements the f16 / bf16 conversions, float-to-integer
// conversion with PTX semantics and the element loads and stores of
// Numerics.h. A double is rounded to f16 or bf16 through an f32 rounded to
// odd, which has enough bits to make the final round-to-nearest-even exact.
//
//===----------------------------------------------------------------------===//
#include "runtime/interp/Numerics.h"

#include <cmath>
#include <limits>

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
  float f = toFloatRoundOdd(value);
  uint32_t x = floatBits(f);
  uint16_t sign = static_cast<uint16_t>((x >> 16) & 0x8000u);
  x &= 0x7fffffffu;
  if (x >= 0x7f800000u)
    return sign | (x > 0x7f800000u ? 0x7e00u : 0x7c00u);
  if (x >= 0x477ff000u) // >= 65520 rounds to infinity
    return sign | 0x7c00u;
  if (x < 0x38800000u) { // below 2^-14: a subnormal f16 (or zero)
    float scaled = std::fabs(f) * 16777216.0f; // units of 2^-24, exact
    return sign | static_cast<uint16_t>(std::nearbyint(scaled));
  }
  uint32_t mant = x & 0x7fffffu;
  uint32_t exp = (x >> 23) - 127 + 15;
  uint32_t half = (exp << 10) | (mant >> 13);
  uint32_t rest = mant & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (half & 1u)))
    ++half; // a carry into the exponent is the right answer
  return sign | static_cast<uint16_t>(half);
}

uint16_t mgp::interp::doubleToBF16Bits(double value) {
  float f = toFloatRoundOdd(value);
  uint32_t x = floatBits(f);
  if ((x & 0x7fffffffu) > 0x7f800000u)
    return static_cast<uint16_t>(((x >> 16) & 0x8000u) | 0x7fc0u);
  x += 0x7fffu + ((x >> 16) & 1u);
  return static_cast<uint16_t>(x >> 16);
}

double mgp::interp::halfBitsToDouble(uint16_t bits) {
  double sign = (bits & 0x8000u) ? -1.0 : 1.0;
  unsigned exp = (bits >> 10) & 0x1fu;
  unsigned mant = bits & 0x3ffu;
  if (exp == 0)
    return sign * std::ldexp(static_cast<double>(mant), -24);
  if (exp == 31)
    return mant ? std::numeric_limits<double>::quiet_NaN()
                : sign * std::numeric_limits<double>::infinity();
  return sign * std::ldexp(static_cast<double>(mant | 0x400u),
                           static_cast<int>(exp) - 25);
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
