//===- ProgramIdOpToLLVM.cpp - program ids to special registers -----------===//
//
// This file implements the lowering of mgp.program_id (ctaid) and
// mgp.num_programs (nctaid) through TargetInfo.
//
//===----------------------------------------------------------------------===//
#include "compiler/codegen/llvm/Patterns.h"
#include "compiler/ir/MgpDialect.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"

using namespace mlir;
using namespace mgp;

namespace {

template <typename OpT>
struct GridQueryOpConversion : ConvertOpToLLVMPattern<OpT> {
  GridQueryOpConversion(MgpLLVMTypeConverter &converter,
                        const TargetInfo &target)
      : ConvertOpToLLVMPattern<OpT>(converter, kMgpPatternBenefit),
        target(target) {}

  LogicalResult
  matchAndRewrite(OpT op, typename OpT::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    int axis = op.getAxis();
    Value value = std::is_same_v<OpT, ProgramIdOp>
                      ? target.getProgramId(rewriter, op.getLoc(), axis)
                      : target.getNumPrograms(rewriter, op.getLoc(), axis);
    rewriter.replaceOp(op, value);
    return success();
  }

  const TargetInfo &target;
};

} // namespace

void mgp::populateProgramIdOpToLLVMPatterns(MgpLLVMTypeConverter &converter,
                                            RewritePatternSet &patterns,
                                            const TargetInfo &target) {
  patterns.add<GridQueryOpConversion<ProgramIdOp>,
               GridQueryOpConversion<NumProgramsOp>>(converter, target);
}
