//===- KernelCacheConcurrencyTest.cpp - many writers, one entry -----------===//
//
// This file tests that processes (fork) and threads that compile and read the
// same kernel at the same time never see a half-written entry: every answer
// is the whole kernel, no corruption warning is ever printed, and no
// temporary file is left behind. Each round uses a fresh KernelCache so that
// every request goes to the disk, and the entry is large (4 MB) so that a
// non-atomic write would be caught in the middle.
//
//===----------------------------------------------------------------------===//
#include "runtime/KernelCache.h"

#include "CacheTestSupport.h"
#include "TestErrors.h"

#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace mgp;

namespace {
const char *kSharedKey =
    "feedfacefeedfacefeedfacefeedfacefeedfacefeedfacefeedfacefeedface";
constexpr int kRounds = 12;
constexpr size_t kPtxBytes = 4 << 20;

/// Runs kRounds requests for the shared key against \p dir; returns the
/// number of wrong answers and warnings. Some rounds delete the entry first,
/// so that writes keep happening while other workers read.
int hammer(const std::string &dir, const CompiledKernel &expected,
           unsigned worker) {
  int failures = 0;
  for (int round = 0; round < kRounds; ++round) {
    std::string log;
    llvm::raw_string_ostream logStream(log);
    CacheConfig config;
    config.directory = dir;
    KernelCache cache(config, logStream);
    if ((round + worker) % 3 == 0)
      llvm::sys::fs::remove(cache.entryPath(kSharedKey));
    auto kernel =
        cache.getOrCompile(kSharedKey, "shared", [&] { return expected; });
    if (!kernel) {
      llvm::consumeError(kernel.takeError());
      ++failures;
    } else if (!(**kernel == expected)) {
      ++failures;
    }
    if (!log.empty())
      ++failures;
  }
  return failures;
}

int countTemporaries(const std::string &dir) {
  int temporaries = 0;
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator it(dir, ec), end; it != end && !ec;
       it.increment(ec))
    if (llvm::StringRef(it->path()).contains(".tmp."))
      ++temporaries;
  return temporaries;
}
} // namespace

TEST(KernelCacheConcurrency, ForkedProcessesShareOneEntry) {
  test::TempDir dir;
  CompiledKernel expected = test::makeKernel("shared", kPtxBytes, 5);
  constexpr int kProcesses = 6;
  std::vector<pid_t> children;
  for (unsigned i = 0; i < kProcesses; ++i) {
    pid_t pid = ::fork();
    ASSERT_GE(pid, 0) << "fork failed";
    if (pid == 0)
      ::_exit(hammer(dir.str(), expected, i) == 0 ? 0 : 1);
    children.push_back(pid);
  }
  for (pid_t pid : children) {
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
        << "a process saw a wrong or damaged entry (status " << status << ")";
  }
  EXPECT_EQ(countTemporaries(dir.str()), 0);
}

TEST(KernelCacheConcurrency, ThreadsShareOneEntry) {
  test::TempDir dir;
  CompiledKernel expected = test::makeKernel("shared", kPtxBytes, 7);
  constexpr int kThreads = 6;
  std::vector<int> failures(kThreads, 0);
  std::vector<std::thread> threads;
  for (unsigned i = 0; i < kThreads; ++i)
    threads.emplace_back(
        [&, i] { failures[i] = hammer(dir.str(), expected, i); });
  for (std::thread &thread : threads)
    thread.join();
  for (int i = 0; i < kThreads; ++i)
    EXPECT_EQ(failures[i], 0) << "thread " << i;
  EXPECT_EQ(countTemporaries(dir.str()), 0);
}

TEST(KernelCacheConcurrency, OneCacheManyThreads) {
  // Threads sharing one KernelCache get the one kernel for each key.
  test::TempDir dir;
  CacheConfig config;
  config.directory = dir.str();
  KernelCache cache(config);
  std::vector<std::thread> threads;
  std::atomic<int> wrong{0};
  for (unsigned i = 0; i < 8; ++i)
    threads.emplace_back([&, i] {
      for (unsigned k = 0; k < 20; ++k) {
        std::string key = "key" + std::to_string((k + i) % 5);
        CompiledKernel expected = test::makeKernel(key, 2000);
        auto kernel = cache.getOrCompile(key, key, [&] { return expected; });
        if (!kernel) {
          llvm::consumeError(kernel.takeError());
          ++wrong;
        } else if (!(**kernel == expected)) {
          ++wrong;
        }
      }
    });
  for (std::thread &thread : threads)
    thread.join();
  EXPECT_EQ(wrong, 0);
  KernelCache::Stats stats = cache.stats();
  EXPECT_EQ(stats.memoryHits + stats.diskHits + stats.compiles, 160u);
  EXPECT_GE(stats.compiles, 5u);
}
