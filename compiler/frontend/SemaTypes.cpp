//===- SemaTypes.cpp - type promotion and broadcasting --------------------===//
//
// This file implements the typing rules of the kernel language declared in
// SemaTypes.h: Triton's promotion of binary operands, integer promotion,
// numpy broadcasting, literal types and type names for messages.
//
//===----------------------------------------------------------------------===//
#include "compiler/frontend/SemaTypes.h"

#include "compiler/ir/MgpDialect.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <limits>

using namespace mgp;

TypeKind mgp::getTypeKind(mlir::Type t) {
  if (t.isInteger(1))
    return TypeKind::Bool;
  if (t.isInteger())
    return TypeKind::Int;
  return TypeKind::Float;
}

/// \p type with its element type mapped by \p f.
template <typename F> static mlir::Type mapElement(mlir::Type type, F f) {
  if (auto t = llvm::dyn_cast<mlir::RankedTensorType>(type))
    return mlir::RankedTensorType::get(t.getShape(), f(t.getElementType()));
  return f(type);
}

mlir::Type mgp::withSignedness(mlir::Type type, bool isUnsigned) {
  if (!isUnsigned)
    return type;
  return mapElement(type, [](mlir::Type t) -> mlir::Type {
    auto i = llvm::dyn_cast<mlir::IntegerType>(t);
    if (!i || i.getWidth() == 1)
      return t;
    return mlir::IntegerType::get(t.getContext(), i.getWidth(),
                                  mlir::IntegerType::Unsigned);
  });
}

mlir::Type mgp::toSignless(mlir::Type type) {
  return mapElement(type, [](mlir::Type t) -> mlir::Type {
    auto i = llvm::dyn_cast<mlir::IntegerType>(t);
    if (!i || i.isSignless())
      return t;
    return mlir::IntegerType::get(t.getContext(), i.getWidth());
  });
}

bool mgp::isUnsignedType(mlir::Type type) {
  return getElementType(type).isUnsignedInteger();
}

mlir::Type mgp::getIntLiteralType(mlir::MLIRContext *ctx, __int128 value,
                                  bool allowUnsigned) {
  if (value >= std::numeric_limits<int32_t>::min() &&
      value <= std::numeric_limits<int32_t>::max())
    return mlir::IntegerType::get(ctx, 32);
  if (allowUnsigned && value > 0 &&
      value <= std::numeric_limits<uint32_t>::max())
    return mlir::IntegerType::get(ctx, 32, mlir::IntegerType::Unsigned);
  if (allowUnsigned && value > std::numeric_limits<int64_t>::max())
    return mlir::IntegerType::get(ctx, 64, mlir::IntegerType::Unsigned);
  return mlir::IntegerType::get(ctx, 64);
}

mlir::Type mgp::getFloatLiteralType(mlir::MLIRContext *ctx, double value) {
  double mag = std::fabs(value);
  if (std::isfinite(value) && mag != 0.0 &&
      (mag > std::numeric_limits<float>::max() ||
       mag < std::numeric_limits<float>::min()))
    return mlir::Float64Type::get(ctx);
  return mlir::Float32Type::get(ctx);
}

mlir::Type mgp::promoteIntegers(mlir::Type a, mlir::Type b) {
  unsigned wa = a.getIntOrFloatBitWidth(), wb = b.getIntOrFloatBitWidth();
  bool ua = a.isUnsignedInteger(), ub = b.isUnsignedInteger();
  if (ua == ub)
    return wa > wb ? a : b;
  if (ua)
    return wa >= wb ? a : b;
  return wb >= wa ? b : a;
}

mlir::Type mgp::computeArithmeticType(mlir::Type a, bool aIsLiteral,
                                      mlir::Type b, bool bIsLiteral,
                                      bool divOrMod, std::string &why) {
  mlir::MLIRContext *ctx = a.getContext();
  if (!a.isIntOrFloat() || !b.isIntOrFloat()) {
    why = "operands must be numbers";
    return {};
  }
  auto isHalf = [](mlir::Type t) { return t.isF16() || t.isBF16(); };
  // A literal whose kind is not above the block's does not take part.
  if (aIsLiteral != bIsLiteral) {
    mlir::Type lit = aIsLiteral ? a : b, other = aIsLiteral ? b : a;
    if (getTypeKind(lit) <= getTypeKind(other)) {
      if (divOrMod && isHalf(other))
        return mlir::Float32Type::get(ctx);
      // fp8 arithmetic computes in fp16 (divisions in fp32).
      if (isFp8Type(other))
        return divOrMod ? mlir::Type(mlir::Float32Type::get(ctx))
                        : mlir::Type(mlir::Float16Type::get(ctx));
      return other;
    }
  }
  if (a.isF64() || b.isF64())
    return mlir::Float64Type::get(ctx);
  if (a.isF32() || b.isF32())
    return mlir::Float32Type::get(ctx);
  // fp8 computes in fp16 (with fp16 or fp8) or fp32 (with bf16, or for
  // division).
  auto isFp8 = [](mlir::Type t) { return isFp8Type(t); };
  if (isFp8(a) || isFp8(b)) {
    if (divOrMod || a.isBF16() || b.isBF16())
      return mlir::Float32Type::get(ctx);
    if ((isFp8(a) || a.isF16() || a.isInteger()) &&
        (isFp8(b) || b.isF16() || b.isInteger()))
      return mlir::Float16Type::get(ctx);
  }
  // Triton 3.6's semantic.py, in its order: fp16 with anything narrower
  // than fp32 (bf16 and integers too) computes in fp16; bf16 stays bf16
  // only with bf16, and computes in fp32 with anything else (integers).
  // Divisions and remainders of 16-bit floats compute in fp32.
  if (a.isF16() || b.isF16())
    return divOrMod ? mlir::Type(mlir::Float32Type::get(ctx))
                    : mlir::Type(mlir::Float16Type::get(ctx));
  if (a.isBF16() && b.isBF16() && !divOrMod)
    return a;
  if (a.isBF16() || b.isBF16())
    return mlir::Float32Type::get(ctx);
  if (!a.isInteger() || !b.isInteger()) {
    why = "unsupported operand types";
    return {};
  }
  if (divOrMod && !a.isInteger(1) && !b.isInteger(1) &&
      a.isUnsignedInteger() != b.isUnsignedInteger()) {
    // Triton's words (its tests match them).
    why = "Cannot use /, //, or % with " + getTypeName(a) + " and " +
          getTypeName(b) +
          " because they have different signedness; cast them to the same "
          "signedness";
    return {};
  }
  return promoteIntegers(a, b);
}

std::optional<llvm::SmallVector<int64_t>>
mgp::broadcastShapes(llvm::ArrayRef<int64_t> a, llvm::ArrayRef<int64_t> b) {
  size_t rank = std::max(a.size(), b.size());
  llvm::SmallVector<int64_t> result(rank);
  for (size_t i = 0; i < rank; ++i) {
    int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (da != db && da != 1 && db != 1)
      return std::nullopt;
    result[i] = da == 1 ? db : da;
  }
  return result;
}

llvm::ArrayRef<int64_t> mgp::getShapeOf(mlir::Type type) {
  if (auto t = llvm::dyn_cast<mlir::RankedTensorType>(type))
    return t.getShape();
  return {};
}

mlir::Type mgp::getElementType(mlir::Type type) {
  if (auto t = llvm::dyn_cast<mlir::RankedTensorType>(type))
    return t.getElementType();
  return type;
}

mlir::Type mgp::withShape(mlir::Type elementType,
                          llvm::ArrayRef<int64_t> shape) {
  if (shape.empty())
    return elementType;
  return mlir::RankedTensorType::get(shape, elementType);
}

std::string mgp::getTypeName(mlir::Type t) {
  if (auto p = llvm::dyn_cast<PointerType>(t))
    return "pointer<" + getTypeName(p.getPointeeType()) + ">";
  if (t.isUnsignedInteger() && !t.isInteger(1))
    return "uint" + std::to_string(t.getIntOrFloatBitWidth());
  if (t.isInteger())
    return "int" + std::to_string(t.getIntOrFloatBitWidth());
  if (t.isF16())
    return "fp16";
  if (t.isBF16())
    return "bf16";
  if (t.isF32())
    return "fp32";
  if (t.isF64())
    return "fp64";
  if (llvm::isa<mlir::Float8E4M3FNType>(t))
    return "fp8e4nv";
  if (llvm::isa<mlir::Float8E5M2Type>(t))
    return "fp8e5";
  if (isFp8E4B15(t))
    return "fp8e4b15";
  std::string s;
  llvm::raw_string_ostream os(s);
  t.print(os);
  return s;
}

std::string mgp::describeShape(llvm::ArrayRef<int64_t> shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

std::string mgp::describeType(mlir::Type type) {
  auto t = llvm::dyn_cast<mlir::RankedTensorType>(type);
  if (!t)
    return getTypeName(type);
  std::string s = "<";
  for (int64_t d : t.getShape())
    s += std::to_string(d) + "x";
  return s + getTypeName(t.getElementType()) + ">";
}

bool mgp::isDTypeName(llvm::StringRef name) {
  return llvm::is_contained({"int1",     "bool",   "int8",        "uint8",
                             "int16",    "uint16", "int32",       "uint32",
                             "int64",    "uint64", "float16",     "fp16",
                             "bfloat16", "bf16",   "float32",     "fp32",
                             "float64",  "fp64",   "float8e4nv",  "fp8e4nv",
                             "float8e5", "fp8e5",  "float8e4b15", "fp8e4b15"},
                            name);
}

bool mgp::isUnsignedDTypeName(llvm::StringRef name) {
  return llvm::is_contained({"uint8", "uint16", "uint32", "uint64"}, name);
}

mlir::Type mgp::lookupDTypeName(mlir::MLIRContext *ctx, llvm::StringRef name) {
  unsigned width = llvm::StringSwitch<unsigned>(name)
                       .Cases({"int1", "bool"}, 1)
                       .Cases({"int8", "uint8"}, 8)
                       .Cases({"int16", "uint16"}, 16)
                       .Cases({"int32", "uint32"}, 32)
                       .Cases({"int64", "uint64"}, 64)
                       .Default(0);
  if (width)
    return mlir::IntegerType::get(ctx, width);
  return llvm::StringSwitch<mlir::Type>(name)
      .Cases({"float16", "fp16"}, mlir::Float16Type::get(ctx))
      .Cases({"bfloat16", "bf16"}, mlir::BFloat16Type::get(ctx))
      .Cases({"float32", "fp32"}, mlir::Float32Type::get(ctx))
      .Cases({"float64", "fp64"}, mlir::Float64Type::get(ctx))
      .Cases({"float8e4nv", "fp8e4nv"}, mlir::Float8E4M3FNType::get(ctx))
      .Cases({"float8e5", "fp8e5"}, mlir::Float8E5M2Type::get(ctx))
      .Cases({"float8e4b15", "fp8e4b15"}, getFp8E4B15Type(ctx))
      .Default(mlir::Type());
}

mlir::Type mgp::getFp8E4B15Type(mlir::MLIRContext *ctx) {
  return mlir::Float8E4M3B11FNUZType::get(ctx);
}

bool mgp::isFp8E4B15(mlir::Type type) {
  return llvm::isa<mlir::Float8E4M3B11FNUZType>(type);
}

bool mgp::isFp8Type(mlir::Type type) {
  return llvm::isa<mlir::Float8E4M3FNType, mlir::Float8E5M2Type,
                   mlir::Float8E4M3B11FNUZType>(type);
}
