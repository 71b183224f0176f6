//===- CacheEntry.h - the on-disk form of a compiled kernel -----*- C++ -*-===//
//
// This file implements the encoding of a CompiledKernel as one cache file: a
// fixed header (magic, format version, lengths, SHA-256 of the payload), then
// the payload: JSON metadata followed by the PTX. Decoding trusts nothing: a
// wrong magic or version, a length that disagrees with the file or a checksum
// mismatch is an error saying which.
//
//===----------------------------------------------------------------------===//
#ifndef MGP_RUNTIME_CACHEENTRY_H
#define MGP_RUNTIME_CACHEENTRY_H

#include "runtime/CompiledKernel.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>

namespace mgp {

/// The first 8 bytes of every entry.
inline constexpr char kCacheMagic[8] = {'M', 'G', 'P', 'K', 'C', 'A', 'C', 'H'};
/// Bumped whenever the layout below changes; older entries are recompiled.
inline constexpr uint32_t kCacheFormatVersion = 1;
/// magic(8) version(4) metadataBytes(4) payloadBytes(8) sha256(32).
inline constexpr size_t kCacheHeaderBytes = 56;

/// The bytes of a cache file holding \p kernel.
std::string encodeCacheEntry(const CompiledKernel &kernel);

/// Reads back a cache file's bytes; an error says what is wrong with them.
llvm::Expected<CompiledKernel> decodeCacheEntry(llvm::StringRef bytes);

} // namespace mgp

#endif // MGP_RUNTIME_CACHEENTRY_H
