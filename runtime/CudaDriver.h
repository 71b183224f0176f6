//===- CudaDriver.h - the CUDA driver API, opened at run time ---*- C++ -*-===//
//
// This file implements CudaDriver, the table of CUDA driver entry points that
// mgp uses. libcuda is never linked: it is opened with dlopen("libcuda.so.1")
// on first use, so every mgp binary builds, starts and runs its CPU paths on a
// machine without a GPU. Every driver call goes through CudaDriver::check,
// which turns a failing CUresult into an llvm::Error naming the call and
// carrying the driver's error name and description.
//
//===----------------------------------------------------------------------===//
#ifndef MGP_RUNTIME_CUDADRIVER_H
#define MGP_RUNTIME_CUDADRIVER_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cuda.h>

#include <memory>
#include <string>

namespace mgp {

/// The driver functions mgp calls. Each entry is the name a program compiled
/// against cuda.h would call; cuda.h maps it to the versioned symbol
/// (cuMemAlloc -> cuMemAlloc_v2, cuEventElapsedTime -> cuEventElapsedTime_v2,
/// cuLinkCreate -> cuLinkCreate_v2, cuStreamBeginCapture ->
/// cuStreamBeginCapture_v2, cuGraphInstantiate -> cuGraphInstantiateWithFlags,
/// ...), and the table is filled with exactly that symbol.
#define MGP_CUDA_DRIVER_FUNCTIONS(X)                                           \
  X(cuInit)                                                                    \
  X(cuDriverGetVersion)                                                        \
  X(cuGetErrorName)                                                            \
  X(cuGetErrorString)                                                          \
  X(cuDeviceGetCount)                                                          \
  X(cuDeviceGet)                                                               \
  X(cuDeviceGetName)                                                           \
  X(cuDeviceGetAttribute)                                                      \
  X(cuDeviceTotalMem)                                                          \
  X(cuDevicePrimaryCtxRetain)                                                  \
  X(cuDevicePrimaryCtxRelease)                                                 \
  X(cuCtxGetCurrent)                                                           \
  X(cuCtxSetCurrent)                                                           \
  X(cuCtxSynchronize)                                                          \
  X(cuMemAlloc)                                                                \
  X(cuMemGetInfo)                                                              \
  X(cuMemFree)                                                                 \
  X(cuMemHostAlloc)                                                            \
  X(cuMemFreeHost)                                                             \
  X(cuMemcpyHtoD)                                                              \
  X(cuMemcpyDtoH)                                                              \
  X(cuMemcpyHtoDAsync)                                                         \
  X(cuMemcpyDtoHAsync)                                                         \
  X(cuMemsetD8)                                                                \
  X(cuStreamCreate)                                                            \
  X(cuStreamCreateWithPriority)                                                \
  X(cuCtxGetStreamPriorityRange)                                               \
  X(cuStreamWaitEvent)                                                         \
  X(cuStreamDestroy)                                                           \
  X(cuStreamSynchronize)                                                       \
  X(cuStreamBeginCapture)                                                      \
  X(cuStreamEndCapture)                                                        \
  X(cuStreamIsCapturing)                                                       \
  X(cuGraphInstantiate)                                                        \
  X(cuGraphLaunch)                                                             \
  X(cuGraphGetNodes)                                                           \
  X(cuGraphExecDestroy)                                                        \
  X(cuGraphDestroy)                                                            \
  X(cuEventCreate)                                                             \
  X(cuEventDestroy)                                                            \
  X(cuEventRecord)                                                             \
  X(cuEventSynchronize)                                                        \
  X(cuEventElapsedTime)                                                        \
  X(cuLinkCreate)                                                              \
  X(cuLinkAddData)                                                             \
  X(cuLinkComplete)                                                            \
  X(cuLinkDestroy)                                                             \
  X(cuModuleLoadData)                                                          \
  X(cuModuleUnload)                                                            \
  X(cuModuleGetFunction)                                                       \
  X(cuFuncGetAttribute)                                                        \
  X(cuFuncSetAttribute)                                                        \
  X(cuTensorMapEncodeTiled)                                                    \
  X(cuLaunchKernel)

/// The error of a machine without a GPU: libcuda cannot be opened, or the
/// driver reports no device (cuInit's CUDA_ERROR_NO_DEVICE). Every other
/// driver failure (a library without the driver's functions, cuInit failing
/// otherwise, a failed call) is a plain error: a GPU that is there but
/// cannot be used, which tests report as a failure, never as "no GPU".
class NoGpuError : public llvm::ErrorInfo<NoGpuError> {
public:
  static char ID;
  explicit NoGpuError(std::string message) : message(std::move(message)) {}
  void log(llvm::raw_ostream &os) const override { os << message; }
  std::error_code convertToErrorCode() const override {
    return llvm::inconvertibleErrorCode();
  }

private:
  std::string message;
};

/// The CUDA driver: a handle on libcuda and its function table. One instance
/// per process (CudaDriver::get); it is never unloaded.
class CudaDriver {
public:
#define MGP_CUDA_DRIVER_MEMBER(fn) decltype(&::fn) fn = nullptr;
  MGP_CUDA_DRIVER_FUNCTIONS(MGP_CUDA_DRIVER_MEMBER)
#undef MGP_CUDA_DRIVER_MEMBER

  /// The process-wide driver: opens libcuda.so.1 and calls cuInit(0) on the
  /// first call. Fails with a NoGpuError "no CUDA driver: ..." when the
  /// library cannot be opened and "no CUDA device: ..." when cuInit finds no
  /// device; with a plain error "broken CUDA driver: ..." when the library
  /// lacks a function or cuInit fails otherwise (driver/kernel-module
  /// mismatch, ...). The outcome is remembered: later calls answer the same
  /// without trying again.
  static llvm::Expected<CudaDriver &> get();

  /// Opens the driver from \p libraryName (a dlopen name or path) and runs
  /// cuInit. get() uses "libcuda.so.1"; tests use other names.
  static llvm::Expected<std::unique_ptr<CudaDriver>>
  load(llvm::StringRef libraryName);

  /// Returns success for CUDA_SUCCESS, otherwise an error
  /// "<call> failed: <error name> (<error string>)".
  llvm::Error check(CUresult result, llvm::StringRef call) const;

  /// The driver's CUDA version, e.g. 13000 for 13.0.
  int version() const { return driverVersion; }

  ~CudaDriver();
  CudaDriver(const CudaDriver &) = delete;
  CudaDriver &operator=(const CudaDriver &) = delete;

private:
  CudaDriver() = default;
  void *library = nullptr;
  int driverVersion = 0;
};

/// Formats a failed driver call the way CudaDriver::check reports it; exposed
/// so that the message format is testable without a GPU.
std::string formatDriverError(llvm::StringRef call, int code,
                              const char *errorName, const char *errorString);

} // namespace mgp

#endif // MGP_RUNTIME_CUDADRIVER_H
