//===- KernelCache.cpp - compiled kernels in memory and on disk -----------===//
//
// This file implements KernelCache. The mutex guards only the in-memory map,
// the counters, the disk state and the log: compiling and file I/O run
// outside it, so threads compile different kernels in parallel. Two threads
// (or processes) that miss on the same key both compile it and both write
// it; each write is atomic, so every reader sees one whole entry.
//
//===----------------------------------------------------------------------===//
#include "runtime/KernelCache.h"

#include "compiler/api/Environment.h"

#include "runtime/CacheEntry.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <random>
#include <unistd.h>

using namespace mgp;

CacheConfig CacheConfig::fromEnvironment() {
  CacheConfig config;
  config.directory = getCacheDirectory();
  config.diskEnabled = !isEnvOff(EnvVar::Cache);
  config.debug = isEnvOn(EnvVar::Debug);
  return config;
}

KernelCache::KernelCache(CacheConfig config, llvm::raw_ostream &log)
    : config(std::move(config)), log(log) {
  if (!this->config.diskEnabled)
    diskDisabled = true;
}

KernelCache &KernelCache::global() {
  static KernelCache cache(CacheConfig::fromEnvironment());
  return cache;
}

std::string KernelCache::entryPath(llvm::StringRef key) const {
  llvm::SmallString<256> path(config.directory);
  llvm::sys::path::append(path, key + ".mgpk");
  return path.str().str();
}

void KernelCache::report(const llvm::Twine &message) {
  log << "mgp: " << message << "\n";
  log.flush();
}

void KernelCache::disableDisk(const llvm::Twine &why) {
  std::lock_guard<std::mutex> lock(mutex);
  if (diskDisabled)
    return;
  diskDisabled = true;
  report("warning: " + why + "; running without the disk cache");
}

bool KernelCache::diskUsable() {
  std::string problem;
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (diskDisabled)
      return false;
    if (directoryChecked)
      return true;
    directoryChecked = true;
    if (config.directory.empty()) {
      problem = "no cache directory (set MGP_CACHE_DIR or HOME)";
    } else if (std::error_code ec =
                   llvm::sys::fs::create_directories(config.directory)) {
      problem = llvm::formatv("cannot create cache directory '{0}': {1}",
                              config.directory, ec.message());
    } else if (std::error_code ec = llvm::sys::fs::access(
                   config.directory, llvm::sys::fs::AccessMode::Write)) {
      problem = llvm::formatv("cache directory '{0}' is not writable: {1}",
                              config.directory, ec.message());
    }
    if (problem.empty())
      return true;
  }
  disableDisk(problem);
  return false;
}

KernelCache::Stats KernelCache::stats() const {
  std::lock_guard<std::mutex> lock(mutex);
  return counters;
}

std::shared_ptr<const CompiledKernel>
KernelCache::readEntry(llvm::StringRef key) {
  std::string path = entryPath(key);
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false);
  if (!file) {
    if (file.getError() != std::errc::no_such_file_or_directory) {
      std::lock_guard<std::mutex> lock(mutex);
      report(llvm::formatv("warning: cannot read cache entry '{0}': {1}; "
                           "recompiling",
                           path, file.getError().message()));
    }
    return nullptr;
  }
  llvm::Expected<CompiledKernel> kernel =
      decodeCacheEntry((*file)->getBuffer());
  if (!kernel) {
    std::string why = llvm::toString(kernel.takeError());
    std::lock_guard<std::mutex> lock(mutex);
    report(llvm::formatv("warning: cache entry '{0}' is corrupt ({1}); "
                         "recompiling",
                         path, why));
    return nullptr;
  }
  return std::make_shared<const CompiledKernel>(std::move(*kernel));
}

/// Writes all of \p data to \p fd, retrying short writes and EINTR.
static std::error_code writeAll(int fd, llvm::StringRef data) {
  while (!data.empty()) {
    ssize_t written = ::write(fd, data.data(), data.size());
    if (written < 0) {
      if (errno == EINTR)
        continue;
      return std::error_code(errno, std::generic_category());
    }
    data = data.drop_front(static_cast<size_t>(written));
  }
  return {};
}

void KernelCache::writeEntry(llvm::StringRef key,
                             const CompiledKernel &kernel) {
  std::string path = entryPath(key);
  // Unique per process and per call: the pid separates processes, the random
  // part separates threads and pid reuse.
  static thread_local std::mt19937_64 random{std::random_device{}()};
  std::string temp =
      llvm::formatv("{0}.tmp.{1}.{2:x16}", path, ::getpid(), random()).str();
  std::string bytes = encodeCacheEntry(kernel);
  std::error_code ec;
  int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) {
    ec = std::error_code(errno, std::generic_category());
  } else {
    ec = writeAll(fd, bytes);
    if (!ec && ::fsync(fd) != 0)
      ec = std::error_code(errno, std::generic_category());
    if (::close(fd) != 0 && !ec)
      ec = std::error_code(errno, std::generic_category());
    if (!ec && ::rename(temp.c_str(), path.c_str()) != 0)
      ec = std::error_code(errno, std::generic_category());
    if (ec)
      ::unlink(temp.c_str());
  }
  if (ec)
    disableDisk(llvm::formatv("cannot write cache entry '{0}': {1}", path,
                              ec.message()));
}

llvm::Expected<std::shared_ptr<const CompiledKernel>> KernelCache::getOrCompile(
    llvm::StringRef key, llvm::StringRef description,
    llvm::function_ref<llvm::Expected<CompiledKernel>()> compile,
    CacheSource *source, CacheScope scope) {
  {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = memory.find(key);
    if (it != memory.end()) {
      ++counters.memoryHits;
      if (config.debug)
        report(description + " from the memory cache");
      if (source)
        *source = CacheSource::Memory;
      return it->second;
    }
  }

  bool disk = scope == CacheScope::MemoryAndDisk && diskUsable();
  if (disk) {
    if (std::shared_ptr<const CompiledKernel> kernel = readEntry(key)) {
      std::lock_guard<std::mutex> lock(mutex);
      ++counters.diskHits;
      if (config.debug)
        report(description + " from the disk cache (" + entryPath(key) + ")");
      if (source)
        *source = CacheSource::Disk;
      return memory.try_emplace(key, std::move(kernel)).first->second;
    }
  }

  auto start = std::chrono::steady_clock::now();
  llvm::Expected<CompiledKernel> compiled = compile();
  if (!compiled)
    return compiled.takeError();
  double ms = std::chrono::duration<double, std::milli>(
                  std::chrono::steady_clock::now() - start)
                  .count();
  auto kernel = std::make_shared<const CompiledKernel>(std::move(*compiled));
  if (disk)
    writeEntry(key, *kernel);

  std::lock_guard<std::mutex> lock(mutex);
  ++counters.compiles;
  if (config.debug)
    report(llvm::formatv("compiled {0} in {1:f1} ms (key {2})", description, ms,
                         key.take_front(16)));
  if (source)
    *source = CacheSource::Compiled;
  return memory.try_emplace(key, std::move(kernel)).first->second;
}
