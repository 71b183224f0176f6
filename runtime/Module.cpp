//===- Module.cpp - PTX loaded into the current context -------------------===//
//
// This file implements JIT-compiling PTX with the driver's linker (with the
// JIT log buffers), loading the image, and looking kernels up by name.
//
//===----------------------------------------------------------------------===//
#include "runtime/Module.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <cstdint>
#include <vector>

using namespace mgp;

/// Size of each JIT log buffer; ptxas messages are a few lines per problem.
static constexpr size_t kLogBytes = 16 * 1024;

llvm::Expected<DeviceImage> Module::compilePTX(llvm::StringRef ptx,
                                               CUcontext context) {
  llvm::Expected<CudaDriver &> driver = CudaDriver::get();
  if (!driver)
    return driver.takeError();
  if (context)
    if (llvm::Error err =
            driver->check(driver->cuCtxSetCurrent(context), "cuCtxSetCurrent"))
      return std::move(err);
  std::vector<char> errorLog(kLogBytes, 0), infoLog(kLogBytes, 0);
  CUjit_option options[] = {
      CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
      CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES,
      CU_JIT_LOG_VERBOSE};
  void *values[] = {
      errorLog.data(), reinterpret_cast<void *>(uintptr_t(kLogBytes - 1)),
      infoLog.data(), reinterpret_cast<void *>(uintptr_t(kLogBytes - 1)),
      reinterpret_cast<void *>(uintptr_t(1))};
  CUlinkState link = nullptr;
  if (llvm::Error err = driver->check(
          driver->cuLinkCreate(std::size(options), options, values, &link),
          "cuLinkCreate"))
    return std::move(err);
  llvm::scope_exit destroy([&] { (void)driver->cuLinkDestroy(link); });
  // The driver reads the PTX up to its NUL terminator.
  std::string text = ptx.str();
  const char *call = "cuLinkAddData";
  CUresult result =
      driver->cuLinkAddData(link, CU_JIT_INPUT_PTX, text.data(),
                            text.size() + 1, "kernel.ptx", 0, nullptr, nullptr);
  void *cubin = nullptr;
  size_t cubinBytes = 0;
  if (result == CUDA_SUCCESS) {
    call = "cuLinkComplete";
    result = driver->cuLinkComplete(link, &cubin, &cubinBytes);
  }
  if (llvm::Error err = driver->check(result, call)) {
    llvm::StringRef log = llvm::StringRef(errorLog.data()).trim();
    if (log.empty())
      log = llvm::StringRef(infoLog.data()).trim();
    if (log.empty())
      log = "(the driver wrote no log)";
    return llvm::createStringError(llvm::formatv(
        "{0}\nPTX JIT log:\n{1}", llvm::toString(std::move(err)), log));
  }
  // The image belongs to the link state: copy it before the destroy.
  return DeviceImage{std::string(static_cast<const char *>(cubin), cubinBytes),
                     llvm::StringRef(infoLog.data()).trim().str()};
}

CUcontext Module::currentContext() {
  llvm::Expected<CudaDriver &> driver = CudaDriver::get();
  if (!driver) {
    llvm::consumeError(driver.takeError());
    return nullptr;
  }
  CUcontext context = nullptr;
  if (driver->cuCtxGetCurrent(&context) != CUDA_SUCCESS)
    return nullptr;
  return context;
}

llvm::Expected<Module> Module::loadImage(DeviceImage image) {
  llvm::Expected<CudaDriver &> driver = CudaDriver::get();
  if (!driver)
    return driver.takeError();
  CUmodule module = nullptr;
  if (llvm::Error err =
          driver->check(driver->cuModuleLoadData(&module, image.cubin.data()),
                        "cuModuleLoadData"))
    return std::move(err);
  return Module(*driver, module, std::move(image.infoLog));
}

llvm::Expected<Module> Module::loadPTX(llvm::StringRef ptx) {
  llvm::Expected<DeviceImage> image = compilePTX(ptx);
  if (!image)
    return image.takeError();
  return loadImage(std::move(*image));
}

llvm::Expected<Function> Module::getFunction(llvm::StringRef name) const {
  std::string entry = name.str();
  CUfunction function = nullptr;
  if (llvm::Error err = driver->check(
          driver->cuModuleGetFunction(&function, module, entry.c_str()),
          "cuModuleGetFunction"))
    return llvm::createStringError(
        llvm::formatv("no kernel '{0}' in the module: {1}", name,
                      llvm::toString(std::move(err))));
  return Function(*driver, function, entry);
}

Module &Module::operator=(Module &&other) noexcept {
  if (this != &other) {
    this->~Module();
    new (this) Module(std::move(other));
  }
  return *this;
}

Module::~Module() {
  if (module)
    (void)driver->cuModuleUnload(module);
}
