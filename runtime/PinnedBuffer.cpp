//===- PinnedBuffer.cpp - an owned block of page-locked host memory -------===//
//
// This file implements PinnedBuffer: allocation with cuMemHostAlloc, an error
// naming the size when it fails, and the release with cuMemFreeHost.
//
//===----------------------------------------------------------------------===//
#include "runtime/PinnedBuffer.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mgp;

std::string mgp::formatPinnedAllocationError(size_t bytes,
                                             llvm::StringRef driverError) {
  return llvm::formatv("cannot allocate {0} bytes ({1:F1} MiB) of page-locked "
                       "host memory: {2}",
                       bytes, double(bytes) / double(1 << 20), driverError)
      .str();
}

llvm::Expected<PinnedBuffer> PinnedBuffer::allocate(size_t bytes,
                                                    unsigned flags) {
  llvm::Expected<CudaDriver &> driver = CudaDriver::get();
  if (!driver)
    return driver.takeError();
  void *ptr = nullptr;
  CUresult result = driver->cuMemHostAlloc(&ptr, bytes == 0 ? 1 : bytes, flags);
  if (result == CUDA_SUCCESS)
    return PinnedBuffer(*driver, ptr, bytes);
  return llvm::createStringError(formatPinnedAllocationError(
      bytes, llvm::toString(driver->check(result, "cuMemHostAlloc"))));
}

PinnedBuffer::PinnedBuffer(PinnedBuffer &&other) noexcept
    : driver(other.driver), ptr(other.ptr), bytes(other.bytes) {
  other.ptr = nullptr;
  other.bytes = 0;
}

PinnedBuffer &PinnedBuffer::operator=(PinnedBuffer &&other) noexcept {
  if (this != &other) {
    this->~PinnedBuffer();
    new (this) PinnedBuffer(std::move(other));
  }
  return *this;
}

PinnedBuffer::~PinnedBuffer() {
  // A failing free means the context is gone (process exit); nothing to do.
  if (ptr)
    (void)driver->cuMemFreeHost(ptr);
}
