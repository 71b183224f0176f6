//===- Specialization.h - what a kernel is compiled for ---------*- C++ -*-===//
//
// This file implements Specialization, the facts about a launch's arguments
// that a kernel is compiled for, as Triton does: the types of the arguments,
// the values of the constexpr parameters, which integer and pointer
// arguments are divisible by 16 (16-byte aligned pointers allow vector
// loads), and which integers equal 1 (a stride of 1 makes an access
// contiguous). Launches with the same specialization share one compiled
// kernel; it is part of the cache key.
//
//===----------------------------------------------------------------------===//
#ifndef MGP_RUNTIME_SPECIALIZATION_H
#define MGP_RUNTIME_SPECIALIZATION_H

#include "runtime/KernelSignature.h"

namespace mgp {

/// The value of one constexpr parameter.
struct ConstexprValue {
  unsigned index = 0; ///< parameter position, 0-based
  std::string name;
  bool isFloat = false;
  int64_t intValue = 0;
  double floatValue = 0;

  /// "16" for integers; for floats the shortest text that reads back to the
  /// same double, always with a '.' or an exponent ("1.0", "0.1", "1e-05").
  std::string str() const;
  bool operator==(const ConstexprValue &other) const;
};

/// What a kernel is compiled for, beyond its source and the options.
struct Specialization {
  /// One entry per parameter: "*fp32" for a pointer to fp32, "i32", "i64",
  /// "fp32", or "constexpr".
  std::vector<std::string> argTypes;
  /// Constexpr parameter values, in parameter order.
  std::vector<ConstexprValue> constexprs;
  /// 0-based positions of pointer and integer arguments divisible by 16.
  std::vector<unsigned> divisibleBy16;
  /// 0-based positions of integer arguments equal to 1.
  std::vector<unsigned> equalToOne;

  /// Triton's AOT signature syntax, extended for integers equal to 1:
  /// "*fp32:16,*fp32,i32:16,i32:1,1024".
  std::string str() const;
  bool operator==(const Specialization &other) const;
};

/// Checks \p args against \p signature (checkArguments) and derives the
/// specialization they call for.
llvm::Expected<Specialization>
deriveSpecialization(const KernelSignature &signature,
                     llvm::ArrayRef<KernelArg> args);

} // namespace mgp

#endif // MGP_RUNTIME_SPECIALIZATION_H
