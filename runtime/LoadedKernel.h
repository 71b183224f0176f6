//===- LoadedKernel.h - a compiled kernel in the current context -*- C++ -*-=//
//
// This file implements the one way a compiled kernel reaches the GPU: its PTX
// JIT-compiled by the driver and loaded as a module into the current context
// (the driver's JIT log kept for errors) and its entry looked up. mgp::jit,
// the gpu backend and the conv tuner all load through it; the backend and the
// tuner load their kernels together (loadAll), the JIT of each on a thread of
// its own.
//
//===----------------------------------------------------------------------===//
#ifndef MGP_RUNTIME_LOADEDKERNEL_H
#define MGP_RUNTIME_LOADEDKERNEL_H

#include "runtime/CompiledKernel.h"
#include "runtime/Function.h"
#include "runtime/Module.h"

#include <array>
#include <vector>

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

  /// A kernel to load and how its errors name it.
  struct Request {
    std::shared_ptr<const CompiledKernel> kernel;
    std::string what;
    /// The kernel's image, already JIT-compiled for the current context's
    /// device (Module::compilePTX); null: JIT-compiled here.
    const DeviceImage *image = nullptr;
  };

  /// Loads every request into the current context, as load() does: the PTX
  /// of those without an image JIT-compiled on up to
  /// llvm::hardware_concurrency() threads at once (the
  /// driver's JIT is most of a cold start, and it runs concurrently only
  /// across threads), then the images loaded in order. One result per
  /// request.
  static std::vector<llvm::Expected<LoadedKernel>>
  loadAll(llvm::ArrayRef<Request> requests);

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
