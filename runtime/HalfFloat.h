//===- HalfFloat.h - fp32 <-> fp16 / bf16 bit conversions -----*- C++ -*-===//
//
// This file implements the one host conversion between fp32 and the 16-bit
// float formats, shared by the graph's storage types (graph/ir/StorageTypes.cpp)
// and the interpreter's numerics (runtime/interp/Numerics.cpp). fp32 -> fp16
// rounds the 24-bit significand to 11 bits (fewer for subnormal halves) to
// nearest even on the bit pattern, overflow to infinity; fp32 -> bf16 rounds
// the low 16 bits away to nearest even; NaN stays NaN (quiet). Header only,
// so that any library may use it without a link dependency.
//
//===----------------------------------------------------------------------===//
#ifndef MGP_RUNTIME_HALFFLOAT_H
#define MGP_RUNTIME_HALFFLOAT_H

#include <cstdint>
#include <cstring>

namespace mgp {

inline uint32_t floatBits(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, 4);
  return bits;
}

inline float bitsToFloat(uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, 4);
  return value;
}

/// fp16 bits of \p value, rounded to nearest even (>= 65520 -> inf).
inline uint16_t floatToHalfBits(float value) {
  uint32_t x = floatBits(value);
  uint16_t sign = static_cast<uint16_t>((x >> 16) & 0x8000u);
  uint32_t abs = x & 0x7fffffffu;
  if (abs > 0x7f800000u)
    return sign | 0x7e00u; // NaN
  if (abs >= 0x477ff000u)
    return sign | 0x7c00u; // >= 65520 (and inf) round to inf
  if (abs < 0x38800000u) {
    // Below 2^-14: a subnormal half, in units of 2^-24. The implicit bit
    // joins the significand, which is shifted right by 14 + (113 - exp).
    if (abs < 0x33000000u)
      return sign; // below 2^-25: rounds to zero (2^-25 itself ties to 0)
    uint32_t exp = abs >> 23;
    uint32_t mant = (abs & 0x7fffffu) | 0x800000u;
    uint32_t shift = 126 - exp; // value / 2^-24 = mant * 2^(exp - 126)
    uint32_t half = mant >> shift;
    uint32_t rest = mant & ((1u << shift) - 1);
    uint32_t halfway = 1u << (shift - 1);
    if (rest > halfway || (rest == halfway && (half & 1u)))
      ++half;
    return sign | static_cast<uint16_t>(half);
  }
  uint32_t half = ((abs >> 23) - 112) << 10 | ((abs >> 13) & 0x3ffu);
  uint32_t rest = abs & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (half & 1u)))
    ++half; // a carry into the exponent is the right answer
  return sign | static_cast<uint16_t>(half);
}

/// bf16 bits of \p value, rounded to nearest even.
inline uint16_t floatToBF16Bits(float value) {
  uint32_t x = floatBits(value);
  if ((x & 0x7fffffffu) > 0x7f800000u)
    return static_cast<uint16_t>(((x >> 16) & 0x8000u) | 0x7fc0u);
  x += 0x7fffu + ((x >> 16) & 1u);
  return static_cast<uint16_t>(x >> 16);
}

/// The fp32 value of fp16 bits (exact).
inline float halfBitsToFloat(uint16_t h) {
  uint32_t sign = uint32_t(h & 0x8000u) << 16;
  uint32_t exp = (h >> 10) & 0x1fu;
  uint32_t mant = h & 0x3ffu;
  if (exp == 0) {
    float magnitude = static_cast<float>(mant) * 0x1p-24f; // exact
    return bitsToFloat(sign | floatBits(magnitude));
  }
  if (exp == 31)
    return bitsToFloat(sign | 0x7f800000u | (mant << 13));
  return bitsToFloat(sign | ((exp + 112) << 23) | (mant << 13));
}

/// The fp32 value of bf16 bits (exact).
inline float bf16BitsToFloat(uint16_t bits) {
  return bitsToFloat(uint32_t(bits) << 16);
}

} // namespace mgp

#endif // MGP_RUNTIME_HALFFLOAT_H
