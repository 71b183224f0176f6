//===- JitImpl.h - the state behind an mgp::Kernel --------------*- C++ -*-===//
//
// This file implements the private side of mgp::Kernel shared by its source
// files: the parsed parameters, the declared types, the options, and the
// per-launch fast path - a fingerprint of the bound arguments (kinds, dtypes,
// divisibility, equal-to-one, constexpr values) mapped to a loaded GPU
// function or an interpreter kernel, so a warm launch neither re-derives the
// specialization nor hashes the source.
//
//===----------------------------------------------------------------------===//
#ifndef MGP_RUNTIME_JIT_JITIMPL_H
#define MGP_RUNTIME_JIT_JITIMPL_H

#include "runtime/jit/Jit.h"

#include "compiler/pipeline/CompileKernel.h"
#include "runtime/CacheKey.h"
#include "runtime/Device.h"
#include "runtime/LoadedKernel.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"

#include <mutex>
#include <optional>

namespace mgp {

/// What a warm launch needs.
struct LaunchEntry {
  KernelSignature signature;
  /// The kernel (on the CPU device, its `interp`).
  std::shared_ptr<const CompiledKernel> compiled;
  std::optional<LoadedKernel> loaded; ///< GPU: loaded in the context
};

class Kernel::Impl {
public:
  std::string source; ///< the whole file
  std::string fileName;
  std::string kernelName;
  std::vector<KernelParamInfo> params;
  /// Declared types (JitOptions::signature), one per parameter; empty when
  /// the arguments decide.
  std::vector<KernelParam> declared;
  JitOptions options;
  Target target; ///< the device's (getDeviceTarget), or Target::cpu()
  std::shared_ptr<Device> device;

  std::mutex mutex; ///< guards entries
  llvm::StringMap<std::unique_ptr<LaunchEntry>> entries;

  /// Binds \p args to the parameters (positional, then keywords), in
  /// parameter order; \p bytes receives each host buffer's size. Errors:
  /// count, unknown or repeated keywords.
  llvm::Error bindValues(llvm::ArrayRef<LaunchArg> args,
                         llvm::SmallVectorImpl<KernelArg> &bound,
                         llvm::SmallVectorImpl<uint64_t> &bytes) const;
  /// The signature \p bound is checked against (declared, or implied by the
  /// arguments), and the check (kind, dtype, range).
  llvm::Error signatureFor(llvm::ArrayRef<KernelArg> bound,
                           KernelSignature &signature) const;
  /// The fast-path key of bound arguments: equal keys have equal
  /// signatures, pass the same checks and have the same specialization.
  /// Written into \p key (no allocation on a warm launch).
  void fingerprint(llvm::ArrayRef<KernelArg> bound,
                   llvm::SmallVectorImpl<char> &key) const;

  /// The warm entry for \p bound; on a miss checks the arguments, then
  /// compiles (or finds in the caches) and loads the kernel.
  llvm::Expected<LaunchEntry *> entryFor(llvm::ArrayRef<KernelArg> bound);
  llvm::Error launchGPU(LaunchEntry &entry, Grid grid, CUstream stream,
                        llvm::ArrayRef<KernelArg> bound);
  llvm::Error launchCPU(LaunchEntry &entry, Grid grid,
                        llvm::ArrayRef<KernelArg> bound,
                        llvm::ArrayRef<uint64_t> bytes);
};

/// Parses JitOptions::signature into one KernelParam per name in \p names.
llvm::Expected<std::vector<KernelParam>>
parseDeclaredTypes(llvm::StringRef text, llvm::StringRef kernelName,
                   const std::vector<KernelParamInfo> &params);

} // namespace mgp

#endif // MGP_RUNTIME_JIT_JITIMPL_H
