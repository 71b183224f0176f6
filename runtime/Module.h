//===- Module.h - PTX loaded into the current context -----------*- C++ -*-===//
//
// This file implements Module, a move-only owner of a CUmodule made from PTX
// text by cuModuleLoadDataEx. The driver's JIT error and info logs are
// captured: a rejected PTX fails with an error that quotes the log, and the
// info log of a successful load is kept for MGP_DEBUG output.
//
//===----------------------------------------------------------------------===//
#ifndef MGP_RUNTIME_MODULE_H
#define MGP_RUNTIME_MODULE_H

#include "runtime/Function.h"

#include <string>

namespace mgp {

/// A loaded PTX module, unloaded with the object.
class Module {
public:
  /// JIT-compiles \p ptx for the current context's device and loads it.
  static llvm::Expected<Module> loadPTX(llvm::StringRef ptx);

  /// The kernel named \p name (the PTX .entry name).
  llvm::Expected<Function> getFunction(llvm::StringRef name) const;

  /// What the driver's PTX JIT said while loading (may be empty).
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
