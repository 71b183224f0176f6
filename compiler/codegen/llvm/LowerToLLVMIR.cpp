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
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

/// Runs `pm` (verified at the end when `verify`, else left to a later
/// verification of the stage) and collects the diagnostics of a failed run
/// into an llvm::Error.
static llvm::Error runCapturingDiagnostics(ModuleOp module, PassManager &pm,
                                           const llvm::Twine &what,
                                           bool verify) {
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
  if (succeeded(verify ? mgp::runVerified(pm, module)
                       : mgp::runUnverified(pm, module)))
    return llvm::Error::success();
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 what + " failed\n" + messages);
}

/// One pass of every op's folder over the module, in program order (so an
/// op sees its operands folded), then the ops that died erased: mostly each
/// llvm.extractvalue of an llvm.insertvalue chain becoming the value inserted
/// there, the struct traffic between lowered ops. What a greedy pattern
/// driver with no patterns does, without its worklist (about 5 % of a small
/// kernel's compile).
static void foldOnce(ModuleOp module) {
  OpBuilder builder(module.getContext());
  SmallVector<OpFoldResult, 4> folded;
  SmallVector<Operation *> ops;
  module.walk([&](Operation *op) { ops.push_back(op); });
  for (Operation *op : ops) {
    if (op->getNumResults() == 0 || op->getNumRegions() != 0 ||
        matchPattern(op, m_Constant()))
      continue;
    folded.clear();
    if (failed(op->fold(folded)) || folded.empty())
      continue; // not foldable, or folded in place
    SmallVector<Value, 4> replacements;
    SmallVector<Operation *, 4> made;
    builder.setInsertionPoint(op);
    for (auto [result, fold] : llvm::zip(op->getResults(), folded)) {
      if (auto value = llvm::dyn_cast_if_present<Value>(fold)) {
        replacements.push_back(value);
        continue;
      }
      Operation *constant = op->getDialect()->materializeConstant(
          builder, cast<Attribute>(fold), result.getType(), op->getLoc());
      if (!constant)
        break;
      made.push_back(constant);
      replacements.push_back(constant->getResult(0));
    }
    if (replacements.size() != op->getNumResults()) {
      // A constant this dialect cannot make: the op stays.
      for (Operation *constant : made)
        constant->erase();
      continue;
    }
    op->replaceAllUsesWith(replacements);
  }
  // Later ops first, so that chains (insertvalue after insertvalue) die
  // from their end.
  ops.clear();
  module.walk([&](Operation *op) {
    if (op != module.getOperation())
      ops.push_back(op);
  });
  for (Operation *op : llvm::reverse(ops))
    if (isOpTriviallyDead(op))
      op->erase();
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
  // Verified once, after the folding and CSE below.
  if (llvm::Error err = runCapturingDiagnostics(module, pm, "lowering to LLVM",
                                                /*verify=*/false))
    return std::move(err);
  // The lowering packs every block into an LLVM struct and unpacks it in
  // each user. Folding those extractvalue-of-insertvalue chains (and erasing
  // what dies) before translation, as Triton canonicalizes after its own
  // lowering, gives LLVM a third of the IR on big kernels, which its O3
  // pipeline would otherwise track field by field (SCCP's struct lattice):
  // a w8a8 matmul compiles in 0.14 instead of 0.32 s. Folding alone, without
  // the canonicalization patterns, is most of the gain for a fraction of
  // their cost; CSE then merges the index arithmetic the ops recompute.
  foldOnce(module);
  PassManager cse(ctx);
  cse.addPass(createCSEPass());
  if (llvm::Error err =
          runCapturingDiagnostics(module, cse, "lowering to LLVM", /*verify=*/true))
    return std::move(err);

  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(module, llvmContext, "mgp");
  if (!llvmModule)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "translation to LLVM IR failed");
  setNVPTXTarget(*llvmModule);
  return std::move(llvmModule);
}
