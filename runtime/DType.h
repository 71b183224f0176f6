//===- DType.h - element types of kernel arguments --------------*- C++ -*-===//
//
// This file implements DType, the element types a kernel's pointer arguments
// may point to, with the names Triton's signatures use (fp32, bf16, i32, ...).
//
//===----------------------------------------------------------------------===//
#ifndef MGP_RUNTIME_DTYPE_H
#define MGP_RUNTIME_DTYPE_H

#include "llvm/ADT/StringRef.h"

#include <optional>

namespace mgp {

/// An element type, as in the dialect's tensors (i1 ... f64, and the fp8
/// types fp8e4nv (float8 e4m3fn) and fp8e5 (float8 e5m2)).
enum class DType { I1, I8, I16, I32, I64, F16, BF16, F32, F64, F8E4NV, F8E5 };

/// The signature name: "i1", "i8", "i16", "i32", "i64", "fp16", "bf16",
/// "fp32", "fp64", "fp8e4nv", "fp8e5".
llvm::StringRef dtypeName(DType type);

/// Parses a signature name (also accepts "f16", "f32", "f64", "float32",
/// "float16", "bfloat16", "int32", ...); nullopt for anything else.
std::optional<DType> parseDType(llvm::StringRef name);

/// Bytes of one element in memory (i1 is stored as one byte).
unsigned dtypeBytes(DType type);

} // namespace mgp

#endif // MGP_RUNTIME_DTYPE_H
