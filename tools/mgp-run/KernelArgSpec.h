//===- KernelArgSpec.h - argument specs of one-kernel runs ------*- C++ -*-===//
//
// This file implements the `--arg` specs of `mgp-run kernel.mgp`, one per
// kernel parameter in order (keywords may come in any order):
//
//   x:fp32[1000000]:rand        a buffer of 1000000 fp32, uniform in [-1, 1)
//   w:fp32[64,3,3,3]:rand(0.5,2) a buffer (shape multiplied out), in [0.5, 2)
//   y:fp32[1000000]             a buffer of zeros (an output)
//   fp32[16]:ones               (the label is optional; also zeros, iota)
//   1000000   i32=1000000   i64=5   fp32=0.5   2.5
//                               positional scalars (bare: i32/fp32 by form)
//   BLOCK_SIZE=1024             a value by keyword (constexprs)
//
//===----------------------------------------------------------------------===//
#ifndef MGP_TOOLS_MGP_RUN_KERNELARGSPEC_H
#define MGP_TOOLS_MGP_RUN_KERNELARGSPEC_H

#include "compiler/api/DType.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mgp::run {

/// One parsed `--arg`.
struct ArgSpec {
  enum class Kind { Buffer, Int, Float };
  Kind kind = Kind::Int;
  std::string label;   ///< buffer label, or the keyword of NAME=VALUE
  bool keyword = false; ///< NAME=VALUE binds by name
  // Buffers
  DType dtype = DType::F32;
  uint64_t count = 0;
  std::string shape; ///< as written, e.g. "64,3,3,3"
  enum class Init { Zeros, Ones, Iota, Rand } init = Init::Zeros;
  double lo = -1, hi = 1;
  // Scalars
  int64_t intValue = 0;
  double floatValue = 0;
  bool isI64 = false;
};

/// Parses one spec; errors quote it and say what was expected.
llvm::Expected<ArgSpec> parseArgSpec(llvm::StringRef text);

/// A host buffer's bytes for \p spec, filled by its init (rand from \p seed).
std::vector<unsigned char> makeBufferData(const ArgSpec &spec, unsigned seed);

/// Element \p i of \p data (of \p type) as a double.
double elementAsDouble(const std::vector<unsigned char> &data, DType type,
                       uint64_t i);

} // namespace mgp::run

#endif // MGP_TOOLS_MGP_RUN_KERNELARGSPEC_H
