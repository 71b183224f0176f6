//===- GpuDeviceOpening.h - GPU 0 opened on a thread of its own -*- C++ -*-===//
//
// This file implements GpuDeviceOpening: Device::open(0) (dlopen of libcuda,
// cuInit, the primary context; mostly driver time, ~0.2 s) started on a
// thread of its own, so that a tool's host-side work (graph parse, seeded
// weights, BatchNorm folding, weight repacking) overlaps it. The gpu
// backend joins it when it first needs the device (createGpuBackend with an
// opening; graph/backends/gpu/GpuBackend.h).
//
//===----------------------------------------------------------------------===//

#ifndef MGP_GRAPH_GPUDEVICEOPENING_H
#define MGP_GRAPH_GPUDEVICEOPENING_H

#include "runtime/Device.h"

#include <memory>
#include <optional>
#include <thread>

namespace mgp::graph {

/// The message of a failed Device::open, as every gpu backend error words
/// it: "the gpu device is not available here: ..." when there is no GPU (no
/// driver library or no device; tests skip on this text), "the gpu device
/// failed to open: ..." when a driver is there but fails.
std::string describeGpuOpenError(llvm::Error error);

/// Device::open(0) in flight on a thread of its own.
class GpuDeviceOpening {
public:
  /// Starts opening GPU 0.
  static std::shared_ptr<GpuDeviceOpening> start();

  /// Waits for the open: the device (current on the calling thread), or the
  /// error createGpuBackend gives (describeGpuOpenError). Once only.
  llvm::Expected<Device> take();

  /// Joins the thread; an untaken result (a tool that failed before it
  /// needed the GPU) is dropped.
  ~GpuDeviceOpening();

  GpuDeviceOpening(const GpuDeviceOpening &) = delete;
  GpuDeviceOpening &operator=(const GpuDeviceOpening &) = delete;

private:
  GpuDeviceOpening() = default;
  std::thread thread;
  std::optional<llvm::Expected<Device>> result;
};

} // namespace mgp::graph

#endif // MGP_GRAPH_GPUDEVICEOPENING_H
