//===- LoadedKernel.cpp - a compiled kernel in the current context --------===//
//
// This file implements LoadedKernel::load and loadAll.
//
//===----------------------------------------------------------------------===//
#include "runtime/LoadedKernel.h"

#include "runtime/CudaDriver.h"

#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"

#include <optional>

using namespace mgp;

/// Loads \p image, the JIT's result for \p kernel, and finds the entry.
static llvm::Expected<LoadedKernel>
finishLoad(std::shared_ptr<const CompiledKernel> kernel, llvm::StringRef what,
           llvm::Expected<DeviceImage> image) {
  llvm::Expected<Module> module =
      image ? Module::loadImage(std::move(*image))
            : llvm::Expected<Module>(image.takeError());
  if (!module)
    return llvm::createStringError("loading kernel " + what + ": " +
                                   llvm::toString(module.takeError()));
  llvm::Expected<Function> function = module->getFunction(kernel->name);
  if (!function)
    return function.takeError();
  return LoadedKernel{std::move(kernel), std::move(*module),
                      std::move(*function)};
}

llvm::Expected<LoadedKernel>
LoadedKernel::load(std::shared_ptr<const CompiledKernel> kernel,
                   llvm::StringRef what) {
  llvm::Expected<DeviceImage> image = Module::compilePTX(kernel->ptx);
  return finishLoad(std::move(kernel), what, std::move(image));
}

std::vector<llvm::Expected<LoadedKernel>>
LoadedKernel::loadAll(llvm::ArrayRef<Request> requests) {
  std::vector<llvm::Expected<LoadedKernel>> loaded;
  llvm::Expected<CudaDriver &> driver = CudaDriver::get();
  if (!driver || requests.size() <= 1) {
    // load() reports a missing driver as it always does.
    if (!driver)
      llvm::consumeError(driver.takeError());
    for (const Request &request : requests)
      loaded.push_back(load(request.kernel, request.what));
    return loaded;
  }
  std::vector<std::optional<llvm::Expected<DeviceImage>>> images(
      requests.size());
  {
    // Each worker compiles in the caller's context.
    CUcontext context = nullptr;
    (void)driver->cuCtxGetCurrent(&context);
    llvm::DefaultThreadPool pool(llvm::hardware_concurrency());
    for (size_t i = 0; i < requests.size(); ++i)
      pool.async([&, i] {
        (void)driver->cuCtxSetCurrent(context);
        images[i].emplace(Module::compilePTX(requests[i].kernel->ptx));
      });
    pool.wait();
  }
  for (size_t i = 0; i < requests.size(); ++i)
    loaded.push_back(finishLoad(requests[i].kernel, requests[i].what,
                                std::move(*images[i])));
  return loaded;
}
