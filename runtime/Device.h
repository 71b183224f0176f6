//===- Device.h - a CUDA device and its primary context ---------*- C++ -*-===//
//
// This file implements Device: one GPU, its properties (name, sm_XY arch, SM
// count, shared memory limits) and a retained primary context. Every other
// runtime object (buffers, streams, events, modules) is created in the
// context that is current on the calling thread; Device::open makes its
// context current, and Device::makeCurrent does so again on another thread.
//
//===----------------------------------------------------------------------===//
#ifndef MGP_RUNTIME_DEVICE_H
#define MGP_RUNTIME_DEVICE_H

#include "compiler/api/Target.h"
#include "runtime/CudaDriver.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <cstddef>
#include <string>

namespace mgp {

/// What the runtime and the compiler need to know about a GPU.
struct DeviceProperties {
  std::string name;          ///< e.g. "NVIDIA H200"
  int computeMajor = 0;      ///< compute capability, e.g. 9
  int computeMinor = 0;      ///< e.g. 0
  std::string arch;          ///< the code target: getTargetArch's choice
  int smCount = 0;           ///< streaming multiprocessors
  int maxSharedPerBlock = 0; ///< bytes a block gets without opting in (48 KB)
  int maxSharedPerBlockOptin = 0; ///< bytes a block may opt in to
  size_t totalMemory = 0;         ///< global memory in bytes
};

/// The architecture mgp compiles for on a device of compute capability
/// major.minor: "sm_" + major + minor, except that 9.0 gets "sm_90a" (wgmma;
/// PTX for sm_90a loads on exactly 9.0) unless `noWgmma` (Device::open passes
/// the environment variable MGP_NO_WGMMA: isEnvOn, compiler/api/Environment.h)
/// asks for plain sm_90 and mma.sync.
std::string getTargetArch(int major, int minor, bool noWgmma);

/// Runs \p body with \p context current on the calling thread, then makes
/// the context that was current before current again (so a caller such as
/// PyTorch keeps its device); \p body's error comes first.
llvm::Error runInContext(CUcontext context,
                         llvm::function_ref<llvm::Error()> body);

/// The target mgp compiles for on a device with \p props: its arch when mgp
/// generates code for it, sm_90 (PTX the driver JIT-compiles) on newer GPUs.
/// The JIT and the gpu backend both ask here. Errors: older GPUs, named.
llvm::Expected<Target> getDeviceTarget(const DeviceProperties &props);

/// Number of CUDA devices; an error when there is no driver or no device.
llvm::Expected<int> getDeviceCount();

/// Whether this machine has a GPU to run on: true with a device; false when
/// there is none (no driver library, or a driver that reports no device:
/// CudaDriver's NoGpuError, or a count of 0); an error when a driver is there
/// but fails (a broken install, cuInit failing otherwise, a failed device
/// query). GPU tests skip on false and fail on the error.
llvm::Expected<bool> hasGpu();

/// One GPU with its primary context retained for the object's lifetime.
class Device {
public:
  /// Opens device \p ordinal, retains its primary context and makes it
  /// current on the calling thread.
  static llvm::Expected<Device> open(int ordinal = 0);

  /// Makes this device's primary context current on the calling thread.
  llvm::Error makeCurrent() const;

  /// Waits until all work in the context has finished.
  llvm::Error synchronize() const;

  const DeviceProperties &properties() const { return props; }
  int ordinal() const { return ordinalIndex; }
  CUcontext context() const { return ctx; }

  Device(Device &&other) noexcept;
  Device &operator=(Device &&other) noexcept;
  Device(const Device &) = delete;
  Device &operator=(const Device &) = delete;
  ~Device();

private:
  Device(CudaDriver &driver, CUdevice device, int ordinal)
      : driver(&driver), device(device), ordinalIndex(ordinal) {}
  CudaDriver *driver;
  CUdevice device;
  int ordinalIndex;
  CUcontext ctx = nullptr;
  DeviceProperties props;
};

} // namespace mgp

#endif // MGP_RUNTIME_DEVICE_H
