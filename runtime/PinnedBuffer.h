//===- PinnedBuffer.h - an owned block of page-locked host memory -*- C++ -*-=//
//
// This file implements PinnedBuffer, a move-only owner of a cuMemHostAlloc
// block: host memory the GPU's copy engines read and write directly, so a
// cuMemcpyHtoDAsync / cuMemcpyDtoHAsync from or to it is a DMA that runs at
// the link's full speed while the host goes on (from pageable memory the
// driver copies through its own small pinned buffer, synchronously).
//
//===----------------------------------------------------------------------===//
#ifndef MGP_RUNTIME_PINNEDBUFFER_H
#define MGP_RUNTIME_PINNEDBUFFER_H

#include "runtime/CudaDriver.h"

#include <cstddef>

namespace mgp {

/// Page-locked host memory, freed (cuMemFreeHost) when the object dies.
class PinnedBuffer {
public:
  /// Allocates \p bytes (at least 1) of page-locked host memory with
  /// cuMemHostAlloc and \p flags (CU_MEMHOSTALLOC_*), with a context current.
  /// Without a driver the error is CudaDriver::get()'s; a failing allocation
  /// says "cannot allocate <n> bytes (<x> MiB) of page-locked host memory:
  /// cuMemHostAlloc failed: CUDA_ERROR_OUT_OF_MEMORY (out of memory)".
  static llvm::Expected<PinnedBuffer> allocate(size_t bytes,
                                               unsigned flags = 0);

  void *data() const { return ptr; }
  size_t size() const { return bytes; }

  PinnedBuffer(PinnedBuffer &&other) noexcept;
  PinnedBuffer &operator=(PinnedBuffer &&other) noexcept;
  PinnedBuffer(const PinnedBuffer &) = delete;
  PinnedBuffer &operator=(const PinnedBuffer &) = delete;
  ~PinnedBuffer();

private:
  PinnedBuffer(CudaDriver &driver, void *ptr, size_t bytes)
      : driver(&driver), ptr(ptr), bytes(bytes) {}
  CudaDriver *driver;
  void *ptr;
  size_t bytes;
};

/// The message of a failed pinned allocation of \p bytes whose driver error
/// (CudaDriver::check's text) is \p driverError; exposed so that the format
/// is testable without a GPU.
std::string formatPinnedAllocationError(size_t bytes,
                                        llvm::StringRef driverError);

} // namespace mgp

#endif // MGP_RUNTIME_PINNEDBUFFER_H
