//===- ScanOpToLLVM.cpp - mgp.scan ----------------------------------------===//
//
// This file implements the lowering of mgp.scan (tl.cumsum, tl.cumprod,
// tl.associative_scan) on the layout -mgp-assign-layouts gives scans: a
// blocked layout whose axis is fastest, k contiguous elements per thread along
// it, then lanes, then warps (LayoutBases: register bits 0..r-1, lane bits
// 0..l-1 and some warp bits step along the axis; other bits do not). In three
// levels: (1) each thread scans its k registers of every line in order;
// (2) the chunk totals are scanned across the lanes along the axis with
// shuffles (Hillis-Steele: log2(lanes) steps of shfl.idx from lane - d),
// giving each lane the combination of the chunks before it; (3) when several
// warps hold the axis, each warp's total goes through the op's shared scratch
// (SharedScratch.h), and each thread combines the totals of the warps before
// it. The prefixes are then combined into every element. `reverse` runs the
// same from the end. The combine region is cloned for every combination;
// it must be associative (as Triton requires).
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

Value i32Const(OpBuilder &b, Location loc, int64_t v) {
  return LLVM::ConstantOp::create(b, loc, b.getI32Type(),
                                  b.getI32IntegerAttr(v));
}

/// The structure of a scan layout along its axis: bit i of the listed
/// register / lane / warp ids steps `k << i`, `k * lanes << i`, ...
struct AxisStructure {
  unsigned k = 1, lanes = 1, warps = 1;
  SmallVector<unsigned> warpBits; // warp id bits along the axis, in order
};

/// Checks that `bases` has the scan structure along `axis` and describes it.
FailureOr<AxisStructure> getAxisStructure(const LayoutBases &bases,
                                          unsigned axis, int64_t length) {
  AxisStructure s;
  unsigned expect = 1;
  bool ended = false;
  for (const auto &basis : bases.reg) {
    if (basis[axis] == 0) {
      ended = true;
      continue;
    }
    if (ended || basis[axis] != expect)
      return failure();
    expect *= 2;
    s.k *= 2;
  }
  ended = false;
  for (const auto &basis : bases.lane) {
    if (basis[axis] == 0) {
      ended = true;
      continue;
    }
    if (ended || basis[axis] != expect)
      return failure();
    expect *= 2;
    s.lanes *= 2;
  }
  for (auto [bit, basis] : llvm::enumerate(bases.warp)) {
    if (basis[axis] == 0)
      continue;
    if (basis[axis] != expect)
      return failure();
    expect *= 2;
    s.warps *= 2;
    s.warpBits.push_back(bit);
  }
  if (int64_t(s.k) * s.lanes * s.warps != length)
    return failure();
  return s;
}

struct ScanOpConversion : TargetConversionPattern<ScanOp> {
  using TargetConversionPattern::TargetConversionPattern;

  /// The combine region applied to (lhs..., rhs...).
  static Values combine(ScanOp op, OpBuilder &b, ArrayRef<Value> lhs,
                        ArrayRef<Value> rhs) {
    Block &body = op.getCombineOp().front();
    IRMapping mapping;
    unsigned n = lhs.size();
    for (unsigned i = 0; i < n; ++i) {
      mapping.map(body.getArgument(i), lhs[i]);
      mapping.map(body.getArgument(n + i), rhs[i]);
    }
    for (Operation &inner : body.without_terminator())
      b.clone(inner, mapping);
    Values results;
    for (Value v : body.getTerminator()->getOperands())
      results.push_back(mapping.lookupOrDefault(v));
    return results;
  }

  /// `earlier` combined with `later`, both in scan order: a reverse scan
  /// runs from the end, so its `earlier` holds the higher indices and is the
  /// combine function's first operand, as in Triton (a reverse scan is the
  /// forward scan of the flipped axis, flipped back).
  static Values combineInOrder(ScanOp op, OpBuilder &b, ArrayRef<Value> earlier,
                               ArrayRef<Value> later) {
    return combine(op, b, earlier, later);
  }

  static Values select(OpBuilder &b, Location loc, Value cond,
                       ArrayRef<Value> a, ArrayRef<Value> c) {
    Values r;
    for (auto [x, y] : llvm::zip(a, c))
      r.push_back(LLVM::SelectOp::create(b, loc, cond, x, y));
    return r;
  }

  LogicalResult
  matchAndRewrite(ScanOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    unsigned axis = op.getAxis();
    bool reverse = op.getReverse();
    auto srcType = cast<RankedTensorType>(op.getSrcs()[0].getType());
    if (!srcType.getEncoding() || !isDistributedEncoding(srcType.getEncoding()))
      return rewriter.notifyMatchFailure(op, "tensor without a layout");
    ArrayRef<int64_t> shape = srcType.getShape();
    LayoutBases bases = getLayoutBases(srcType.getEncoding(), shape);
    FailureOr<AxisStructure> structure =
        getAxisStructure(bases, axis, shape[axis]);
    if (failed(structure))
      return op->emitError("mgp.scan needs a layout with its axis fastest: "
                           "contiguous registers, then the low lanes, then "
                           "warps (the one -mgp-assign-layouts gives)");
    const AxisStructure &s = *structure;
    unsigned n = op.getSrcs().size();
    SmallVector<Values> operands; // [operand][register]
    for (Value src : adaptor.getSrcs())
      operands.push_back(unpackRegisters(rewriter, loc, src));
    unsigned count = getRegisterCount(srcType);

    // Lines of this thread: registers by their coordinates off the axis,
    // ordered along it. Registers holding the same element share a result.
    auto dropAxis = [&](ArrayRef<int64_t> coords) {
      SmallVector<int64_t> key(coords);
      key.erase(key.begin() + axis);
      return key;
    };
    llvm::MapVector<SmallVector<int64_t>, SmallVector<unsigned>> lines;
    llvm::DenseMap<unsigned, unsigned> canonical; // reg -> reg with its element
    llvm::MapVector<SmallVector<int64_t>, unsigned> byCoords;
    for (unsigned reg = 0; reg < count; ++reg) {
      SmallVector<int64_t> coords = bases.apply(reg, 0, 0);
      auto [it, inserted] = byCoords.insert({coords, reg});
      canonical[reg] = it->second;
      if (!inserted)
        continue;
      SmallVector<unsigned> &line = lines[dropAxis(coords)];
      if (line.empty())
        line.assign(s.k, ~0u);
      line[coords[axis]] = reg;
    }

    // (1) Within the thread.
    DenseMap<unsigned, Values> scanned; // reg -> scanned values
    auto valuesOf = [&](unsigned reg) {
      Values v;
      for (unsigned j = 0; j < n; ++j)
        v.push_back(operands[j][reg]);
      return v;
    };
    for (auto &[key, regs] : lines) {
      Values acc;
      for (unsigned i = 0; i < s.k; ++i) {
        unsigned reg = regs[reverse ? s.k - 1 - i : i];
        acc = i == 0 ? valuesOf(reg)
                     : combineInOrder(op, rewriter, acc, valuesOf(reg));
        scanned[reg] = acc;
      }
    }

    // (2) Across lanes: each line's chunk total, scanned over the lanes.
    Value lane = target.getLaneId(rewriter, loc);
    Value laneAxis = LLVM::AndOp::create(rewriter, loc, lane,
                                         i32Const(rewriter, loc, s.lanes - 1));
    // Per line: the prefix of the chunks before this lane's, and whether
    // there is one.
    SmallVector<Values> prefix(lines.size());
    SmallVector<Value> hasPrefix(lines.size());
    Value falseValue = LLVM::ConstantOp::create(
        rewriter, loc, rewriter.getI1Type(), rewriter.getBoolAttr(false));
    for (auto [g, line] : llvm::enumerate(lines)) {
      unsigned last = line.second[reverse ? 0 : s.k - 1];
      prefix[g] = scanned[last];
      hasPrefix[g] = falseValue;
    }
    SmallVector<Values> inclusive(prefix); // chunk totals, then lane scans
    if (s.lanes > 1) {
      auto shuffleFrom = [&](Values values, int64_t delta, Value valid) {
        // Lane `lane - delta` (forward) or `lane + delta` (reverse), kept in
        // range where it is not used.
        Value src = reverse
                        ? LLVM::AddOp::create(rewriter, loc, lane,
                                              i32Const(rewriter, loc, delta))
                        : LLVM::SubOp::create(rewriter, loc, lane,
                                              i32Const(rewriter, loc, delta))
                              .getResult();
        src = LLVM::SelectOp::create(rewriter, loc, valid, src, lane);
        Values out;
        for (Value v : values)
          out.push_back(target.shuffleIdx(rewriter, loc, v, src));
        return out;
      };
      auto validFor = [&](int64_t delta) -> Value {
        if (reverse)
          return LLVM::ICmpOp::create(
              rewriter, loc, LLVM::ICmpPredicate::ult,
              LLVM::AddOp::create(rewriter, loc, laneAxis,
                                  i32Const(rewriter, loc, delta)),
              i32Const(rewriter, loc, s.lanes));
        return LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::uge,
                                    laneAxis, i32Const(rewriter, loc, delta));
      };
      for (unsigned d = 1; d < s.lanes; d *= 2) {
        Value valid = validFor(d);
        for (auto &values : inclusive) {
          Values other = shuffleFrom(values, d, valid);
          Values combined = combineInOrder(op, rewriter, other, values);
          values = select(rewriter, loc, valid, combined, values);
        }
      }
      Value valid = validFor(1);
      for (auto [g, values] : llvm::enumerate(inclusive)) {
        prefix[g] = shuffleFrom(values, 1, valid);
        hasPrefix[g] = valid;
      }
    }

    // (3) Across warps, through shared memory.
    if (s.warps > 1)
      if (failed(addWarpPrefixes(op, rewriter, srcType, s, lines, inclusive,
                                 laneAxis, prefix, hasPrefix)))
        return failure();

    // Every element: the prefix, then the element's chunk-scanned value.
    DenseMap<unsigned, Values> results;
    for (auto [g, line] : llvm::enumerate(lines))
      for (unsigned reg : line.second) {
        Values combined = combineInOrder(op, rewriter, prefix[g], scanned[reg]);
        results[reg] =
            select(rewriter, loc, hasPrefix[g], combined, scanned[reg]);
      }
    SmallVector<Value> packed;
    for (auto [j, result] : llvm::enumerate(op.getResults())) {
      Type structType = getTypeConverter()->convertType(result.getType());
      if (!structType)
        return rewriter.notifyMatchFailure(op, "result without a layout");
      Values registers;
      for (unsigned reg = 0; reg < count; ++reg)
        registers.push_back(results[canonical[reg]][j]);
      packed.push_back(packRegisters(rewriter, loc, structType, registers));
    }
    rewriter.replaceOp(op, packed);
    return success();
  }

  /// Writes each warp's line totals (held by its last lane along the axis)
  /// to the scratch, then combines the totals of the warps before this one
  /// into `prefix`.
  LogicalResult addWarpPrefixes(
      ScanOp op, ConversionPatternRewriter &rewriter, RankedTensorType srcType,
      const AxisStructure &s,
      const llvm::MapVector<SmallVector<int64_t>, SmallVector<unsigned>> &lines,
      ArrayRef<Values> inclusive, Value laneAxis, SmallVector<Values> &prefix,
      SmallVector<Value> &hasPrefix) const {
    Location loc = op.getLoc();
    bool reverse = op.getReverse();
    unsigned axis = op.getAxis();
    std::optional<int64_t> offset = getAllocationOffset(op);
    if (!offset)
      return failure();
    Value lane = target.getLaneId(rewriter, loc);
    Value warp = target.getWarpId(rewriter, loc);
    Value warpAxis = i32Const(rewriter, loc, 0);
    for (auto [i, bit] : llvm::enumerate(s.warpBits)) {
      Value isSet = LLVM::AndOp::create(
          rewriter, loc,
          LLVM::LShrOp::create(rewriter, loc, warp,
                               i32Const(rewriter, loc, bit)),
          i32Const(rewriter, loc, 1));
      warpAxis =
          LLVM::OrOp::create(rewriter, loc, warpAxis,
                             LLVM::ShlOp::create(rewriter, loc, isSet,
                                                 i32Const(rewriter, loc, i)));
    }
    SmallVector<int64_t> lineShape(srcType.getShape());
    lineShape.erase(lineShape.begin() + axis);
    int64_t numLines = 1;
    for (int64_t size : lineShape)
      numLines *= size;
    auto indices = emitElementIndices(rewriter, loc, srcType, lane, warp);
    Value base = getSharedPointer(rewriter, loc, target, op, *offset);
    auto memoryTypeOf = [&](Type t) -> Type {
      return t.isInteger(1) ? rewriter.getI8Type() : t;
    };
    auto addressOf = [&](unsigned j, Value warpIndex, Value lineIndex,
                         Type memoryType) {
      Value region = LLVM::GEPOp::create(
          rewriter, loc, base.getType(), rewriter.getI8Type(), base,
          ArrayRef<LLVM::GEPArg>{
              static_cast<int32_t>(getScanScratchOperandOffset(op, j))});
      Value index = LLVM::AddOp::create(
          rewriter, loc,
          LLVM::MulOp::create(rewriter, loc, warpIndex,
                              i32Const(rewriter, loc, numLines)),
          lineIndex);
      return LLVM::GEPOp::create(rewriter, loc, base.getType(), memoryType,
                                 region, index)
          .getResult();
    };
    SmallVector<Value> lineIndices;
    for (auto &line : lines) {
      SmallVector<Value> coords(indices[line.second[0]]);
      coords.erase(coords.begin() + axis);
      lineIndices.push_back(emitLinearOffset(rewriter, loc, coords, lineShape));
    }
    // The lane holding the warp's total: the last (first) along the axis.
    Value isTotalLane = LLVM::ICmpOp::create(
        rewriter, loc, LLVM::ICmpPredicate::eq, laneAxis,
        i32Const(rewriter, loc, reverse ? 0 : s.lanes - 1));
    for (auto [g, values] : llvm::enumerate(inclusive))
      for (auto [j, value] : llvm::enumerate(values)) {
        Type memoryType = memoryTypeOf(value.getType());
        Value stored =
            memoryType == value.getType()
                ? value
                : LLVM::ZExtOp::create(rewriter, loc, memoryType, value)
                      .getResult();
        Value address = addressOf(j, warpAxis, lineIndices[g], memoryType);
        // Only the total lane stores (scf is already lowered to cf here, so
        // a conditional block is fine).
        Block *current = rewriter.getInsertionBlock();
        Block *after =
            rewriter.splitBlock(current, rewriter.getInsertionPoint());
        Block *store = rewriter.createBlock(after);
        rewriter.setInsertionPointToEnd(current);
        LLVM::CondBrOp::create(rewriter, loc, isTotalLane, store, after);
        rewriter.setInsertionPointToEnd(store);
        LLVM::StoreOp::create(rewriter, loc, stored, address);
        LLVM::BrOp::create(rewriter, loc, after);
        rewriter.setInsertionPointToStart(after);
      }
    target.barrier(rewriter, loc);
    for (auto [g, values] : llvm::enumerate(inclusive)) {
      // The totals of the warps before this one, combined in scan order.
      Values prefixOfWarps;
      Value havePrefix = LLVM::ConstantOp::create(
          rewriter, loc, rewriter.getI1Type(), rewriter.getBoolAttr(false));
      for (unsigned step = 0; step < s.warps; ++step) {
        unsigned w = reverse ? s.warps - 1 - step : step;
        Value before = LLVM::ICmpOp::create(
            rewriter, loc,
            reverse ? LLVM::ICmpPredicate::ugt : LLVM::ICmpPredicate::ult,
            i32Const(rewriter, loc, w), warpAxis);
        Values total;
        for (auto [j, value] : llvm::enumerate(values)) {
          Type memoryType = memoryTypeOf(value.getType());
          Value loaded =
              LLVM::LoadOp::create(rewriter, loc, memoryType,
                                   addressOf(j, i32Const(rewriter, loc, w),
                                             lineIndices[g], memoryType));
          if (memoryType != value.getType())
            loaded =
                LLVM::TruncOp::create(rewriter, loc, value.getType(), loaded);
          total.push_back(loaded);
        }
        if (step == 0) {
          prefixOfWarps = total;
        } else {
          Values combined = combineInOrder(op, rewriter, prefixOfWarps, total);
          prefixOfWarps =
              select(rewriter, loc, before, combined, prefixOfWarps);
        }
        havePrefix = LLVM::OrOp::create(rewriter, loc, havePrefix, before);
      }
      // This warp's prefix combined with the lane prefix.
      Values withLanes = combineInOrder(op, rewriter, prefixOfWarps, prefix[g]);
      Values merged =
          select(rewriter, loc, hasPrefix[g], withLanes, prefixOfWarps);
      prefix[g] = select(rewriter, loc, havePrefix, merged, prefix[g]);
      hasPrefix[g] =
          LLVM::OrOp::create(rewriter, loc, hasPrefix[g], havePrefix);
    }
    return success();
  }
};

} // namespace

void mgp::populateScanOpToLLVMPatterns(MgpLLVMTypeConverter &converter,
                                       RewritePatternSet &patterns,
                                       const TargetInfo &target) {
  patterns.add<ScanOpConversion>(converter, target);
}
