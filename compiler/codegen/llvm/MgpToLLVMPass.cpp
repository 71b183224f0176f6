//===- MgpToLLVMPass.cpp - the mgp-to-LLVM conversion pass ----------------===//
//
// This file implements the `mgp-to-llvm` pass: scf-to-cf first (so
// loop-carried register structs become block arguments), then one dialect
// conversion with every lowering file's patterns, the kernel attributes, and
// `convert-nvvm-to-llvm` plus reconcile-unrealized-casts.
//
//===----------------------------------------------------------------------===//
#include "compiler/codegen/llvm/Fp8ConvertOpToLLVM.h"
#include "compiler/codegen/llvm/Passes.h"
#include "compiler/codegen/llvm/Patterns.h"
#include "compiler/ir/MgpDialect.h"

#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/LLVMCommon/ConversionTarget.h"
#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mgp {
#define GEN_PASS_DEF_MGPTOLLVM
#include "compiler/codegen/llvm/Passes.h.inc"
} // namespace mgp

using namespace mlir;
using namespace mgp;

namespace {

struct MgpToLLVMPass : mgp::impl::MgpToLLVMBase<MgpToLLVMPass> {
  using MgpToLLVMBase::MgpToLLVMBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();

    OpPassManager preparation("builtin.module");
    preparation.addPass(createSCFToControlFlowPass());
    if (failed(runPipeline(preparation, module)))
      return signalPassFailure();

    MgpLLVMTypeConverter converter(ctx);
    std::unique_ptr<TargetInfo> target = createNVPTXTargetInfo();
    RewritePatternSet patterns(ctx);
    populateFuncOpToLLVMPatterns(converter, patterns);
    populateElementwiseOpToLLVMPatterns(converter, patterns);
    populateFp8ConvertOpToLLVMPatterns(converter, patterns, computeCapability);
    populateMapElementwiseOpToLLVMPatterns(converter, patterns);
    populateMakeRangeOpToLLVMPatterns(converter, patterns, *target);
    populateViewOpsToLLVMPatterns(converter, patterns);
    populateLoadStoreOpToLLVMPatterns(converter, patterns, *target);
    populateReduceOpToLLVMPatterns(converter, patterns, *target);
    populateScanOpToLLVMPatterns(converter, patterns, *target);
    populateAtomicOpToLLVMPatterns(converter, patterns, *target);
    populateMiscOpToLLVMPatterns(converter, patterns, *target);
    populateConvertLayoutOpToLLVMPatterns(converter, patterns, *target);
    populateTensorMapOpToLLVMPatterns(converter, patterns, *target);
    populateLocalMemOpToLLVMPatterns(converter, patterns, *target);
    populateDotOperandLoadToLLVMPatterns(converter, patterns, *target);
    populateAsyncCopyOpToLLVMPatterns(converter, patterns, *target,
                                      computeCapability);
    populateDotOpToLLVMPatterns(converter, patterns);
    populateWarpGroupDotOpToLLVMPatterns(converter, patterns, *target);
    populateProgramIdOpToLLVMPatterns(converter, patterns, *target);
    populateBarrierOpToLLVMPatterns(converter, patterns, *target);
    cf::populateControlFlowToLLVMConversionPatterns(converter, patterns);

    LLVMConversionTarget conversionTarget(*ctx);
    conversionTarget.addLegalDialect<NVVM::NVVMDialect>();
    conversionTarget.addLegalOp<ModuleOp>();
    conversionTarget
        .addIllegalDialect<MgpDialect, arith::ArithDialect, math::MathDialect,
                           func::FuncDialect, cf::ControlFlowDialect>();
    if (failed(applyPartialConversion(module, conversionTarget,
                                      std::move(patterns))))
      return signalPassFailure();
    finalizeKernelAttributes(module);

    OpPassManager cleanup("builtin.module");
    cleanup.addPass(createConvertNVVMToLLVMPass());
    cleanup.addPass(createReconcileUnrealizedCastsPass());
    if (failed(runPipeline(cleanup, module)))
      return signalPassFailure();
  }
};

} // namespace
