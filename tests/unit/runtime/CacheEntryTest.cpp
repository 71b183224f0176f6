//===- CacheEntryTest.cpp - the cache file format -------------------------===//
//
// This file tests that a cache entry round-trips and that every kind of
// damage (empty, short header, wrong magic or version, truncated or extended
// payload, a flipped byte anywhere in the payload) is detected and named.
//
//===----------------------------------------------------------------------===//
#include "runtime/CacheEntry.h"

#include "CacheTestSupport.h"
#include "TestErrors.h"

using namespace mgp;
using mgp::test::errorText;

static std::string decodeError(const std::string &bytes) {
  llvm::Expected<CompiledKernel> kernel = decodeCacheEntry(bytes);
  EXPECT_FALSE(!!kernel) << "damaged entry was accepted";
  return errorText(kernel);
}

TEST(CacheEntry, RoundTrip) {
  CompiledKernel kernel = test::makeKernel("add_kernel", 5000, 3);
  std::string bytes = encodeCacheEntry(kernel);
  EXPECT_EQ(bytes.compare(0, 8, "MGPKCACH"), 0);
  llvm::Expected<CompiledKernel> back = decodeCacheEntry(bytes);
  ASSERT_TRUE(!!back) << errorText(back);
  EXPECT_TRUE(*back == kernel);
}

TEST(CacheEntry, MetadataIsJSON) {
  CompiledKernel kernel = test::makeKernel("k", 100);
  std::string bytes = encodeCacheEntry(kernel);
  llvm::StringRef payload =
      llvm::StringRef(bytes).drop_front(kCacheHeaderBytes);
  EXPECT_TRUE(payload.starts_with("{")) << payload.take_front(80).str();
  EXPECT_NE(payload.find("\"name\":\"k\""), llvm::StringRef::npos);
  EXPECT_NE(payload.find("\"shared_bytes\":1024"), llvm::StringRef::npos);
  EXPECT_NE(payload.find("\"num_warps\":8"), llvm::StringRef::npos);
}

TEST(CacheEntry, DamageIsDetected) {
  std::string good = encodeCacheEntry(test::makeKernel("add_kernel", 4000));
  EXPECT_EQ(decodeError(""), "empty file");
  EXPECT_EQ(decodeError(good.substr(0, 20)),
            "truncated header (20 of 56 bytes)");

  std::string badMagic = good;
  badMagic[0] = 'X';
  EXPECT_EQ(decodeError(badMagic), "bad magic (not an mgp cache entry)");

  std::string badVersion = good;
  badVersion[8] = 7;
  EXPECT_EQ(decodeError(badVersion), "format version 7, expected 1");

  std::string truncated = good.substr(0, good.size() - 100);
  EXPECT_NE(decodeError(truncated).find("length mismatch"), std::string::npos);
  EXPECT_NE(decodeError(good + "x").find("length mismatch"), std::string::npos);

  // A flipped byte in the metadata, in the middle and at the end of the PTX.
  for (size_t offset :
       {kCacheHeaderBytes + 3, good.size() / 2, good.size() - 1}) {
    std::string flipped = good;
    flipped[offset] ^= 0x20;
    EXPECT_EQ(decodeError(flipped), "checksum mismatch") << "offset " << offset;
  }
}
