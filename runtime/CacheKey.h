//===- CacheKey.h - what to compile and its identity ------------*- C++ -*-===//
//
// This file implements the request every caller makes for a compiled kernel
// (KernelRequest: source, kernel name, specialization, options and arch; the
// C++ JIT, the graph backends, mgp-run's one-kernel mode and the C API all
// make one) and its cache key: a SHA-256 over everything that can change what
// the compiler produces. Two requests with the same key must give the same
// kernel; anything that could make them differ belongs in the key.
// runtime/jit/KernelCompiler.h answers requests (cache, then compiler).
//
//===----------------------------------------------------------------------===//
#ifndef MGP_RUNTIME_CACHEKEY_H
#define MGP_RUNTIME_CACHEKEY_H

#include "compiler/pipeline/Signature.h"

#include "llvm/ADT/StringRef.h"

#include <string>

namespace mgp {

/// The pipeline options a kernel is compiled with.
struct KernelOptions {
  /// sm_80, sm_86, sm_89, sm_90, sm_90a; "cpu": the interpreter.
  std::string arch = "sm_90";
  int numWarps = 4;
  int numStages = 3;
  std::string precision = "tf32"; ///< dot input precision: tf32, ieee
};

/// One kernel to compile for one specialization.
struct KernelRequest {
  /// The whole file's text: compiled as it is (diagnostics quote its lines);
  /// the key covers only the kernel and what it uses (normalizeKernelSource).
  llvm::StringRef source;
  std::string fileName = "<jit>"; ///< names the source in diagnostics
  std::string kernelName;
  Signature signature; ///< the specialization, one entry per parameter
  KernelOptions options;
};

/// The running compiler's identity in cache keys: `VERSION+HASH`, where
/// HASH is the first 16 hex digits of a SHA-256 over the compiler's sources.
llvm::StringRef compilerIdentity();

/// The cache key of \p request: 64 lowercase hex digits of SHA-256 over a
/// length-prefixed, field-tagged encoding of the compiler identity
/// (\p compilerVersion), the options, the kernel name, the kernel's
/// normalized source and the signature, so no two different requests encode
/// the same way (docs/runtime.md, "The cache key").
std::string
computeCacheKey(const KernelRequest &request,
                llvm::StringRef compilerVersion = compilerIdentity());

} // namespace mgp

#endif // MGP_RUNTIME_CACHEKEY_H
