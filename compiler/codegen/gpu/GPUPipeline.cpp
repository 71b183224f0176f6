//===- GPUPipeline.cpp - the GPU passes in pipeline order -----------------===//
//
// This file implements mgp::runGPUPasses (compiler/pipeline/Pipeline.h): the
// GPU passes in order (assign layouts, coalesce, remove layout conversions,
// canonicalize and CSE, stage mma dot operands, software pipelining when
// numStages >= 2, wgmma dots on sm_90a, allocate shared memory, insert
// barriers), with the verifier after each (and MLIR's pass-manager options when
// a tool registered them: mgpc --mlir-timing). Diagnostics become the returned
// error.
//
//===----------------------------------------------------------------------===//
#include "compiler/codegen/gpu/Passes.h"
#include "compiler/ir/MgpDialect.h"
#include "compiler/pipeline/Pipeline.h"
#include "compiler/pipeline/RunVerified.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

namespace mgp {

llvm::Error runGPUPasses(ModuleOp module, const KernelOptions &options,
                         const Target &target) {
  MLIRContext *context = module.getContext();
  std::string messages;
  llvm::raw_string_ostream os(messages);
  ScopedDiagnosticHandler handler(context, [&](Diagnostic &diag) {
    os << diag.getLocation() << ": " << diag << "\n";
    return success();
  });

  // TMA (descriptors with a host-encoded tensor map) exists from sm_90 on.
  if (target.computeCapability() < 90) {
    Operation *tma = nullptr;
    module.walk([&](Operation *op) {
      if (isa<TensorMapLoadOp, TensorMapStoreOp>(op) && !tma)
        tma = op;
    });
    if (tma) {
      tma->emitError("a tensor descriptor with a tensor map (TMA) needs "
                     "sm_90 or newer; this kernel is compiled for ")
          << target.arch();
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "GPU passes failed:\n" + messages);
    }
  }

  PassManager pm(context);
  // mgpc's --mlir-timing, --mlir-print-ir-after-all, ...; no-ops elsewhere.
  (void)applyPassManagerCLOptions(pm);
  MgpAssignLayoutsOptions layoutOptions;
  layoutOptions.numWarps = options.numWarps;
  layoutOptions.computeCapability = target.computeCapability();
  // wgmma exists only on the architecture-specific target sm_90a (PTX for
  // it loads on compute capability 9.0 only); plain sm_90 keeps mma.sync.
  layoutOptions.wgmma = target.hasWgmma();
  pm.addPass(createMgpAssignLayouts(layoutOptions));
  MgpCoalesceOptions coalesceOptions;
  // atom.global.add.v2/v4.f32 needs sm_90.
  coalesceOptions.vectorAtomics = target.computeCapability() >= 90;
  pm.addPass(createMgpCoalesce(coalesceOptions));
  pm.addPass(createMgpRemoveLayoutConversions());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createMgpStageDotOperands());
  if (options.numStages >= 2 && target.hasAsyncCopy()) {
    MgpPipelineOptions pipelineOptions;
    pipelineOptions.numStages = options.numStages;
    // sm_90 blocks may opt in to 227 KiB of shared memory.
    if (target.computeCapability() >= 90)
      pipelineOptions.sharedBudget = 192 * 1024;
    pm.addPass(createMgpPipeline(pipelineOptions));
  }
  pm.addPass(createMgpFuseWarpGroupDot());
  pm.addPass(createMgpAllocateShared());
  pm.addPass(createMgpInsertBarriers());
  if (failed(mgp::runVerified(pm, module)))
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "GPU passes failed:\n" + messages);
  return llvm::Error::success();
}

} // namespace mgp
