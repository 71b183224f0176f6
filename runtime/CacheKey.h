//===- CacheKey.h - the identity of a compiled kernel -----------*- C++ -*-===//
//
// This file implements the options a kernel is compiled with (KernelOptions)
// and the cache key: a SHA-256 over everything that can change the PTX the
// compiler produces. Two compilations with the same key must give the same
// PTX; anything that could make them differ belongs in the key.
//
//===----------------------------------------------------------------------===//
#ifndef MGP_RUNTIME_CACHEKEY_H
#define MGP_RUNTIME_CACHEKEY_H

#include "runtime/Specialization.h"

#include "llvm/ADT/StringRef.h"

#include <string>

namespace mgp {

/// The pipeline options a JIT compilation uses.
struct KernelOptions {
  std::string arch = "sm_90"; ///< sm_80, sm_86, sm_89, sm_90, sm_90a
  int numWarps = 4;
  int numStages = 3;
  std::string precision = "tf32"; ///< dot input precision: tf32, ieee, ...
};

/// Everything the cache key covers.
struct CacheKeyInput {
  /// The compiler's identity; compilerIdentity() unless a test says
  /// otherwise.
  llvm::StringRef compilerVersion;
  KernelOptions options;
  /// The kernel's source together with the source of every function it
  /// calls, normalized by the caller (the key hashes the text exactly as
  /// given; see docs/runtime.md).
  llvm::StringRef source;
  llvm::StringRef kernelName;
  Specialization specialization;
};

/// The running compiler's identity in cache keys: `VERSION+HASH`, where
/// HASH is the first 16 hex digits of a SHA-256 over the compiler's sources.
llvm::StringRef compilerIdentity();

/// A CacheKeyInput for the running compiler (compilerVersion =
/// compilerIdentity()).
CacheKeyInput makeCacheKeyInput(llvm::StringRef source,
                                llvm::StringRef kernelName,
                                const KernelOptions &options,
                                const Specialization &specialization);

/// The key: 64 lowercase hex digits of SHA-256 over a length-prefixed,
/// field-tagged encoding of \p input, so no two different inputs encode the
/// same way.
std::string computeCacheKey(const CacheKeyInput &input);

} // namespace mgp

#endif // MGP_RUNTIME_CACHEKEY_H
