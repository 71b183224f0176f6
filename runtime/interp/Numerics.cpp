//===- Numerics.cpp - element kinds, rounding and integer wrapping --------===//
//
// This file implements the double -> f16 / bf16 conversions, float-to-integer
// conversion with PTX semantics and the integer kinds' widths of Numerics.h.
// A double is rounded to f16 or bf16 through an f32 rounded to odd, which has
// enough bits to make the final round-to-nearest-even of runtime/HalfFloat.h
// exact.
//
//===----------------------------------------------------------------------===//
#include "runtime/interp/Numerics.h"

#include <cmath>

using namespace mgp::interp;

unsigned mgp::interp::intWidth(DType kind) {
  switch (kind) {
  case DType::I1:
    return 1;
  case DType::I8:
    return 8;
  case DType::I16:
    return 16;
  case DType::I32:
    return 32;
  default:
    return 64;
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

namespace {
/// The parameters of an fp8 format.
struct Fp8Format {
  int manBits, bias;
  double maxFinite;
  uint8_t maxFiniteBits, nanBits;
};

Fp8Format getFp8Format(mgp::DType kind) {
  if (kind == mgp::DType::F8E4NV) // e4m3fn: no infinities, NaN = S.1111.111
    return {3, 7, 448.0, 0x7E, 0x7F};
  return {2, 15, 57344.0, 0x7B, 0x7F}; // e5m2: IEEE-like
}
} // namespace

uint8_t mgp::interp::doubleToFp8Bits(double value, DType kind) {
  Fp8Format f = getFp8Format(kind);
  uint8_t sign = std::signbit(value) ? 0x80 : 0;
  if (std::isnan(value))
    return sign | f.nanBits;
  double a = std::fabs(value);
  if (a == 0)
    return sign;
  int e = std::ilogb(a);
  int minExp = 1 - f.bias; // exponent of the smallest normal
  if (e < minExp) {
    // Subnormal: multiples of 2^(minExp - manBits); a result of 2^manBits
    // units is the smallest normal, whose bits are the same number.
    double q = std::nearbyint(std::ldexp(a, f.manBits - minExp));
    return sign | static_cast<uint8_t>(q);
  }
  double q = std::nearbyint(std::ldexp(a, f.manBits - e));
  if (q == std::ldexp(1.0, f.manBits + 1)) {
    q = std::ldexp(1.0, f.manBits);
    ++e;
  }
  double rounded = std::ldexp(q, e - f.manBits);
  if (rounded > f.maxFinite)
    return sign | f.maxFiniteBits; // satfinite
  int expField = e + f.bias;
  int man = static_cast<int>(q) - (1 << f.manBits);
  return sign | static_cast<uint8_t>((expField << f.manBits) | man);
}

double mgp::interp::fp8BitsToDouble(uint8_t bits, DType kind) {
  Fp8Format f = getFp8Format(kind);
  double sign = (bits & 0x80) ? -1.0 : 1.0;
  int expBits = 7 - f.manBits;
  int expField = (bits >> f.manBits) & ((1 << expBits) - 1);
  int man = bits & ((1 << f.manBits) - 1);
  if (kind == DType::F8E4NV && (bits & 0x7F) == 0x7F)
    return std::nan("");
  if (kind == DType::F8E5 && expField == 31)
    return man ? std::nan("") : sign * HUGE_VAL;
  if (expField == 0)
    return sign * std::ldexp(man, 1 - f.bias - f.manBits);
  return sign *
         std::ldexp((1 << f.manBits) + man, expField - f.bias - f.manBits);
}
