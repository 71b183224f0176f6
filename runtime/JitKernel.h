//===- JitKernel.h - a kernel compiled per specialization -------*- C++ -*-===//
//
// This file implements JitKernel, the runtime's side of `mgp::jit`: a kernel's
// source and signature plus a compile function; each launch checks its
// arguments, derives the specialization, gets the compiled kernel from the
// cache (compiling on a miss), loads it once into the current context and
// launches it. The compiler is reached only through the KernelCompileFn, so
// the runtime needs nothing from it.
//
// Contract with the compiler: the PTX entry named CompiledKernel::name takes
// the kernel's non-constexpr parameters in order (pointers as .u64, i32 as
// .u32/.s32, i64 as .u64/.s64, fp32 as .f32), integers equal to 1 included;
// constexpr values are compiled in and not passed.
//
//===----------------------------------------------------------------------===//
#ifndef MGP_RUNTIME_JITKERNEL_H
#define MGP_RUNTIME_JITKERNEL_H

#include "runtime/Function.h"
#include "runtime/KernelCache.h"
#include "runtime/Module.h"

#include <array>
#include <map>
#include <memory>
#include <mutex>

namespace mgp {

/// The compiled kernel \p kernelName for \p spec, from \p cache (memory,
/// then disk) or \p compile on a miss, under the cache key of (\p source,
/// \p kernelName, \p options, \p spec): the one lookup
/// every JIT user shares (JitKernel, the C++ API's interpreter path and the
/// C API's specialized kernels). \p key, when given, receives the key.
llvm::Expected<std::shared_ptr<const CompiledKernel>>
getCompiledKernel(KernelCache &cache, const KernelCompileFn &compile,
                  llvm::StringRef source, llvm::StringRef kernelName,
                  const KernelOptions &options, const Specialization &spec,
                  CacheSource *cacheSource = nullptr,
                  std::string *key = nullptr);

/// A kernel compiled on demand, once per specialization.
class JitKernel {
public:
  /// \p source is the text the cache key covers (the kernel and the helpers
  /// it calls, normalized by the caller). \p options.arch should be the
  /// device's (Device::properties().arch).
  JitKernel(std::string source, KernelSignature signature,
            KernelOptions options, KernelCompileFn compile,
            KernelCache &cache = KernelCache::global());

  /// The compiled kernel for a launch with \p args, without launching it
  /// (warm-up, AOT, tests). Fails on bad arguments or a compile error.
  llvm::Expected<std::shared_ptr<const CompiledKernel>>
  compile(llvm::ArrayRef<KernelArg> args, CacheSource *source = nullptr);

  /// Compiles if needed and launches on \p grid programs (1-3D) on
  /// \p stream (null: the default stream) in the current context.
  llvm::Error launch(std::array<unsigned, 3> grid, CUstream stream,
                     llvm::ArrayRef<KernelArg> args);

  const KernelSignature &signature() const { return sig; }
  const KernelOptions &options() const { return opts; }

private:
  /// A compiled kernel loaded into the current context.
  struct Loaded {
    std::shared_ptr<const CompiledKernel> kernel;
    Module module;
    Function function;
  };
  llvm::Expected<Loaded *> load(llvm::ArrayRef<KernelArg> args);

  std::string src;
  KernelSignature sig;
  KernelOptions opts;
  KernelCompileFn compileFn;
  KernelCache &cache;
  std::mutex mutex;                                      ///< guards loaded
  std::map<std::string, std::unique_ptr<Loaded>> loaded; ///< by cache key
};

} // namespace mgp

#endif // MGP_RUNTIME_JITKERNEL_H
