//===- KernelCacheTest.cpp - memory and disk caching of kernels -----------===//
//
// This file tests KernelCache: hits from memory and from disk, recompilation
// (with a warning naming the file) of corrupt entries, MGP_CACHE=off, an
// unusable cache directory (a warning once, the run goes on), the debug
// report and the configuration from the environment.
//
//===----------------------------------------------------------------------===//
#include "runtime/KernelCache.h"
#include "runtime/CacheEntry.h"

#include "CacheTestSupport.h"
#include "TestErrors.h"

#include "llvm/Support/MemoryBuffer.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <optional>
#include <sys/stat.h>
#include <unistd.h>

using namespace mgp;
using mgp::test::errorText;

namespace {
CacheConfig diskConfig(const std::string &dir, bool debug = false) {
  CacheConfig config;
  config.directory = dir;
  config.debug = debug;
  return config;
}

const char *kKey =
    "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

/// Asks \p cache for kKey and checks the answer is \p compiler's kernel.
CacheSource fetch(KernelCache &cache, test::CountingCompiler &compiler) {
  CacheSource source = CacheSource::Memory;
  auto kernel = cache.getOrCompile(
      kKey, "add_kernel[*fp32:16]", [&] { return compiler(); }, &source);
  EXPECT_TRUE(!!kernel) << errorText(kernel);
  if (kernel) {
    EXPECT_TRUE(**kernel == compiler.kernel);
  }
  return source;
}

std::string readFile(const std::string &path) {
  auto buffer = llvm::MemoryBuffer::getFile(path, false, false);
  return buffer ? (*buffer)->getBuffer().str() : std::string();
}

void writeFile(const std::string &path, const std::string &bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

/// Sets an environment variable for the scope, restoring the old value.
class ScopedEnv {
public:
  ScopedEnv(const char *name, const char *value) : name(name) {
    if (const char *old = std::getenv(name))
      saved = old;
    if (value)
      ::setenv(name, value, 1);
    else
      ::unsetenv(name);
  }
  ~ScopedEnv() {
    if (saved)
      ::setenv(name, saved->c_str(), 1);
    else
      ::unsetenv(name);
  }

private:
  const char *name;
  std::optional<std::string> saved;
};
} // namespace

TEST(KernelCache, MemoryThenDisk) {
  test::TempDir dir;
  test::CountingCompiler compiler{test::makeKernel("add_kernel", 3000)};
  std::string log;
  llvm::raw_string_ostream logStream(log);
  {
    KernelCache cache(diskConfig(dir.str()), logStream);
    EXPECT_EQ(fetch(cache, compiler), CacheSource::Compiled);
    EXPECT_EQ(fetch(cache, compiler), CacheSource::Memory);
    EXPECT_EQ(compiler.calls, 1);
    EXPECT_EQ(cache.stats().compiles, 1u);
    EXPECT_EQ(cache.stats().memoryHits, 1u);
  }
  // A new cache (a new process) finds the entry on disk.
  KernelCache second(diskConfig(dir.str()), logStream);
  EXPECT_EQ(fetch(second, compiler), CacheSource::Disk);
  EXPECT_EQ(compiler.calls, 1);
  EXPECT_EQ(second.stats().diskHits, 1u);
  EXPECT_EQ(log, "");
  // The file is the encoded entry, and no temporary file is left behind.
  EXPECT_EQ(readFile(second.entryPath(kKey)),
            encodeCacheEntry(compiler.kernel));
  std::error_code ec;
  int files = 0;
  for (llvm::sys::fs::directory_iterator it(dir.str(), ec), end;
       it != end && !ec; it.increment(ec))
    ++files;
  EXPECT_EQ(files, 1);
}

TEST(KernelCache, CompileErrorsPassThroughAndAreNotCached) {
  test::TempDir dir;
  KernelCache cache(diskConfig(dir.str()));
  int calls = 0;
  auto failing = [&]() -> llvm::Expected<CompiledKernel> {
    ++calls;
    return llvm::createStringError("k.mgp:3:5: error: unknown name 'x'");
  };
  for (int i = 0; i < 2; ++i) {
    auto kernel = cache.getOrCompile(kKey, "k", failing);
    EXPECT_EQ(errorText(kernel), "k.mgp:3:5: error: unknown name 'x'");
  }
  EXPECT_EQ(calls, 2);
  EXPECT_FALSE(llvm::sys::fs::exists(cache.entryPath(kKey)));
}

/// Damages the entry on disk with \p damage, then checks that a new cache
/// warns (naming the file and \p reason), recompiles and repairs the entry.
static void
checkRecompiled(const std::function<std::string(std::string)> &damage,
                const std::string &reason) {
  test::TempDir dir;
  test::CountingCompiler compiler{test::makeKernel("add_kernel", 3000)};
  std::string path;
  {
    KernelCache cache(diskConfig(dir.str()));
    fetch(cache, compiler);
    path = cache.entryPath(kKey);
  }
  writeFile(path, damage(readFile(path)));

  std::string log;
  llvm::raw_string_ostream logStream(log);
  KernelCache cache(diskConfig(dir.str()), logStream);
  EXPECT_EQ(fetch(cache, compiler), CacheSource::Compiled);
  EXPECT_EQ(compiler.calls, 2);
  EXPECT_EQ(log, "mgp: warning: cache entry '" + path + "' is corrupt (" +
                     reason + "); recompiling\n");
  // The entry was overwritten with a good one.
  KernelCache after(diskConfig(dir.str()));
  EXPECT_EQ(fetch(after, compiler), CacheSource::Disk);
  EXPECT_EQ(compiler.calls, 2);
}

TEST(KernelCache, FlippedByteIsRecompiled) {
  checkRecompiled(
      [](std::string bytes) {
        bytes[bytes.size() - 10] ^= 1;
        return bytes;
      },
      "checksum mismatch");
}

TEST(KernelCache, TruncatedEntryIsRecompiled) {
  size_t payload =
      encodeCacheEntry(test::makeKernel("add_kernel", 3000)).size() -
      kCacheHeaderBytes;
  checkRecompiled([](std::string bytes) { return bytes.substr(0, 1000); },
                  "length mismatch (header says " + std::to_string(payload) +
                      " payload bytes, file has 944)");
}

TEST(KernelCache, WrongMagicIsRecompiled) {
  checkRecompiled(
      [](std::string bytes) {
        bytes.replace(0, 8, "NOTMAGIC");
        return bytes;
      },
      "bad magic (not an mgp cache entry)");
}

TEST(KernelCache, EmptyEntryIsRecompiled) {
  checkRecompiled([](std::string) { return std::string(); }, "empty file");
}

TEST(KernelCache, CacheOffUsesNoDisk) {
  test::TempDir dir;
  ScopedEnv cacheDir("MGP_CACHE_DIR", dir.str().c_str());
  ScopedEnv off("MGP_CACHE", "off");
  CacheConfig config = CacheConfig::fromEnvironment();
  EXPECT_FALSE(config.diskEnabled);
  test::CountingCompiler compiler{test::makeKernel("add_kernel", 300)};
  {
    KernelCache cache(config);
    EXPECT_FALSE(cache.diskUsable());
    EXPECT_EQ(fetch(cache, compiler), CacheSource::Compiled);
    EXPECT_EQ(fetch(cache, compiler), CacheSource::Memory);
  }
  KernelCache again(config);
  EXPECT_EQ(fetch(again, compiler), CacheSource::Compiled);
  EXPECT_EQ(compiler.calls, 2);
  EXPECT_FALSE(llvm::sys::fs::exists(again.entryPath(kKey)));
}

/// Runs two kernels through a cache on \p dir, which cannot be used: both
/// work, and there is exactly one warning, containing \p expected.
static void checkUnusableDirectory(const std::string &dir,
                                   const std::string &expected) {
  std::string log;
  llvm::raw_string_ostream logStream(log);
  KernelCache cache(diskConfig(dir), logStream);
  test::CountingCompiler compiler{test::makeKernel("add_kernel", 300)};
  EXPECT_EQ(fetch(cache, compiler), CacheSource::Compiled);
  auto other = cache.getOrCompile(
      "other-key", "other", [] { return test::makeKernel("other", 200); });
  EXPECT_TRUE(!!other) << errorText(other);
  EXPECT_FALSE(cache.diskUsable());
  EXPECT_NE(log.find(expected), std::string::npos) << log;
  EXPECT_NE(log.find("running without the disk cache"), std::string::npos);
  EXPECT_EQ(std::count(log.begin(), log.end(), '\n'), 1) << log;
}

TEST(KernelCache, DirectoryUnderAFileWarnsOnceAndRuns) {
  checkUnusableDirectory("/dev/null/mgp-cache",
                         "cannot create cache directory '/dev/null/mgp-cache'");
}

TEST(KernelCache, ReadOnlyDirectoryWarnsOnceAndRuns) {
  if (::geteuid() == 0)
    GTEST_SKIP() << "running as root: permissions do not block writes "
                    "(DirectoryUnderAFileWarnsOnceAndRuns covers this case)";
  test::TempDir dir;
  ASSERT_EQ(::chmod(dir.str().c_str(), 0500), 0);
  checkUnusableDirectory(dir.str(), "is not writable");
  ::chmod(dir.str().c_str(), 0700);
}

TEST(KernelCache, DebugReportsEverySource) {
  test::TempDir dir;
  test::CountingCompiler compiler{test::makeKernel("add_kernel", 300)};
  std::string log;
  llvm::raw_string_ostream logStream(log);
  {
    KernelCache cache(diskConfig(dir.str(), /*debug=*/true), logStream);
    fetch(cache, compiler);
    fetch(cache, compiler);
  }
  KernelCache second(diskConfig(dir.str(), /*debug=*/true), logStream);
  fetch(second, compiler);
  llvm::SmallVector<llvm::StringRef> lines;
  llvm::StringRef(log).split(lines, '\n', -1, /*KeepEmpty=*/false);
  ASSERT_EQ(lines.size(), 3u) << log;
  EXPECT_TRUE(lines[0].starts_with("mgp: compiled add_kernel[*fp32:16] in "))
      << lines[0].str();
  EXPECT_TRUE(lines[0].ends_with(" ms (key 0123456789abcdef)"))
      << lines[0].str();
  EXPECT_EQ(lines[1], "mgp: add_kernel[*fp32:16] from the memory cache");
  EXPECT_EQ(lines[2], "mgp: add_kernel[*fp32:16] from the disk cache (" +
                          second.entryPath(kKey) + ")");
}

TEST(KernelCache, ConfigurationFromEnvironment) {
  {
    ScopedEnv dir("MGP_CACHE_DIR", "/tmp/some-mgp-cache");
    ScopedEnv cache("MGP_CACHE", nullptr);
    ScopedEnv debug("MGP_DEBUG", "1");
    CacheConfig config = CacheConfig::fromEnvironment();
    EXPECT_EQ(config.directory, "/tmp/some-mgp-cache");
    EXPECT_TRUE(config.diskEnabled);
    EXPECT_TRUE(config.debug);
  }
  {
    ScopedEnv dir("MGP_CACHE_DIR", nullptr);
    ScopedEnv home("HOME", "/home/someone");
    ScopedEnv cache("MGP_CACHE", "0");
    ScopedEnv debug("MGP_DEBUG", "0");
    CacheConfig config = CacheConfig::fromEnvironment();
    EXPECT_EQ(config.directory, "/home/someone/.cache/mgp");
    EXPECT_FALSE(config.diskEnabled);
    EXPECT_FALSE(config.debug);
  }
  for (const char *value : {"OFF", "false", "no"}) {
    ScopedEnv cache("MGP_CACHE", value);
    EXPECT_FALSE(CacheConfig::fromEnvironment().diskEnabled) << value;
  }
  ScopedEnv cache("MGP_CACHE", "on");
  EXPECT_TRUE(CacheConfig::fromEnvironment().diskEnabled);
}
