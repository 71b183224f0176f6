//===- DeviceBuffer.h - an owned allocation of GPU memory -------*- C++ -*-===//
//
// This file implements DeviceBuffer, a move-only owner of a cuMemAlloc block in
// the current context, with synchronous and stream-ordered copies to and from
// host memory.
//
//===----------------------------------------------------------------------===//
#ifndef MGP_RUNTIME_DEVICEBUFFER_H
#define MGP_RUNTIME_DEVICEBUFFER_H

#include "runtime/CudaDriver.h"

#include <cstddef>

namespace mgp {

/// GPU memory, freed when the object dies.
class DeviceBuffer {
public:
  /// Allocates \p bytes (at least 1) in the current context. A failure says
  /// "cannot allocate <n> bytes (<x> GiB) of device memory (<f> GiB free of
  /// <t> GiB): cuMemAlloc failed: CUDA_ERROR_OUT_OF_MEMORY (out of memory)".
  static llvm::Expected<DeviceBuffer> allocate(size_t bytes);

  /// Copies \p bytes from host memory at \p src to the start of the buffer
  /// and returns once they are in device memory, so kernels on any stream
  /// read them.
  llvm::Error copyFromHost(const void *src, size_t bytes);
  /// Copies \p bytes from the start of the buffer to host memory at \p dst.
  llvm::Error copyToHost(void *dst, size_t bytes) const;
  /// Stream-ordered variants; \p src / \p dst must stay valid until the
  /// stream reaches the copy.
  llvm::Error copyFromHostAsync(const void *src, size_t bytes, CUstream stream);
  llvm::Error copyToHostAsync(void *dst, size_t bytes, CUstream stream) const;
  /// Sets every byte to \p value.
  llvm::Error fill(unsigned char value);

  CUdeviceptr address() const { return ptr; }
  size_t size() const { return bytes; }

  DeviceBuffer(DeviceBuffer &&other) noexcept;
  DeviceBuffer &operator=(DeviceBuffer &&other) noexcept;
  DeviceBuffer(const DeviceBuffer &) = delete;
  DeviceBuffer &operator=(const DeviceBuffer &) = delete;
  ~DeviceBuffer();

private:
  DeviceBuffer(CudaDriver &driver, CUdeviceptr ptr, size_t bytes)
      : driver(&driver), ptr(ptr), bytes(bytes) {}
  llvm::Error checkSize(size_t requested, llvm::StringRef what) const;
  CudaDriver *driver;
  CUdeviceptr ptr;
  size_t bytes;
};

} // namespace mgp

#endif // MGP_RUNTIME_DEVICEBUFFER_H
