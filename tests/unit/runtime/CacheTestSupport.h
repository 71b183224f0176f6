//===- CacheTestSupport.h - temporary cache directories for tests -*- C++ -*-=//
//
// This file implements what the cache tests share: a temporary directory that
// removes itself, a deterministic CompiledKernel of a chosen size, and a
// compile function that counts its calls.
//
//===----------------------------------------------------------------------===//
#ifndef MGP_TESTS_UNIT_RUNTIME_CACHETESTSUPPORT_H
#define MGP_TESTS_UNIT_RUNTIME_CACHETESTSUPPORT_H

#include "runtime/CompiledKernel.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "gtest/gtest.h"

#include <atomic>
#include <string>

namespace mgp::test {

/// A fresh directory under the system temporary directory, removed (with its
/// contents) at the end of the scope.
class TempDir {
public:
  TempDir() {
    std::error_code ec =
        llvm::sys::fs::createUniqueDirectory("mgp-runtime-test", path);
    EXPECT_FALSE(ec) << ec.message();
  }
  ~TempDir() { llvm::sys::fs::remove_directories(path); }
  std::string str() const { return path.str().str(); }

private:
  llvm::SmallString<128> path;
};

/// A kernel whose PTX is \p ptxBytes of text that depends on \p seed.
inline CompiledKernel makeKernel(const std::string &name, size_t ptxBytes,
                                 unsigned seed = 1) {
  CompiledKernel kernel;
  kernel.name = name;
  kernel.ptx = "// " + name + "\n.version 8.0\n.target sm_80\n";
  while (kernel.ptx.size() < ptxBytes)
    kernel.ptx += "// line " + std::to_string(kernel.ptx.size() * seed) + "\n";
  kernel.ptx.resize(ptxBytes);
  kernel.sharedBytes = 1024 * seed;
  kernel.numWarps = 8;
  kernel.numStages = 2;
  kernel.arch = "sm_80";
  return kernel;
}

/// A compile function returning \p kernel and counting its calls.
struct CountingCompiler {
  CompiledKernel kernel;
  std::atomic<int> calls{0};
  llvm::Expected<CompiledKernel> operator()() {
    ++calls;
    return kernel;
  }
};

} // namespace mgp::test

#endif // MGP_TESTS_UNIT_RUNTIME_CACHETESTSUPPORT_H
