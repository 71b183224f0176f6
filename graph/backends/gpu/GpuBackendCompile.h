//===- GpuBackendCompile.h - PTX for every kernel a graph needs -*- C++ -*-===//
//
// This file implements the compile phase of the `gpu` backend, which needs no
// GPU: the distinct kernel specializations of a launch plan
// (graph/KernelLaunch.h) are compiled to PTX for one architecture, in
// parallel (each compile with its own MLIRContext and LLVMContext), through
// getCompiledKernel (runtime/jit/KernelCompiler.h: the kernel cache, memory
// then disk, else the compiler), with a progress line while kernels compile.
// With `jitImages` each task also has the driver JIT-compile its kernel's PTX
// for the calling thread's context, so that compiling and JIT-compiling the
// kernels overlap (LoadedKernel::loadAll then only loads the images).
//
//===----------------------------------------------------------------------===//

#ifndef MGP_GRAPH_GPUBACKENDCOMPILE_H
#define MGP_GRAPH_GPUBACKENDCOMPILE_H

#include "graph/KernelLaunch.h"

#include "compiler/api/Target.h"
#include "runtime/CompiledKernel.h"
#include "runtime/KernelCache.h"
#include "runtime/LoadedKernel.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>

namespace mgp::graph {

/// How the kernels of a plan are compiled: for `target`, each with its
/// launch's KernelOptions.
struct GpuCompileOptions {
  Target target;        ///< the device's (getDeviceTarget)
  unsigned threads = 0; ///< parallel compiles; 0: the hardware's
  /// Progress ("\rcompiling 3/20 kernels ...") goes here when it is a
  /// terminal; a summary line whenever it is set. May be null.
  llvm::raw_ostream *progress = nullptr;
  /// The cache to use; null: KernelCache::global().
  KernelCache *cache = nullptr;
  /// Also JIT-compile every kernel for the device of the calling thread's
  /// current context (GpuKernelSet::images). A JIT that fails leaves no image:
  /// loading the kernel reports the error.
  bool jitImages = false;
  /// Images an earlier phase JIT-compiled for the same context, by
  /// KernelLaunch::key(): with `jitImages`, a kernel found here takes its
  /// image from it instead of the driver's JIT. May be null.
  const llvm::StringMap<DeviceImage> *knownImages = nullptr;
};

/// What a compile phase did.
struct GpuCompileStats {
  unsigned kernels = 0;  ///< distinct specializations
  unsigned compiled = 0; ///< compiled now
  unsigned fromDisk = 0; ///< read from the disk cache
  double seconds = 0;    ///< wall time of the phase
  /// Wall time of loading the modules into the context afterwards (the
  /// driver's PTX JIT; GpuBackend::prepare fills it in).
  double loadSeconds = 0;
};

/// The compiled kernels of a plan, by KernelLaunch::key().
struct GpuKernelSet {
  llvm::StringMap<std::shared_ptr<const CompiledKernel>> kernels;
  /// With GpuCompileOptions::jitImages: the driver's images, by the same key.
  llvm::StringMap<DeviceImage> images;
  GpuCompileStats stats;

  /// What loads the kernel of \p key (one of `kernels`), named \p what in
  /// errors, with its image when there is one.
  LoadedKernel::Request loadRequest(llvm::StringRef key,
                                    std::string what) const {
    auto image = images.find(key);
    return {kernels.find(key)->second, std::move(what),
            image == images.end() ? nullptr : &image->second};
  }
};

/// Compiles (or finds in the cache) every distinct specialization of
/// `launches`. The first failing compile's error names its kernel.
llvm::Expected<GpuKernelSet>
compileGpuKernels(llvm::ArrayRef<KernelLaunch> launches,
                  const GpuCompileOptions &options);

} // namespace mgp::graph

#endif // MGP_GRAPH_GPUBACKENDCOMPILE_H
