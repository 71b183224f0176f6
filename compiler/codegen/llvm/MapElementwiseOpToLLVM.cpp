//===- MapElementwiseOpToLLVM.cpp - mgp.map_elementwise -------------------===//
//
// This file implements the lowering of mgp.map_elementwise: for every
// `pack` registers of a thread, the op's region (already in cf form: the
// pass lowers scf first) is cloned into the function between the code
// before the op and a join block whose arguments are the results, its
// entry taking the registers in place of its arguments and each
// mgp.map_elementwise.return becoming a branch to the join block. The
// conversion then lowers the cloned ops like any others, so an `if` in the
// scalar function is a real branch per element group.
//
//===----------------------------------------------------------------------===//
#include "compiler/codegen/llvm/PackedRegisters.h"
#include "compiler/codegen/llvm/Patterns.h"
#include "compiler/ir/MgpDialect.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mgp;

namespace {

struct MapElementwiseOpConversion : ConvertOpToLLVMPattern<MapElementwiseOp> {
  MapElementwiseOpConversion(MgpLLVMTypeConverter &converter)
      : ConvertOpToLLVMPattern(converter, kMgpPatternBenefit) {}

  LogicalResult
  matchAndRewrite(MapElementwiseOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto &converter =
        static_cast<const MgpLLVMTypeConverter &>(*getTypeConverter());
    unsigned pack = op.getPack();
    size_t count = getThreadRegisterCount(converter, op.getResults()[0].getType());
    if (count == 0)
      return rewriter.notifyMatchFailure(op, "tensor without a layout");
    size_t padded = (count + pack - 1) / pack * pack;
    SmallVector<SmallVector<Value>> inRegisters;
    if (!unpackPaddedOperands(rewriter, loc, converter, op.getSrcs(),
                              adaptor.getSrcs(), count, padded, inRegisters))
      return rewriter.notifyMatchFailure(op, "operands of another layout");
    SmallVector<Type> joinTypes;
    for (Value result : op.getResults()) {
      Type element =
          converter.convertElementType(getElementTypeOrSelf(result.getType()));
      if (!element)
        return rewriter.notifyMatchFailure(op, "result without an LLVM type");
      joinTypes.append(pack, element);
    }
    SmallVector<Location> joinLocs(joinTypes.size(), loc);

    Region &region = op.getScalarOp();
    Block *tail = rewriter.getInsertionBlock();
    Block *rest = rewriter.splitBlock(tail, rewriter.getInsertionPoint());
    Region *parent = rest->getParent();
    SmallVector<SmallVector<Value>> outRegisters(op.getNumResults());
    for (size_t base = 0; base < padded; base += pack) {
      Block *join = rewriter.createBlock(parent, Region::iterator(rest),
                                         joinTypes, joinLocs);
      IRMapping mapping;
      Block &entry = region.front();
      for (auto [i, registers] : llvm::enumerate(inRegisters))
        for (unsigned j = 0; j < pack; ++j)
          mapping.map(entry.getArgument(i * pack + j), registers[base + j]);
      rewriter.cloneRegionBefore(region, *parent, Region::iterator(join),
                                 mapping);
      Block *clonedEntry = mapping.lookup(&entry);
      rewriter.setInsertionPointToEnd(tail);
      LLVM::BrOp::create(rewriter, loc, ValueRange(), clonedEntry);
      for (Block &block : region) {
        Block *cloned = mapping.lookup(&block);
        auto ret = dyn_cast<MapElementwiseReturnOp>(cloned->back());
        if (!ret)
          continue;
        rewriter.setInsertionPoint(ret);
        cf::BranchOp::create(rewriter, ret.getLoc(), join, ret.getResult());
        rewriter.eraseOp(ret);
      }
      for (size_t r = 0; r < op.getNumResults(); ++r)
        for (unsigned j = 0; j < pack; ++j)
          outRegisters[r].push_back(join->getArgument(r * pack + j));
      tail = join;
    }
    rewriter.setInsertionPointToEnd(tail);
    LLVM::BrOp::create(rewriter, loc, ValueRange(), rest);

    rewriter.setInsertionPointToStart(rest);
    SmallVector<Value> results = packResults(rewriter, loc, converter,
                                             op.getResults(), outRegisters, count);
    rewriter.replaceOp(op, results);
    return success();
  }
};

} // namespace

void mgp::populateMapElementwiseOpToLLVMPatterns(
    MgpLLVMTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<MapElementwiseOpConversion>(converter);
}
