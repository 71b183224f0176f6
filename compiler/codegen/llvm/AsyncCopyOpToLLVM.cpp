//===- AsyncCopyOpToLLVM.cpp - cp.async, commit and wait groups -----------===//
//
// This file implements the lowering of the software-pipelining ops:
// mgp.memdesc_subview (the base advanced by index * buffer bytes, the leading
// start offset dropped), mgp.async_copy_global_to_local (one
// `nvvm.cp.async.shared.global` per group of getAsyncCopyWidth registers:
// 4, 8 or 16 bytes, `.cg` for 16 (`.ca` when the load asked for it) and
// `.ca` otherwise; where the mask is false the hardware zero-fills: the
// ignore-src predicate from sm_89 on, src-size 0 before),
// mgp.async_commit_group and
// mgp.async_wait (`cp.async.commit_group`, `cp.async.wait_group N`).
//
//===----------------------------------------------------------------------===//
#include "compiler/codegen/gpu/AsyncCopyWidth.h"
#include "compiler/codegen/llvm/ElementIndices.h"
#include "compiler/codegen/llvm/Patterns.h"
#include "compiler/codegen/llvm/RegisterStruct.h"
#include "compiler/codegen/llvm/SharedAccess.h"
#include "compiler/ir/Layout.h"
#include "compiler/ir/MgpDialect.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace mgp;

namespace {

struct MemDescSubviewOpConversion : ConvertOpToLLVMPattern<MemDescSubviewOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(MemDescSubviewOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MemDescType type = op.getResult().getType();
    Type structType = getTypeConverter()->convertType(type);
    SmallVector<Value> fields =
        unpackRegisters(rewriter, loc, adaptor.getSrc());
    int64_t bufferElems = 1;
    for (int64_t d : type.getShape())
      bufferElems *= d;
    Type memoryType = getSharedMemoryType(
        getTypeConverter()->convertType(type.getElementType()));
    // The leading start offset plus the index selects the buffer.
    Value buffer =
        LLVM::AddOp::create(rewriter, loc, fields[1], adaptor.getIndex());
    Value elems = LLVM::MulOp::create(rewriter, loc, buffer,
                                      i32Constant(rewriter, loc, bufferElems));
    SmallVector<Value> result{LLVM::GEPOp::create(
        rewriter, loc, fields[0].getType(), memoryType, fields[0], elems)};
    result.append(fields.begin() + 2, fields.end());
    rewriter.replaceOp(op, packRegisters(rewriter, loc, structType, result));
    return success();
  }
};

struct AsyncCopyOpConversion : TargetConversionPattern<AsyncCopyGlobalToLocalOp> {
  AsyncCopyOpConversion(MgpLLVMTypeConverter &converter,
                        const TargetInfo &target, bool ignoreSrc)
      : TargetConversionPattern(converter, target), ignoreSrc(ignoreSrc) {}

  /// Masks become the ignore-src predicate (PTX 7.5) rather than src-size.
  bool ignoreSrc;

  LogicalResult
  matchAndRewrite(AsyncCopyGlobalToLocalOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType ptrType = op.getPtr().getType();
    MemDescType dstType = op.getDst().getType();
    if (!getTypeConverter()->convertType(ptrType))
      return rewriter.notifyMatchFailure(op, "tensor without a layout");
    auto attr = op->getAttrOfType<IntegerAttr>("mgp.vector_width");
    unsigned width =
        getAsyncCopyWidth(ptrType, dstType, attr ? attr.getInt() : 1);
    if (!width)
      return op.emitOpError("cp.async needs groups of 4, 8 or 16 bytes; ")
             << ptrType << " -> " << dstType << " has none";
    Type memoryType = getSharedMemoryType(
        getTypeConverter()->convertType(dstType.getElementType()));
    unsigned bytes = width * memoryType.getIntOrFloatBitWidth() / 8;

    SmallVector<Value> pointers =
        unpackRegisters(rewriter, loc, adaptor.getPtr());
    SmallVector<Value> masks;
    if (adaptor.getMask())
      masks = unpackRegisters(rewriter, loc, adaptor.getMask());
    SmallVector<Value> fields =
        unpackRegisters(rewriter, loc, adaptor.getDst());
    Value base = fields[0];
    ArrayRef<Value> starts = ArrayRef<Value>(fields).drop_front();

    BroadcastMasks replicas =
        getBroadcastMasks(ptrType.getEncoding(), ptrType.getShape());
    Value lane = target.getLaneId(rewriter, loc);
    Value warp = target.getWarpId(rewriter, loc);
    auto indices = emitElementIndices(rewriter, loc, ptrType, lane, warp);
    // .cg (L2 only) exists for 16 bytes; it is the default there, and a
    // ".ca" load asks for L1 too (overlapping reads, e.g. a convolution's
    // im2col rows, hit in L1).
    auto cache = op->getAttrOfType<StringAttr>(kCacheModifierAttr);
    bool l1 = bytes != 16 || (cache && cache.getValue() == "ca");
    auto modifier =
        l1 ? NVVM::LoadCacheModifierKind::CA : NVVM::LoadCacheModifierKind::CG;
    Value full, none; // src-sizes of a masked copy without ignore-src
    if (!masks.empty() && !ignoreSrc) {
      full = i32Constant(rewriter, loc, bytes);
      none = i32Constant(rewriter, loc, 0);
    }
    for (unsigned start = 0; start < pointers.size(); start += width) {
      if (start & replicas.reg)
        continue; // a replica of a lower register
      // Lane and warp replicas copy the same bytes to the same place.
      SmallVector<Value> coords;
      for (auto [coord, first] : llvm::zip(indices[start], starts))
        coords.push_back(LLVM::AddOp::create(rewriter, loc, coord, first));
      Value offset = emitSwizzledOffset(rewriter, loc, dstType, coords);
      Value dst = LLVM::GEPOp::create(rewriter, loc, base.getType(), memoryType,
                                      base, offset);
      if (masks.empty() || !ignoreSrc) {
        Value srcSize;
        if (!masks.empty())
          srcSize =
              LLVM::SelectOp::create(rewriter, loc, masks[start], full, none);
        NVVM::CpAsyncOp::create(rewriter, loc, dst, pointers[start],
                                rewriter.getI32IntegerAttr(bytes),
                                NVVM::LoadCacheModifierKindAttr::get(
                                    rewriter.getContext(), modifier),
                                srcSize);
        continue;
      }
      // The mask as cp.async's ignore-src predicate (zeros copied where it
      // is false) rather than a src-size of 0 or `bytes`: it stays a
      // predicate, so the bounds tests that make it combine in predicate
      // logic (ISETP chains) instead of a chain of selects turned back into
      // a predicate per copy (26 fewer SASS instructions per step in a
      // 3x3 convolution's loop at 128x64x32 tf32).
      Value ignore = LLVM::XOrOp::create(
          rewriter, loc, masks[start],
          LLVM::ConstantOp::create(rewriter, loc, rewriter.getI1Type(), 1));
      Value dstWord =
          LLVM::PtrToIntOp::create(rewriter, loc, rewriter.getI32Type(), dst);
      std::string asmText = std::string("cp.async.") + (l1 ? "ca" : "cg") +
                            ".shared.global [ $0 + 0 ], [ $1 + 0 ], " +
                            std::to_string(bytes) + ", $2;";
      LLVM::InlineAsmOp::create(
          rewriter, loc, TypeRange(),
          ValueRange{dstWord, pointers[start], ignore}, asmText, "r,l,b",
          /*has_side_effects=*/true, /*is_align_stack=*/false,
          LLVM::tailcallkind::TailCallKind::None, LLVM::AsmDialectAttr(),
          ArrayAttr());
    }
    rewriter.eraseOp(op);
    return success();
  }
};

struct AsyncCommitGroupOpConversion
    : ConvertOpToLLVMPattern<AsyncCommitGroupOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(AsyncCommitGroupOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<NVVM::CpAsyncCommitGroupOp>(op);
    return success();
  }
};

struct AsyncWaitOpConversion : ConvertOpToLLVMPattern<AsyncWaitOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(AsyncWaitOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<NVVM::CpAsyncWaitGroupOp>(op, op.getNum());
    return success();
  }
};

} // namespace

void mgp::populateAsyncCopyOpToLLVMPatterns(MgpLLVMTypeConverter &converter,
                                            RewritePatternSet &patterns,
                                            const TargetInfo &target,
                                            int computeCapability) {
  patterns.add<MemDescSubviewOpConversion, AsyncCommitGroupOpConversion,
               AsyncWaitOpConversion>(converter, kMgpPatternBenefit);
  patterns.add<AsyncCopyOpConversion>(converter, target,
                                      /*ignoreSrc=*/computeCapability >= 89);
}
