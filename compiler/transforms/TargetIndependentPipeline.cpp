//===- TargetIndependentPipeline.cpp - passes before layouts --------------===//
//
// This file implements mgp::runTargetIndependentPasses (Pipeline.h): inline the
// helper functions, unroll static_range loops, canonicalize, mgp-combine, CSE
// and loop-invariant code motion, with optional pass timing.
//
//===----------------------------------------------------------------------===//
#include "compiler/pipeline/Pipeline.h"
#include "compiler/pipeline/RunVerified.h"
#include "compiler/transforms/Passes.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

namespace {
/// Erases the helper functions (func.func without mgp.kernel) that nothing
/// calls any more, when the module has at least one kernel.
void eraseInlinedHelpers(ModuleOp module) {
  auto funcs = llvm::to_vector(module.getOps<func::FuncOp>());
  if (llvm::none_of(funcs, [](func::FuncOp f) {
        return f->hasAttr(mgp::kKernelAttrName);
      }))
    return;
  for (func::FuncOp f : funcs)
    if (!f->hasAttr(mgp::kKernelAttrName) &&
        SymbolTable::symbolKnownUseEmpty(f, module))
      f.erase();
}
} // namespace

llvm::Error mgp::runTargetIndependentPasses(ModuleOp module) {
  MLIRContext *ctx = module.getContext();
  std::string diagnostics;
  llvm::raw_string_ostream os(diagnostics);
  ScopedDiagnosticHandler handler(ctx, [&](Diagnostic &diag) {
    os << diag.getLocation() << ": " << diag << "\n";
    return success();
  });

  PassManager pm(ctx);
  // mgpc's --mlir-timing, --mlir-print-ir-after-all, ...; no-ops elsewhere.
  (void)applyPassManagerCLOptions(pm);
  pm.addPass(createInlinerPass());
  pm.addPass(createMgpUnrollStatic());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createMgpCombine());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createLoopInvariantCodeMotionPass());
  pm.addPass(createCSEPass());
  if (failed(mgp::runVerified(pm, module)))
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "target-independent passes failed:\n" +
                                       diagnostics);
  eraseInlinedHelpers(module);
  return llvm::Error::success();
}
