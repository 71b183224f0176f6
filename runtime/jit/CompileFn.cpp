//===- CompileFn.cpp - the compiler as the runtime's KernelCompileFn ------===//
//
// This file implements makeCompileInput and makeKernelCompileFn.
//
//===----------------------------------------------------------------------===//
#include "runtime/jit/CompileFn.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

using namespace mgp;

llvm::Expected<KernelCompileInput>
mgp::makeCompileInput(const CompileRequest &request, llvm::StringRef source,
                      llvm::StringRef fileName) {
  assert(request.specialization && "a request carries its specialization");
  KernelCompileInput input;
  input.source = source;
  input.fileName = fileName;
  input.kernelName = request.kernelName;
  llvm::Expected<Signature> signature =
      parseSignature(request.specialization->str());
  if (!signature)
    return signature.takeError();
  input.signature = std::move(*signature);
  input.options.arch = request.options.arch;
  input.options.numWarps = request.options.numWarps;
  input.options.numStages = request.options.numStages;
  llvm::Expected<DotPrecision> precision =
      parseDotPrecision(request.options.precision);
  if (!precision)
    return precision.takeError();
  input.precision = *precision;
  input.emitPTX = true;
  return input;
}

static bool debugEnabled() {
  const char *value = std::getenv("MGP_DEBUG");
  return value && *value && llvm::StringRef(value) != "0";
}

KernelCompileFn mgp::makeKernelCompileFn(std::string source,
                                         std::string fileName) {
  return [source = std::move(source), fileName = std::move(fileName)](
             const CompileRequest &request) -> llvm::Expected<CompiledKernel> {
    llvm::StringRef text = source.empty() ? request.source : source;
    llvm::Expected<KernelCompileInput> input =
        makeCompileInput(request, text, fileName);
    if (!input)
      return input.takeError();
    llvm::Expected<KernelCompileResult> result = compileKernel(*input);
    if (!result)
      return result.takeError();
    if (debugEnabled()) {
      const StageTimes &t = result->times;
      llvm::errs() << llvm::formatv(
          "mgp: stages of {0}: parse {1:f1} ms, mlirgen {2:f1}, passes "
          "{3:f1}, gpu {4:f1}, llvm {5:f1}, ptx {6:f1}\n",
          request.kernelName, t.parse, t.mlirgen, t.targetIndependent, t.gpu,
          t.llvm, t.ptx);
    }
    CompiledKernel kernel;
    kernel.name = result->symbolName;
    kernel.ptx = std::move(result->ptx);
    kernel.sharedBytes = result->sharedBytes;
    kernel.numWarps = result->numWarps;
    kernel.numStages = request.options.numStages;
    kernel.arch = request.options.arch;
    return kernel;
  };
}
