//===- RunVerified.h - a stage's pass pipeline, verified once -----*- C++ -*-===//
//
// This file implements mgp::runVerified, how each stage (target-independent,
// GPU, lowering to LLVM) runs its pass pipeline, and mgp::runUnverified for
// a stage's pipelines before its last.
//
//===----------------------------------------------------------------------===//
#ifndef MGP_PIPELINE_RUNVERIFIED_H
#define MGP_PIPELINE_RUNVERIFIED_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"

namespace mgp {

/// Runs `pm` on `module` as the first part of a stage whose end is verified
/// (runVerified): the IR is not verified here, except in
/// MGP_VERIFY_EACH_PASS builds (after every pass).
inline mlir::LogicalResult runUnverified(mlir::PassManager &pm,
                                         mlir::ModuleOp module) {
#ifndef MGP_VERIFY_EACH_PASS
  pm.enableVerifier(false);
#endif
  return pm.run(module);
}

/// Runs `pm` on `module` and verifies the result once. Builds with
/// MGP_VERIFY_EACH_PASS (the sanitizer and fuzz builds) verify after every
/// pass as well, as MLIR does by default, so that a pass that breaks the IR
/// is the one named; other builds skip that per-pass verification (about 5 %
/// of a small kernel's compile). Errors go to the context's diagnostics.
inline mlir::LogicalResult runVerified(mlir::PassManager &pm,
                                       mlir::ModuleOp module) {
  if (mlir::failed(runUnverified(pm, module)))
    return mlir::failure();
#ifndef MGP_VERIFY_EACH_PASS
  return mlir::verify(module);
#else
  return mlir::success();
#endif
}

} // namespace mgp

#endif // MGP_PIPELINE_RUNVERIFIED_H
