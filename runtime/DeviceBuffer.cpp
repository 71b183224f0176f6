//===- DeviceBuffer.cpp - an owned allocation of GPU memory ---------------===//
//
// This file implements DeviceBuffer: allocation, release and the host copies,
// each checked against the buffer's size before the driver sees it.
//
//===----------------------------------------------------------------------===//
#include "runtime/DeviceBuffer.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mgp;

llvm::Expected<DeviceBuffer> DeviceBuffer::allocate(size_t bytes) {
  llvm::Expected<CudaDriver &> driver = CudaDriver::get();
  if (!driver)
    return driver.takeError();
  CUdeviceptr ptr = 0;
  CUresult result = driver->cuMemAlloc(&ptr, bytes == 0 ? 1 : bytes);
  if (result == CUDA_SUCCESS)
    return DeviceBuffer(*driver, ptr, bytes);
  // Name the size, and what the device has, so an exhausted device is told
  // apart from a broken context.
  std::string message =
      llvm::formatv("cannot allocate {0} bytes ({1:F2} GiB) of device memory",
                    bytes, double(bytes) / double(1ull << 30))
          .str();
  size_t freeBytes = 0, totalBytes = 0;
  if (driver->cuMemGetInfo(&freeBytes, &totalBytes) == CUDA_SUCCESS)
    message += llvm::formatv(" ({0:F2} GiB free of {1:F2} GiB)",
                             double(freeBytes) / double(1ull << 30),
                             double(totalBytes) / double(1ull << 30))
                   .str();
  return llvm::createStringError(
      message + ": " + llvm::toString(driver->check(result, "cuMemAlloc")));
}

llvm::Error DeviceBuffer::checkSize(size_t requested,
                                    llvm::StringRef what) const {
  if (requested <= bytes)
    return llvm::Error::success();
  return llvm::createStringError(
      llvm::formatv("{0}: {1} bytes requested from a device buffer of {2}",
                    what, requested, bytes));
}

llvm::Error DeviceBuffer::copyFromHost(const void *src, size_t n) {
  if (llvm::Error err = checkSize(n, "copy to device"))
    return err;
  if (llvm::Error err =
          driver->check(driver->cuMemcpyHtoD(ptr, src, n), "cuMemcpyHtoD"))
    return err;
  // From pageable memory cuMemcpyHtoD may return before the bytes land:
  // only work on the legacy default stream is ordered after it, and mgp's
  // streams do not synchronize with that one (CU_STREAM_NON_BLOCKING).
  return driver->check(driver->cuStreamSynchronize(nullptr),
                       "cuStreamSynchronize");
}

llvm::Error DeviceBuffer::copyToHost(void *dst, size_t n) const {
  if (llvm::Error err = checkSize(n, "copy to host"))
    return err;
  return driver->check(driver->cuMemcpyDtoH(dst, ptr, n), "cuMemcpyDtoH");
}

llvm::Error DeviceBuffer::copyFromHostAsync(const void *src, size_t n,
                                            CUstream stream) {
  if (llvm::Error err = checkSize(n, "copy to device"))
    return err;
  return driver->check(driver->cuMemcpyHtoDAsync(ptr, src, n, stream),
                       "cuMemcpyHtoDAsync");
}

llvm::Error DeviceBuffer::copyToHostAsync(void *dst, size_t n,
                                          CUstream stream) const {
  if (llvm::Error err = checkSize(n, "copy to host"))
    return err;
  return driver->check(driver->cuMemcpyDtoHAsync(dst, ptr, n, stream),
                       "cuMemcpyDtoHAsync");
}

llvm::Error DeviceBuffer::fill(unsigned char value) {
  return driver->check(driver->cuMemsetD8(ptr, value, bytes), "cuMemsetD8");
}

DeviceBuffer::DeviceBuffer(DeviceBuffer &&other) noexcept
    : driver(other.driver), ptr(other.ptr), bytes(other.bytes) {
  other.ptr = 0;
  other.bytes = 0;
}

DeviceBuffer &DeviceBuffer::operator=(DeviceBuffer &&other) noexcept {
  if (this != &other) {
    this->~DeviceBuffer();
    new (this) DeviceBuffer(std::move(other));
  }
  return *this;
}

DeviceBuffer::~DeviceBuffer() {
  // A failing free means the context is gone (process exit); nothing to do.
  if (ptr)
    (void)driver->cuMemFree(ptr);
}
