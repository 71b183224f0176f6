//===- CacheKeyTest.cpp - every component of the cache key matters --------===//
//
// This file tests that the cache key is stable (same request, same key), that
// changing any single component (compiler version, each pipeline option, the
// kernel's source or a helper it calls, the kernel name, each part of the
// specialization) changes it, and that edits the kernel does not see (other
// functions, comments between them, line endings) keep it.
//
//===----------------------------------------------------------------------===//
#include "runtime/CacheKey.h"

#include "compiler/api/Version.h"

#include "gtest/gtest.h"

#include <functional>
#include <set>

using namespace mgp;

namespace {
const char *kSource = "def helper(x):\n    return x\n\n"
                      "@jit\ndef add(x, y, n, BLOCK: constexpr):\n"
                      "    helper(x)\n\n"
                      "@jit\ndef other(x):\n    pass\n";

KernelRequest baseRequest() {
  KernelRequest request;
  request.source = kSource;
  request.kernelName = "add";
  auto signature = parseSignature("*fp32:16,*fp32:16,i32:1,1024");
  EXPECT_TRUE(bool(signature));
  request.signature = std::move(*signature);
  return request;
}

std::string keyAfter(const std::function<void(KernelRequest &)> &change,
                     llvm::StringRef version = compilerIdentity()) {
  KernelRequest request = baseRequest();
  change(request);
  return computeCacheKey(request, version);
}
} // namespace

TEST(CacheKey, SameInputSameKey) {
  std::string first = computeCacheKey(baseRequest());
  EXPECT_EQ(first.size(), 64u);
  EXPECT_EQ(first.find_first_not_of("0123456789abcdef"), std::string::npos);
  EXPECT_EQ(computeCacheKey(baseRequest()), first);
  // Equal contents in different objects give the same key.
  std::string sourceCopy = kSource;
  KernelRequest copy = baseRequest();
  copy.source = sourceCopy;
  EXPECT_EQ(computeCacheKey(copy), first);
  // The file name only names the source in diagnostics.
  copy.fileName = "add.mgp";
  EXPECT_EQ(computeCacheKey(copy), first);
}

TEST(CacheKey, UsesTheRunningCompilerIdentity) {
  // VERSION+HASH: the hash of the compiler's sources, so a rebuilt compiler
  // of the same version never trusts another build's PTX.
  llvm::StringRef identity = compilerIdentity();
  std::string prefix = std::string(kVersion) + "+";
  ASSERT_TRUE(identity.starts_with(prefix)) << identity.str();
  llvm::StringRef hash = identity.drop_front(prefix.size());
  EXPECT_EQ(hash.size(), 16u);
  EXPECT_EQ(hash.find_first_not_of("0123456789abcdef"), llvm::StringRef::npos);
  EXPECT_NE(keyAfter([](KernelRequest &) {}, "0.0.0-other"),
            computeCacheKey(baseRequest()));
}

TEST(CacheKey, EveryComponentChangesTheKey) {
  std::string base = computeCacheKey(baseRequest());
  std::string otherKernel = "def helper(x):\n    return x\n\n"
                            "@jit\ndef add(x, y, n, BLOCK: constexpr):\n"
                            "    helper(y)\n\n"
                            "@jit\ndef other(x):\n    pass\n";
  std::string otherHelper = "def helper(x):\n    return x + 1\n\n"
                            "@jit\ndef add(x, y, n, BLOCK: constexpr):\n"
                            "    helper(x)\n\n"
                            "@jit\ndef other(x):\n    pass\n";
  auto signature = [](const char *text) {
    return [text](KernelRequest &in) {
      in.signature = std::move(*parseSignature(text));
    };
  };
  std::vector<std::pair<const char *, std::function<void(KernelRequest &)>>>
      changes = {
          {"arch",
           [](KernelRequest &in) { in.target = *Target::parse("sm_80"); }},
          {"wgmma",
           [](KernelRequest &in) { in.target = *Target::parse("sm_90a"); }},
          {"interpreter", [](KernelRequest &in) { in.target = Target::cpu(); }},
          {"num_warps", [](KernelRequest &in) { in.options.numWarps = 8; }},
          {"num_stages", [](KernelRequest &in) { in.options.numStages = 2; }},
          {"maxnreg", [](KernelRequest &in) { in.options.maxNumRegs = 128; }},
          {"precision",
           [](KernelRequest &in) {
             in.options.precision = DotPrecision::IEEE;
           }},
          {"kernel text", [&](KernelRequest &in) { in.source = otherKernel; }},
          {"helper text", [&](KernelRequest &in) { in.source = otherHelper; }},
          {"kernel name", [](KernelRequest &in) { in.kernelName = "other"; }},
          {"arg dtype", signature("*fp32:16,*fp16:16,i32:1,1024")},
          {"int width", signature("*fp32:16,*fp32:16,i64:1,1024")},
          {"constexpr value", signature("*fp32:16,*fp32:16,i32:1,512")},
          {"constexpr float", signature("*fp32:16,*fp32:16,i32:1,1024.0")},
          {"constexpr string", signature("*fp32:16,*fp32:16,i32:1,'gelu'")},
          {"another string", signature("*fp32:16,*fp32:16,i32:1,'relu'")},
          {"empty string", signature("*fp32:16,*fp32:16,i32:1,''")},
          {"constexpr None", signature("*fp32:16,*fp32:16,i32:1,None")},
          {"constexpr zero", signature("*fp32:16,*fp32:16,i32:1,0")},
          {"divisible by 16", signature("*fp32:16,*fp32,i32:1,1024")},
          {"divisible by 16 moved", signature("*fp32,*fp32:16,i32:1,1024")},
          {"equal to one", signature("*fp32:16,*fp32:16,i32,1024")},
          {"one to 16", signature("*fp32:16,*fp32:16,i32:16,1024")},
      };
  std::set<std::string> seen = {base};
  for (auto &[what, change] : changes) {
    std::string key = keyAfter(change);
    EXPECT_NE(key, base) << what << " does not change the key";
    EXPECT_TRUE(seen.insert(key).second) << what << " collides";
  }
}

TEST(CacheKey, EditsTheKernelDoesNotSeeKeepTheKey) {
  std::string base = computeCacheKey(baseRequest());
  // `other` is edited; `add` does not call it.
  std::string otherEdited = std::string(kSource) + "    x = 1\n";
  std::string crlf;
  for (char c : llvm::StringRef(kSource)) {
    if (c == '\n')
      crlf += '\r';
    crlf += c;
  }
  EXPECT_EQ(keyAfter([&](KernelRequest &in) { in.source = otherEdited; }),
            base);
  EXPECT_EQ(keyAfter([&](KernelRequest &in) { in.source = crlf; }), base);
}

TEST(CacheKey, FieldBoundariesAreUnambiguous) {
  // Text moved from the kernel name into the source must change the key.
  KernelRequest a = baseRequest(), b = baseRequest();
  std::string sourceA = "@jit\ndef ab():\n    c\n",
              sourceB = "@jit\ndef a():\n    bc\n";
  a.kernelName = "ab";
  a.source = sourceA;
  b.kernelName = "a";
  b.source = sourceB;
  EXPECT_NE(computeCacheKey(a), computeCacheKey(b));
}
