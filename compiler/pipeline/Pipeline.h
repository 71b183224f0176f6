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
#include <optional>
#include <string>
#include <thread>

namespace llvm {
class TargetMachine;
} // namespace llvm

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

/// An NVPTX target machine for `target`, created on a thread of its own
/// while the caller goes on with the front end: creating one builds the
/// subtarget and its lowering tables (about 0.5 ms and a few hundred fresh
/// pages), which then overlap the context, the parse and the MLIR stages.
class PendingTargetMachine {
public:
  explicit PendingTargetMachine(const Target &target);
  PendingTargetMachine(const PendingTargetMachine &) = delete;
  PendingTargetMachine &operator=(const PendingTargetMachine &) = delete;
  ~PendingTargetMachine();

  /// Waits for the machine, or the error that kept it from being created.
  /// Call it once.
  llvm::Expected<std::unique_ptr<llvm::TargetMachine>> take();

private:
  std::optional<llvm::Expected<std::unique_ptr<llvm::TargetMachine>>> result;
  std::thread worker;
};

/// Runs LLVM's NVPTX backend on an LLVM module and returns the PTX text; the
/// target machine is `machine`'s when given, else created here.
llvm::Expected<std::string> emitPTX(llvm::Module &module, const Target &target,
                                    PendingTargetMachine *machine = nullptr);

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
/// time in milliseconds as it finishes. Stage::PTX takes its target machine
/// from `machine` when given.
llvm::Expected<LoweredModule>
runStages(mlir::ModuleOp module, const KernelOptions &options,
          const Target &target, Stage first, Stage last,
          llvm::function_ref<void(llvm::StringRef, double)> onStage = {},
          PendingTargetMachine *machine = nullptr);

} // namespace mgp

#endif // MGP_PIPELINE_PIPELINE_H
