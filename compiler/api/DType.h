//===- DType.h - the element types of mgp -----------------------*- C++ -*-===//
//
// This file implements DType, the one element-type vocabulary of mgp: what a
// signature names (`*fp32:16`), what a launch argument points to, what the
// interpreter computes in and what the graph backends store (fp32, fp16,
// bf16), with their traits - size, bit width, the signature spelling (`fp32`)
// and Triton's (`float32`). No MLIR: everything links it.
//
//===----------------------------------------------------------------------===//
#ifndef MGP_COMPILER_API_DTYPE_H
#define MGP_COMPILER_API_DTYPE_H

#include "llvm/ADT/StringRef.h"

#include <optional>

namespace mgp {

/// An element type. The order is part of the C API (mgp_dtype follows it).
enum class DType {
  I1,
  I8,
  I16,
  I32,
  I64,
  U8,
  U16,
  U32,
  U64,
  F16,
  BF16,
  F32,
  F64,
  F8E4NV, ///< fp8e4nv: float8 e4m3fn (OCP E4M3, no infinities)
  F8E5,   ///< fp8e5: float8 e5m2
  F8E4B15 ///< fp8e4b15: Triton's float8 e4m3 with exponent bias 15
};

/// The signature spelling, Triton's AOT one: "i1", "i8" ... "u64", "fp16",
/// "bf16", "fp32", "fp64", "fp8e4nv", "fp8e5", "fp8e4b15".
llvm::StringRef dtypeName(DType type);
/// Triton's language spelling (`tl.<name>`): "int1", "int8" ... "uint64",
/// "float16", "bfloat16", "float32", "float64", "float8e4nv", "float8e5",
/// "float8e4b15".
llvm::StringRef dtypeTritonName(DType type);
/// The type whose signature spelling is \p name (`fp32`, `i32`, ...).
std::optional<DType> dtypeFromName(llvm::StringRef name);
/// The signature spelling, Triton's, or a short alias (`f16`, `f32`, `f64`,
/// `bool`): everything a user may write for a dtype; nullopt otherwise.
std::optional<DType> parseDType(llvm::StringRef name);

/// Bits of one value: 1 for i1.
unsigned dtypeBits(DType type);
/// Bytes of one element in memory (i1 is stored as one byte).
unsigned dtypeBytes(DType type);
/// fp16, bf16, fp32, fp64 and the fp8 types.
bool isFloatDType(DType type);
/// fp8e4nv, fp8e5 and fp8e4b15.
bool isFp8DType(DType type);
/// u8 ... u64.
bool isUnsignedDType(DType type);

} // namespace mgp

#endif // MGP_COMPILER_API_DTYPE_H
