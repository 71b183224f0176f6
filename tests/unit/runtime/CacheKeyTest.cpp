//===- CacheKeyTest.cpp - every component of the cache key matters --------===//
//
// This file tests that the cache key is stable (same input, same key) and
// that changing any single component (compiler version, each pipeline
// option, the source, the kernel name, each part of the specialization)
// changes it.
//
//===----------------------------------------------------------------------===//
#include "runtime/CacheKey.h"

#include "compiler/pipeline/Version.h"

#include "gtest/gtest.h"

#include <functional>
#include <set>

using namespace mgp;

namespace {
Specialization baseSpecialization() {
  Specialization spec;
  spec.argTypes = {"*fp32", "*fp32", "i32", "constexpr"};
  ConstexprValue block;
  block.index = 3;
  block.name = "BLOCK";
  block.intValue = 1024;
  spec.constexprs = {block};
  spec.divisibleBy16 = {0, 1};
  spec.equalToOne = {2};
  return spec;
}

const char *kSource = "@jit\ndef add(x, y, n, BLOCK: constexpr):\n  pass\n";

CacheKeyInput baseInput() {
  return makeCacheKeyInput(kSource, "add", KernelOptions(),
                           baseSpecialization());
}

std::string keyAfter(const std::function<void(CacheKeyInput &)> &change) {
  CacheKeyInput input = baseInput();
  change(input);
  return computeCacheKey(input);
}
} // namespace

TEST(CacheKey, SameInputSameKey) {
  std::string first = computeCacheKey(baseInput());
  EXPECT_EQ(first.size(), 64u);
  EXPECT_EQ(first.find_first_not_of("0123456789abcdef"), std::string::npos);
  EXPECT_EQ(computeCacheKey(baseInput()), first);
  // Equal contents in different objects give the same key.
  std::string sourceCopy = kSource;
  CacheKeyInput copy = baseInput();
  copy.source = sourceCopy;
  EXPECT_EQ(computeCacheKey(copy), first);
}

TEST(CacheKey, UsesTheRunningCompilerIdentity) {
  // VERSION+HASH: the hash of the compiler's sources, so a rebuilt compiler
  // of the same version never trusts another build's PTX.
  llvm::StringRef identity = baseInput().compilerVersion;
  EXPECT_EQ(identity, compilerIdentity());
  std::string prefix = std::string(kVersion) + "+";
  ASSERT_TRUE(identity.starts_with(prefix)) << identity.str();
  llvm::StringRef hash = identity.drop_front(prefix.size());
  EXPECT_EQ(hash.size(), 16u);
  EXPECT_EQ(hash.find_first_not_of("0123456789abcdef"), llvm::StringRef::npos);
}

TEST(CacheKey, EveryComponentChangesTheKey) {
  std::string base = computeCacheKey(baseInput());
  std::string otherSource = std::string(kSource) + "# helper changed\n";
  std::vector<std::pair<const char *, std::function<void(CacheKeyInput &)>>>
      changes = {
          {"compiler version",
           [](CacheKeyInput &in) { in.compilerVersion = "0.0.0-other"; }},
          {"arch", [](CacheKeyInput &in) { in.options.arch = "sm_80"; }},
          {"num_warps", [](CacheKeyInput &in) { in.options.numWarps = 8; }},
          {"num_stages", [](CacheKeyInput &in) { in.options.numStages = 2; }},
          {"precision",
           [](CacheKeyInput &in) { in.options.precision = "ieee"; }},
          {"source", [&](CacheKeyInput &in) { in.source = otherSource; }},
          {"kernel name", [](CacheKeyInput &in) { in.kernelName = "add2"; }},
          {"arg dtype",
           [](CacheKeyInput &in) { in.specialization.argTypes[1] = "*fp16"; }},
          {"int width",
           [](CacheKeyInput &in) { in.specialization.argTypes[2] = "i64"; }},
          {"constexpr value",
           [](CacheKeyInput &in) {
             in.specialization.constexprs[0].intValue = 512;
           }},
          {"constexpr float",
           [](CacheKeyInput &in) {
             in.specialization.constexprs[0].isFloat = true;
             in.specialization.constexprs[0].floatValue = 1024.0;
             in.specialization.constexprs[0].intValue = 0;
           }},
          {"constexpr name",
           [](CacheKeyInput &in) {
             in.specialization.constexprs[0].name = "BLOCK_N";
           }},
          {"divisible by 16",
           [](CacheKeyInput &in) { in.specialization.divisibleBy16 = {0}; }},
          {"divisible by 16 moved",
           [](CacheKeyInput &in) {
             in.specialization.divisibleBy16 = {0, 2};
           }},
          {"equal to one",
           [](CacheKeyInput &in) { in.specialization.equalToOne = {}; }},
      };
  std::set<std::string> seen = {base};
  for (auto &[what, change] : changes) {
    std::string key = keyAfter(change);
    EXPECT_NE(key, base) << what << " does not change the key";
    EXPECT_TRUE(seen.insert(key).second) << what << " collides";
  }
}

TEST(CacheKey, FieldBoundariesAreUnambiguous) {
  // Text moved from the kernel name into the source must change the key.
  CacheKeyInput a = baseInput(), b = baseInput();
  a.kernelName = "ab";
  a.source = "c";
  b.kernelName = "a";
  b.source = "bc";
  EXPECT_NE(computeCacheKey(a), computeCacheKey(b));
  // An index moved from one list to the other must change it too.
  CacheKeyInput c = baseInput(), d = baseInput();
  c.specialization.divisibleBy16 = {0, 1, 2};
  c.specialization.equalToOne = {};
  d.specialization.divisibleBy16 = {0, 1};
  d.specialization.equalToOne = {2};
  EXPECT_NE(computeCacheKey(c), computeCacheKey(d));
}
