//===- CompiledKernel.h - a compiler's output and how to compile -*- C++ -*-=//
//
// This file implements what the JIT asks of the compiler (CompileRequest), what
// the compiler hands back (CompiledKernel: PTX plus the metadata a launch
// needs) and the plug between them, KernelCompileFn. The runtime never calls
// the compiler directly: whoever builds a JIT passes a KernelCompileFn, so
// the runtime builds and tests without the compiler.
//
//===----------------------------------------------------------------------===//
#ifndef MGP_RUNTIME_COMPILEDKERNEL_H
#define MGP_RUNTIME_COMPILEDKERNEL_H

#include "runtime/CacheKey.h"

#include <functional>
#include <string>

namespace mgp {

/// A compiled kernel: PTX and what launching it needs.
struct CompiledKernel {
  std::string name;         ///< the PTX .entry name
  std::string ptx;          ///< PTX text
  unsigned sharedBytes = 0; ///< dynamic shared memory per block
  int numWarps = 4;         ///< block = 32 * numWarps threads
  int numStages = 3;
  std::string arch; ///< what the PTX targets, e.g. "sm_90"

  bool operator==(const CompiledKernel &other) const {
    return name == other.name && ptx == other.ptx &&
           sharedBytes == other.sharedBytes && numWarps == other.numWarps &&
           numStages == other.numStages && arch == other.arch;
  }
};

/// One compilation the JIT asks for.
struct CompileRequest {
  /// The source text the cache key covers (the kernel and every function it
  /// calls).
  llvm::StringRef source;
  llvm::StringRef kernelName;
  const KernelSignature *signature = nullptr;
  const Specialization *specialization = nullptr;
  KernelOptions options;
};

/// The compiler as the runtime sees it: a request in, PTX and metadata out
/// (or the compiler's diagnostics as an error).
using KernelCompileFn =
    std::function<llvm::Expected<CompiledKernel>(const CompileRequest &)>;

} // namespace mgp

#endif // MGP_RUNTIME_COMPILEDKERNEL_H
