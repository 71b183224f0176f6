//===- Function.h - a kernel in a loaded module, and its launch -*- C++ -*-===//
//
// This file implements Function, a handle on one kernel of a loaded Module (it
// does not own anything and is valid while the module lives), its attributes
// and its launch: a 1-3D grid, blocks of 32 * numWarps threads, dynamic shared
// memory (opting in through the function attribute above 48 KB) and a stream.
//
//===----------------------------------------------------------------------===//
#ifndef MGP_RUNTIME_FUNCTION_H
#define MGP_RUNTIME_FUNCTION_H

#include "runtime/CudaDriver.h"

#include <array>
#include <string>

namespace mgp {

/// How a kernel is launched.
struct LaunchConfig {
  std::array<unsigned, 3> grid = {1, 1, 1}; ///< programs along x, y, z
  int numWarps = 4;                         ///< block = 32 * numWarps threads
  unsigned sharedBytes = 0;                 ///< dynamic shared memory
  CUstream stream = nullptr;                ///< null: the default stream
};

/// The attributes the driver reports for a loaded kernel.
struct FunctionAttributes {
  int numRegs = 0;            ///< registers per thread
  int staticSharedBytes = 0;  ///< statically declared shared memory
  int localBytes = 0;         ///< local (spill) memory per thread
  int maxThreadsPerBlock = 0; ///< largest block this kernel can run
  int ptxVersion = 0;         ///< e.g. 87 for PTX 8.7
  int binaryVersion = 0;      ///< SASS arch, e.g. 90
};

/// The shared memory a block gets without opting in, on every arch since sm_70.
inline constexpr unsigned kDefaultSharedLimit = 48 * 1024;

/// A kernel of a loaded module.
class Function {
public:
  Function(CudaDriver &driver, CUfunction function, std::string name)
      : driver(&driver), function(function), kernelName(std::move(name)) {}

  /// Queries the driver for the kernel's attributes.
  llvm::Expected<FunctionAttributes> attributes() const;

  /// Raises the kernel's dynamic shared memory limit
  /// (CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES) to \p bytes.
  llvm::Error setMaxDynamicSharedBytes(unsigned bytes);

  /// Launches the kernel. \p args holds one pointer per kernel parameter,
  /// each to the parameter's value (cuLaunchKernel's kernelParams). Opts in
  /// to more than 48 KB of dynamic shared memory when the launch asks for it.
  llvm::Error launch(const LaunchConfig &config, void **args);

  CUfunction handle() const { return function; }
  const std::string &name() const { return kernelName; }

private:
  CudaDriver *driver;
  CUfunction function;
  std::string kernelName;
  unsigned sharedLimit = kDefaultSharedLimit; ///< what the kernel opted in to
};

} // namespace mgp

#endif // MGP_RUNTIME_FUNCTION_H
