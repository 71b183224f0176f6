//===- DType.cpp - element types of kernel arguments ----------------------===//
//
// This file implements the names and sizes of DType.
//
//===----------------------------------------------------------------------===//
#include "runtime/DType.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/ErrorHandling.h"

using namespace mgp;

llvm::StringRef mgp::dtypeName(DType type) {
  switch (type) {
  case DType::I1:
    return "i1";
  case DType::I8:
    return "i8";
  case DType::I16:
    return "i16";
  case DType::I32:
    return "i32";
  case DType::I64:
    return "i64";
  case DType::F16:
    return "fp16";
  case DType::BF16:
    return "bf16";
  case DType::F32:
    return "fp32";
  case DType::F64:
    return "fp64";
  case DType::F8E4NV:
    return "fp8e4nv";
  case DType::F8E5:
    return "fp8e5";
  }
  llvm_unreachable("unknown DType");
}

std::optional<DType> mgp::parseDType(llvm::StringRef name) {
  return llvm::StringSwitch<std::optional<DType>>(name)
      .Cases({"i1", "int1", "bool"}, DType::I1)
      .Cases({"i8", "int8"}, DType::I8)
      .Cases({"i16", "int16"}, DType::I16)
      .Cases({"i32", "int32"}, DType::I32)
      .Cases({"i64", "int64"}, DType::I64)
      .Cases({"fp16", "f16", "float16"}, DType::F16)
      .Cases({"bf16", "bfloat16"}, DType::BF16)
      .Cases({"fp32", "f32", "float32"}, DType::F32)
      .Cases({"fp64", "f64", "float64"}, DType::F64)
      .Cases({"fp8e4nv", "float8e4nv"}, DType::F8E4NV)
      .Cases({"fp8e5", "float8e5"}, DType::F8E5)
      .Default(std::nullopt);
}

unsigned mgp::dtypeBytes(DType type) {
  switch (type) {
  case DType::I1:
  case DType::I8:
  case DType::F8E4NV:
  case DType::F8E5:
    return 1;
  case DType::I16:
  case DType::F16:
  case DType::BF16:
    return 2;
  case DType::I32:
  case DType::F32:
    return 4;
  case DType::I64:
  case DType::F64:
    return 8;
  }
  llvm_unreachable("unknown DType");
}
