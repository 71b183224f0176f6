//===- ConvertLayoutOpToLLVM.cpp - mgp.convert_layout ---------------------===//
//
// This file implements the lowering of mgp.convert_layout. When every thread
// already holds the elements it needs, the conversion is a register
// permutation. Otherwise it goes through the op's shared scratch buffer at
// `mgp.allocation.offset`: every thread stores all its registers at their
// element offsets, a barrier, then every thread loads the elements of the new
// layout. The scratch layout (row-major, rows padded) is SharedScratch.h's.
//
//===----------------------------------------------------------------------===//
#include "compiler/codegen/gpu/SharedScratch.h"
#include "compiler/codegen/llvm/ElementIndices.h"
#include "compiler/codegen/llvm/Patterns.h"
#include "compiler/codegen/llvm/RegisterStruct.h"
#include "compiler/ir/MgpDialect.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;
using namespace mgp;

namespace {

/// The scratch element index of `coords`, as ConvertScratchLayout::getOffset.
Value emitScratchOffset(OpBuilder &b, Location loc, ValueRange coords,
                        const ConvertScratchLayout &layout) {
  ArrayRef<int64_t> shape = layout.shape;
  Value row = emitLinearOffset(b, loc, coords.drop_back(), shape.drop_back());
  Value rowStart =
      LLVM::MulOp::create(b, loc, row, i32Constant(b, loc, layout.rowStride));
  return LLVM::AddOp::create(b, loc, rowStart, coords.back());
}

struct ConvertLayoutOpConversion : ConvertOpToLLVMPattern<ConvertLayoutOp> {
  ConvertLayoutOpConversion(MgpLLVMTypeConverter &converter,
                            const TargetInfo &target)
      : ConvertOpToLLVMPattern(converter, kMgpPatternBenefit), target(target) {}

  LogicalResult
  matchAndRewrite(ConvertLayoutOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto srcType = cast<RankedTensorType>(op.getSrc().getType());
    auto dstType = cast<RankedTensorType>(op.getType());
    Type structType = getTypeConverter()->convertType(dstType);
    if (!structType || !getTypeConverter()->convertType(srcType))
      return rewriter.notifyMatchFailure(op, "tensor without a layout");
    SmallVector<Value> srcRegisters =
        unpackRegisters(rewriter, loc, adaptor.getSrc());

    auto identity = [](ArrayRef<int64_t> coords) {
      return SmallVector<int64_t>(coords);
    };
    if (std::optional<SmallVector<unsigned>> mapping =
            findRegisterMapping(srcType, dstType, identity)) {
      SmallVector<Value> registers;
      for (unsigned reg : *mapping)
        registers.push_back(srcRegisters[reg]);
      rewriter.replaceOp(op,
                         packRegisters(rewriter, loc, structType, registers));
      return success();
    }

    std::optional<int64_t> offset = getAllocationOffset(op);
    if (!offset)
      return failure();
    Type elementType = srcRegisters.front().getType();
    // i1 travels as i8 through memory.
    Type memoryType =
        elementType.isInteger(1) ? rewriter.getI8Type() : elementType;
    Value base = getSharedPointer(rewriter, loc, target, op, *offset);
    Value lane = target.getLaneId(rewriter, loc);
    Value warp = target.getWarpId(rewriter, loc);
    ConvertScratchLayout layout = getConvertScratchLayout(srcType, dstType);

    auto srcIndices = emitElementIndices(rewriter, loc, srcType, lane, warp);
    for (auto [reg, coords] : llvm::enumerate(srcIndices)) {
      Value elementOffset = emitScratchOffset(rewriter, loc, coords, layout);
      Value address = LLVM::GEPOp::create(rewriter, loc, base.getType(),
                                          memoryType, base, elementOffset);
      Value value = srcRegisters[reg];
      if (memoryType != elementType)
        value = LLVM::ZExtOp::create(rewriter, loc, memoryType, value);
      LLVM::StoreOp::create(rewriter, loc, value, address);
    }
    target.barrier(rewriter, loc);
    SmallVector<Value> registers;
    for (auto &coords :
         emitElementIndices(rewriter, loc, dstType, lane, warp)) {
      Value elementOffset = emitScratchOffset(rewriter, loc, coords, layout);
      Value address = LLVM::GEPOp::create(rewriter, loc, base.getType(),
                                          memoryType, base, elementOffset);
      Value value = LLVM::LoadOp::create(rewriter, loc, memoryType, address);
      if (memoryType != elementType)
        value = LLVM::TruncOp::create(rewriter, loc, elementType, value);
      registers.push_back(value);
    }
    rewriter.replaceOp(op, packRegisters(rewriter, loc, structType, registers));
    return success();
  }

  const TargetInfo &target;
};

} // namespace

void mgp::populateConvertLayoutOpToLLVMPatterns(MgpLLVMTypeConverter &converter,
                                                RewritePatternSet &patterns,
                                                const TargetInfo &target) {
  patterns.add<ConvertLayoutOpConversion>(converter, target);
}
