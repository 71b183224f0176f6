//===- TensorMapOpToLLVM.cpp - TMA loads and stores through tensor maps ---===//
//
// This file implements the lowering of mgp.tensor_map_load and
// mgp.tensor_map_store (sm_90) as inline PTX around the op's shared scratch
// (SharedScratch.h: the block row-major, unpadded, 128-byte aligned, as TMA
// writes a box without swizzle; a load's mbarrier after it):
//  - load: thread 0 initializes the mbarrier (one arrival), a barrier; thread
//    0 arms it with the block's bytes (`mbarrier.arrive.expect_tx`) and issues
//    `cp.async.bulk.tensor.Nd...mbarrier::complete_tx::bytes`; every thread
//    waits for phase 0 (`mbarrier.try_wait.parity`) and reads its elements;
//    a barrier, and thread 0 invalidates the mbarrier so the next load may
//    initialize it again;
//  - store: every thread writes its elements (one owner each), a proxy fence
//    (`fence.proxy.async.shared::cta`: generic writes before the async
//    proxy's read), a barrier; thread 0 issues the bulk tensor store, commits
//    and waits for its completion.
// The tensor map (a 128-byte CUtensorMap) is in global memory, written by the
// host before the launch. Coordinates are innermost first in PTX.
//
//===----------------------------------------------------------------------===//
#include "compiler/codegen/llvm/ElementIndices.h"
#include "compiler/codegen/llvm/Patterns.h"
#include "compiler/codegen/llvm/RegisterStruct.h"
#include "compiler/codegen/llvm/SharedAccess.h"
#include "compiler/ir/MgpDialect.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;
using namespace mgp;

namespace {

/// Inline PTX with side effects and no result.
void emitPtx(OpBuilder &b, Location loc, ValueRange operands, StringRef text,
             StringRef constraints) {
  LLVM::InlineAsmOp::create(
      b, loc, LLVM::LLVMVoidType::get(b.getContext()), operands, text,
      constraints, /*has_side_effects=*/true, /*is_align_stack=*/false,
      LLVM::tailcallkind::TailCallKind::None, LLVM::AsmDialectAttr(),
      ArrayAttr());
}

/// `statements` (PTX using $0 as the thread id and the operands after it)
/// run by thread 0 only.
void emitOnThreadZero(OpBuilder &b, Location loc, const TargetInfo &target,
                      ValueRange operands, StringRef statements,
                      StringRef constraints) {
  SmallVector<Value> all{target.getThreadId(b, loc)};
  all.append(operands.begin(), operands.end());
  std::string text = "{\n\t.reg .pred %first;\n\tsetp.eq.u32 %first, $0, 0;\n";
  for (StringRef line : llvm::split(statements, '\n'))
    if (!line.empty())
      text += ("\t@%first " + line + "\n").str();
  text += "}";
  std::string allConstraints = "r";
  if (!constraints.empty())
    allConstraints += ("," + constraints).str();
  emitPtx(b, loc, all, text, allConstraints);
}

/// The 32-bit shared address of `pointer` (an `!llvm.ptr<3>`).
Value sharedAddress(OpBuilder &b, Location loc, Value pointer) {
  return LLVM::PtrToIntOp::create(b, loc, b.getI32Type(), pointer);
}

/// "{$first, ..., $(first + rank - 1)}": the coordinates innermost first,
/// which come as operands first + rank - 1 - d for dimension d.
std::string coordinateList(unsigned first, unsigned rank) {
  std::string list = "{";
  for (unsigned i = 0; i < rank; ++i)
    list += (i ? ", $" : "$") + std::to_string(first + i);
  return list + "}";
}

/// The operands of the coordinates, innermost (last dimension) first.
SmallVector<Value> innermostFirst(ValueRange coords) {
  return SmallVector<Value>(llvm::reverse(coords));
}

/// The per-register alignments of a row-major, unpadded block at
/// `offsetBytes` (as the convert_layout scratch computes them).
std::function<unsigned(unsigned)> blockAlignments(RankedTensorType type,
                                                  int64_t offsetBytes,
                                                  Type memoryType) {
  ConvertScratchLayout layout;
  layout.shape.assign(type.getShape().begin(), type.getShape().end());
  layout.rowStride = type.getShape().back();
  layout.elemBytes = std::max<int64_t>(
      1, memoryType.getIntOrFloatBitWidth() / 8);
  SmallVector<unsigned> alignments =
      getScratchAlignments(type, layout, offsetBytes);
  return [alignments](unsigned reg) {
    return reg < alignments.size() ? alignments[reg] : 0u;
  };
}

struct TensorMapLoadOpConversion : TargetConversionPattern<TensorMapLoadOp> {
  using TargetConversionPattern::TargetConversionPattern;

  LogicalResult
  matchAndRewrite(TensorMapLoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = op.getType();
    Type structType = getTypeConverter()->convertType(type);
    if (!structType)
      return rewriter.notifyMatchFailure(op, "tensor without a layout");
    std::optional<int64_t> offset = getAllocationOffset(op);
    if (!offset)
      return failure();
    int64_t bytes = getTensorMapBlockBytes(type);
    Value base = getSharedPointer(rewriter, loc, target, op, *offset);
    Value barrier = getSharedPointer(
        rewriter, loc, target, op,
        *offset + llvm::alignTo(bytes, kSharedAlignment));
    Value box = sharedAddress(rewriter, loc, base);
    Value bar = sharedAddress(rewriter, loc, barrier);
    unsigned rank = type.getRank();

    emitOnThreadZero(rewriter, loc, target, {bar},
                     "mbarrier.init.shared::cta.b64 [$1], 1;\n"
                     "fence.mbarrier_init.release.cluster;",
                     "r");
    target.barrier(rewriter, loc);
    SmallVector<Value> operands{bar, box, adaptor.getTensorMap()};
    llvm::append_range(operands, innermostFirst(adaptor.getCoords()));
    std::string copy =
        "mbarrier.arrive.expect_tx.shared::cta.b64 _, [$1], " +
        std::to_string(bytes) + ";\ncp.async.bulk.tensor." +
        std::to_string(rank) +
        "d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [$2], [$3, " +
        coordinateList(4, rank) + "], [$1];";
    std::string constraints = "r,r,l";
    for (unsigned i = 0; i < rank; ++i)
      constraints += ",r";
    emitOnThreadZero(rewriter, loc, target, operands, copy, constraints);
    emitPtx(rewriter, loc, {bar},
            "{\n\t.reg .pred %done;\n"
            "mgp_tma_wait_${:uid}:\n\t"
            "mbarrier.try_wait.parity.shared::cta.b64 %done, [$0], 0;\n\t"
            "@!%done bra mgp_tma_wait_${:uid};\n}",
            "r");

    Type elementType =
        getTypeConverter()->convertType(type.getElementType());
    Type memoryType = getSharedMemoryType(elementType);
    ArrayRef<int64_t> shape = type.getShape();
    SmallVector<Value> registers = emitSharedLoads(
        rewriter, loc, target, type, elementType, base,
        [&](OpBuilder &b, ValueRange coords) {
          return emitLinearOffset(b, loc, coords, shape);
        },
        blockAlignments(type, *offset, memoryType));
    target.barrier(rewriter, loc);
    emitOnThreadZero(rewriter, loc, target, {bar},
                     "mbarrier.inval.shared::cta.b64 [$1];", "r");
    rewriter.replaceOp(op, packRegisters(rewriter, loc, structType, registers));
    return success();
  }
};

struct TensorMapStoreOpConversion : TargetConversionPattern<TensorMapStoreOp> {
  using TargetConversionPattern::TargetConversionPattern;

  LogicalResult
  matchAndRewrite(TensorMapStoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getValue().getType());
    if (!getTypeConverter()->convertType(type))
      return rewriter.notifyMatchFailure(op, "tensor without a layout");
    std::optional<int64_t> offset = getAllocationOffset(op);
    if (!offset)
      return failure();
    Value base = getSharedPointer(rewriter, loc, target, op, *offset);
    SmallVector<Value> registers =
        unpackRegisters(rewriter, loc, adaptor.getValue());
    Type memoryType = getSharedMemoryType(registers.front().getType());
    ArrayRef<int64_t> shape = type.getShape();
    emitSharedStores(
        rewriter, loc, target, type, registers, base,
        [&](OpBuilder &b, ValueRange coords) {
          return emitLinearOffset(b, loc, coords, shape);
        },
        blockAlignments(type, *offset, memoryType));
    emitPtx(rewriter, loc, {}, "fence.proxy.async.shared::cta;", "");
    target.barrier(rewriter, loc);
    unsigned rank = type.getRank();
    SmallVector<Value> operands{sharedAddress(rewriter, loc, base),
                                adaptor.getTensorMap()};
    llvm::append_range(operands, innermostFirst(adaptor.getCoords()));
    std::string store = "cp.async.bulk.tensor." + std::to_string(rank) +
                        "d.global.shared::cta.tile.bulk_group [$2, " +
                        coordinateList(3, rank) +
                        "], [$1];\n"
                        "cp.async.bulk.commit_group;\n"
                        "cp.async.bulk.wait_group 0;";
    std::string constraints = "r,l";
    for (unsigned i = 0; i < rank; ++i)
      constraints += ",r";
    emitOnThreadZero(rewriter, loc, target, operands, store, constraints);
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void mgp::populateTensorMapOpToLLVMPatterns(MgpLLVMTypeConverter &converter,
                                            RewritePatternSet &patterns,
                                            const TargetInfo &target) {
  patterns.add<TensorMapLoadOpConversion, TensorMapStoreOpConversion>(
      converter, target);
}
