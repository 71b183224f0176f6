//===- KernelRequest.h - one kernel to compile ------------------*- C++ -*-===//
//
// This file implements KernelRequest, the input of mgp's one compile entry:
// source, kernel name, specialization (a Signature), options and target. The
// compiler compiles it (compileKernel, compiler/pipeline/CompileKernel.h),
// the runtime keys its cache by it (computeCacheKey, runtime/CacheKey.h) and
// answers it (getCompiledKernel, runtime/jit/KernelCompiler.h); every caller
// - mgp::jit, the graph backends, mgp-run, the C API - makes one.
//
//===----------------------------------------------------------------------===//
#ifndef MGP_COMPILER_API_KERNELREQUEST_H
#define MGP_COMPILER_API_KERNELREQUEST_H

#include "compiler/api/KernelOptions.h"
#include "compiler/api/Signature.h"
#include "compiler/api/Target.h"

#include "llvm/ADT/StringRef.h"

#include <string>

namespace mgp {

/// One kernel to compile for one specialization.
struct KernelRequest {
  /// The whole file's text: compiled as it is (diagnostics quote its lines);
  /// the cache key covers only the kernel and what it uses
  /// (normalizeKernelSource).
  llvm::StringRef source;
  std::string fileName = "<jit>"; ///< names the source in diagnostics
  std::string kernelName;
  Signature signature; ///< the specialization, one entry per parameter
  KernelOptions options;
  Target target; ///< a GPU, or Target::cpu() for the interpreter
};

} // namespace mgp

#endif // MGP_COMPILER_API_KERNELREQUEST_H
