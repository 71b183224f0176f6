//===- LoadedKernel.cpp - a compiled kernel in the current context --------===//
//
// This file implements LoadedKernel::load.
//
//===----------------------------------------------------------------------===//
#include "runtime/LoadedKernel.h"

using namespace mgp;

llvm::Expected<LoadedKernel>
LoadedKernel::load(std::shared_ptr<const CompiledKernel> kernel,
                   llvm::StringRef what) {
  llvm::Expected<Module> module = Module::loadPTX(kernel->ptx);
  if (!module)
    return llvm::createStringError("loading kernel " + what + ": " +
                                   llvm::toString(module.takeError()));
  llvm::Expected<Function> function = module->getFunction(kernel->name);
  if (!function)
    return function.takeError();
  return LoadedKernel{std::move(kernel), std::move(*module),
                      std::move(*function)};
}
