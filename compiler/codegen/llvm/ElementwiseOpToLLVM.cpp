//===- ElementwiseOpToLLVM.cpp - arith/math on tensors --------------------===//
//
// This file implements the lowering of element math: an arith or math op on
// distributed tensors becomes the same op once per register on scalars
// (which the upstream arith/math patterns then lower, so C semantics of
// divsi/remsi come from LLVM sdiv/srem); a splat tensor constant becomes one
// scalar constant in every register. Math functions without an LLVM
// instruction go to libdevice (`__nv_expf`, ...), linked by emitPTX.
//
//===----------------------------------------------------------------------===//
#include "compiler/codegen/llvm/Patterns.h"
#include "compiler/codegen/llvm/RegisterStruct.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;
using namespace mgp;

namespace {

bool isElementwiseDialect(Operation *op) {
  Dialect *dialect = op->getDialect();
  return dialect &&
         (isa<arith::ArithDialect>(dialect) || isa<math::MathDialect>(dialect));
}

/// Any arith/math op (but constants) whose results are tensors.
struct ElementwiseOpConversion : ConversionPattern {
  ElementwiseOpConversion(MgpLLVMTypeConverter &converter, MLIRContext *ctx)
      : ConversionPattern(converter, MatchAnyOpTypeTag(), kMgpPatternBenefit,
                          ctx) {}

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isElementwiseDialect(op) || isa<arith::ConstantOp>(op) ||
        op->getNumResults() != 1 || op->getNumRegions() != 0)
      return failure();
    auto resultType = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    if (!resultType)
      return failure();
    Location loc = op->getLoc();
    auto &converter = *getTypeConverter<MgpLLVMTypeConverter>();
    Type structType = converter.convertType(resultType);
    Type scalarType = converter.convertElementType(resultType.getElementType());
    if (!structType || !scalarType)
      return rewriter.notifyMatchFailure(op, "tensor without a layout");

    SmallVector<SmallVector<Value>> operandRegisters;
    for (Value operand : operands)
      operandRegisters.push_back(unpackRegisters(rewriter, loc, operand));
    size_t count = operandRegisters.front().size();
    SmallVector<Value> results;
    for (size_t i = 0; i < count; ++i) {
      OperationState state(loc, op->getName());
      for (auto &registers : operandRegisters)
        state.addOperands(registers[i]);
      state.addTypes(scalarType);
      state.addAttributes(op->getAttrs());
      results.push_back(rewriter.create(state)->getResult(0));
    }
    rewriter.replaceOp(op, packRegisters(rewriter, loc, structType, results));
    return success();
  }
};

/// `arith.constant dense<v> : tensor<...>` -> v in every register.
struct SplatConstantOpConversion : ConvertOpToLLVMPattern<arith::ConstantOp> {
  SplatConstantOpConversion(MgpLLVMTypeConverter &converter)
      : ConvertOpToLLVMPattern(converter, kMgpPatternBenefit) {}

  LogicalResult
  matchAndRewrite(arith::ConstantOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = dyn_cast<RankedTensorType>(op.getType());
    if (!type)
      return failure();
    auto dense = dyn_cast<DenseElementsAttr>(op.getValue());
    if (!dense || !dense.isSplat())
      return rewriter.notifyMatchFailure(op, "only splat tensor constants");
    Type structType = getTypeConverter()->convertType(type);
    if (!structType)
      return rewriter.notifyMatchFailure(op, "tensor without a layout");
    Location loc = op.getLoc();
    Type elementType = type.getElementType();
    Attribute scalar = dense.getSplatValue<Attribute>();
    Value value = LLVM::ConstantOp::create(rewriter, loc, elementType,
                                           cast<TypedAttr>(scalar));
    unsigned count =
        isa<LLVM::LLVMStructType>(structType)
            ? cast<LLVM::LLVMStructType>(structType).getBody().size()
            : 1;
    SmallVector<Value> registers(count, value);
    rewriter.replaceOp(op, packRegisters(rewriter, loc, structType, registers));
    return success();
  }
};

} // namespace

void mgp::populateElementwiseOpToLLVMPatterns(MgpLLVMTypeConverter &converter,
                                              RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<ElementwiseOpConversion>(converter, ctx);
  patterns.add<SplatConstantOpConversion>(converter);
  // Scalars: libdevice for transcendental functions before the generic
  // math-to-llvm intrinsics (NVPTX has no instruction for llvm.exp & co).
  populateLibDeviceConversionPatterns(converter, patterns, /*benefit=*/2);
  arith::populateArithToLLVMConversionPatterns(converter, patterns);
  populateMathToLLVMConversionPatterns(converter, patterns);
}
