//===- CacheKey.h - the identity of a compiled kernel -----------*- C++ -*-===//
//
// This file implements the cache key of a KernelRequest
// (compiler/api/KernelRequest.h): a SHA-256 over everything that can change
// what the compiler produces. Two requests with the same key must give the
// same kernel; anything that could make them differ belongs in the key.
// runtime/jit/KernelCompiler.h answers requests (cache, then compiler).
//
//===----------------------------------------------------------------------===//
#ifndef MGP_RUNTIME_CACHEKEY_H
#define MGP_RUNTIME_CACHEKEY_H

#include "compiler/api/KernelRequest.h"

#include "llvm/ADT/StringRef.h"

#include <string>

namespace mgp {

/// The running compiler's identity in cache keys: `VERSION+HASH`, where
/// HASH is the first 16 hex digits of a SHA-256 over the compiler's sources.
llvm::StringRef compilerIdentity();

/// The cache key of \p request: 64 lowercase hex digits of SHA-256 over a
/// length-prefixed, field-tagged encoding of the compiler identity
/// (\p compilerVersion), the options, the target, the kernel name, the
/// kernel's normalized source and the signature (constexpr numbers,
/// strings and None included), so no two different requests encode the same
/// way (docs/runtime.md, "The cache key").
std::string
computeCacheKey(const KernelRequest &request,
                llvm::StringRef compilerVersion = compilerIdentity());

} // namespace mgp

#endif // MGP_RUNTIME_CACHEKEY_H
