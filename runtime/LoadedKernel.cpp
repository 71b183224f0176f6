//===- LoadedKernel.cpp - a compiled kernel in the current context --------===//
//
// This file implements LoadedKernel::load and loadAll.
//
//===----------------------------------------------------------------------===//
#include "runtime/LoadedKernel.h"

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
  std::vector<std::optional<llvm::Expected<DeviceImage>>> images(
      requests.size());
  std::vector<size_t> toCompile;
  for (size_t i = 0; i < requests.size(); ++i)
    if (requests[i].image)
      images[i].emplace(*requests[i].image);
    else
      toCompile.push_back(i);
  // Each worker compiles for the caller's context. Without one (or without
  // a driver) compilePTX reports it, as load() always has.
  CUcontext context = Module::currentContext();
  if (context && toCompile.size() > 1) {
    llvm::DefaultThreadPool pool(llvm::hardware_concurrency());
    for (size_t i : toCompile)
      pool.async([&, i] {
        images[i].emplace(Module::compilePTX(requests[i].kernel->ptx, context));
      });
    pool.wait();
  } else {
    for (size_t i : toCompile)
      images[i].emplace(Module::compilePTX(requests[i].kernel->ptx));
  }
  std::vector<llvm::Expected<LoadedKernel>> loaded;
  for (size_t i = 0; i < requests.size(); ++i)
    loaded.push_back(finishLoad(requests[i].kernel, requests[i].what,
                                std::move(*images[i])));
  return loaded;
}
