//===- LowerToLLVMIR.cpp - mgp with layouts to an LLVM module -------------===//
//
// This file implements mgp::lowerToLLVMIR (compiler/pipeline/Pipeline.h):
// the mgp-to-llvm pass, folding and CSE, then translation of the LLVM and
// NVVM dialects to an llvm::Module with the NVPTX triple and data layout of
// the target.
// Linking libdevice and O3 happen in emitPTX.
//
//===----------------------------------------------------------------------===//
#include "compiler/codegen/llvm/PTXEmitter.h"
#include "compiler/codegen/llvm/Passes.h"
#include "compiler/pipeline/Pipeline.h"
#include "compiler/pipeline/RunVerified.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

/// Collects the diagnostics of a failed pass run into an llvm::Error.
static llvm::Error runCapturingDiagnostics(ModuleOp module, PassManager &pm,
                                           const llvm::Twine &what) {
  std::string messages;
  llvm::raw_string_ostream stream(messages);
  ScopedDiagnosticHandler handler(module.getContext(), [&](Diagnostic &diag) {
    if (diag.getSeverity() == DiagnosticSeverity::Error) {
      stream << diag.getLocation() << ": error: " << diag << "\n";
      for (Diagnostic &note : diag.getNotes())
        stream << note.getLocation() << ": note: " << note << "\n";
    }
    return success();
  });
  if (succeeded(mgp::runVerified(pm, module)))
    return llvm::Error::success();
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 what + " failed\n" + messages);
}

llvm::Expected<std::unique_ptr<llvm::Module>>
mgp::lowerToLLVMIR(ModuleOp module, llvm::LLVMContext &llvmContext,
                   const Target &target) {
  if (target.isCPU())
    return llvm::createStringError("the interpreter target 'cpu' has no PTX");

  MLIRContext *ctx = module.getContext();
  DialectRegistry registry;
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  registerNVVMDialectTranslation(registry);
  ctx->appendDialectRegistry(registry);

  PassManager pm(ctx);
  // mgpc's --mlir-timing, --mlir-print-ir-after-all, ...; no-ops elsewhere.
  (void)applyPassManagerCLOptions(pm);
  MgpToLLVMOptions lowering;
  lowering.computeCapability = target.computeCapability();
  pm.addPass(createMgpToLLVM(lowering));
  if (llvm::Error err = runCapturingDiagnostics(module, pm, "lowering to LLVM"))
    return std::move(err);
  // The lowering packs every block into an LLVM struct and unpacks it in
  // each user. Folding those extractvalue-of-insertvalue chains (and erasing
  // what dies) before translation, as Triton canonicalizes after its own
  // lowering, gives LLVM a third of the IR on big kernels, which its O3
  // pipeline would otherwise track field by field (SCCP's struct lattice):
  // a w8a8 matmul compiles in 0.14 instead of 0.32 s. Folding alone, without
  // the canonicalization patterns, is most of the gain for a fraction of
  // their cost; CSE then merges the index arithmetic the ops recompute.
  GreedyRewriteConfig foldOnly;
  foldOnly.setUseTopDownTraversal()
      .setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled)
      .setMaxIterations(2);
  (void)applyPatternsGreedily(
      module, FrozenRewritePatternSet(RewritePatternSet(ctx)), foldOnly);
  PassManager cse(ctx);
  cse.addPass(createCSEPass());
  if (llvm::Error err = runCapturingDiagnostics(module, cse, "CSE"))
    return std::move(err);

  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(module, llvmContext, "mgp");
  if (!llvmModule)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "translation to LLVM IR failed");
  setNVPTXTarget(*llvmModule);
  return std::move(llvmModule);
}
