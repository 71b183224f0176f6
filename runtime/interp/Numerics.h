//===- Numerics.h - element kinds, rounding and integer wrapping -*- C++ -*-===//
//
// This file implements the number formats of the interpreter: the element
// kinds of mgp tensors (DTypes; pointers as kPointerKind), rounding of a double to f32 / f16 / bf16 / tf32 with
// the GPU's rounding (round to nearest even; tf32 as cvt.rna.tf32.f32, ties
// away from zero), the bit patterns of f16 and bf16, two's-complement
// wrapping of integers to their width, and conversion of floats to integers
// as PTX's cvt.rzi (truncate, saturate, NaN -> 0).
//
//===----------------------------------------------------------------------===//
#ifndef MGP_RUNTIME_INTERP_NUMERICS_H
#define MGP_RUNTIME_INTERP_NUMERICS_H

#include "compiler/api/DType.h"
#include "runtime/HalfFloat.h"

#include "llvm/Support/ErrorHandling.h"

#include <cstdint>
#include <cstring>

namespace mgp::interp {

/// The interpreter's values are of a DType (compiler/api/DType.h); a pointer
/// value is its 64-bit host address, held as this kind. No other value is
/// unsigned: MLIRGen makes a signature's unsigned types signless.
inline constexpr DType kPointerKind = DType::U64;

/// Bit width of an integer kind (64 for pointers and floats).
unsigned intWidth(DType kind);

// The bit casts and fp32 <-> fp16 / bf16 conversions are runtime/HalfFloat.h.
using mgp::bitsToFloat;
using mgp::floatBits;

/// f16 bits of \p value, rounded to nearest even (overflow -> inf).
uint16_t doubleToHalfBits(double value);
/// bf16 bits of \p value, rounded to nearest even.
uint16_t doubleToBF16Bits(double value);
inline double halfBitsToDouble(uint16_t bits) { return halfBitsToFloat(bits); }
/// fp8 bits of \p value (DType::F8E4NV or F8E5) as PTX's
/// cvt.rn.satfinite: round to nearest even, magnitudes beyond the largest
/// finite value (infinities too) saturate to it, NaN stays NaN.
uint8_t doubleToFp8Bits(double value, DType kind);
/// The value of fp8 bits of \p kind.
double fp8BitsToDouble(uint8_t bits, DType kind);
inline double bf16BitsToDouble(uint16_t bits) { return bf16BitsToFloat(bits); }

/// \p value rounded to the float kind \p kind (exact for F64).
inline double roundTo(DType kind, double value) {
  switch (kind) {
  case DType::F32:
    return static_cast<float>(value);
  case DType::F16:
    return halfBitsToDouble(doubleToHalfBits(value));
  case DType::BF16:
    return bf16BitsToDouble(doubleToBF16Bits(value));
  case DType::F8E4NV:
  case DType::F8E5:
    return fp8BitsToDouble(doubleToFp8Bits(value, kind), kind);
  default:
    return value;
  }
}

/// \p value rounded to tf32 (10 mantissa bits), ties away from zero, as
/// cvt.rna.tf32.f32; NaN and inf unchanged.
inline float roundTF32(float value) {
  uint32_t bits = floatBits(value);
  if ((bits & 0x7f800000u) == 0x7f800000u)
    return value;
  return bitsToFloat((bits + 0x1000u) & 0xffffe000u);
}

/// \p value wrapped to a signed \p width-bit integer (two's complement),
/// sign-extended to 64 bits.
inline int64_t wrapSigned(uint64_t value, unsigned width) {
  unsigned shift = 64 - width;
  return static_cast<int64_t>(value << shift) >> shift;
}
/// The low \p width bits of \p value, as an unsigned number.
inline uint64_t asUnsigned(int64_t value, unsigned width) {
  return width >= 64 ? static_cast<uint64_t>(value)
                     : static_cast<uint64_t>(value) & ((uint64_t(1) << width) - 1);
}

/// \p value truncated toward zero and saturated to a signed (or unsigned)
/// \p width-bit integer; NaN gives 0 (PTX cvt.rzi semantics).
int64_t floatToInt(double value, unsigned width, bool isSigned);

/// Reads one element of \p kind at \p addr (floats into \p f, others into
/// \p i, sign-extended; an i1 byte gives 0 or -1). Inline, so that a loop
/// over one constant kind folds the switch away.
inline void loadElement(DType kind, const void *addr, double &f,
                              int64_t &i) {
  switch (kind) {
  case DType::I1: {
    uint8_t v;
    std::memcpy(&v, addr, 1);
    i = v ? -1 : 0;
    return;
  }
  case DType::I8: {
    int8_t v;
    std::memcpy(&v, addr, 1);
    i = v;
    return;
  }
  case DType::I16: {
    int16_t v;
    std::memcpy(&v, addr, 2);
    i = v;
    return;
  }
  case DType::I32: {
    int32_t v;
    std::memcpy(&v, addr, 4);
    i = v;
    return;
  }
  case DType::I64:
  case kPointerKind:
    std::memcpy(&i, addr, 8);
    return;
  case DType::U8:
  case DType::U16:
  case DType::U32:
  case DType::F8E4B15: // i8 by the time a kernel reaches the interpreter
    break;
  case DType::F16:
  case DType::BF16: {
    uint16_t v;
    std::memcpy(&v, addr, 2);
    f = kind == DType::F16 ? halfBitsToDouble(v) : bf16BitsToDouble(v);
    return;
  }
  case DType::F32: {
    float v;
    std::memcpy(&v, addr, 4);
    f = v;
    return;
  }
  case DType::F64:
    std::memcpy(&f, addr, 8);
    return;
  case DType::F8E4NV:
  case DType::F8E5:
    f = fp8BitsToDouble(*static_cast<const uint8_t *>(addr), kind);
    return;
  }
  llvm_unreachable("no unsigned values in the interpreter");
}

/// Writes one element of \p kind at \p addr (an i1 is stored as 0 or 1).
inline void storeElement(DType kind, void *addr, double f, int64_t i) {
  switch (kind) {
  case DType::I1: {
    uint8_t v = i ? 1 : 0;
    std::memcpy(addr, &v, 1);
    return;
  }
  case DType::I8: {
    int8_t v = static_cast<int8_t>(i);
    std::memcpy(addr, &v, 1);
    return;
  }
  case DType::I16: {
    int16_t v = static_cast<int16_t>(i);
    std::memcpy(addr, &v, 2);
    return;
  }
  case DType::I32: {
    int32_t v = static_cast<int32_t>(i);
    std::memcpy(addr, &v, 4);
    return;
  }
  case DType::I64:
  case kPointerKind:
    std::memcpy(addr, &i, 8);
    return;
  case DType::U8:
  case DType::U16:
  case DType::U32:
  case DType::F8E4B15: // i8 by the time a kernel reaches the interpreter
    break;
  case DType::F16:
  case DType::BF16: {
    uint16_t v = kind == DType::F16 ? doubleToHalfBits(f) : doubleToBF16Bits(f);
    std::memcpy(addr, &v, 2);
    return;
  }
  case DType::F32: {
    float v = static_cast<float>(f);
    std::memcpy(addr, &v, 4);
    return;
  }
  case DType::F64:
    std::memcpy(addr, &f, 8);
    return;
  case DType::F8E4NV:
  case DType::F8E5:
    *static_cast<uint8_t *>(addr) = doubleToFp8Bits(f, kind);
    return;
  }
  llvm_unreachable("no unsigned values in the interpreter");
}

} // namespace mgp::interp

#endif // MGP_RUNTIME_INTERP_NUMERICS_H
