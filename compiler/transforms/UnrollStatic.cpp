//===- UnrollStatic.cpp - the mgp-unroll-static pass ----------------------===//
//
// This file implements mgp-unroll-static: every scf.for carrying the
// `mgp.static_range` unit attribute is fully unrolled (tl.static_range).
//
//===----------------------------------------------------------------------===//
#include "compiler/transforms/Passes.h"

#include "mlir/Dialect/SCF/Utils/Utils.h"

namespace mgp {
#define GEN_PASS_DEF_MGPUNROLLSTATIC
#include "compiler/transforms/Passes.h.inc"
} // namespace mgp

using namespace mlir;
using namespace mgp;

namespace {
struct MgpUnrollStaticPass
    : public mgp::impl::MgpUnrollStaticBase<MgpUnrollStaticPass> {
  void runOnOperation() override {
    // Innermost loops first, so nested static loops unroll completely.
    SmallVector<scf::ForOp> loops;
    getOperation()->walk<WalkOrder::PostOrder>([&](scf::ForOp forOp) {
      if (forOp->hasAttr(kStaticRangeAttrName))
        loops.push_back(forOp);
    });
    for (scf::ForOp forOp : loops) {
      if (!getConstantIntValue(forOp.getLowerBound()) ||
          !getConstantIntValue(forOp.getUpperBound()) ||
          !getConstantIntValue(forOp.getStep())) {
        forOp.emitError("static_range loop needs constant bounds and step");
        return signalPassFailure();
      }
      if (failed(loopUnrollFull(forOp))) {
        forOp.emitError("could not unroll the static_range loop");
        return signalPassFailure();
      }
    }
  }
};
} // namespace
