//===- CompileFn.h - the compiler as the runtime's KernelCompileFn -*- C++ -*-=//
//
// This file implements the plug between the runtime and the compiler: a
// KernelCompileFn that turns a CompileRequest (source, kernel name, the
// specialization, options) into compileKernel's input - the specialization
// becomes a Signature in Triton's syntax, KernelOptions become
// CompileOptions, the precision a DotPrecision - and its PTX into a
// CompiledKernel.
//
//===----------------------------------------------------------------------===//
#ifndef MGP_RUNTIME_JIT_COMPILEFN_H
#define MGP_RUNTIME_JIT_COMPILEFN_H

#include "compiler/pipeline/CompileKernel.h"
#include "runtime/CompiledKernel.h"

namespace mgp {

/// compileKernel's input for \p request, compiling \p source (which must
/// outlive the result) named \p fileName; emitPTX is set.
llvm::Expected<KernelCompileInput>
makeCompileInput(const CompileRequest &request, llvm::StringRef source,
                 llvm::StringRef fileName);

/// A KernelCompileFn. With \p source empty it compiles the request's own
/// text (the normalized source, which compiles on its own); otherwise it
/// compiles \p source (the whole file, so diagnostics quote its lines).
/// MGP_DEBUG=1 adds one line with the time of each stage.
KernelCompileFn makeKernelCompileFn(std::string source = "",
                                    std::string fileName = "<jit>");

} // namespace mgp

#endif // MGP_RUNTIME_JIT_COMPILEFN_H
