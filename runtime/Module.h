//===- Module.h - PTX loaded into the current context -----------*- C++ -*-===//
//
// This file implements Module, a move-only owner of a CUmodule made from PTX
// text: the driver's JIT compiles the PTX to a device image (cuLinkCreate,
// cuLinkAddData, cuLinkComplete; the driver's compute cache answers a PTX it
// has compiled before) and cuModuleLoadData loads the image. The two steps are
// separate so that many kernels can be JIT-compiled at once: the driver
// compiles concurrently in as many threads as call compilePTX, while
// cuModuleLoadDataEx from several threads runs one at a time. The driver's
// JIT error and info logs are captured: a rejected PTX fails with an error
// that quotes the log, and the info log of a successful compile is kept for
// MGP_DEBUG output.
//
//===----------------------------------------------------------------------===//
#ifndef MGP_RUNTIME_MODULE_H
#define MGP_RUNTIME_MODULE_H

#include "runtime/Function.h"

#include <string>

namespace mgp {

/// PTX compiled by the driver for one device: a cubin and what the JIT said.
struct DeviceImage {
  std::string cubin;
  std::string infoLog;
};

/// A loaded PTX module, unloaded with the object.
class Module {
public:
  /// JIT-compiles \p ptx for the device of \p context, made current on the
  /// calling thread first (a worker compiling for its caller), or of the
  /// thread's current context when null. Thread-safe. Errors: `cuLinkAddData
  /// failed: CUDA_ERROR_INVALID_PTX (...)` and the JIT log.
  static llvm::Expected<DeviceImage> compilePTX(llvm::StringRef ptx,
                                                CUcontext context = nullptr);

  /// The calling thread's current context; null when there is none or no
  /// driver.
  static CUcontext currentContext();

  /// Loads an image compilePTX made for the current context's device.
  static llvm::Expected<Module> loadImage(DeviceImage image);

  /// compilePTX, then loadImage.
  static llvm::Expected<Module> loadPTX(llvm::StringRef ptx);

  /// The kernel named \p name (the PTX .entry name).
  llvm::Expected<Function> getFunction(llvm::StringRef name) const;

  /// What the driver's PTX JIT said while compiling (may be empty).
  const std::string &infoLog() const { return jitInfoLog; }

  CUmodule handle() const { return module; }

  Module(Module &&other) noexcept
      : driver(other.driver), module(other.module),
        jitInfoLog(std::move(other.jitInfoLog)) {
    other.module = nullptr;
  }
  Module &operator=(Module &&other) noexcept;
  Module(const Module &) = delete;
  Module &operator=(const Module &) = delete;
  ~Module();

private:
  Module(CudaDriver &driver, CUmodule module, std::string infoLog)
      : driver(&driver), module(module), jitInfoLog(std::move(infoLog)) {}
  CudaDriver *driver;
  CUmodule module;
  std::string jitInfoLog;
};

} // namespace mgp

#endif // MGP_RUNTIME_MODULE_H
