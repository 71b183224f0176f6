//===- DType.cpp - the element types of mgp -------------------------------===//
//
// This file implements DType's traits from one table.
//
//===----------------------------------------------------------------------===//
#include "compiler/api/DType.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/ErrorHandling.h"

using namespace mgp;

namespace {
struct DTypeInfo {
  DType type;
  const char *name;       ///< the signature's
  const char *tritonName; ///< tl.<name>
  unsigned bits;
};
const DTypeInfo kDTypes[] = {
    {DType::I1, "i1", "int1", 1},          {DType::I8, "i8", "int8", 8},
    {DType::I16, "i16", "int16", 16},      {DType::I32, "i32", "int32", 32},
    {DType::I64, "i64", "int64", 64},      {DType::U8, "u8", "uint8", 8},
    {DType::U16, "u16", "uint16", 16},     {DType::U32, "u32", "uint32", 32},
    {DType::U64, "u64", "uint64", 64},     {DType::F16, "fp16", "float16", 16},
    {DType::BF16, "bf16", "bfloat16", 16}, {DType::F32, "fp32", "float32", 32},
    {DType::F64, "fp64", "float64", 64},
    {DType::F8E4NV, "fp8e4nv", "float8e4nv", 8},
    {DType::F8E5, "fp8e5", "float8e5", 8},
    {DType::F8E4B15, "fp8e4b15", "float8e4b15", 8}};

const DTypeInfo &info(DType type) {
  const DTypeInfo &entry = kDTypes[static_cast<unsigned>(type)];
  assert(entry.type == type && "kDTypes follows the enum");
  return entry;
}
} // namespace

llvm::StringRef mgp::dtypeName(DType type) { return info(type).name; }

llvm::StringRef mgp::dtypeTritonName(DType type) {
  return info(type).tritonName;
}

std::optional<DType> mgp::dtypeFromName(llvm::StringRef name) {
  for (const DTypeInfo &entry : kDTypes)
    if (name == entry.name)
      return entry.type;
  return std::nullopt;
}

std::optional<DType> mgp::parseDType(llvm::StringRef name) {
  for (const DTypeInfo &entry : kDTypes)
    if (name == entry.name || name == entry.tritonName)
      return entry.type;
  return llvm::StringSwitch<std::optional<DType>>(name)
      .Case("bool", DType::I1)
      .Case("f16", DType::F16)
      .Case("f32", DType::F32)
      .Case("f64", DType::F64)
      .Default(std::nullopt);
}

unsigned mgp::dtypeBits(DType type) { return info(type).bits; }

unsigned mgp::dtypeBytes(DType type) {
  return type == DType::I1 ? 1 : info(type).bits / 8;
}

bool mgp::isFloatDType(DType type) {
  return type == DType::F16 || type == DType::BF16 || type == DType::F32 ||
         type == DType::F64 || isFp8DType(type);
}

bool mgp::isFp8DType(DType type) {
  return type == DType::F8E4NV || type == DType::F8E5 ||
         type == DType::F8E4B15;
}

bool mgp::isUnsignedDType(DType type) {
  return type == DType::U8 || type == DType::U16 || type == DType::U32 ||
         type == DType::U64;
}
