//===- FakeCudaDriver.cpp - a host-only stand-in for libcuda --------------===//
//
// This file implements the functions of the fake driver that the host-side
// tests need (tests/unit/support/FakeCudaDriver.h): initialization, error
// names, device memory as host memory, pinned blocks that are remembered
// (and can be made to fail), stream tokens and the logged copies.
//
//===----------------------------------------------------------------------===//
#include "tests/unit/support/FakeCudaDriver.h"

#include <cuda.h>

#include <cstdlib>
#include <cstring>
#include <iterator>
#include <map>
#include <mutex>
#include <vector>

namespace {
std::mutex mutex;
std::map<uintptr_t, size_t> pinnedBlocks; ///< start -> bytes
std::vector<MgpFakeCudaCopy> copies;
long hostAllocsLeft = -1;
int streamTokens = 0;

bool inPinnedBlock(const void *host, size_t bytes) {
  uintptr_t start = reinterpret_cast<uintptr_t>(host);
  auto after = pinnedBlocks.upper_bound(start);
  if (after == pinnedBlocks.begin())
    return false;
  auto block = std::prev(after);
  return start + bytes <= block->first + block->second;
}

CUresult logCopy(bool toDevice, CUdeviceptr device, const void *host,
                 size_t bytes) {
  std::lock_guard<std::mutex> lock(mutex);
  copies.push_back(
      {toDevice, uintptr_t(device), host, bytes, inPinnedBlock(host, bytes)});
  return CUDA_SUCCESS;
}
} // namespace

extern "C" {

size_t mgpFakeCudaCopies(const MgpFakeCudaCopy **out) {
  std::lock_guard<std::mutex> lock(mutex);
  *out = copies.data();
  return copies.size();
}

void mgpFakeCudaReset() {
  std::lock_guard<std::mutex> lock(mutex);
  copies.clear();
}

size_t mgpFakeCudaLivePinned() {
  std::lock_guard<std::mutex> lock(mutex);
  return pinnedBlocks.size();
}

void mgpFakeCudaFailHostAllocAfter(long count) {
  std::lock_guard<std::mutex> lock(mutex);
  hostAllocsLeft = count;
}

CUresult cuInit(unsigned int) { return CUDA_SUCCESS; }

CUresult cuDriverGetVersion(int *version) {
  *version = 13000;
  return CUDA_SUCCESS;
}

CUresult cuGetErrorName(CUresult error, const char **name) {
  switch (error) {
  case CUDA_ERROR_OUT_OF_MEMORY:
    *name = "CUDA_ERROR_OUT_OF_MEMORY";
    return CUDA_SUCCESS;
  case CUDA_ERROR_NOT_SUPPORTED:
    *name = "CUDA_ERROR_NOT_SUPPORTED";
    return CUDA_SUCCESS;
  default:
    return CUDA_ERROR_INVALID_VALUE;
  }
}

CUresult cuGetErrorString(CUresult error, const char **text) {
  switch (error) {
  case CUDA_ERROR_OUT_OF_MEMORY:
    *text = "out of memory";
    return CUDA_SUCCESS;
  case CUDA_ERROR_NOT_SUPPORTED:
    *text = "operation not supported";
    return CUDA_SUCCESS;
  default:
    return CUDA_ERROR_INVALID_VALUE;
  }
}

CUresult cuMemAlloc(CUdeviceptr *ptr, size_t bytes) {
  void *memory = std::malloc(bytes);
  if (!memory)
    return CUDA_ERROR_OUT_OF_MEMORY;
  *ptr = reinterpret_cast<CUdeviceptr>(memory);
  return CUDA_SUCCESS;
}

CUresult cuMemFree(CUdeviceptr ptr) {
  std::free(reinterpret_cast<void *>(ptr));
  return CUDA_SUCCESS;
}

CUresult cuMemHostAlloc(void **ptr, size_t bytes, unsigned int) {
  std::lock_guard<std::mutex> lock(mutex);
  if (hostAllocsLeft == 0)
    return CUDA_ERROR_OUT_OF_MEMORY;
  void *memory = std::malloc(bytes);
  if (!memory)
    return CUDA_ERROR_OUT_OF_MEMORY;
  if (hostAllocsLeft > 0)
    --hostAllocsLeft;
  pinnedBlocks[reinterpret_cast<uintptr_t>(memory)] = bytes;
  *ptr = memory;
  return CUDA_SUCCESS;
}

CUresult cuMemFreeHost(void *ptr) {
  std::lock_guard<std::mutex> lock(mutex);
  if (!pinnedBlocks.erase(reinterpret_cast<uintptr_t>(ptr)))
    return CUDA_ERROR_INVALID_VALUE;
  std::free(ptr);
  return CUDA_SUCCESS;
}

CUresult cuMemcpyHtoDAsync(CUdeviceptr device, const void *host, size_t bytes,
                           CUstream) {
  std::memcpy(reinterpret_cast<void *>(device), host, bytes);
  return logCopy(true, device, host, bytes);
}

CUresult cuMemcpyDtoHAsync(void *host, CUdeviceptr device, size_t bytes,
                           CUstream) {
  std::memcpy(host, reinterpret_cast<const void *>(device), bytes);
  return logCopy(false, device, host, bytes);
}

CUresult cuStreamCreate(CUstream *stream, unsigned int) {
  std::lock_guard<std::mutex> lock(mutex);
  // A token that is never dereferenced.
  *stream = reinterpret_cast<CUstream>(uintptr_t(0x1000 + 16 * ++streamTokens));
  return CUDA_SUCCESS;
}

CUresult cuStreamDestroy(CUstream) { return CUDA_SUCCESS; }
CUresult cuStreamSynchronize(CUstream) { return CUDA_SUCCESS; }

} // extern "C"
