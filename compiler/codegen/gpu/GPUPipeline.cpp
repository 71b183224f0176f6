//===- GPUPipeline.cpp - the GPU passes in pipeline order -----------------===//
//
// This file implements mgp::runGPUPasses (compiler/pipeline/Pipeline.h): the
// GPU passes in order (assign layouts, coalesce, remove layout conversions,
// canonicalize and CSE, allocate shared memory, insert barriers), with the
// verifier after each and optional pass timing. Diagnostics become the
// returned error.
//
//===----------------------------------------------------------------------===//
#include "compiler/codegen/gpu/Passes.h"
#include "compiler/pipeline/Pipeline.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

namespace mgp {

llvm::Error runGPUPasses(ModuleOp module, const CompileOptions &options) {
  MLIRContext *context = module.getContext();
  std::string messages;
  llvm::raw_string_ostream os(messages);
  ScopedDiagnosticHandler handler(context, [&](Diagnostic &diag) {
    os << diag.getLocation() << ": " << diag << "\n";
    return success();
  });

  PassManager pm(context);
  if (options.timePasses)
    pm.enableTiming();
  MgpAssignLayoutsOptions layoutOptions;
  layoutOptions.numWarps = options.numWarps;
  pm.addPass(createMgpAssignLayouts(layoutOptions));
  pm.addPass(createMgpCoalesce());
  pm.addPass(createMgpRemoveLayoutConversions());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createMgpAllocateShared());
  pm.addPass(createMgpInsertBarriers());
  if (failed(pm.run(module)))
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "GPU passes failed:\n" + messages);
  return llvm::Error::success();
}

} // namespace mgp
