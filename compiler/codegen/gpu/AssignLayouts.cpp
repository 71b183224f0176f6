//===- AssignLayouts.cpp - give every tensor a layout encoding ------------===//
//
// This file implements `mgp-assign-layouts`: a walk over each function in
// program order that attaches a distributed encoding to every tensor value
// (results and region arguments) and inserts mgp.convert_layout where an
// operand's encoding differs from the one its user needs. Sources get the
// default blocked encoding of their rank (computed from the largest tensor of
// that rank, so broadcasts and elementwise ops agree); shape ops infer theirs;
// dot takes mma v2 on sm_80+ when eligible, else Triton's FMA configuration.
// docs/pipeline.md describes the rules.
//
//===----------------------------------------------------------------------===//
#include "compiler/codegen/gpu/Passes.h"
#include "compiler/codegen/gpu/ReshapeEncoding.h"
#include "compiler/codegen/gpu/TensorEncoding.h"
#include "compiler/ir/Layout.h"

#include "mlir/IR/Builders.h"

#include <map>

namespace mgp {
#define GEN_PASS_DEF_MGPASSIGNLAYOUTS
#include "compiler/codegen/gpu/Passes.h.inc"
} // namespace mgp

using namespace mlir;
using namespace mgp;

namespace {

/// Assigns encodings within one function.
class LayoutAssigner {
public:
  LayoutAssigner(func::FuncOp func, unsigned numWarps, unsigned threadsPerWarp,
                 int computeCapability, bool wgmma)
      : context(func.getContext()), numWarps(numWarps),
        threadsPerWarp(threadsPerWarp), computeCapability(computeCapability),
        wgmma(wgmma) {
    computeDefaults(func);
  }

  void run(func::FuncOp func) {
    Block &entry = func.getBody().front();
    for (BlockArgument arg : entry.getArguments())
      if (auto type = dyn_cast<RankedTensorType>(arg.getType()))
        arg.setType(withEncoding(type, defaultEncoding(type.getShape())));
    for (Block &block : func.getBody())
      processBlock(block);
    SmallVector<Type> results;
    func.walk([&](func::ReturnOp ret) {
      results.assign(ret.getOperandTypes().begin(),
                     ret.getOperandTypes().end());
    });
    func.setType(FunctionType::get(context, entry.getArgumentTypes(), results));
  }

private:
  /// One default blocked encoding per rank, from the elementwise largest
  /// shape of that rank in the function.
  void computeDefaults(func::FuncOp func) {
    DenseMap<unsigned, SmallVector<int64_t>> maxShape;
    auto note = [&](Type type) {
      auto tensor = dyn_cast<RankedTensorType>(type);
      if (!tensor)
        return;
      SmallVector<int64_t> &shape = maxShape[tensor.getRank()];
      if (shape.empty())
        shape.assign(tensor.getRank(), 1);
      for (auto [d, size] : llvm::enumerate(tensor.getShape()))
        shape[d] = std::max(shape[d], size);
    };
    func.walk([&](Operation *op) {
      for (Type type : op->getResultTypes())
        note(type);
      for (Region &region : op->getRegions())
        for (Block &block : region)
          for (Type type : block.getArgumentTypes())
            note(type);
    });
    for (auto &[rank, shape] : maxShape)
      defaults[rank] =
          getDefaultBlockedEncoding(context, shape, numWarps, threadsPerWarp);
  }

  Attribute rankDefault(unsigned rank) {
    Attribute &encoding = defaults[rank];
    if (!encoding) {
      SmallVector<int64_t> shape(rank, 1);
      encoding =
          getDefaultBlockedEncoding(context, shape, numWarps, threadsPerWarp);
    }
    return encoding;
  }

  /// The default encoding for a tensor of `shape`: its rank's, unless that
  /// spreads the lanes of a warp past one of the tensor's dimensions of more
  /// than one element (a `[16, 32, 2]` join under the default of a `[16, 32,
  /// 32]` tensor would hold each element in 16 lanes); then the default built
  /// for the shape itself. Dimensions of one element are broadcast operands
  /// and keep the rank's default.
  Attribute defaultEncoding(ArrayRef<int64_t> shape) {
    Attribute encoding = rankDefault(shape.size());
    auto blocked = cast<BlockedEncodingAttr>(encoding);
    bool spreadsLanes = false;
    for (auto [size, lanes, perThread] :
         llvm::zip(shape, blocked.getThreadsPerWarp(),
                   blocked.getSizePerThread()))
      spreadsLanes |= size > 1 && int64_t(lanes) * perThread > size;
    if (!spreadsLanes)
      return encoding;
    Attribute &own = shapeDefaults[SmallVector<int64_t>(shape)];
    if (!own)
      own = getDefaultBlockedEncoding(context, shape, numWarps, threadsPerWarp);
    return own;
  }

  /// `value` in `encoding`, converted before `user` when needed.
  Value convert(Operation *user, Value value, Attribute encoding) {
    auto type = cast<RankedTensorType>(value.getType());
    if (type.getEncoding() == encoding)
      return value;
    OpBuilder builder(user);
    return ConvertLayoutOp::create(builder, value.getLoc(),
                                   withEncoding(type, encoding), value);
  }

  void convertOperand(Operation *op, unsigned index, Attribute encoding) {
    op->setOperand(index, convert(op, op->getOperand(index), encoding));
  }

  void setResultEncoding(Value result, Attribute encoding) {
    if (auto type = dyn_cast<RankedTensorType>(result.getType()))
      result.setType(withEncoding(type, encoding));
  }

  void processBlock(Block &block) {
    for (Operation &op : llvm::make_early_inc_range(block))
      processOp(&op);
  }

  void processOp(Operation *op) {
    // Terminators keep their operands; the region's owner reconciles them.
    if (op->hasTrait<OpTrait::IsTerminator>())
      return;
    if (auto forOp = dyn_cast<scf::ForOp>(op))
      return processFor(forOp);
    if (auto ifOp = dyn_cast<scf::IfOp>(op))
      return processIf(ifOp);
    if (auto whileOp = dyn_cast<scf::WhileOp>(op))
      return processWhile(whileOp);
    if (auto dot = dyn_cast<DotOp>(op))
      return processDot(dot);
    if (auto reduce = dyn_cast<ReduceOp>(op))
      return processReduce(reduce);
    if (auto scan = dyn_cast<ScanOp>(op))
      return processScan(scan);
    if (auto expand = dyn_cast<ExpandDimsOp>(op))
      return processExpandDims(expand);
    if (auto trans = dyn_cast<TransOp>(op))
      return processTrans(trans);
    if (auto constant = dyn_cast<arith::ConstantOp>(op))
      return processConstant(constant);
    if (auto gather = dyn_cast<GatherOp>(op)) {
      // The source goes through shared memory whatever its layout; the
      // result is laid out as its indices.
      auto indices = cast<RankedTensorType>(gather.getIndices().getType());
      return setResultEncoding(gather.getResult(), indices.getEncoding());
    }
    if (auto select = dyn_cast<arith::SelectOp>(op); select && isJoin(select))
      return processJoin(select);
    if (isa<ReshapeOp>(op)) {
      auto type = cast<RankedTensorType>(op->getOperand(0).getType());
      auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
      // Where the source's layout allows, the result's is its relabelling.
      if (BlockedEncodingAttr relabelled =
              getReshapedEncoding(type, resultType.getShape()))
        return setResultEncoding(op->getResult(0), relabelled);
      convertOperand(op, 0, defaultEncoding(type.getShape()));
      return setResultEncoding(
          op->getResult(0),
          defaultEncoding(
              cast<RankedTensorType>(op->getResult(0).getType()).getShape()));
    }
    processElementwise(op);
  }

  /// Elementwise ops, loads, stores, splat, make_range, broadcast, hints:
  /// every tensor takes the encoding of the first tensor operand (the
  /// pointer of a load or store), or the default when there is none.
  void processElementwise(Operation *op) {
    Attribute encoding;
    for (Value operand : op->getOperands())
      if (auto type = dyn_cast<RankedTensorType>(operand.getType())) {
        encoding = type.getEncoding();
        break;
      }
    for (unsigned i = 0; i < op->getNumOperands(); ++i)
      if (auto type = dyn_cast<RankedTensorType>(op->getOperand(i).getType()))
        if (encoding && !isa<BroadcastOp>(op))
          convertOperand(op, i, encoding);
    for (Value result : op->getResults()) {
      auto type = dyn_cast<RankedTensorType>(result.getType());
      if (!type)
        continue;
      Attribute resultEncoding = encoding;
      if (!resultEncoding || isSliceOfOtherRank(resultEncoding, type.getRank()))
        resultEncoding = defaultEncoding(type.getShape());
      setResultEncoding(result, resultEncoding);
    }
  }

  /// Whether `encoding` cannot describe a tensor of `rank` (a blocked
  /// encoding of another rank).
  static bool isSliceOfOtherRank(Attribute encoding, unsigned rank) {
    if (auto blocked = dyn_cast<BlockedEncodingAttr>(encoding))
      return blocked.getRank() != rank;
    return false;
  }

  void processConstant(arith::ConstantOp constant) {
    auto type = dyn_cast<RankedTensorType>(constant.getType());
    if (!type)
      return;
    auto newType = withEncoding(type, defaultEncoding(type.getShape()));
    auto dense = cast<DenseElementsAttr>(constant.getValue());
    Attribute value =
        dense.isSplat()
            ? DenseElementsAttr::get(newType, dense.getSplatValue<Attribute>())
            : dense.reshape(newType);
    OpBuilder builder(constant);
    auto replacement = arith::ConstantOp::create(
        builder, constant.getLoc(), newType, cast<TypedAttr>(value));
    constant.replaceAllUsesWith(replacement.getResult());
    constant.erase();
  }

  /// Triton's warpsPerTileV2: from 1x1, double the warps along whichever of
  /// M or N still has more 16x8 tiles per warp (ties go to M).
  SmallVector<unsigned> warpsPerTileV2(ArrayRef<int64_t> shape) const {
    SmallVector<unsigned> warps = {1, 1};
    while (warps[0] * warps[1] < numWarps) {
      if (shape[0] / 16 / warps[0] >= shape[1] / (8 * warps[1])) {
        if (warps[0] < shape[0] / 16)
          warps[0] *= 2;
        else
          warps[1] *= 2;
      } else {
        warps[1] *= 2;
      }
    }
    return warps;
  }

  /// Triton's BlockedToMMA for mma.sync (v2): on sm_80 and later, a 2-D dot
  /// with an f32 accumulator and f32 (input precision tf32) or f16/bf16
  /// operands, or an i32 accumulator and (signed) i8 operands, whose M % 16,
  /// N % 8 and K % (8 for tf32, 16 for 16-bit, 32 for 8-bit) are 0.
  /// Returns the mma result encoding and the operands' kWidth, or null.
  std::pair<Attribute, unsigned> chooseMma(DotOp dot) const {
    if (computeCapability < 80)
      return {};
    auto aType = cast<RankedTensorType>(dot.getA().getType());
    auto dType = cast<RankedTensorType>(dot.getD().getType());
    if (aType.getRank() != 2)
      return {};
    Type element = aType.getElementType(), acc = dType.getElementType();
    int64_t kAlign;
    if (acc.isF32() && element.isF32() &&
        dot.getInputPrecision() == InputPrecision::TF32)
      kAlign = 8;
    else if (acc.isF32() && (element.isF16() || element.isBF16()))
      kAlign = 16;
    else if (acc.isInteger(32) && element.isInteger(8))
      kAlign = 32;
    else
      return {};
    int64_t m = dType.getShape()[0], n = dType.getShape()[1],
            k = aType.getShape()[1];
    if (m % 16 != 0 || n % 8 != 0 || k % kAlign != 0)
      return {};
    unsigned kWidth = 32 / element.getIntOrFloatBitWidth();
    if (Attribute v3 = chooseWgmma(dType.getShape(), k, element))
      return {v3, kWidth};
    Attribute mma = MmaEncodingAttr::get(
        context, 2, warpsPerTileV2(dType.getShape()), {16, 8});
    return {mma, kWidth};
  }

  /// Triton's warpsPerTileV3: warp groups of 4 warps stacked along M (64
  /// rows each) while M has rows left, then along N.
  SmallVector<unsigned> warpsPerTileV3(ArrayRef<int64_t> shape) const {
    SmallVector<unsigned> warps = {4, 1};
    while (warps[0] * warps[1] < numWarps) {
      if (shape[0] > 16 * warps[0])
        warps[0] *= 2;
      else
        warps[1] *= 2;
    }
    return warps;
  }

  /// The wgmma accumulator (#mgp.mma version 3) on sm_90a, or null when the
  /// dot does not fit it: whole warp groups, 64 rows per warp group, and a K
  /// tile of 32, 64 or a multiple of 128 bytes (one swizzle atom, or 128-byte
  /// column blocks; both operands are staged K-contiguous, see
  /// mgp-stage-dot-operands). instrShape = [16, n, k] with
  /// k = 256 / element bits and n the largest multiple of 8 up to 256 that
  /// divides a warp group's share of N (Triton's mmaVersionToInstrShape).
  Attribute chooseWgmma(ArrayRef<int64_t> shape, int64_t k,
                        Type element) const {
    unsigned bits = element.getIntOrFloatBitWidth();
    int64_t kBytes = k * bits / 8;
    if (!wgmma || numWarps % 4 != 0 ||
        (kBytes != 32 && kBytes != 64 && kBytes % 128 != 0))
      return {};
    SmallVector<unsigned> warps = warpsPerTileV3(shape);
    if (shape[0] % (16 * warps[0]) != 0 || shape[1] % (8 * warps[1]) != 0)
      return {};
    int64_t perGroupN = shape[1] / warps[1];
    // wgmma's N: a multiple of 8 up to 256; for 8-bit integers only 8, 16,
    // 24 and then multiples of 16.
    auto validN = [&](unsigned n) {
      return !element.isInteger(8) || n <= 24 || n % 16 == 0;
    };
    unsigned instrN = 8;
    for (unsigned n = 256; n >= 8; n -= 8)
      if (perGroupN % n == 0 && validN(n)) {
        instrN = n;
        break;
      }
    return MmaEncodingAttr::get(context, 3, warps, {16, instrN, 256 / bits});
  }

  /// A tensor-core dot (chooseMma) gets an #mgp.mma result and dot_op
  /// operands of that parent; every other dot takes Triton's
  /// TritonDotPattern: a blocked result with 2x2 (>= 4 elements per thread)
  /// or 4x4 (>= 16) elements per thread, operands in dot_op.
  void processDot(DotOp dot) {
    if (auto [mma, kWidth] = chooseMma(dot); mma) {
      convertOperand(dot, 0,
                     DotOperandEncodingAttr::get(context, 0, mma, kWidth));
      convertOperand(dot, 1,
                     DotOperandEncodingAttr::get(context, 1, mma, kWidth));
      convertOperand(dot, 2, mma);
      return setResultEncoding(dot.getD(), mma);
    }
    auto type = cast<RankedTensorType>(dot.getD().getType());
    int64_t perThread = type.getNumElements() / (numWarps * threadsPerWarp);
    unsigned size = perThread >= 16 ? 4 : perThread >= 4 ? 2 : 1;
    SmallVector<unsigned> sizePerThread = {size, size}, order = {1, 0};
    Attribute parent =
        getBlockedEncoding(context, type.getShape(), sizePerThread, order,
                           numWarps, threadsPerWarp);
    convertOperand(dot, 0, DotOperandEncodingAttr::get(context, 0, parent, 1));
    convertOperand(dot, 1, DotOperandEncodingAttr::get(context, 1, parent, 1));
    convertOperand(dot, 2, parent);
    setResultEncoding(dot.getD(), parent);
  }

  /// Every operand in the first one's encoding P; results in slice<axis, P>.
  void processReduce(ReduceOp reduce) {
    Attribute encoding =
        cast<RankedTensorType>(reduce.getSrcs()[0].getType()).getEncoding();
    for (unsigned i = 1; i < reduce->getNumOperands(); ++i)
      convertOperand(reduce, i, encoding);
    for (Value result : reduce.getResults())
      setResultEncoding(
          result, SliceEncodingAttr::get(context, reduce.getAxis(), encoding));
  }

  /// A scan runs in a blocked layout whose axis is fastest: k = shape[axis]
  /// / threads contiguous elements per thread along it (at least 1), then
  /// lanes, then warps (what ScanOpToLLVM.cpp lowers); operands are
  /// converted to it and the results keep it.
  void processScan(ScanOp scan) {
    auto type = cast<RankedTensorType>(scan.getSrcs()[0].getType());
    unsigned rank = type.getRank(), axis = scan.getAxis();
    int64_t length = type.getShape()[axis];
    int64_t threads = int64_t(numWarps) * threadsPerWarp;
    SmallVector<unsigned> sizePerThread(rank, 1), order;
    sizePerThread[axis] = std::max<int64_t>(1, length / threads);
    order.push_back(axis);
    for (unsigned d = rank; d-- > 0;)
      if (d != axis)
        order.push_back(d);
    Attribute encoding =
        getBlockedEncoding(context, type.getShape(), sizePerThread, order,
                           numWarps, threadsPerWarp);
    for (unsigned i = 0; i < scan->getNumOperands(); ++i)
      convertOperand(scan, i, encoding);
    for (Value result : scan.getResults())
      setResultEncoding(result, encoding);
  }

  /// expand_dims(x, d) -> P wants x in slice<d, P>.
  void processExpandDims(ExpandDimsOp expand) {
    auto srcType = cast<RankedTensorType>(expand.getSrc().getType());
    auto slice = dyn_cast<SliceEncodingAttr>(srcType.getEncoding());
    Attribute parent;
    BlockedEncodingAttr inner;
    if (slice && slice.getDim() == unsigned(expand.getAxis())) {
      parent = slice.getParent();
    } else if (isJoinHalf(expand) &&
               (inner = getInnerExpandedEncoding(srcType))) {
      // A join's half: the new dimension in the registers of the threads
      // that hold the source (the slice of it is the source's own layout).
      parent = inner;
      convertOperand(expand, 0,
                     SliceEncodingAttr::get(context, expand.getAxis(), parent));
    } else {
      parent = defaultEncoding(expand.getResult().getType().getShape());
      convertOperand(expand, 0,
                     SliceEncodingAttr::get(context, expand.getAxis(), parent));
    }
    setResultEncoding(expand.getResult(), parent);
  }

  /// Whether `expand` adds a last dimension that only broadcasts take to
  /// two elements: one half of tl.join (the front end's broadcast of each
  /// operand and a select on an iota along the new dimension).
  static bool isJoinHalf(ExpandDimsOp expand) {
    auto type = expand.getResult().getType();
    if (unsigned(expand.getAxis()) + 1 != unsigned(type.getRank()) ||
        expand.getResult().use_empty())
      return false;
    return llvm::all_of(expand.getResult().getUsers(), [](Operation *user) {
      auto broadcast = dyn_cast<BroadcastOp>(user);
      return broadcast && broadcast.getType().getShape().back() == 2;
    });
  }

  /// Whether `select` picks between two join halves (broadcasts of
  /// expand_dims along the last dimension).
  static bool isJoin(arith::SelectOp select) {
    auto isHalf = [](Value value) {
      auto broadcast = value.getDefiningOp<BroadcastOp>();
      auto expand =
          broadcast ? broadcast.getSrc().getDefiningOp<ExpandDimsOp>() : nullptr;
      return expand && isJoinHalf(expand);
    };
    return isa<RankedTensorType>(select.getCondition().getType()) &&
           isHalf(select.getTrueValue()) && isHalf(select.getFalseValue());
  }

  /// A join takes the layout of its first half; the condition (an iota
  /// compare) and the other half follow it.
  void processJoin(arith::SelectOp select) {
    Attribute encoding =
        cast<RankedTensorType>(select.getTrueValue().getType()).getEncoding();
    for (unsigned i = 0; i < select->getNumOperands(); ++i)
      convertOperand(select, i, encoding);
    setResultEncoding(select.getResult(), encoding);
  }

  /// trans permutes the dims of a blocked encoding (a register relabelling).
  void processTrans(TransOp trans) {
    auto srcType = cast<RankedTensorType>(trans.getSrc().getType());
    auto blocked = dyn_cast<BlockedEncodingAttr>(srcType.getEncoding());
    if (!blocked) {
      blocked = cast<BlockedEncodingAttr>(defaultEncoding(srcType.getShape()));
      convertOperand(trans, 0, blocked);
    }
    setResultEncoding(trans.getResult(),
                      getTransposedEncoding(blocked, trans.getOrder()));
  }

  /// Loop-carried values start in their init's encoding; one whose body
  /// yields another encoding Y is carried in Y (init converted before the
  /// loop, the body converts back where it used the old encoding).
  void processFor(scf::ForOp forOp) {
    Block &body = *forOp.getBody();
    for (auto [arg, init, result] :
         llvm::zip(forOp.getRegionIterArgs(), forOp.getInitArgs(),
                   forOp.getResults())) {
      arg.setType(init.getType());
      result.setType(init.getType());
    }
    processBlock(body);
    auto yield = cast<scf::YieldOp>(body.getTerminator());
    for (auto [i, arg] : llvm::enumerate(forOp.getRegionIterArgs())) {
      Type yielded = yield.getOperand(i).getType();
      forOp.getResult(i).setType(yielded);
      if (yielded == arg.getType())
        continue;
      Type old = arg.getType();
      arg.setType(yielded);
      OpBuilder builder(&body, body.begin());
      auto back = ConvertLayoutOp::create(builder, forOp.getLoc(), old, arg);
      arg.replaceAllUsesExcept(back.getResult(), back);
      OpOperand &init = forOp.getInitArgsMutable()[i];
      init.set(convert(forOp, init.get(),
                       cast<RankedTensorType>(yielded).getEncoding()));
    }
  }

  void processIf(scf::IfOp ifOp) {
    processBlock(*ifOp.thenBlock());
    if (!ifOp.elseBlock())
      return;
    processBlock(*ifOp.elseBlock());
    scf::YieldOp thenYield = ifOp.thenYield(), elseYield = ifOp.elseYield();
    for (auto [i, result] : llvm::enumerate(ifOp.getResults())) {
      Type type = thenYield.getOperand(i).getType();
      result.setType(type);
      if (auto tensor = dyn_cast<RankedTensorType>(type))
        convertOperand(elseYield, i, tensor.getEncoding());
    }
  }

  void processWhile(scf::WhileOp whileOp) {
    Block &before = whileOp.getBefore().front();
    Block &after = whileOp.getAfter().front();
    for (auto [arg, init] :
         llvm::zip(before.getArguments(), whileOp.getInits()))
      arg.setType(init.getType());
    processBlock(before);
    scf::ConditionOp condition = whileOp.getConditionOp();
    for (auto [i, value] : llvm::enumerate(condition.getArgs())) {
      after.getArgument(i).setType(value.getType());
      whileOp.getResult(i).setType(value.getType());
    }
    processBlock(after);
    Operation *yield = after.getTerminator();
    for (auto [i, arg] : llvm::enumerate(before.getArguments()))
      if (auto tensor = dyn_cast<RankedTensorType>(arg.getType()))
        convertOperand(yield, i, tensor.getEncoding());
  }

  MLIRContext *context;
  unsigned numWarps;
  unsigned threadsPerWarp;
  int computeCapability;
  bool wgmma;
  DenseMap<unsigned, Attribute> defaults;
  std::map<SmallVector<int64_t>, Attribute> shapeDefaults;
};

/// Layouts distribute power-of-two extents only (MLIRGen pads other block
/// shapes); reports the first op with another tensor shape.
LogicalResult checkPowerOfTwoShapes(ModuleOp module) {
  WalkResult result = module.walk([](Operation *op) {
    for (Type type : op->getResultTypes())
      if (auto tensor = dyn_cast<RankedTensorType>(type))
        for (int64_t size : tensor.getShape())
          if (size <= 0 || !llvm::isPowerOf2_64(size)) {
            op->emitError(
                "the GPU passes need power-of-two tensor shapes, got ")
                << tensor;
            return WalkResult::interrupt();
          }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

struct AssignLayoutsPass
    : public mgp::impl::MgpAssignLayoutsBase<AssignLayoutsPass> {
  using MgpAssignLayoutsBase::MgpAssignLayoutsBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (failed(checkPowerOfTwoShapes(module)))
      return signalPassFailure();
    Builder builder(module.getContext());
    if (!module->hasAttr("mgp.num_warps"))
      module->setAttr("mgp.num_warps", builder.getI32IntegerAttr(numWarps));
    if (!module->hasAttr("mgp.threads_per_warp"))
      module->setAttr("mgp.threads_per_warp", builder.getI32IntegerAttr(32));
    unsigned warps = getModuleNumWarps(module),
             lanes = getModuleThreadsPerWarp(module);
    for (auto func : module.getOps<func::FuncOp>()) {
      if (func.isExternal())
        continue;
      LayoutAssigner(func, warps, lanes, computeCapability, wgmma).run(func);
    }
  }
};

} // namespace
