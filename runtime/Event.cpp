//===- Event.cpp - an owned CUDA event for timing -------------------------===//
//
// This file implements Event: creation, recording, synchronization and the
// elapsed time between two events (cuEventElapsedTime_v2 in CUDA 13).
//
//===----------------------------------------------------------------------===//
#include "runtime/Event.h"

using namespace mgp;

llvm::Expected<Event> Event::create() {
  llvm::Expected<CudaDriver &> driver = CudaDriver::get();
  if (!driver)
    return driver.takeError();
  CUevent event = nullptr;
  if (llvm::Error err = driver->check(
          driver->cuEventCreate(&event, CU_EVENT_DEFAULT), "cuEventCreate"))
    return std::move(err);
  return Event(*driver, event);
}

llvm::Error Event::record(CUstream stream) {
  return driver->check(driver->cuEventRecord(event, stream), "cuEventRecord");
}

llvm::Error Event::synchronize() const {
  return driver->check(driver->cuEventSynchronize(event), "cuEventSynchronize");
}

llvm::Expected<float> Event::elapsedMs(const Event &start, const Event &end) {
  float ms = 0;
  if (llvm::Error err = start.driver->check(
          start.driver->cuEventElapsedTime(&ms, start.event, end.event),
          "cuEventElapsedTime"))
    return std::move(err);
  return ms;
}

Event &Event::operator=(Event &&other) noexcept {
  if (this != &other) {
    this->~Event();
    new (this) Event(std::move(other));
  }
  return *this;
}

Event::~Event() {
  if (event)
    (void)driver->cuEventDestroy(event);
}
