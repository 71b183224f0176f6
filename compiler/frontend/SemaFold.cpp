//===- SemaFold.cpp - folding operators on compile-time numbers -----------===//
//
// This file implements foldBinary (SemaFold.h): the binary operators of the
// kernel language on compile-time numbers, with Python's semantics.
//
//===----------------------------------------------------------------------===//
#include "compiler/frontend/SemaFold.h"

#include <cmath>

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
    switch (op) {
    case BinaryOp::Add:
      return SemaValue::getInt(x + y);
    case BinaryOp::Sub:
      return SemaValue::getInt(x - y);
    case BinaryOp::Mul:
      return SemaValue::getInt(x * y);
    case BinaryOp::Div:
      if (y == 0)
        break;
      return SemaValue::getFloat(static_cast<double>(x) / y);
    case BinaryOp::FloorDiv:
      if (y == 0)
        break;
      return SemaValue::getInt(floorDiv(x, y));
    case BinaryOp::Mod:
      if (y == 0)
        break;
      return SemaValue::getInt(floorMod(x, y));
    case BinaryOp::Pow: {
      if (y < 0)
        return SemaValue::getFloat(std::pow(double(x), double(y)));
      int64_t r = 1;
      for (int64_t i = 0; i < y && i < 64; ++i)
        r *= x;
      return SemaValue::getInt(r);
    }
    case BinaryOp::LShift:
      if (y < 0 || y > 63) {
        why = "shift count out of range";
        return std::nullopt;
      }
      return SemaValue::getInt(x << y);
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
