//===- Event.h - an owned CUDA event for timing -----------------*- C++ -*-===//
//
// This file implements Event, a move-only owner of a CUevent, recorded on a
// stream; two recorded events give the GPU time between them.
//
//===----------------------------------------------------------------------===//
#ifndef MGP_RUNTIME_EVENT_H
#define MGP_RUNTIME_EVENT_H

#include "runtime/CudaDriver.h"

namespace mgp {

/// A CUDA event with timing enabled, destroyed with the object.
class Event {
public:
  static llvm::Expected<Event> create();

  /// Records the event on \p stream (null: the default stream).
  llvm::Error record(CUstream stream);
  /// Waits until the work before the recorded point has finished.
  llvm::Error synchronize() const;
  /// Milliseconds of GPU time from \p start to \p end; both recorded and
  /// \p end synchronized (or complete).
  static llvm::Expected<float> elapsedMs(const Event &start, const Event &end);

  CUevent handle() const { return event; }

  Event(Event &&other) noexcept : driver(other.driver), event(other.event) {
    other.event = nullptr;
  }
  Event &operator=(Event &&other) noexcept;
  Event(const Event &) = delete;
  Event &operator=(const Event &) = delete;
  ~Event();

private:
  Event(CudaDriver &driver, CUevent event) : driver(&driver), event(event) {}
  CudaDriver *driver;
  CUevent event;
};

} // namespace mgp

#endif // MGP_RUNTIME_EVENT_H
