//===- CompileKernel.h - one kernel from source text to PTX -----*- C++ -*-===//
//
// This file implements the compiler behind every compiled kernel: the cached
// entry every caller uses (getCompiledKernel, runtime/jit/KernelCompiler.h)
// compiles through it on a miss. A KernelRequest (source text, kernel name,
// Signature, options, target) in; out come the block-level
// mgp module after the target-independent passes (what the CPU interpreter
// runs) and, when asked for, the PTX with its entry name, the dynamic shared
// memory and the warps a launch needs. Every stage is timed.
//
//===----------------------------------------------------------------------===//
#ifndef MGP_PIPELINE_COMPILEKERNEL_H
#define MGP_PIPELINE_COMPILEKERNEL_H

#include "compiler/api/KernelRequest.h"
#include "compiler/pipeline/Pipeline.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>
#include <vector>

namespace mgp {

/// Wall time of each stage, in milliseconds (0 for stages not run).
struct StageTimes {
  double parse = 0, mlirgen = 0, targetIndependent = 0, gpu = 0, llvm = 0,
         ptx = 0;
  double total() const {
    return parse + mlirgen + targetIndependent + gpu + llvm + ptx;
  }
};

/// A compiled kernel.
struct KernelCompileResult {
  std::unique_ptr<mlir::MLIRContext> context;
  /// The block-level module after the target-independent passes (before the
  /// GPU passes), for the interpreter.
  mlir::OwningOpRef<mlir::ModuleOp> module;
  mlir::func::FuncOp kernel; ///< the kernel in `module`
  std::string ptx;           ///< empty for the interpreter (Target::cpu())
  std::string symbolName;    ///< the PTX .entry name
  unsigned sharedBytes = 0;  ///< dynamic shared memory per block
  int numWarps = 4;
  StageTimes times;
};

/// Compiles \p request: to PTX for a GPU target, only to the block-level
/// module for Target::cpu(). Errors carry the front end's or a pass's
/// diagnostics.
llvm::Expected<KernelCompileResult> compileKernel(const KernelRequest &request);

/// The names of the @jit kernels in \p source with their parameters, and for
/// each parameter whether it is annotated constexpr.
struct KernelParamInfo {
  std::string name;
  bool isConstexpr = false;
};
llvm::Expected<std::vector<KernelParamInfo>>
getKernelParams(llvm::StringRef source, llvm::StringRef fileName,
                llvm::StringRef kernelName);

} // namespace mgp

#endif // MGP_PIPELINE_COMPILEKERNEL_H
