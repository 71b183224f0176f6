//===- CudaDriver.cpp - the CUDA driver API, opened at run time -----------===//
//
// This file implements the loading of libcuda with dlopen, the filling of the
// function table with the versioned symbols that cuda.h names, and the one
// check() through which every driver call's status becomes an llvm::Error.
//
//===----------------------------------------------------------------------===//
#include "runtime/CudaDriver.h"

#include "llvm/Support/FormatVariadic.h"

#include <dlfcn.h>
#include <mutex>

using namespace mgp;

// Two levels so that the argument (e.g. cuMemAlloc) is macro-expanded to the
// versioned symbol (cuMemAlloc_v2) before it is turned into a string.
#define MGP_STRINGIFY_IMPL(x) #x
#define MGP_STRINGIFY(x) MGP_STRINGIFY_IMPL(x)

std::string mgp::formatDriverError(llvm::StringRef call, int code,
                                   const char *errorName,
                                   const char *errorString) {
  std::string name =
      errorName ? errorName : llvm::formatv("CUDA error {0}", code).str();
  if (!errorString)
    return llvm::formatv("{0} failed: {1}", call, name).str();
  return llvm::formatv("{0} failed: {1} ({2})", call, name, errorString).str();
}

llvm::Error CudaDriver::check(CUresult result, llvm::StringRef call) const {
  if (result == CUDA_SUCCESS)
    return llvm::Error::success();
  const char *name = nullptr;
  const char *description = nullptr;
  if (cuGetErrorName && cuGetErrorName(result, &name) != CUDA_SUCCESS)
    name = nullptr;
  if (cuGetErrorString &&
      cuGetErrorString(result, &description) != CUDA_SUCCESS)
    description = nullptr;
  return llvm::createStringError(
      llvm::inconvertibleErrorCode(),
      formatDriverError(call, static_cast<int>(result), name, description));
}

llvm::Expected<std::unique_ptr<CudaDriver>>
CudaDriver::load(llvm::StringRef libraryName) {
  std::unique_ptr<CudaDriver> driver(new CudaDriver());
  std::string name = libraryName.str();
  driver->library = ::dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!driver->library) {
    const char *reason = ::dlerror();
    return llvm::make_error<NoGpuError>(
        llvm::formatv("no CUDA driver: cannot open {0} ({1}); GPU execution "
                      "is unavailable",
                      name, reason ? reason : "unknown reason")
            .str());
  }

#define MGP_CUDA_DRIVER_LOAD(fn)                                               \
  driver->fn = reinterpret_cast<decltype(driver->fn)>(                         \
      ::dlsym(driver->library, MGP_STRINGIFY(fn)));                            \
  if (!driver->fn)                                                             \
    return llvm::createStringError(                                            \
        llvm::inconvertibleErrorCode(),                                        \
        "broken CUDA driver: %s lacks %s (driver too old for CUDA 13 "         \
        "headers?)",                                                           \
        name.c_str(), MGP_STRINGIFY(fn));
  MGP_CUDA_DRIVER_FUNCTIONS(MGP_CUDA_DRIVER_LOAD)
#undef MGP_CUDA_DRIVER_LOAD

  CUresult init = driver->cuInit(0);
  if (llvm::Error err = driver->check(init, "cuInit")) {
    std::string message = llvm::toString(std::move(err));
    if (init == CUDA_ERROR_NO_DEVICE)
      return llvm::make_error<NoGpuError>("no CUDA device: " + message);
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "broken CUDA driver: " + message);
  }
  if (llvm::Error err =
          driver->check(driver->cuDriverGetVersion(&driver->driverVersion),
                        "cuDriverGetVersion"))
    return std::move(err);
  return std::move(driver);
}

char NoGpuError::ID = 0;

llvm::Expected<CudaDriver &> CudaDriver::get() {
  static std::once_flag once;
  static std::unique_ptr<CudaDriver> instance;
  static std::string failure;
  static bool noGpu = false;
  std::call_once(once, [] {
    llvm::Expected<std::unique_ptr<CudaDriver>> loaded = load("libcuda.so.1");
    if (loaded) {
      instance = std::move(*loaded);
      return;
    }
    llvm::Error err = loaded.takeError();
    noGpu = err.isA<NoGpuError>();
    failure = llvm::toString(std::move(err));
  });
  if (instance)
    return *instance;
  if (noGpu)
    return llvm::make_error<NoGpuError>(failure);
  return llvm::createStringError(llvm::inconvertibleErrorCode(), failure);
}

CudaDriver::~CudaDriver() {
  if (library)
    ::dlclose(library);
}
