//===- Signature.h - kernel signatures in Triton's AOT syntax ---*- C++ -*-===//
//
// This file declares the parsed form of a kernel signature such as
// `*fp32:16,*fp32,i32,1024` (mgpc --signature, the JIT's specialization):
// one entry per kernel parameter, each a pointer to a DType, an integer,
// a float, or a constexpr value, with Triton's `:16` (divisible by 16) and
// `:1` (equal to 1) hints.
//
//===----------------------------------------------------------------------===//
#ifndef MGP_PIPELINE_SIGNATURE_H
#define MGP_PIPELINE_SIGNATURE_H

#include "compiler/api/DType.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mgp {

/// One kernel parameter of a signature.
struct SignatureParam {
  enum class Kind {
    Pointer,  ///< `*T`: a global pointer to elements of `type`
    Scalar,   ///< `T`: a runtime integer or float of `type`
    Constexpr ///< a bare literal: the parameter's compile-time value
  };
  Kind kind = Kind::Scalar;
  /// Pointee type for pointers, the value type for scalars; for constexprs
  /// i64 (integer literal; u64 from 2**63 to 2**64 - 1, intValue holding
  /// its bits) or fp64 (float literal).
  DType type = DType::I32;
  /// 16 with the `:16` hint (pointer address or integer divisible by 16),
  /// else 1.
  int divisibility = 1;
  /// The `:1` hint: an integer known to equal 1.
  bool equalsOne = false;
  /// `*k<type>`: a pointer to constant data (Triton's spelling of a
  /// parameter annotated `tl.const`): stores and atomics through it are
  /// errors.
  bool isConst = false;
  /// The constexpr value (Kind::Constexpr); `isFloat` / `isString` /
  /// `isNone` say which one is set (a string: `'gelu'`, or a bare word that
  /// names no type, such as `gelu`; `None`: Triton's specialization of an
  /// argument passed as None, such as an absent bias pointer).
  bool isFloat = false;
  bool isString = false;
  bool isNone = false;
  int64_t intValue = 0;
  double floatValue = 0.0;
  std::string stringValue;

  bool isPointer() const { return kind == Kind::Pointer; }
  bool isConstexpr() const { return kind == Kind::Constexpr; }
};

/// A parsed signature: its parameters in order.
struct Signature {
  std::vector<SignatureParam> params;

  /// Prints the signature back in the syntax parseSignature accepts.
  std::string str() const;
};

/// Parses Triton's AOT signature syntax: a comma-separated list whose entries
/// are `*T[:16]` (pointer), `T[:16|:1]` (integer), `T` (float; for a
/// parameter annotated constexpr, the dtype T), a bare integer/float literal
/// or a string (`'gelu'` or a bare word) (constexprs). Errors name the
/// offending entry.
llvm::Expected<Signature> parseSignature(llvm::StringRef text);

} // namespace mgp

#endif // MGP_PIPELINE_SIGNATURE_H
