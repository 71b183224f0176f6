//===- Module.cpp - PTX loaded into the current context -------------------===//
//
// This file implements loading PTX with cuModuleLoadDataEx and the JIT log
// buffers, and looking kernels up by name.
//
//===----------------------------------------------------------------------===//
#include "runtime/Module.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <cstdint>
#include <vector>

using namespace mgp;

/// Size of each JIT log buffer; ptxas messages are a few lines per problem.
static constexpr size_t kLogBytes = 16 * 1024;

llvm::Expected<Module> Module::loadPTX(llvm::StringRef ptx) {
  llvm::Expected<CudaDriver &> driver = CudaDriver::get();
  if (!driver)
    return driver.takeError();
  // The driver reads the image up to its NUL terminator.
  std::string image = ptx.str();
  std::vector<char> errorLog(kLogBytes, 0), infoLog(kLogBytes, 0);
  CUjit_option options[] = {
      CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
      CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES,
      CU_JIT_LOG_VERBOSE};
  void *values[] = {
      errorLog.data(), reinterpret_cast<void *>(uintptr_t(kLogBytes - 1)),
      infoLog.data(), reinterpret_cast<void *>(uintptr_t(kLogBytes - 1)),
      reinterpret_cast<void *>(uintptr_t(1))};
  CUmodule module = nullptr;
  CUresult result = driver->cuModuleLoadDataEx(
      &module, image.c_str(), std::size(options), options, values);
  if (llvm::Error err = driver->check(result, "cuModuleLoadDataEx")) {
    llvm::StringRef log = llvm::StringRef(errorLog.data()).trim();
    if (log.empty())
      log = llvm::StringRef(infoLog.data()).trim();
    if (log.empty())
      log = "(the driver wrote no log)";
    return llvm::createStringError(llvm::formatv(
        "{0}\nPTX JIT log:\n{1}", llvm::toString(std::move(err)), log));
  }
  return Module(*driver, module, llvm::StringRef(infoLog.data()).trim().str());
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
