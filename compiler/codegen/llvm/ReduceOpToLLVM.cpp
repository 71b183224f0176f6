//===- ReduceOpToLLVM.cpp - mgp.reduce ------------------------------------===//
//
// This file implements the lowering of mgp.reduce in three steps, as Triton
// does: (1) combine the registers of a thread that differ only along the
// axis; (2) butterfly warp shuffles over the lane bits that step along the
// axis; (3) when several warps hold the axis, each warp writes its partial
// result to the op's shared scratch (SharedScratch.h's layout, at
// `mgp.allocation.offset`), a barrier, and every thread combines the partials
// of all warps in order. Replicated registers and lanes are never combined
// twice. The combine region is cloned for every combination.
//
//===----------------------------------------------------------------------===//
#include "compiler/codegen/gpu/SharedScratch.h"
#include "compiler/codegen/llvm/ElementIndices.h"
#include "compiler/codegen/llvm/Patterns.h"
#include "compiler/codegen/llvm/RegisterStruct.h"
#include "compiler/ir/Layout.h"
#include "compiler/ir/MgpDialect.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/MapVector.h"

using namespace mlir;
using namespace mgp;

namespace {

using Values = SmallVector<Value>;

struct ReduceOpConversion : TargetConversionPattern<ReduceOp> {
  using TargetConversionPattern::TargetConversionPattern;

  /// Applies the combine region to (lhs..., rhs...).
  static Values combine(ReduceOp op, ConversionPatternRewriter &rewriter,
                        ArrayRef<Value> lhs, ArrayRef<Value> rhs) {
    Block &body = op.getCombineOp().front();
    IRMapping mapping;
    unsigned n = lhs.size();
    for (unsigned i = 0; i < n; ++i) {
      mapping.map(body.getArgument(i), lhs[i]);
      mapping.map(body.getArgument(n + i), rhs[i]);
    }
    for (Operation &inner : body.without_terminator())
      rewriter.clone(inner, mapping);
    Values results;
    for (Value v : body.getTerminator()->getOperands())
      results.push_back(mapping.lookupOrDefault(v));
    return results;
  }

  LogicalResult
  matchAndRewrite(ReduceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    unsigned axis = op.getAxis();
    auto srcType = cast<RankedTensorType>(op.getSrcs()[0].getType());
    if (!srcType.getEncoding() || !isDistributedEncoding(srcType.getEncoding()))
      return rewriter.notifyMatchFailure(op, "tensor without a layout");
    ArrayRef<int64_t> shape = srcType.getShape();
    LayoutBases bases = getLayoutBases(srcType.getEncoding(), shape);
    BroadcastMasks replicas = getBroadcastMasks(srcType.getEncoding(), shape);
    unsigned numOperands = op.getSrcs().size();

    SmallVector<Values> operands; // [operand][register]
    for (Value src : adaptor.getSrcs())
      operands.push_back(unpackRegisters(rewriter, loc, src));

    // (1) Within the thread: group registers by their coordinates off the axis.
    auto dropAxis = [&](ArrayRef<int64_t> coords) {
      SmallVector<int64_t> key(coords);
      key.erase(key.begin() + axis);
      return key;
    };
    llvm::MapVector<SmallVector<int64_t>, Values> groups; // key -> accumulators
    llvm::MapVector<SmallVector<int64_t>, unsigned> firstReg;
    unsigned count = getRegisterCount(srcType);
    for (unsigned reg = 0; reg < count; ++reg) {
      if (reg & replicas.reg)
        continue;
      SmallVector<int64_t> key = dropAxis(bases.apply(reg, 0, 0));
      Values current;
      for (unsigned k = 0; k < numOperands; ++k)
        current.push_back(operands[k][reg]);
      auto it = groups.find(key);
      if (it == groups.end()) {
        groups.insert({key, current});
        firstReg.insert({key, reg});
      } else {
        it->second = combine(op, rewriter, it->second, current);
      }
    }

    // (2) Across lanes.
    for (auto [bit, basis] : llvm::enumerate(bases.lane)) {
      if (basis[axis] == 0)
        continue;
      for (auto &group : groups) {
        Values shuffled;
        for (Value v : group.second)
          shuffled.push_back(target.shuffleXor(rewriter, loc, v, 1 << bit));
        group.second = combine(op, rewriter, group.second, shuffled);
      }
    }

    // (3) Across warps, through shared memory.
    SmallVector<unsigned> axisWarpBits;
    for (auto [bit, basis] : llvm::enumerate(bases.warp))
      if (basis[axis] != 0)
        axisWarpBits.push_back(bit);
    if (!axisWarpBits.empty()) {
      if (failed(combineAcrossWarps(op, rewriter, srcType, axisWarpBits, groups,
                                    firstReg)))
        return failure();
    }

    // Results in the order of the result layout's registers.
    SmallVector<Value> results;
    for (auto [k, result] : llvm::enumerate(op.getResults())) {
      auto resultType = dyn_cast<RankedTensorType>(result.getType());
      if (!resultType) {
        results.push_back(groups.front().second[k]);
        continue;
      }
      Type structType = getTypeConverter()->convertType(resultType);
      if (!structType)
        return rewriter.notifyMatchFailure(op, "result without a layout");
      Values registers;
      for (auto &coords : getElementCoords(resultType.getEncoding(),
                                           resultType.getShape(), 0, 0)) {
        auto it = groups.find(coords);
        if (it == groups.end())
          return op->emitError("result layout is not the slice of the "
                               "operand layout along the reduced axis");
        registers.push_back(it->second[k]);
      }
      results.push_back(packRegisters(rewriter, loc, structType, registers));
    }
    rewriter.replaceOp(op, results);
    return success();
  }

  LogicalResult combineAcrossWarps(
      ReduceOp op, ConversionPatternRewriter &rewriter,
      RankedTensorType srcType, ArrayRef<unsigned> axisWarpBits,
      llvm::MapVector<SmallVector<int64_t>, Values> &groups,
      llvm::MapVector<SmallVector<int64_t>, unsigned> &firstReg) const {
    Location loc = op.getLoc();
    std::optional<int64_t> offset = getAllocationOffset(op);
    if (!offset)
      return failure();
    unsigned axis = op.getAxis();
    Value lane = target.getLaneId(rewriter, loc);
    Value warp = target.getWarpId(rewriter, loc);
    // This warp's index among the warps along the axis (its axis bits).
    Value warpAlongAxis = i32Constant(rewriter, loc, 0);
    for (auto [i, bit] : llvm::enumerate(axisWarpBits)) {
      Value shifted = LLVM::LShrOp::create(rewriter, loc, warp,
                                           i32Constant(rewriter, loc, bit));
      Value isSet = LLVM::AndOp::create(rewriter, loc, shifted,
                                        i32Constant(rewriter, loc, 1));
      Value placed = LLVM::ShlOp::create(rewriter, loc, isSet,
                                         i32Constant(rewriter, loc, i));
      warpAlongAxis = LLVM::OrOp::create(rewriter, loc, warpAlongAxis, placed);
    }
    unsigned numWarpsAlongAxis = 1u << axisWarpBits.size();
    SmallVector<int64_t> resultShape(srcType.getShape());
    resultShape.erase(resultShape.begin() + axis);
    int64_t numResultElements = 1;
    for (int64_t size : resultShape)
      numResultElements *= size;

    auto indices = emitElementIndices(rewriter, loc, srcType, lane, warp);
    Value base = getSharedPointer(rewriter, loc, target, op, *offset);
    SmallVector<Value> slots; // per group: w * numResultElements + i
    for (auto &group : groups) {
      SmallVector<Value> coords(indices[firstReg[group.first]]);
      coords.erase(coords.begin() + axis);
      Value resultIndex = emitLinearOffset(rewriter, loc, coords, resultShape);
      slots.push_back(resultIndex);
    }
    auto addressOf = [&](unsigned k, Value warpIndex, Value resultIndex,
                         Type memoryType) {
      int64_t region = getReduceScratchOperandOffset(op, k);
      Value regionBase = LLVM::GEPOp::create(
          rewriter, loc, base.getType(), rewriter.getI8Type(), base,
          ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(region)});
      Value index =
          LLVM::MulOp::create(rewriter, loc, warpIndex,
                              i32Constant(rewriter, loc, numResultElements));
      index = LLVM::AddOp::create(rewriter, loc, index, resultIndex);
      return LLVM::GEPOp::create(rewriter, loc, base.getType(), memoryType,
                                 regionBase, index)
          .getResult();
    };
    auto memoryTypeOf = [&](Value v) -> Type {
      return v.getType().isInteger(1) ? rewriter.getI8Type() : v.getType();
    };

    for (auto [g, group] : llvm::enumerate(groups)) {
      for (auto [k, value] : llvm::enumerate(group.second)) {
        Type memoryType = memoryTypeOf(value);
        Value stored =
            memoryType == value.getType()
                ? value
                : LLVM::ZExtOp::create(rewriter, loc, memoryType, value);
        LLVM::StoreOp::create(
            rewriter, loc, stored,
            addressOf(k, warpAlongAxis, slots[g], memoryType));
      }
    }
    target.barrier(rewriter, loc);
    for (auto [g, group] : llvm::enumerate(groups)) {
      Values accumulated;
      for (unsigned w = 0; w < numWarpsAlongAxis; ++w) {
        Values partial;
        for (auto [k, value] : llvm::enumerate(group.second)) {
          Type memoryType = memoryTypeOf(value);
          Value loaded =
              LLVM::LoadOp::create(rewriter, loc, memoryType,
                                   addressOf(k, i32Constant(rewriter, loc, w),
                                             slots[g], memoryType));
          if (memoryType != value.getType())
            loaded =
                LLVM::TruncOp::create(rewriter, loc, value.getType(), loaded);
          partial.push_back(loaded);
        }
        accumulated =
            w == 0 ? partial : combine(op, rewriter, accumulated, partial);
      }
      group.second = accumulated;
    }
    return success();
  }
};

} // namespace

void mgp::populateReduceOpToLLVMPatterns(MgpLLVMTypeConverter &converter,
                                         RewritePatternSet &patterns,
                                         const TargetInfo &target) {
  patterns.add<ReduceOpConversion>(converter, target);
}
