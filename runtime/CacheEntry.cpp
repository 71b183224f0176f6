//===- CacheEntry.cpp - the on-disk form of a compiled kernel -------------===//
//
// This file implements encoding and decoding of cache entries. Integers are
// little-endian; the metadata is a JSON object written with llvm::json.
//
//===----------------------------------------------------------------------===//
#include "runtime/CacheEntry.h"

#include "llvm/Support/Endian.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/SHA256.h"

#include <cstring>

using namespace mgp;

static llvm::Error corrupt(const llvm::Twine &why) {
  return llvm::createStringError(why);
}

std::string mgp::encodeCacheEntry(const CompiledKernel &kernel) {
  llvm::json::Object metadata{{"name", kernel.name},
                              {"shared_bytes", kernel.sharedBytes},
                              {"num_warps", kernel.numWarps},
                              {"num_stages", kernel.numStages},
                              {"arch", kernel.arch}};
  std::string json =
      llvm::formatv("{0}", llvm::json::Value(std::move(metadata)));
  std::string payload = json + kernel.ptx;
  std::array<uint8_t, 32> digest = llvm::SHA256::hash(llvm::ArrayRef<uint8_t>(
      reinterpret_cast<const uint8_t *>(payload.data()), payload.size()));

  std::string bytes(kCacheHeaderBytes, '\0');
  char *header = bytes.data();
  std::memcpy(header, kCacheMagic, 8);
  llvm::support::endian::write32le(header + 8, kCacheFormatVersion);
  llvm::support::endian::write32le(header + 12,
                                   static_cast<uint32_t>(json.size()));
  llvm::support::endian::write64le(header + 16, payload.size());
  std::memcpy(header + 24, digest.data(), digest.size());
  return bytes + payload;
}

llvm::Expected<CompiledKernel> mgp::decodeCacheEntry(llvm::StringRef bytes) {
  if (bytes.empty())
    return corrupt("empty file");
  if (bytes.size() < kCacheHeaderBytes)
    return corrupt(llvm::formatv("truncated header ({0} of {1} bytes)",
                                 bytes.size(), kCacheHeaderBytes));
  const char *header = bytes.data();
  if (std::memcmp(header, kCacheMagic, 8) != 0)
    return corrupt("bad magic (not an mgp cache entry)");
  uint32_t version = llvm::support::endian::read32le(header + 8);
  if (version != kCacheFormatVersion)
    return corrupt(llvm::formatv("format version {0}, expected {1}", version,
                                 kCacheFormatVersion));
  uint32_t jsonBytes = llvm::support::endian::read32le(header + 12);
  uint64_t payloadBytes = llvm::support::endian::read64le(header + 16);
  llvm::StringRef payload = bytes.drop_front(kCacheHeaderBytes);
  if (payload.size() != payloadBytes)
    return corrupt(llvm::formatv(
        "length mismatch (header says {0} payload bytes, file has {1})",
        payloadBytes, payload.size()));
  if (jsonBytes > payloadBytes)
    return corrupt("metadata length exceeds the payload");
  std::array<uint8_t, 32> digest = llvm::SHA256::hash(llvm::ArrayRef<uint8_t>(
      reinterpret_cast<const uint8_t *>(payload.data()), payload.size()));
  if (std::memcmp(header + 24, digest.data(), digest.size()) != 0)
    return corrupt("checksum mismatch");

  llvm::Expected<llvm::json::Value> metadata =
      llvm::json::parse(payload.take_front(jsonBytes));
  if (!metadata)
    return corrupt("bad metadata: " + llvm::toString(metadata.takeError()));
  const llvm::json::Object *object = metadata->getAsObject();
  if (!object)
    return corrupt("bad metadata: not a JSON object");
  std::optional<llvm::StringRef> name = object->getString("name");
  std::optional<int64_t> shared = object->getInteger("shared_bytes");
  std::optional<int64_t> warps = object->getInteger("num_warps");
  std::optional<int64_t> stages = object->getInteger("num_stages");
  std::optional<llvm::StringRef> arch = object->getString("arch");
  if (!name || !shared || !warps || !stages || !arch || *shared < 0)
    return corrupt("bad metadata: missing or invalid field");

  CompiledKernel kernel;
  kernel.name = name->str();
  kernel.ptx = payload.drop_front(jsonBytes).str();
  kernel.sharedBytes = static_cast<unsigned>(*shared);
  kernel.numWarps = static_cast<int>(*warps);
  kernel.numStages = static_cast<int>(*stages);
  kernel.arch = arch->str();
  return kernel;
}
