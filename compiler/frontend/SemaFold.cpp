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

static int64_t floorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0)))
    --q;
  return q;
}

static int64_t floorMod(int64_t a, int64_t b) {
  int64_t r = a % b;
  if (r != 0 && ((r < 0) != (b < 0)))
    r += b;
  return r;
}

std::optional<SemaValue> mgp::foldBinary(BinaryOp op, const SemaValue &a,
                                         const SemaValue &b, std::string &why) {
  bool isFloat = a.isFloat() || b.isFloat();
  if (!isFloat) {
    int64_t x = a.getInt(), y = b.getInt();
    bool bothBool = a.isBool() && b.isBool();
    // Python's integers have no bound; a kernel's constants must fit int64
    // (Triton's too, when they become IR), so a fold past it is an error.
    auto overflow = [&why]() -> std::optional<SemaValue> {
      why = "integer overflow: the result does not fit in int64 (the largest "
            "is 2**63 - 1 = 9223372036854775807)";
      return std::nullopt;
    };
    int64_t r = 0;
    switch (op) {
    case BinaryOp::Add:
      if (llvm::AddOverflow(x, y, r))
        return overflow();
      return SemaValue::getInt(r);
    case BinaryOp::Sub:
      if (llvm::SubOverflow(x, y, r))
        return overflow();
      return SemaValue::getInt(r);
    case BinaryOp::Mul:
      if (llvm::MulOverflow(x, y, r))
        return overflow();
      return SemaValue::getInt(r);
    case BinaryOp::Div:
      if (y == 0)
        break;
      return SemaValue::getFloat(static_cast<double>(x) / y);
    case BinaryOp::FloorDiv:
      if (y == 0)
        break;
      if (x == std::numeric_limits<int64_t>::min() && y == -1)
        return overflow();
      return SemaValue::getInt(floorDiv(x, y));
    case BinaryOp::Mod:
      if (y == 0)
        break;
      if (y == -1)
        return SemaValue::getInt(0);
      return SemaValue::getInt(floorMod(x, y));
    case BinaryOp::Pow: {
      if (y < 0)
        return SemaValue::getFloat(std::pow(double(x), double(y)));
      r = 1;
      for (int64_t i = 0; i < y; ++i) {
        if (llvm::MulOverflow(r, x, r))
          return overflow();
        if (r == 0 || r == 1)
          break; // 0 and 1 stay; -1 alternates below
        if (r == -1) {
          r = (y - i - 1) % 2 == 0 ? -1 : 1;
          break;
        }
      }
      return SemaValue::getInt(r);
    }
    case BinaryOp::LShift:
      if (y < 0 || y > 63) {
        why = "shift count out of range";
        return std::nullopt;
      }
      // x << y is x * 2**y (a negative x too, as in Python); past int64 it
      // is an overflow. 2**63 itself does not fit: only 0 and -1 shift by 63.
      if (y == 63) {
        if (x != 0 && x != -1)
          return overflow();
        return SemaValue::getInt(x == 0 ? 0
                                        : std::numeric_limits<int64_t>::min());
      }
      if (llvm::MulOverflow(x, int64_t(1) << y, r))
        return overflow();
      return SemaValue::getInt(r);
    case BinaryOp::RShift:
      if (y < 0 || y > 63) {
        why = "shift count out of range";
        return std::nullopt;
      }
      return SemaValue::getInt(x >> y);
    case BinaryOp::BitAnd:
      return bothBool ? SemaValue::getBool(x & y) : SemaValue::getInt(x & y);
    case BinaryOp::BitOr:
      return bothBool ? SemaValue::getBool(x | y) : SemaValue::getInt(x | y);
    case BinaryOp::BitXor:
      return bothBool ? SemaValue::getBool(x ^ y) : SemaValue::getInt(x ^ y);
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
