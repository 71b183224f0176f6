//===- LoadedKernel.h - a compiled kernel in the current context -*- C++ -*-=//
//
// This file implements the one way a compiled kernel reaches the GPU: its PTX
// loaded as a module into the current context (the driver's JIT log kept for
// errors) and its entry looked up. mgp::jit, the gpu backend and the conv
// tuner all load through it.
//
//===----------------------------------------------------------------------===//
#ifndef MGP_RUNTIME_LOADEDKERNEL_H
#define MGP_RUNTIME_LOADEDKERNEL_H

#include "runtime/CompiledKernel.h"
#include "runtime/Function.h"
#include "runtime/Module.h"

#include <array>

namespace mgp {

/// A compiled kernel loaded into the current context.
struct LoadedKernel {
  std::shared_ptr<const CompiledKernel> kernel;
  Module module;
  Function function;

  /// Loads \p kernel's PTX and finds its entry. Errors: `loading kernel
  /// <what>: <the driver's error and JIT log>`, or the missing entry.
  static llvm::Expected<LoadedKernel>
  load(std::shared_ptr<const CompiledKernel> kernel, llvm::StringRef what);

  /// A launch of \p grid programs on \p stream with the kernel's warps and
  /// dynamic shared memory.
  LaunchConfig launchConfig(std::array<unsigned, 3> grid,
                            CUstream stream) const {
    LaunchConfig config;
    config.grid = grid;
    config.numWarps = kernel->numWarps;
    config.sharedBytes = kernel->sharedBytes;
    config.stream = stream;
    return config;
  }
};

} // namespace mgp

#endif // MGP_RUNTIME_LOADEDKERNEL_H
