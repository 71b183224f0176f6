//===- KernelCompiler.h - the one way to a compiled kernel ------*- C++ -*-===//
//
// This file implements getCompiledKernel, the single compile entry of mgp:
// a KernelRequest (source, kernel name, specialization, options, arch; see
// runtime/CacheKey.h) in, the compiled kernel out - from the kernel cache
// (memory, then disk) under computeCacheKey's key, else compiled by
// compileKernel (compiler/pipeline/CompileKernel.h) and stored. Arch "cpu"
// compiles for the interpreter (kept in memory only). mgp::jit, the graph
// backends and the conv tuner, mgp-run's one-kernel mode and the C API all
// come through here, so caching, keys and options behave alike everywhere.
//
//===----------------------------------------------------------------------===//
#ifndef MGP_RUNTIME_JIT_KERNELCOMPILER_H
#define MGP_RUNTIME_JIT_KERNELCOMPILER_H

#include "runtime/CacheKey.h"
#include "runtime/KernelCache.h"

namespace mgp {

/// "add_kernel[*fp32:16,*fp32:16,i32:16,1024] sm_90 w4 s3 tf32": how
/// MGP_DEBUG and errors name \p request.
std::string describeRequest(const KernelRequest &request);

/// The compiled kernel for \p request: from \p cache, or compiled now (and
/// stored). \p source, when given, receives where it came from. Errors:
/// `compiling kernel 'K' for SIGNATURE:\n<the compiler's diagnostics>`.
/// MGP_DEBUG=1 adds one line per compile with the time of each stage.
llvm::Expected<std::shared_ptr<const CompiledKernel>>
getCompiledKernel(const KernelRequest &request,
                  KernelCache &cache = KernelCache::global(),
                  CacheSource *source = nullptr);

} // namespace mgp

#endif // MGP_RUNTIME_JIT_KERNELCOMPILER_H
