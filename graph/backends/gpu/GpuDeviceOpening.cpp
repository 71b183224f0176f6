//===- GpuDeviceOpening.cpp - GPU 0 opened on a thread of its own ---------===//
//
// This file implements the background open: the thread runs Device::open(0)
// (which makes the context current on that thread only) and a first one-byte
// allocation; take() joins it, words the error as createGpuBackend does and
// makes the context current on the caller's thread.
//
//===----------------------------------------------------------------------===//

#include "graph/backends/gpu/GpuDeviceOpening.h"

#include "runtime/DeviceBuffer.h"

using namespace mgp;
using namespace mgp::graph;

std::shared_ptr<GpuDeviceOpening> GpuDeviceOpening::start() {
  std::shared_ptr<GpuDeviceOpening> opening(new GpuDeviceOpening());
  GpuDeviceOpening *self = opening.get();
  self->thread = std::thread([self] {
    self->result.emplace(Device::open(0));
    // A first (tiny) allocation sets up the context's allocator while the
    // host side is still busy; prepare()'s allocations follow it.
    if (*self->result) {
      auto warm = DeviceBuffer::allocate(1);
      if (!warm)
        llvm::consumeError(warm.takeError());
    }
  });
  return opening;
}

std::string mgp::graph::describeGpuOpenError(llvm::Error error) {
  bool absent = error.isA<NoGpuError>();
  std::string message = llvm::toString(std::move(error));
  return (absent ? "the gpu device is not available here: "
                 : "the gpu device failed to open: ") +
         message;
}

llvm::Expected<Device> GpuDeviceOpening::take() {
  if (thread.joinable())
    thread.join();
  assert(result && "GpuDeviceOpening::take() called twice");
  llvm::Expected<Device> device = std::move(*result);
  result.reset();
  if (!device)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   describeGpuOpenError(device.takeError()));
  if (llvm::Error e = device->makeCurrent())
    return std::move(e);
  return device;
}

GpuDeviceOpening::~GpuDeviceOpening() {
  if (thread.joinable())
    thread.join();
  if (result && !*result)
    llvm::consumeError(result->takeError());
}
