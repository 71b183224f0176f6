//===- MLIRGenPadding.cpp - blocks whose shapes are not powers of two -----===//
//
// This file implements block shapes that are not powers of two, a thing
// Triton refuses (`tl.arange(0, 100)`, `tl.zeros((48, 24))`). The GPU passes
// (the layout function of compiler/ir/Layout.h) need power-of-two tensor
// shapes, so MLIRGen pads every dimension to the next power of two in the
// MLIR type and keeps the meaning of the program that of the logical block.
// It is one mechanism, not a rule per builtin:
//
// 1. Each block value has a *logical shape* next to its padded MLIR type,
//    kept in Generator::logicalShapes. It is recorded where a shape comes
//    from the program (arange, zeros/full, broadcasting, reshape, the block
//    arguments of loops and the results of ifs) and derived for every other
//    op from its operands: an element-wise op inherits it from an operand of
//    the same MLIR shape, expand_dims inserts a 1, trans permutes, a
//    reduction drops its axis, dot is (M, N). A value with nothing recorded
//    or derivable is not padded. The MLIR shape is always padShape(logical).
// 2. Broadcasting and every shape check use logical shapes, and messages
//    print them (SemaValue::getLogicalType()); so do `x.shape` and `len`.
// 3. The padding holds unspecified values. Element-wise ops compute garbage
//    there freely; the few ops that observe it are masked with the validity
//    mask (getValidMask: `iota_d < extent_d`, and-ed over the padded dims):
//    loads and stores and it into their mask (a load's padding reads `other`,
//    or 0), reductions replace the padding by the combiner's neutral element
//    (0, -inf/+inf, the integer minimum/maximum; argmax/argmin index ties go
//    to the lower, logical, index), and dot zeroes both operands when K is
//    padded. So padding never reaches memory or a result.
// 4. reshape keeps its element order only when at most the leading non-unit
//    dimension is padded, in the source and in the result; other reshapes
//    of padded blocks are a located error (BuiltinsShape.cpp).
//
//===----------------------------------------------------------------------===//
#include "compiler/frontend/MLIRGenImpl.h"

#include "compiler/frontend/SemaTypes.h"
#include "compiler/ir/MgpDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/Support/MathExtras.h"

using namespace mgp;
using namespace mgp::detail;

llvm::SmallVector<int64_t>
mgp::detail::padShape(llvm::ArrayRef<int64_t> shape) {
  llvm::SmallVector<int64_t> padded;
  for (int64_t d : shape)
    padded.push_back(d <= 1 ? d : static_cast<int64_t>(llvm::PowerOf2Ceil(d)));
  return padded;
}

/// The logical shape of `v` if it is recorded or derivable from its
/// operands (memoized), else std::nullopt.
static std::optional<llvm::SmallVector<int64_t>> inferLogical(Generator &g,
                                                              mlir::Value v) {
  auto it = g.logicalShapes.find(v);
  if (it != g.logicalShapes.end())
    return llvm::SmallVector<int64_t>(it->second.begin(), it->second.end());
  auto type = llvm::dyn_cast<mlir::RankedTensorType>(v.getType());
  if (!type)
    return llvm::SmallVector<int64_t>();
  mlir::Operation *op = v.getDefiningOp();
  if (!op)
    return std::nullopt;
  std::optional<llvm::SmallVector<int64_t>> r;
  if (auto e = llvm::dyn_cast<ExpandDimsOp>(op)) {
    if ((r = inferLogical(g, e.getSrc())))
      r->insert(r->begin() + e.getAxis(), 1);
  } else if (auto t = llvm::dyn_cast<TransOp>(op)) {
    if (auto s = inferLogical(g, t.getSrc())) {
      r.emplace();
      for (int32_t o : t.getOrder())
        r->push_back((*s)[o]);
    }
  } else if (auto red = llvm::dyn_cast<ReduceOp>(op)) {
    if ((r = inferLogical(g, red.getSrcs()[0])))
      r->erase(r->begin() + red.getAxis());
  } else if (auto d = llvm::dyn_cast<DotOp>(op)) {
    auto a = inferLogical(g, d.getA()), b = inferLogical(g, d.getB());
    if (a || b)
      r = llvm::SmallVector<int64_t>{
          a ? (*a)[0] : getShapeOf(d.getA().getType())[0],
          b ? (*b)[1] : getShapeOf(d.getB().getType())[1]};
  } else if (!llvm::isa<SplatOp, BroadcastOp, ReshapeOp, MakeRangeOp>(op)) {
    // Element-wise: like an operand of the same MLIR shape.
    for (mlir::Value operand : op->getOperands()) {
      auto ot = llvm::dyn_cast<mlir::RankedTensorType>(operand.getType());
      if (ot && ot.getShape() == type.getShape())
        if ((r = inferLogical(g, operand)))
          break;
    }
  }
  if (r)
    g.logicalShapes[v] = llvm::SmallVector<int64_t, 4>(r->begin(), r->end());
  return r;
}

llvm::SmallVector<int64_t> Generator::getLogicalShape(mlir::Value v) {
  if (auto r = inferLogical(*this, v))
    return *r;
  llvm::ArrayRef<int64_t> shape = getShapeOf(v.getType());
  return llvm::SmallVector<int64_t>(shape.begin(), shape.end());
}

mlir::Value Generator::setLogicalShape(mlir::Value v,
                                       llvm::ArrayRef<int64_t> shape) {
  assert(llvm::ArrayRef<int64_t>(padShape(shape)) == getShapeOf(v.getType()) &&
         "the MLIR shape must be the padded logical shape");
  logicalShapes[v] = llvm::SmallVector<int64_t, 4>(shape.begin(), shape.end());
  return v;
}

bool Generator::isPadded(mlir::Value v) {
  return llvm::isa<mlir::RankedTensorType>(v.getType()) &&
         llvm::ArrayRef<int64_t>(getLogicalShape(v)) != getShapeOf(v.getType());
}

SemaValue Generator::runtime(mlir::Value v, bool isUnsigned) {
  if (!llvm::isa<mlir::RankedTensorType>(v.getType()))
    return SemaValue::getRuntime(v).withUnsigned(isUnsigned);
  noteBlockSize(v);
  return SemaValue::getRuntime(v, getLogicalShape(v)).withUnsigned(isUnsigned);
}

void Generator::noteBlockSize(mlir::Value v) {
  if (budgetViolation)
    return;
  auto type = llvm::cast<mlir::RankedTensorType>(v.getType());
  mlir::Type elt = type.getElementType();
  // Pointers count as 32 bits: LLVM keeps a base and 32-bit offsets live
  // rather than every 64-bit address.
  int64_t bits = llvm::isa<PointerType>(elt) ? 32
                 : elt.getIntOrFloatBitWidth() < 8
                     ? 8
                     : elt.getIntOrFloatBitWidth();
  int64_t threads = 32 * int64_t(genOptions.numWarps);
  int64_t words = (type.getNumElements() * bits + 31) / 32;
  int64_t perThread = (words + threads - 1) / threads;
  if (perThread <= kRegisterBudget)
    return;
  std::string hint = warpsHint(
      [&](int warps) { return (words + 32 * warps - 1) / (32 * warps); },
      kRegisterBudget);
  budgetViolation =
      "a block of shape " + describeShape(getLogicalShape(v)) + " of " +
      getTypeName(elt) + " needs " + std::to_string(perThread) +
      " registers per thread at num_warps=" +
      std::to_string(genOptions.numWarps) + ", more than mgp's budget of " +
      std::to_string(kRegisterBudget) + " for one block; " + hint;
}

std::string Generator::warpsHint(llvm::function_ref<int64_t(int)> perThread,
                                 int64_t budget) const {
  int warps = genOptions.numWarps;
  while (warps < 32 && perThread(warps) > budget)
    warps *= 2;
  if (perThread(warps) > budget)
    return "use smaller blocks (even 32 warps do not fit it)";
  return "use num_warps=" + std::to_string(warps) +
         " or more, or smaller blocks";
}

mlir::Value Generator::getValidMask(mlir::Value v, mlir::Location l) {
  llvm::SmallVector<int64_t> logical = getLogicalShape(v);
  llvm::ArrayRef<int64_t> padded = getShapeOf(v.getType());
  if (llvm::ArrayRef<int64_t>(logical) == padded)
    return {};
  auto maskType = mlir::RankedTensorType::get(padded, builder.getI1Type());
  mlir::Value mask;
  for (size_t k = 0; k < padded.size(); ++k) {
    if (logical[k] == padded[k])
      continue;
    // iota_k < extent_k along dim k, expanded and broadcast to `padded`.
    mlir::Value iota =
        MakeRangeOp::create(builder, l, 0, static_cast<int32_t>(padded[k]));
    mlir::Value extent = materializeSplat(SemaValue::getInt(logical[k]),
                                          builder.getI32Type(), {padded[k]}, l);
    mlir::Value valid = mlir::arith::CmpIOp::create(
        builder, l, mlir::arith::CmpIPredicate::slt, iota, extent);
    for (size_t d = 0; d < k; ++d)
      valid = ExpandDimsOp::create(builder, l, valid, 0);
    while (getShapeOf(valid.getType()).size() < padded.size())
      valid = ExpandDimsOp::create(builder, l, valid,
                                   getShapeOf(valid.getType()).size());
    if (getShapeOf(valid.getType()) != padded)
      valid = BroadcastOp::create(builder, l, maskType, valid);
    mask =
        mask ? mlir::arith::AndIOp::create(builder, l, mask, valid).getResult()
             : valid;
  }
  return setLogicalShape(mask, logical);
}

mlir::Value Generator::fillPadding(mlir::Value v, const SemaValue &neutral,
                                   mlir::Location l) {
  mlir::Value mask = getValidMask(v, l);
  if (!mask)
    return v;
  llvm::SmallVector<int64_t> logical = getLogicalShape(v);
  mlir::Value fill = materializeSplat(neutral, getElementType(v.getType()),
                                      getShapeOf(v.getType()), l);
  return setLogicalShape(
      mlir::arith::SelectOp::create(builder, l, mask, v, fill), logical);
}

void Generator::forgetValues(mlir::Block &block) {
  for (mlir::Value arg : block.getArguments())
    logicalShapes.erase(arg);
  block.walk([&](mlir::Operation *op) {
    for (mlir::Value r : op->getResults())
      logicalShapes.erase(r);
    for (mlir::Region &region : op->getRegions())
      for (mlir::Block &b : region)
        for (mlir::Value arg : b.getArguments())
          logicalShapes.erase(arg);
  });
}
