//===- CompiledKernel.h - a compiler's output -------------------*- C++ -*-===//
//
// This file implements what the compiler hands back for one KernelRequest
// (runtime/CacheKey.h): PTX plus the metadata a launch needs, or, for the
// interpreter (arch "cpu"), the kernel compiled for it. KernelCache keeps
// them; runtime/jit/KernelCompiler.h makes them.
//
//===----------------------------------------------------------------------===//
#ifndef MGP_RUNTIME_COMPILEDKERNEL_H
#define MGP_RUNTIME_COMPILEDKERNEL_H

#include <memory>
#include <string>

namespace mgp {

class InterpKernel;

/// A compiled kernel: PTX and what launching it needs.
struct CompiledKernel {
  std::string name;         ///< the PTX .entry name
  std::string ptx;          ///< PTX text (empty for the interpreter)
  unsigned sharedBytes = 0; ///< dynamic shared memory per block
  int numWarps = 4;         ///< block = 32 * numWarps threads
  int numStages = 3;
  std::string arch; ///< what the PTX targets, e.g. "sm_90"; "cpu"
  /// Arch "cpu": the kernel compiled for the interpreter (which keeps the IR
  /// it runs alive). Never on disk.
  std::shared_ptr<const InterpKernel> interp;

  bool operator==(const CompiledKernel &other) const {
    return name == other.name && ptx == other.ptx &&
           sharedBytes == other.sharedBytes && numWarps == other.numWarps &&
           numStages == other.numStages && arch == other.arch &&
           interp == other.interp;
  }
};

} // namespace mgp

#endif // MGP_RUNTIME_COMPILEDKERNEL_H
