//===- Pipeline.h - the compiler's stages, from mgp IR to PTX ---*- C++ -*-===//
//
// The contract between the stages of mgpc (and of the JIT). Each stage is one
// function, so a driver can stop after any of them and dump the module
// (`-emit=mlir|mlir-gpu|llvm|ptx`), and can re-enter at any of them from a
// `.mlir` file.
//
//===----------------------------------------------------------------------===//
#ifndef MGP_PIPELINE_PIPELINE_H
#define MGP_PIPELINE_PIPELINE_H

#include "compiler/api/KernelOptions.h"
#include "compiler/api/Target.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>

namespace mgp {

/// The stages, in order; a driver can stop after any of them (mgpc -emit=...).
enum class Stage { AST, MLIR, MLIRGPU, LLVM, PTX };

/// Registers every dialect the pipeline produces or consumes.
void registerAllDialects(mlir::DialectRegistry &registry);

/// The context of one compile: every dialect of registerAllDialects loaded,
/// and no thread pool. A compile runs on its caller's thread: mgpc compiles
/// one kernel per process, and the JIT's callers compile kernels
/// concurrently, each in its own context.
std::unique_ptr<mlir::MLIRContext> createCompileContext();

/// Target-independent passes on block-level mgp IR: inline, canonicalize, CSE,
/// combine, static_range unrolling, LICM. (compiler/transforms)
llvm::Error runTargetIndependentPasses(mlir::ModuleOp module);

/// GPU passes: assign layouts, coalesce, remove conversions, shared-memory
/// allocation and barriers. After this every tensor has an encoding. (compiler/codegen)
llvm::Error runGPUPasses(mlir::ModuleOp module, const KernelOptions &options,
                         const Target &target);

/// Lowers a module whose tensors carry layouts to LLVM IR (LLVM dialect + NVVM,
/// then translation), linked with libdevice where needed and optimised at O3.
llvm::Expected<std::unique_ptr<llvm::Module>>
lowerToLLVMIR(mlir::ModuleOp module, llvm::LLVMContext &llvmContext,
              const Target &target);

/// Runs LLVM's NVPTX backend on an LLVM module and returns the PTX text.
llvm::Expected<std::string> emitPTX(llvm::Module &module, const Target &target);

/// What runStages produced.
struct LoweredModule {
  std::unique_ptr<llvm::LLVMContext> llvmContext;
  std::unique_ptr<llvm::Module> llvmModule; ///< after Stage::LLVM
  std::string ptx;                          ///< after Stage::PTX
};

/// The stages after the front end, the one sequence every compile runs (the
/// JIT's compileKernel and mgpc alike): from `first` to `last` of
/// Stage::MLIR (the target-independent passes), Stage::MLIRGPU (the GPU
/// passes), Stage::LLVM (lowering to LLVM IR) and Stage::PTX. `module` is
/// transformed in place by the first two. `onStage`, when given, receives
/// each stage's name (`target-independent`, `gpu`, `llvm`, `ptx`) and wall
/// time in milliseconds as it finishes.
llvm::Expected<LoweredModule>
runStages(mlir::ModuleOp module, const KernelOptions &options,
          const Target &target, Stage first, Stage last,
          llvm::function_ref<void(llvm::StringRef, double)> onStage = {});

} // namespace mgp

#endif // MGP_PIPELINE_PIPELINE_H
