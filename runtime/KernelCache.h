//===- KernelCache.h - compiled kernels in memory and on disk ---*- C++ -*-===//
//
// This file implements KernelCache, which answers "the compiled kernel for this
// key" from memory, then from a file under the cache directory, and only then
// by compiling (and storing the result in both). Disk entries are written
// atomically (a unique temporary file in the same directory, fsync, rename),
// so concurrent processes never see half an entry; a corrupt entry is reported
// and recompiled; an unusable cache directory is reported once and the run
// continues without the disk cache. Configuration comes from the environment
// (MGP_CACHE_DIR, MGP_CACHE, MGP_DEBUG; see docs/runtime.md).
//
//===----------------------------------------------------------------------===//
#ifndef MGP_RUNTIME_KERNELCACHE_H
#define MGP_RUNTIME_KERNELCACHE_H

#include "runtime/CompiledKernel.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <mutex>

namespace mgp {

/// How a KernelCache behaves.
struct CacheConfig {
  std::string directory; ///< where entries live; empty: no disk cache
  bool diskEnabled = true;
  bool debug = false; ///< report every compile and hit on the log stream

  /// MGP_CACHE_DIR (default $HOME/.cache/mgp), MGP_CACHE=off|0|false|no
  /// disables the disk, MGP_DEBUG=1 (any value but "" and "0") reports.
  static CacheConfig fromEnvironment();
};

/// Where a kernel came from.
enum class CacheSource { Memory, Disk, Compiled };

/// Where an entry may be kept: interpreter kernels (no PTX) live in memory
/// only.
enum class CacheScope { MemoryAndDisk, Memory };

/// Compiled kernels by key, in memory and on disk. Thread-safe.
class KernelCache {
public:
  /// \p log receives warnings and MGP_DEBUG reports (default stderr).
  explicit KernelCache(CacheConfig config,
                       llvm::raw_ostream &log = llvm::errs());

  /// The process-wide cache, configured from the environment.
  static KernelCache &global();

  /// The kernel for \p key: from memory, from disk, or from \p compile (whose
  /// error is returned as it is). \p description names the kernel in debug
  /// reports, e.g. "add_kernel[*fp32:16,*fp32:16,i32:16]". \p source, when
  /// given, receives where the kernel came from. With CacheScope::Memory the
  /// disk is neither read nor written.
  llvm::Expected<std::shared_ptr<const CompiledKernel>>
  getOrCompile(llvm::StringRef key, llvm::StringRef description,
               llvm::function_ref<llvm::Expected<CompiledKernel>()> compile,
               CacheSource *source = nullptr,
               CacheScope scope = CacheScope::MemoryAndDisk);

  /// The file that holds (or would hold) the entry for \p key.
  std::string entryPath(llvm::StringRef key) const;

  /// Whether entries are read from and written to disk (false once the
  /// directory proved unusable).
  bool diskUsable();

  /// How requests were answered so far.
  struct Stats {
    unsigned memoryHits = 0;
    unsigned diskHits = 0;
    unsigned compiles = 0;
  };
  Stats stats() const;

private:
  std::shared_ptr<const CompiledKernel> readEntry(llvm::StringRef key);
  void writeEntry(llvm::StringRef key, const CompiledKernel &kernel);
  void disableDisk(const llvm::Twine &why);
  void report(const llvm::Twine &message);

  CacheConfig config;
  llvm::raw_ostream &log;
  mutable std::mutex mutex; ///< guards everything below and the log
  llvm::StringMap<std::shared_ptr<const CompiledKernel>> memory;
  bool directoryChecked = false;
  bool diskDisabled = false;
  Stats counters;
};

} // namespace mgp

#endif // MGP_RUNTIME_KERNELCACHE_H
