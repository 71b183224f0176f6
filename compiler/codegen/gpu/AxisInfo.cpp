//===- AxisInfo.cpp - contiguity, divisibility and constancy --------------===//
//
// This file implements the axis analysis declared in AxisInfo.h: the transfer
// function of every mgp, arith and scf construct that preserves structure
// (make_range, constants, splat, broadcast, expand_dims, trans, addptr,
// add/sub/mul, div/rem by constants, comparisons, select, and/or, casts,
// mgp.hint, loop induction variables) over MLIR's sparse dataflow framework.
//
//===----------------------------------------------------------------------===//
#include "compiler/codegen/gpu/AxisInfo.h"
#include "compiler/codegen/gpu/AxisInfoRules.h"
#include "compiler/ir/MgpDialect.h"

#include "mlir/Analysis/DataFlow/ConstantPropagationAnalysis.h"
#include "mlir/Analysis/DataFlow/DeadCodeAnalysis.h"

#include <numeric>

using namespace mlir;

namespace mgp {

namespace {

int64_t gcd(int64_t a, int64_t b) { return std::gcd(a, b); }

SmallVector<int64_t> shapeOf(Value value) {
  if (auto type = dyn_cast<RankedTensorType>(value.getType()))
    return SmallVector<int64_t>(type.getShape());
  return {1};
}

class AxisInfoAnalysis
    : public dataflow::SparseForwardDataFlowAnalysis<AxisInfoLattice> {
public:
  using SparseForwardDataFlowAnalysis::SparseForwardDataFlowAnalysis;

  void setToEntryState(AxisInfoLattice *lattice) override {
    propagateIfChanged(
        lattice, lattice->join(
                     AxisInfo::getPessimisticValueState(lattice->getAnchor())));
  }

  LogicalResult visitOperation(Operation *op,
                               ArrayRef<const AxisInfoLattice *> operands,
                               ArrayRef<AxisInfoLattice *> results) override {
    SmallVector<AxisInfo> in;
    for (const AxisInfoLattice *operand : operands) {
      if (operand->getValue().isUninitialized())
        return success(); // wait until every operand has facts
      in.push_back(operand->getValue());
    }
    std::optional<AxisInfo> info;
    if (!in.empty() || op->getNumOperands() == 0)
      info = computeAxisInfo(op, in);
    for (auto [result, lattice] : llvm::zip(op->getResults(), results)) {
      AxisInfo value = (info && results.size() == 1)
                           ? *info
                           : AxisInfo::getPessimisticValueState(result);
      propagateIfChanged(lattice, lattice->join(value));
    }
    return success();
  }

  void visitNonControlFlowArguments(Operation *op,
                                    const RegionSuccessor &successor,
                                    ArrayRef<AxisInfoLattice *> argLattices,
                                    unsigned firstIndex) override {
    auto forOp = dyn_cast<scf::ForOp>(op);
    if (!forOp)
      return SparseForwardDataFlowAnalysis::visitNonControlFlowArguments(
          op, successor, argLattices, firstIndex);
    // The induction variable: lb + k * step, divisible by gcd(lb, step).
    ProgramPoint *point = getProgramPointAfter(op);
    const AxisInfoLattice *lb =
        getLatticeElementFor(point, forOp.getLowerBound());
    const AxisInfoLattice *step = getLatticeElementFor(point, forOp.getStep());
    int64_t div = 1;
    if (!lb->getValue().isUninitialized() &&
        !step->getValue().isUninitialized())
      div = gcd(lb->getValue().getDivisibility(0),
                step->getValue().getDivisibility(0));
    AxisInfo iv({1}, {div}, {1});
    propagateIfChanged(argLattices[0], argLattices[0]->join(iv));
  }
};

} // namespace

int64_t AxisInfo::highestPowOf2Divisor(int64_t value) {
  if (value == 0)
    return kMaxDivisor;
  return std::min<int64_t>(kMaxDivisor, value & -value);
}

AxisInfo AxisInfo::getPessimisticValueState(Value value) {
  unsigned rank = shapeOf(value).size();
  DimVector ones(rank, 1);
  DimVector divisibility = ones;
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    auto func = dyn_cast<FunctionOpInterface>(arg.getOwner()->getParentOp());
    if (func && arg.getOwner()->isEntryBlock())
      if (auto attr = func.getArgAttrOfType<IntegerAttr>(arg.getArgNumber(),
                                                         "mgp.divisibility"))
        divisibility.assign(rank, highestPowOf2Divisor(attr.getInt()));
  }
  return AxisInfo(ones, divisibility, ones);
}

AxisInfo AxisInfo::getConstant(int64_t constant, ArrayRef<int64_t> shape) {
  unsigned rank = shape.empty() ? 1 : shape.size();
  DimVector constancy =
      shape.empty() ? DimVector{1} : DimVector(shape.begin(), shape.end());
  return AxisInfo(DimVector(rank, 1),
                  DimVector(rank, highestPowOf2Divisor(constant)), constancy,
                  constant);
}

AxisInfo AxisInfo::join(const AxisInfo &lhs, const AxisInfo &rhs) {
  if (lhs.isUninitialized())
    return rhs;
  if (rhs.isUninitialized())
    return lhs;
  assert(lhs.getRank() == rhs.getRank() && "joining values of different rank");
  DimVector contiguity, divisibility, constancy;
  for (unsigned d = 0; d < lhs.getRank(); ++d) {
    contiguity.push_back(gcd(lhs.contiguity[d], rhs.contiguity[d]));
    divisibility.push_back(gcd(lhs.divisibility[d], rhs.divisibility[d]));
    constancy.push_back(gcd(lhs.constancy[d], rhs.constancy[d]));
  }
  std::optional<int64_t> constant;
  if (lhs.constantValue == rhs.constantValue)
    constant = lhs.constantValue;
  return AxisInfo(contiguity, divisibility, constancy, constant);
}

void AxisInfo::print(raw_ostream &os) const {
  auto printVec = [&](StringRef name, const DimVector &v) {
    os << name << " = [";
    llvm::interleaveComma(v, os);
    os << "]";
  };
  printVec("contiguity", contiguity);
  os << ", ";
  printVec("divisibility", divisibility);
  os << ", ";
  printVec("constancy", constancy);
  if (constantValue)
    os << ", constant = " << *constantValue;
}

ModuleAxisInfo::ModuleAxisInfo(ModuleOp module) {
  solver.load<dataflow::DeadCodeAnalysis>();
  solver.load<dataflow::SparseConstantPropagation>();
  solver.load<AxisInfoAnalysis>();
  if (failed(solver.initializeAndRun(module)))
    llvm::report_fatal_error("axis analysis failed to converge");
}

AxisInfo ModuleAxisInfo::get(Value value) const {
  const auto *lattice = solver.lookupState<AxisInfoLattice>(value);
  if (!lattice || lattice->getValue().isUninitialized())
    return AxisInfo::getPessimisticValueState(value);
  return lattice->getValue();
}

int64_t ModuleAxisInfo::getPtrContiguity(Value ptr, unsigned dim) const {
  AxisInfo info = get(ptr);
  int64_t elemBytes = getPointeeBytes(ptr.getType());
  int64_t alignment =
      std::max<int64_t>(info.getDivisibility(dim) / elemBytes, 1);
  return std::min(alignment, info.getContiguity(dim));
}

int64_t ModuleAxisInfo::getMaskConstancy(Value mask, unsigned dim) const {
  return get(mask).getConstancy(dim);
}

SmallVector<unsigned> getOrderFromContiguity(const AxisInfo &info) {
  SmallVector<unsigned> order;
  for (int d = info.getRank() - 1; d >= 0; --d)
    order.push_back(d);
  std::stable_sort(order.begin(), order.end(), [&](unsigned a, unsigned b) {
    return info.getContiguity(a) > info.getContiguity(b);
  });
  return order;
}

int64_t getElementBytes(Type type) {
  type = getElementTypeOrSelf(type);
  if (isa<PointerType>(type))
    return 8;
  if (type.isInteger(1))
    return 1;
  return std::max<int64_t>(type.getIntOrFloatBitWidth() / 8, 1);
}

int64_t getPointeeBytes(Type ptrLike) {
  auto ptr = cast<PointerType>(getElementTypeOrSelf(ptrLike));
  return getElementBytes(ptr.getPointeeType());
}

} // namespace mgp
