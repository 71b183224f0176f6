//===- GPUPipeline.cpp - the GPU passes in pipeline order -----------------===//
//
// This file implements mgp::runGPUPasses (compiler/pipeline/Pipeline.h): the
// GPU passes in order (assign layouts, coalesce, remove layout conversions,
// canonicalize and CSE, stage mma dot operands, software pipelining when
// numStages >= 2, wgmma dots on sm_90a, allocate shared memory, insert
// barriers), with the verifier after each and optional pass timing. Diagnostics become the
// returned error.
//
//===----------------------------------------------------------------------===//
#include "compiler/codegen/gpu/AsyncCopyWidth.h"
#include "compiler/codegen/gpu/Passes.h"
#include "compiler/pipeline/Pipeline.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

namespace mgp {

/// 80 for "sm_80", 90 for "sm_90a"; 0 when `arch` is not sm_<digits>.
static int getComputeCapability(llvm::StringRef arch) {
  int version = 0;
  if (!arch.consume_front("sm_"))
    return 0;
  arch = arch.take_while([](char c) { return c >= '0' && c <= '9'; });
  if (arch.getAsInteger(10, version))
    return 0;
  return version;
}

/// wgmma exists only on the architecture-specific target sm_90a (PTX for it
/// loads on compute capability 9.0 only); plain sm_90 keeps mma.sync.
static bool hasWgmma(llvm::StringRef arch) { return arch == "sm_90a"; }

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
  layoutOptions.computeCapability = getComputeCapability(options.arch);
  layoutOptions.wgmma = hasWgmma(options.arch);
  pm.addPass(createMgpAssignLayouts(layoutOptions));
  pm.addPass(createMgpCoalesce());
  pm.addPass(createMgpRemoveLayoutConversions());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createMgpStageDotOperands());
  if (options.numStages >= 2 && supportsAsyncCopy(options.arch)) {
    MgpPipelineOptions pipelineOptions;
    pipelineOptions.numStages = options.numStages;
    // sm_90 blocks may opt in to 227 KiB of shared memory.
    if (getComputeCapability(options.arch) >= 90)
      pipelineOptions.sharedBudget = 192 * 1024;
    pm.addPass(createMgpPipeline(pipelineOptions));
  }
  pm.addPass(createMgpFuseWarpGroupDot());
  pm.addPass(createMgpAllocateShared());
  pm.addPass(createMgpInsertBarriers());
  if (failed(pm.run(module)))
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "GPU passes failed:\n" + messages);
  return llvm::Error::success();
}

} // namespace mgp
