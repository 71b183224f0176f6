//===- ConvertLayoutOpToLLVM.cpp - mgp.convert_layout ---------------------===//
//
// This file implements the lowering of mgp.convert_layout. When every thread
// already holds the elements it needs, the conversion is a register
// permutation. Otherwise it goes through the op's shared scratch buffer at
// `mgp.allocation.offset`: every thread stores all its registers at their
// element offsets (one owner per element), a barrier, then every thread loads
// the elements of the new layout. The scratch layout (row-major, rows padded,
// or for transposing conversions the vector layout whose runs both sides
// move whole) is SharedScratch.h's; it holds the whole tensor, so one round
// suffices.
// A mgp.reshape that is not a register permutation (ViewOpsToLLVM.cpp) goes
// the same way through its scratch, at each element's row-major index, and
// so does mgp.gather's source (each result element then read at the
// position its index picks).
//
//===----------------------------------------------------------------------===//
#include "compiler/codegen/gpu/SharedScratch.h"
#include "compiler/codegen/llvm/ElementIndices.h"
#include "compiler/codegen/llvm/Patterns.h"
#include "compiler/codegen/llvm/RegisterStruct.h"
#include "compiler/codegen/llvm/SharedAccess.h"
#include "compiler/ir/Layout.h"
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

struct ConvertLayoutOpConversion : TargetConversionPattern<ConvertLayoutOp> {
  using TargetConversionPattern::TargetConversionPattern;

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

    // Through the scratch, which SharedScratch.h sizes for the whole tensor
    // (one round). Its bytes are free again once the op has run: the barrier
    // pass counts the op as a write and a read of them.
    std::optional<int64_t> offset = getAllocationOffset(op);
    if (!offset)
      return failure();
    Value base = getSharedPointer(rewriter, loc, target, op, *offset);
    if (std::optional<VectorScratchLayout> vector =
            getVectorScratchLayout(srcType, dstType)) {
      emitVectorScratchStores(rewriter, loc, target, srcType, srcRegisters,
                              base, *vector);
      target.barrier(rewriter, loc);
      SmallVector<Value> registers =
          emitVectorScratchLoads(rewriter, loc, target, dstType,
                                 srcRegisters.front().getType(), base, *vector);
      rewriter.replaceOp(op,
                         packRegisters(rewriter, loc, structType, registers));
      return success();
    }
    ConvertScratchLayout layout = getConvertScratchLayout(srcType, dstType);
    auto offsetOf = [&](OpBuilder &b, ValueRange coords) {
      return emitScratchOffset(b, loc, coords, layout);
    };
    SmallVector<unsigned> srcAlign =
        getScratchAlignments(srcType, layout, *offset);
    SmallVector<unsigned> dstAlign =
        getScratchAlignments(dstType, layout, *offset);
    auto alignOf = [](ArrayRef<unsigned> alignments) {
      return [alignments](unsigned reg) {
        return reg < alignments.size() ? alignments[reg] : 0u;
      };
    };
    auto srcAlignOf = alignOf(srcAlign), dstAlignOf = alignOf(dstAlign);
    emitSharedStores(rewriter, loc, target, srcType, srcRegisters, base,
                     offsetOf, srcAlignOf);
    target.barrier(rewriter, loc);
    SmallVector<Value> registers = emitSharedLoads(
        rewriter, loc, target, dstType, srcRegisters.front().getType(), base,
        offsetOf, dstAlignOf);
    rewriter.replaceOp(op, packRegisters(rewriter, loc, structType, registers));
    return success();
  }
};

/// A reshape whose elements change threads (it has a scratch buffer): every
/// thread stores its source registers at their row-major index, a barrier,
/// then loads its result registers by theirs. Tried before the register
/// permutation of ViewOpsToLLVM.cpp, which handles the reshapes without one.
struct ReshapeThroughSharedConversion : ConvertOpToLLVMPattern<ReshapeOp> {
  ReshapeThroughSharedConversion(MgpLLVMTypeConverter &converter,
                                 const TargetInfo &target)
      : ConvertOpToLLVMPattern(converter, kMgpPatternBenefit + 1),
        target(target) {}

  const TargetInfo &target;

  LogicalResult
  matchAndRewrite(ReshapeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    std::optional<int64_t> offset = getAllocationOffset(op);
    if (!offset || !getScratchSizeInBytes(op))
      return rewriter.notifyMatchFailure(op, "a register permutation");
    Location loc = op.getLoc();
    auto srcType = cast<RankedTensorType>(op.getSrc().getType());
    auto dstType = cast<RankedTensorType>(op.getType());
    Type structType = getTypeConverter()->convertType(dstType);
    if (!structType || !getTypeConverter()->convertType(srcType))
      return rewriter.notifyMatchFailure(op, "tensor without a layout");
    SmallVector<Value> srcRegisters =
        unpackRegisters(rewriter, loc, adaptor.getSrc());
    Value base = getSharedPointer(rewriter, loc, target, op, *offset);
    auto offsetIn = [loc](ArrayRef<int64_t> shape) {
      return [loc, shape](OpBuilder &b, ValueRange coords) {
        return emitLinearOffset(b, loc, coords, shape);
      };
    };
    emitSharedStores(rewriter, loc, target, srcType, srcRegisters, base,
                     offsetIn(srcType.getShape()));
    target.barrier(rewriter, loc);
    SmallVector<Value> registers = emitSharedLoads(
        rewriter, loc, target, dstType, srcRegisters.front().getType(), base,
        offsetIn(dstType.getShape()));
    rewriter.replaceOp(op, packRegisters(rewriter, loc, structType, registers));
    return success();
  }
};

/// mgp.gather: every thread stores its source registers at their
/// row-major index in the scratch, a barrier, then loads each result
/// register from the source position of its own coordinates with the axis
/// one replaced by its index register (clamped into the axis, the element
/// then 0 when the index was outside it).
struct GatherOpConversion : ConvertOpToLLVMPattern<GatherOp> {
  GatherOpConversion(MgpLLVMTypeConverter &converter, const TargetInfo &target)
      : ConvertOpToLLVMPattern(converter, kMgpPatternBenefit), target(target) {}

  const TargetInfo &target;

  LogicalResult
  matchAndRewrite(GatherOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    std::optional<int64_t> offset = getAllocationOffset(op);
    if (!offset)
      return rewriter.notifyMatchFailure(op, "no shared scratch");
    Location loc = op.getLoc();
    auto srcType = cast<RankedTensorType>(op.getSrc().getType());
    auto dstType = cast<RankedTensorType>(op.getType());
    Type structType = getTypeConverter()->convertType(dstType);
    if (!structType || !getTypeConverter()->convertType(srcType))
      return rewriter.notifyMatchFailure(op, "tensor without a layout");
    // Result register i is index register i (mgp-assign-layouts).
    if (cast<RankedTensorType>(op.getIndices().getType()).getEncoding() !=
        dstType.getEncoding())
      return rewriter.notifyMatchFailure(op, "result not in the indices' layout");
    SmallVector<Value> srcRegisters =
        unpackRegisters(rewriter, loc, adaptor.getSrc());
    SmallVector<Value> indexRegisters =
        unpackRegisters(rewriter, loc, adaptor.getIndices());
    Value base = getSharedPointer(rewriter, loc, target, op, *offset);
    ArrayRef<int64_t> srcShape = srcType.getShape();
    emitSharedStores(rewriter, loc, target, srcType, srcRegisters, base,
                     [&](OpBuilder &b, ValueRange coords) {
                       return emitLinearOffset(b, loc, coords, srcShape);
                     });
    target.barrier(rewriter, loc);
    // emitSharedLoads asks for the offsets register by register, in order.
    unsigned axis = op.getAxis();
    int64_t extent = srcShape[axis];
    SmallVector<Value> inRange;
    auto offsetOf = [&](OpBuilder &b, ValueRange coords) {
      Value index = indexRegisters[inRange.size()];
      auto type = cast<IntegerType>(index.getType());
      if (type.getWidth() < 32) {
        type = b.getI32Type();
        index = LLVM::SExtOp::create(b, loc, type, index);
      }
      Value bound = LLVM::ConstantOp::create(
          b, loc, type, b.getIntegerAttr(type, extent));
      Value ok = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ult, index,
                                      bound);
      Value zero =
          LLVM::ConstantOp::create(b, loc, type, b.getIntegerAttr(type, 0));
      Value at = LLVM::SelectOp::create(b, loc, ok, index, zero);
      if (type.getWidth() > 32)
        at = LLVM::TruncOp::create(b, loc, b.getI32Type(), at);
      inRange.push_back(ok);
      SmallVector<Value> source(coords.begin(), coords.end());
      source[axis] = at;
      return emitLinearOffset(b, loc, source, srcShape);
    };
    SmallVector<Value> registers = emitSharedLoads(
        rewriter, loc, target, dstType, srcRegisters.front().getType(), base,
        offsetOf);
    for (auto [value, ok] : llvm::zip(registers, inRange))
      value = LLVM::SelectOp::create(
          rewriter, loc, ok, value,
          LLVM::ZeroOp::create(rewriter, loc, value.getType()));
    rewriter.replaceOp(op, packRegisters(rewriter, loc, structType, registers));
    return success();
  }
};

} // namespace

void mgp::populateConvertLayoutOpToLLVMPatterns(MgpLLVMTypeConverter &converter,
                                                RewritePatternSet &patterns,
                                                const TargetInfo &target) {
  patterns.add<ConvertLayoutOpConversion, ReshapeThroughSharedConversion,
               GatherOpConversion>(converter, target);
}

SmallVector<unsigned>
mgp::getScratchAlignments(RankedTensorType type,
                          const ConvertScratchLayout &layout,
                          int64_t offsetBytes) {
  ArrayRef<int64_t> shape = type.getShape();
  unsigned last = shape.size() - 1;
  LayoutBases bases = getLayoutBases(type.getEncoding(), shape);
  int64_t bytes = layout.elemBytes;
  int64_t p = std::max<int64_t>(1, 16 / std::max<int64_t>(bytes, 1));
  auto fits = [&](int64_t p) {
    if (shape[last] % p || offsetBytes % (p * bytes))
      return false;
    if (shape.size() > 1 && layout.rowStride % p)
      return false;
    for (const auto &list : {bases.lane, bases.warp})
      for (const auto &basis : list)
        if (basis[last] % p)
          return false;
    return true;
  };
  while (p > 1 && !fits(p))
    p /= 2;
  SmallVector<unsigned> alignments;
  for (unsigned reg = 0, e = bases.getNumRegs(); reg < e; ++reg) {
    int64_t coord = bases.apply(reg, 0, 0)[last];
    int64_t q = p;
    while (q > 1 && coord % q)
      q /= 2;
    alignments.push_back(unsigned(q * bytes));
  }
  return alignments;
}

