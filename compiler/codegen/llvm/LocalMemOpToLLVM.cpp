//===- LocalMemOpToLLVM.cpp - local_alloc, local_load, local_store --------===//
//
// This file implements the lowering of the shared-memory buffer ops (and of
// the transposed view memdesc_trans: offsets swapped). A memdesc
// is `!llvm.struct<(ptr<3>, i32 x rank)>`: the buffer's base (the kernel's
// shared memory at the alloc's `mgp.allocation.offset`) and a start offset
// per dim (zero for a fresh buffer). Element (c0, ..., cn) lives at element
// getSharedOffset(encoding, shape, c + offsets) of the base, the swizzle of
// compiler/ir/Layout.h emitted as i32 arithmetic. Stores write each element
// once (first owner); the barrier pass orders them against the loads.
//
//===----------------------------------------------------------------------===//
#include "compiler/codegen/llvm/Patterns.h"
#include "compiler/codegen/llvm/RegisterStruct.h"
#include "compiler/codegen/llvm/SharedAccess.h"
#include "compiler/ir/MgpDialect.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;
using namespace mgp;

Value mgp::emitSwizzledOffset(OpBuilder &b, Location loc, MemDescType type,
                              ValueRange coords) {
  auto encoding = cast<SharedEncodingAttr>(type.getEncoding());
  ArrayRef<int64_t> shape = type.getShape();
  ArrayRef<unsigned> order = encoding.getOrder();
  size_t lead = shape.size() - order.size();
  ArrayRef<int64_t> inner = shape.drop_front(lead);
  ValueRange at = coords.drop_front(lead);
  auto constant = [&](int64_t v) { return i32Constant(b, loc, v); };
  int64_t bufferElems = 1;
  for (int64_t d : inner)
    bufferElems *= d;
  Value col = at[order[0]];
  int64_t rowLen = inner[order[0]];
  Value row = constant(0);
  for (size_t i = order.size(); i-- > 1;) {
    row = LLVM::MulOp::create(b, loc, row, constant(inner[order[i]]));
    row = LLVM::AddOp::create(b, loc, row, at[order[i]]);
  }
  Value blockBase;
  if (int64_t blockCols = encoding.getBlockCols();
      blockCols && blockCols < rowLen) {
    blockBase = LLVM::MulOp::create(
        b, loc, LLVM::UDivOp::create(b, loc, col, constant(blockCols)),
        constant(bufferElems / rowLen * blockCols));
    col = LLVM::URemOp::create(b, loc, col, constant(blockCols));
    rowLen = blockCols;
  }
  int64_t vec = encoding.getVec();
  Value phase = LLVM::URemOp::create(
      b, loc,
      LLVM::UDivOp::create(b, loc, row, constant(encoding.getPerPhase())),
      constant(encoding.getMaxPhase()));
  Value vecIndex = LLVM::UDivOp::create(b, loc, col, constant(vec));
  Value swizzled = LLVM::XOrOp::create(b, loc, vecIndex, phase);
  Value physCol = LLVM::AddOp::create(
      b, loc, LLVM::MulOp::create(b, loc, swizzled, constant(vec)),
      LLVM::URemOp::create(b, loc, col, constant(vec)));
  physCol = LLVM::URemOp::create(b, loc, physCol, constant(rowLen));
  Value offset = LLVM::AddOp::create(
      b, loc, LLVM::MulOp::create(b, loc, row, constant(rowLen)), physCol);
  if (blockBase)
    offset = LLVM::AddOp::create(b, loc, blockBase, offset);
  if (lead)
    offset = LLVM::AddOp::create(
        b, loc, LLVM::MulOp::create(b, loc, coords[0], constant(bufferElems)),
        offset);
  return offset;
}

namespace {

/// The base pointer and per-dim start offsets held in a memdesc struct.
struct MemDescParts {
  Value base;
  SmallVector<Value> offsets;
};

MemDescParts unpackMemDesc(OpBuilder &b, Location loc, Value memdesc) {
  SmallVector<Value> fields = unpackRegisters(b, loc, memdesc);
  return {fields.front(), SmallVector<Value>(llvm::drop_begin(fields))};
}

/// The offset function of a tensor element in the buffer of `parts`.
auto makeOffsetFn(Location loc, MemDescType type, const MemDescParts &parts) {
  return [loc, type, &parts](OpBuilder &b, ValueRange coords) {
    SmallVector<Value> shifted;
    for (auto [coord, start] : llvm::zip(coords, parts.offsets))
      shifted.push_back(LLVM::AddOp::create(b, loc, coord, start));
    return emitSwizzledOffset(b, loc, type, shifted);
  };
}

struct LocalAllocOpConversion : TargetConversionPattern<LocalAllocOp> {
  using TargetConversionPattern::TargetConversionPattern;

  LogicalResult
  matchAndRewrite(LocalAllocOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<MemDescType>(op.getType());
    Type structType = getTypeConverter()->convertType(type);
    if (op.getSrc() && !getTypeConverter()->convertType(op.getSrc().getType()))
      return rewriter.notifyMatchFailure(op, "tensor without a layout");
    std::optional<int64_t> offset = getAllocationOffset(op);
    if (!offset)
      return failure();
    MemDescParts parts;
    parts.base = getSharedPointer(rewriter, loc, target, op, *offset);
    parts.offsets.assign(type.getShape().size(), i32Constant(rewriter, loc, 0));
    if (op.getSrc()) {
      auto srcType = cast<RankedTensorType>(op.getSrc().getType());
      emitSharedStores(rewriter, loc, target, srcType,
                       unpackRegisters(rewriter, loc, adaptor.getSrc()),
                       parts.base, makeOffsetFn(loc, type, parts));
    }
    SmallVector<Value> fields{parts.base};
    fields.append(parts.offsets);
    rewriter.replaceOp(op, packRegisters(rewriter, loc, structType, fields));
    return success();
  }
};

struct LocalLoadOpConversion : TargetConversionPattern<LocalLoadOp> {
  using TargetConversionPattern::TargetConversionPattern;

  LogicalResult
  matchAndRewrite(LocalLoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getType());
    Type structType = getTypeConverter()->convertType(type);
    if (!structType)
      return rewriter.notifyMatchFailure(op, "tensor without a layout");
    auto &converter =
        static_cast<const MgpLLVMTypeConverter &>(*getTypeConverter());
    Type elementType = converter.convertElementType(type.getElementType());
    MemDescParts parts = unpackMemDesc(rewriter, loc, adaptor.getSrc());
    SmallVector<Value> registers = emitSharedLoads(
        rewriter, loc, target, type, elementType, parts.base,
        makeOffsetFn(loc, cast<MemDescType>(op.getSrc().getType()), parts));
    rewriter.replaceOp(op, packRegisters(rewriter, loc, structType, registers));
    return success();
  }
};

struct LocalStoreOpConversion : TargetConversionPattern<LocalStoreOp> {
  using TargetConversionPattern::TargetConversionPattern;

  LogicalResult
  matchAndRewrite(LocalStoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto srcType = cast<RankedTensorType>(op.getSrc().getType());
    if (!getTypeConverter()->convertType(srcType))
      return rewriter.notifyMatchFailure(op, "tensor without a layout");
    MemDescParts parts = unpackMemDesc(rewriter, loc, adaptor.getDst());
    emitSharedStores(
        rewriter, loc, target, srcType,
        unpackRegisters(rewriter, loc, adaptor.getSrc()), parts.base,
        makeOffsetFn(loc, cast<MemDescType>(op.getDst().getType()), parts));
    rewriter.eraseOp(op);
    return success();
  }
};

/// A transposed view: the same base, the start offsets swapped.
struct MemDescTransOpConversion : ConvertOpToLLVMPattern<MemDescTransOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(MemDescTransOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MemDescParts parts = unpackMemDesc(rewriter, loc, adaptor.getSrc());
    SmallVector<Value> fields{parts.base, parts.offsets[1], parts.offsets[0]};
    Type structType = getTypeConverter()->convertType(op.getType());
    rewriter.replaceOp(op, packRegisters(rewriter, loc, structType, fields));
    return success();
  }
};

} // namespace

void mgp::populateLocalMemOpToLLVMPatterns(MgpLLVMTypeConverter &converter,
                                           RewritePatternSet &patterns,
                                           const TargetInfo &target) {
  patterns.add<LocalAllocOpConversion, LocalLoadOpConversion,
               LocalStoreOpConversion>(converter, target);
  patterns.add<MemDescTransOpConversion>(converter, kMgpPatternBenefit);
}
