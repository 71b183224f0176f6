//===- CompileKernel.h - one kernel from source text to PTX -----*- C++ -*-===//
//
// This file implements the compiler behind every compiled kernel: the cached
// entry every caller uses (getCompiledKernel, runtime/jit/KernelCompiler.h)
// compiles through it on a miss. Source
// text, a kernel name, a Signature and options in; out come the block-level
// mgp module after the target-independent passes (what the CPU interpreter
// runs) and, when asked for, the PTX with its entry name, the dynamic shared
// memory and the warps a launch needs. Every stage is timed.
//
//===----------------------------------------------------------------------===//
#ifndef MGP_PIPELINE_COMPILEKERNEL_H
#define MGP_PIPELINE_COMPILEKERNEL_H

#include "compiler/pipeline/Pipeline.h"
#include "compiler/pipeline/Signature.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>
#include <vector>

namespace mgp {

/// Dot input precision a compilation forces: `Kernel` keeps what each dot
/// says (Triton's default, tf32), `IEEE` makes every f32 dot exact fp32.
enum class DotPrecision { Kernel, IEEE };

/// Parses "tf32" (the kernel's own choice, tf32 by default) or "ieee".
llvm::Expected<DotPrecision> parseDotPrecision(llvm::StringRef text);

/// What to compile.
struct KernelCompileInput {
  llvm::StringRef source;   ///< the whole file's text
  llvm::StringRef fileName; ///< for diagnostics ("kernel.mgp")
  llvm::StringRef kernelName;
  Signature signature; ///< one entry per parameter, constexprs as literals
  CompileOptions options;
  DotPrecision precision = DotPrecision::Kernel;
  bool emitPTX = true; ///< false: stop after the target-independent passes
  /// Folders searched for the modules the source imports helpers from
  /// (`from pkg.utils import f`), before the folder of `fileName` (when it
  /// names a file on disk) and its parents: compiler/frontend/ModuleLoader.h.
  std::vector<std::string> importPaths;
};

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
  std::string ptx;           ///< empty unless emitPTX
  std::string symbolName;    ///< the PTX .entry name
  unsigned sharedBytes = 0;  ///< dynamic shared memory per block
  int numWarps = 4;
  StageTimes times;
};

/// Compiles \p input. Errors carry the front end's or a pass's diagnostics.
llvm::Expected<KernelCompileResult>
compileKernel(const KernelCompileInput &input);

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
