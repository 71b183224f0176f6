//===- Stream.h - an owned CUDA stream --------------------------*- C++ -*-===//
//
// This file implements Stream, a move-only owner of a non-blocking CUstream in
// the current context. Launches and async copies take the raw handle
// (Stream::handle()); a null CUstream means the legacy default stream.
//
//===----------------------------------------------------------------------===//
#ifndef MGP_RUNTIME_STREAM_H
#define MGP_RUNTIME_STREAM_H

#include "runtime/CudaDriver.h"

namespace mgp {

/// A CUDA stream, destroyed with the object.
class Stream {
public:
  /// Creates a stream that does not synchronize with the default stream.
  static llvm::Expected<Stream> create();
  /// Creates such a stream at the context's lowest priority: the block
  /// scheduler starts its blocks when no stream of a higher priority has
  /// blocks waiting.
  static llvm::Expected<Stream> createLowPriority();

  /// Makes the work queued on the stream from now on wait for \p event's
  /// last record (inside a stream capture, a dependency of the graph).
  llvm::Error waitFor(CUevent event) const;

  /// Waits until everything queued on the stream has finished.
  llvm::Error synchronize() const;

  CUstream handle() const { return stream; }

  Stream(Stream &&other) noexcept : driver(other.driver), stream(other.stream) {
    other.stream = nullptr;
  }
  Stream &operator=(Stream &&other) noexcept;
  Stream(const Stream &) = delete;
  Stream &operator=(const Stream &) = delete;
  ~Stream();

private:
  Stream(CudaDriver &driver, CUstream stream)
      : driver(&driver), stream(stream) {}
  CudaDriver *driver;
  CUstream stream;
};

} // namespace mgp

#endif // MGP_RUNTIME_STREAM_H
