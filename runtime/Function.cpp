//===- Function.cpp - a kernel in a loaded module, and its launch ---------===//
//
// This file implements the attribute queries of a kernel and its launch. The
// launch configuration is validated here so that a bad grid or warp count is
// reported in mgp's terms rather than as CUDA_ERROR_INVALID_VALUE.
//
//===----------------------------------------------------------------------===//
#include "runtime/Function.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mgp;

llvm::Expected<FunctionAttributes> Function::attributes() const {
  FunctionAttributes attrs;
  struct {
    CUfunction_attribute attribute;
    int *value;
  } queries[] = {
      {CU_FUNC_ATTRIBUTE_NUM_REGS, &attrs.numRegs},
      {CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, &attrs.staticSharedBytes},
      {CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, &attrs.localBytes},
      {CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, &attrs.maxThreadsPerBlock},
      {CU_FUNC_ATTRIBUTE_PTX_VERSION, &attrs.ptxVersion},
      {CU_FUNC_ATTRIBUTE_BINARY_VERSION, &attrs.binaryVersion},
  };
  for (auto &query : queries)
    if (llvm::Error err = driver->check(
            driver->cuFuncGetAttribute(query.value, query.attribute, function),
            "cuFuncGetAttribute"))
      return std::move(err);
  return attrs;
}

llvm::Error Function::setMaxDynamicSharedBytes(unsigned bytes) {
  if (llvm::Error err = driver->check(
          driver->cuFuncSetAttribute(
              function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
              static_cast<int>(bytes)),
          "cuFuncSetAttribute"))
    return llvm::createStringError(
        llvm::formatv("kernel '{0}' cannot use {1} bytes of dynamic shared "
                      "memory: {2}",
                      kernelName, bytes, llvm::toString(std::move(err))));
  sharedLimit = bytes;
  return llvm::Error::success();
}

llvm::Error Function::launch(const LaunchConfig &config, void **args) {
  for (unsigned dim : config.grid)
    if (dim == 0)
      return llvm::createStringError(llvm::formatv(
          "kernel '{0}': grid ({1}, {2}, {3}) has an empty dimension",
          kernelName, config.grid[0], config.grid[1], config.grid[2]));
  if (config.numWarps < 1 || config.numWarps > 32)
    return llvm::createStringError(
        llvm::formatv("kernel '{0}': num_warps must be in 1..32, got {1}",
                      kernelName, config.numWarps));
  if (config.sharedBytes > sharedLimit)
    if (llvm::Error err = setMaxDynamicSharedBytes(config.sharedBytes))
      return err;
  unsigned blockX = 32u * static_cast<unsigned>(config.numWarps);
  if (llvm::Error err = driver->check(
          driver->cuLaunchKernel(
              function, config.grid[0], config.grid[1], config.grid[2], blockX,
              1, 1, config.sharedBytes, config.stream, args, nullptr),
          "cuLaunchKernel"))
    return llvm::createStringError(
        llvm::formatv("launching kernel '{0}': {1}", kernelName,
                      llvm::toString(std::move(err))));
  return llvm::Error::success();
}
