//===- SemaFold.cpp - folding operators on compile-time numbers -----------===//
//
// This file implements foldBinary (SemaFold.h): the binary operators of the
// kernel language on compile-time numbers, with Python's semantics.
//
//===----------------------------------------------------------------------===//
#include "compiler/frontend/SemaFold.h"

#include "llvm/Support/MathExtras.h"

#include <cmath>
#include <limits>

using namespace mgp;
using ast::BinaryOp;

//===----------------------------------------------------------------------===//
// Constant folding (Python semantics)
//===----------------------------------------------------------------------===//

using Wide = __int128;

static Wide floorDiv(Wide a, Wide b) {
  Wide q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0)))
    --q;
  return q;
}

static Wide floorMod(Wide a, Wide b) {
  Wide r = a % b;
  if (r != 0 && ((r < 0) != (b < 0)))
    r += b;
  return r;
}

std::optional<SemaValue> mgp::foldBinary(BinaryOp op, const SemaValue &a,
                                         const SemaValue &b, std::string &why) {
  bool isFloat = a.isFloat() || b.isFloat();
  if (!isFloat) {
    // Python's integers have no bound; a kernel's constants must fit 64 bits
    // as Triton's do when they become IR (int64, or uint64 from 2**63 to
    // 2**64 - 1), so a fold past that is an error. Operands are below 2**64
    // in magnitude, so every step below fits 128 bits.
    Wide x = a.getWideInt(), y = b.getWideInt();
    bool bothBool = a.isBool() && b.isBool();
    auto result = [&why](Wide r) -> std::optional<SemaValue> {
      if (std::optional<SemaValue> v = SemaValue::getWideInt(r))
        return v;
      why = "integer overflow: the result does not fit in 64 bits (int64 "
            "from -2**63, uint64 up to 2**64 - 1 = 18446744073709551615)";
      return std::nullopt;
    };
    // Past this magnitude no product or power is in range.
    const Wide limit = Wide(1) << 65;
    switch (op) {
    case BinaryOp::Add:
      return result(x + y);
    case BinaryOp::Sub:
      return result(x - y);
    case BinaryOp::Mul:
      if (Wide r; !__builtin_mul_overflow(x, y, &r))
        return result(r);
      return result(limit);
    case BinaryOp::Div:
      if (y == 0)
        break;
      return SemaValue::getFloat(static_cast<double>(x) /
                                 static_cast<double>(y));
    case BinaryOp::FloorDiv:
      if (y == 0)
        break;
      return result(floorDiv(x, y));
    case BinaryOp::Mod:
      if (y == 0)
        break;
      return result(floorMod(x, y));
    case BinaryOp::Pow: {
      if (y < 0)
        return SemaValue::getFloat(
            std::pow(static_cast<double>(x), static_cast<double>(y)));
      Wide r = 1;
      for (Wide i = 0; i < y; ++i) {
        r *= x; // |r| < 2**65 and |x| < 2**64: fits 128 bits
        if (r == 0 || r == 1)
          break; // 0 and 1 stay; -1 alternates below
        if (r == -1) {
          r = (y - i - 1) % 2 == 0 ? -1 : 1;
          break;
        }
        if ((r < 0 ? -r : r) >= limit)
          return result(limit);
      }
      return result(r);
    }
    case BinaryOp::LShift:
      if (y < 0) {
        why = "negative shift count";
        return std::nullopt;
      }
      if (y > 64)
        return result(x == 0 ? 0 : limit);
      // x << y is x * 2**y (a negative x too, as in Python).
      if ((x < 0 ? -x : x) >= (limit >> y))
        return result(limit);
      return result(x * (Wide(1) << y));
    case BinaryOp::RShift:
      if (y < 0) {
        why = "negative shift count";
        return std::nullopt;
      }
      return result(y > 64 ? (x < 0 ? -1 : 0) : x >> int(y));
    case BinaryOp::BitAnd:
      return bothBool ? SemaValue::getBool(x & y) : result(x & y);
    case BinaryOp::BitOr:
      return bothBool ? SemaValue::getBool(x | y) : result(x | y);
    case BinaryOp::BitXor:
      return bothBool ? SemaValue::getBool(x ^ y) : result(x ^ y);
    case BinaryOp::MatMul:
      why = "'@' needs blocks (use tl.dot)";
      return std::nullopt;
    }
    why = "division by zero";
    return std::nullopt;
  }
  double x = a.getAsDouble(), y = b.getAsDouble();
  switch (op) {
  case BinaryOp::Add:
    return SemaValue::getFloat(x + y);
  case BinaryOp::Sub:
    return SemaValue::getFloat(x - y);
  case BinaryOp::Mul:
    return SemaValue::getFloat(x * y);
  case BinaryOp::Div:
    if (y == 0)
      break;
    return SemaValue::getFloat(x / y);
  case BinaryOp::FloorDiv:
    if (y == 0)
      break;
    return SemaValue::getFloat(std::floor(x / y));
  case BinaryOp::Mod: {
    if (y == 0)
      break;
    double r = std::fmod(x, y);
    if (r != 0 && ((r < 0) != (y < 0)))
      r += y;
    return SemaValue::getFloat(r);
  }
  case BinaryOp::Pow:
    return SemaValue::getFloat(std::pow(x, y));
  default:
    why = "bit operations need integers";
    return std::nullopt;
  }
  why = "division by zero";
  return std::nullopt;
}
