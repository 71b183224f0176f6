//===- KernelCompiler.cpp - the one way to a compiled kernel --------------===//
//
// This file implements getCompiledKernel: the key, the cache lookup, and on a
// miss compileKernel to PTX (or, for arch "cpu", to the block-level module
// the interpreter compiles).
//
//===----------------------------------------------------------------------===//
#include "runtime/jit/KernelCompiler.h"

#include "compiler/api/Environment.h"
#include "compiler/pipeline/CompileKernel.h"
#include "runtime/interp/Interpreter.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"


using namespace mgp;

std::string mgp::describeRequest(const KernelRequest &request) {
  const KernelOptions &options = request.options;
  return llvm::formatv("{0}[{1}] {2} w{3} s{4} {5}{6}", request.kernelName,
                       request.signature.str(), request.target.arch(),
                       options.numWarps, options.numStages,
                       dotPrecisionName(options.precision),
                       options.reflectFtz ? "" : " no-ftz")
      .str();
}

namespace {
/// An interpreter kernel with the IR it was compiled from.
struct InterpEntry {
  KernelCompileResult compiled;
  std::optional<InterpKernel> kernel;
};
} // namespace

/// Compiles \p request (the cache missed).
static llvm::Expected<CompiledKernel> compile(const KernelRequest &request) {
  llvm::Expected<KernelCompileResult> result = compileKernel(request);
  if (!result)
    return result.takeError();
  if (isEnvOn(EnvVar::Debug)) {
    const StageTimes &t = result->times;
    llvm::errs() << llvm::formatv(
        "mgp: stages of {0}: parse {1:f1} ms, mlirgen {2:f1}, passes "
        "{3:f1}, gpu {4:f1}, llvm {5:f1}, ptx {6:f1}\n",
        request.kernelName, t.parse, t.mlirgen, t.targetIndependent, t.gpu,
        t.llvm, t.ptx);
  }
  CompiledKernel kernel;
  kernel.name = result->symbolName;
  kernel.sharedBytes = result->sharedBytes;
  kernel.numWarps = result->numWarps;
  kernel.numStages = request.options.numStages;
  kernel.arch = request.target.arch().str();
  if (!request.target.isCPU()) {
    kernel.ptx = std::move(result->ptx);
    return kernel;
  }
  auto entry = std::make_shared<InterpEntry>();
  entry->compiled = std::move(*result);
  llvm::Expected<InterpKernel> interp =
      InterpKernel::compile(entry->compiled.kernel);
  if (!interp)
    return interp.takeError();
  entry->kernel.emplace(std::move(*interp));
  // The kernel keeps its entry (and so its IR) alive.
  kernel.interp = std::shared_ptr<const InterpKernel>(entry, &*entry->kernel);
  return kernel;
}

llvm::Expected<std::shared_ptr<const CompiledKernel>>
mgp::getCompiledKernel(const KernelRequest &request, KernelCache &cache,
                       CacheSource *source) {
  std::string key = computeCacheKey(request);
  return cache.getOrCompile(
      key, describeRequest(request),
      [&]() -> llvm::Expected<CompiledKernel> {
        llvm::Expected<CompiledKernel> compiled = compile(request);
        if (!compiled)
          return llvm::createStringError(llvm::formatv(
              "compiling kernel '{0}' for {1}:\n{2}", request.kernelName,
              request.signature.str(), llvm::toString(compiled.takeError())));
        return compiled;
      },
      source,
      request.target.isCPU() ? CacheScope::Memory : CacheScope::MemoryAndDisk);
}
