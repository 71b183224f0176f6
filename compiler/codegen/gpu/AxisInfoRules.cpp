//===- AxisInfoRules.cpp - transfer functions of the axis analysis --------===//
//
// This file implements the transfer functions of the axis analysis
// (AxisInfo.h): how make_range, constants, splat, broadcast, expand_dims,
// trans, addptr, add/sub/mul, div/rem by constants, comparisons, select,
// and/or, casts and mgp.hint map the facts of their operands to the facts of
// their result.
//
//===----------------------------------------------------------------------===//
#include "compiler/codegen/gpu/AxisInfoRules.h"
#include "compiler/ir/MgpDialect.h"

#include "llvm/ADT/TypeSwitch.h"

#include <numeric>

using namespace mlir;

namespace mgp {

namespace {

int64_t gcd(int64_t a, int64_t b) { return std::gcd(a, b); }
int64_t mulCap(int64_t a, int64_t b) {
  return (a >= AxisInfo::kMaxDivisor / b) ? AxisInfo::kMaxDivisor : a * b;
}
bool isPow2(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

SmallVector<int64_t> shapeOf(Value value) {
  if (auto type = dyn_cast<RankedTensorType>(value.getType()))
    return SmallVector<int64_t>(type.getShape());
  return {1};
}

/// Applies `fn(d)` to every dim of `rank`, collecting the results.
template <typename Fn> AxisInfo::DimVector perDim(unsigned rank, Fn fn) {
  AxisInfo::DimVector result;
  for (unsigned d = 0; d < rank; ++d)
    result.push_back(fn(d));
  return result;
}

/// The divisibility every element has (not only the first of each run).
int64_t elementDivisibility(const AxisInfo &info, unsigned d) {
  return info.getContiguity(d) > 1 ? 1 : info.getDivisibility(d);
}

/// The facts of a result that only keeps the operands' common constancy.
AxisInfo constancyOnly(Value result, ArrayRef<AxisInfo> operands) {
  SmallVector<int64_t> shape = shapeOf(result);
  AxisInfo::DimVector ones(shape.size(), 1);
  AxisInfo::DimVector constancy(shape.begin(), shape.end());
  for (const AxisInfo &info : operands) {
    if (info.getRank() != shape.size())
      return AxisInfo(ones, ones, ones);
    for (unsigned d = 0; d < shape.size(); ++d)
      constancy[d] = gcd(constancy[d], info.getConstancy(d));
  }
  return AxisInfo(ones, ones, constancy);
}

std::optional<int64_t> foldBinary(Operation *op, int64_t l, int64_t r) {
  return llvm::TypeSwitch<Operation *, std::optional<int64_t>>(op)
      .Case<arith::AddIOp, AddPtrOp>([&](auto) { return l + r; })
      .Case<arith::SubIOp>([&](auto) { return l - r; })
      .Case<arith::MulIOp>([&](auto) { return l * r; })
      .Case<arith::DivSIOp, arith::DivUIOp>(
          [&](auto) -> std::optional<int64_t> {
            if (r == 0)
              return std::nullopt;
            return l / r;
          })
      .Case<arith::RemSIOp, arith::RemUIOp>(
          [&](auto) -> std::optional<int64_t> {
            if (r == 0)
              return std::nullopt;
            return l % r;
          })
      .Case<arith::AndIOp>([&](auto) { return l & r; })
      .Case<arith::OrIOp>([&](auto) { return l | r; })
      .Default([](Operation *) { return std::nullopt; });
}

/// add, sub and addptr: runs of +1 survive adding a constant run.
AxisInfo visitAddSub(Operation *op, const AxisInfo &lhs, const AxisInfo &rhs,
                     int64_t rhsScale) {
  bool isSub = isa<arith::SubIOp>(op);
  unsigned rank = lhs.getRank();
  auto contiguity = perDim(rank, [&](unsigned d) {
    int64_t viaRhsConst = gcd(lhs.getContiguity(d), rhs.getConstancy(d));
    if (isSub)
      return viaRhsConst;
    return std::max(viaRhsConst,
                    gcd(lhs.getConstancy(d), rhs.getContiguity(d)));
  });
  auto divisibility = perDim(rank, [&](unsigned d) {
    return gcd(lhs.getDivisibility(d),
               mulCap(rhs.getDivisibility(d), rhsScale));
  });
  auto constancy = perDim(rank, [&](unsigned d) {
    return gcd(lhs.getConstancy(d), rhs.getConstancy(d));
  });
  std::optional<int64_t> constant;
  if (lhs.getConstantValue() && rhs.getConstantValue())
    constant = foldBinary(op, *lhs.getConstantValue(),
                          *rhs.getConstantValue() * rhsScale);
  return AxisInfo(contiguity, divisibility, constancy, constant);
}

AxisInfo visitMul(const AxisInfo &lhs, const AxisInfo &rhs) {
  if (rhs.getConstantValue() == 1)
    return lhs;
  if (lhs.getConstantValue() == 1)
    return rhs;
  unsigned rank = lhs.getRank();
  AxisInfo::DimVector ones(rank, 1);
  auto divisibility = perDim(rank, [&](unsigned d) {
    return mulCap(elementDivisibility(lhs, d), elementDivisibility(rhs, d));
  });
  auto constancy = perDim(rank, [&](unsigned d) {
    return gcd(lhs.getConstancy(d), rhs.getConstancy(d));
  });
  std::optional<int64_t> constant;
  if (lhs.getConstantValue() && rhs.getConstantValue())
    constant = *lhs.getConstantValue() * *rhs.getConstantValue();
  return AxisInfo(ones, divisibility, constancy, constant);
}

/// Division by a positive power of two `c`: aligned runs of c consecutive
/// values map to one value.
AxisInfo visitDiv(Operation *op, Value result, const AxisInfo &lhs,
                  const AxisInfo &rhs) {
  std::optional<int64_t> c = rhs.getConstantValue();
  if (c == 1)
    return lhs;
  AxisInfo base = constancyOnly(result, {lhs, rhs});
  if (!c || !isPow2(*c))
    return base;
  unsigned rank = lhs.getRank();
  auto constancy = perDim(rank, [&](unsigned d) {
    int64_t k = base.getConstancy(d);
    if (lhs.getContiguity(d) > 1 && lhs.getDivisibility(d) % *c == 0)
      k = std::max(k, gcd(lhs.getContiguity(d), *c));
    return k;
  });
  auto divisibility = perDim(rank, [&](unsigned d) {
    if (lhs.getContiguity(d) > 1 || lhs.getDivisibility(d) % *c != 0)
      return int64_t(1);
    return lhs.getDivisibility(d) / *c;
  });
  std::optional<int64_t> constant;
  if (lhs.getConstantValue())
    constant = foldBinary(op, *lhs.getConstantValue(), *c);
  return AxisInfo(base.getContiguity(), divisibility, constancy, constant);
}

/// Remainder by a positive power of two `c`: aligned runs stay runs of at
/// most c.
AxisInfo visitRem(Operation *op, Value result, const AxisInfo &lhs,
                  const AxisInfo &rhs) {
  std::optional<int64_t> c = rhs.getConstantValue();
  AxisInfo base = constancyOnly(result, {lhs, rhs});
  if (!c || !isPow2(*c))
    return base;
  unsigned rank = lhs.getRank();
  auto contiguity = perDim(rank, [&](unsigned d) {
    if (lhs.getDivisibility(d) % *c != 0)
      return int64_t(1);
    return gcd(lhs.getContiguity(d), *c);
  });
  auto divisibility =
      perDim(rank, [&](unsigned d) { return gcd(lhs.getDivisibility(d), *c); });
  auto constancy = perDim(rank, [&](unsigned d) {
    return gcd(lhs.getConstancy(d), rhs.getConstancy(d));
  });
  std::optional<int64_t> constant;
  if (lhs.getConstantValue())
    constant = foldBinary(op, *lhs.getConstantValue(), *c);
  return AxisInfo(contiguity, divisibility, constancy, constant);
}

/// `offs < n`: constant over aligned blocks that cannot straddle n.
AxisInfo visitCmp(Operation *op, Value result, const AxisInfo &lhs,
                  const AxisInfo &rhs) {
  AxisInfo base = constancyOnly(result, {lhs, rhs});
  bool isOrdering = true;
  if (auto cmp = dyn_cast<arith::CmpIOp>(op))
    isOrdering = cmp.getPredicate() != arith::CmpIPredicate::eq &&
                 cmp.getPredicate() != arith::CmpIPredicate::ne;
  if (!isa<RankedTensorType>(result.getType()) || !isa<arith::CmpIOp>(op) ||
      !isOrdering)
    return base;
  unsigned rank = lhs.getRank();
  auto constancy = perDim(rank, [&](unsigned d) {
    int64_t k = base.getConstancy(d);
    if (lhs.getContiguity(d) > 1 && rhs.getConstancy(d) > 1)
      k = std::max(k, gcd(lhs.getContiguity(d),
                          gcd(lhs.getDivisibility(d), rhs.getDivisibility(d))));
    if (rhs.getContiguity(d) > 1 && lhs.getConstancy(d) > 1)
      k = std::max(k, gcd(rhs.getContiguity(d),
                          gcd(rhs.getDivisibility(d), lhs.getDivisibility(d))));
    return k;
  });
  return AxisInfo(base.getContiguity(), base.getDivisibility(), constancy);
}

AxisInfo visitSelect(Value result, AxisInfo cond, const AxisInfo &lhs,
                     const AxisInfo &rhs) {
  if (std::optional<int64_t> c = cond.getConstantValue())
    return *c ? lhs : rhs;
  SmallVector<int64_t> shape = shapeOf(result);
  if (cond.getRank() != shape.size()) // scalar condition of a tensor select
    cond = AxisInfo(AxisInfo::DimVector(shape.size(), 1),
                    AxisInfo::DimVector(shape.size(), 1),
                    AxisInfo::DimVector(shape.begin(), shape.end()));
  unsigned rank = lhs.getRank();
  auto contiguity = perDim(rank, [&](unsigned d) {
    return std::min(gcd(lhs.getContiguity(d), cond.getConstancy(d)),
                    gcd(rhs.getContiguity(d), cond.getConstancy(d)));
  });
  auto divisibility = perDim(rank, [&](unsigned d) {
    return gcd(lhs.getDivisibility(d), rhs.getDivisibility(d));
  });
  auto constancy = perDim(rank, [&](unsigned d) {
    return std::min(gcd(lhs.getConstancy(d), cond.getConstancy(d)),
                    gcd(rhs.getConstancy(d), cond.getConstancy(d)));
  });
  std::optional<int64_t> constant;
  if (lhs.getConstantValue() &&
      lhs.getConstantValue() == rhs.getConstantValue())
    constant = lhs.getConstantValue();
  return AxisInfo(contiguity, divisibility, constancy, constant);
}

AxisInfo visitBitwise(Operation *op, Value result, const AxisInfo &lhs,
                      const AxisInfo &rhs) {
  AxisInfo base = constancyOnly(result, {lhs, rhs});
  unsigned rank = lhs.getRank();
  bool isAnd = isa<arith::AndIOp>(op);
  auto divisibility = perDim(rank, [&](unsigned d) {
    int64_t l = elementDivisibility(lhs, d), r = elementDivisibility(rhs, d);
    return isAnd ? std::max(l, r) : std::min(l, r);
  });
  std::optional<int64_t> constant;
  if (lhs.getConstantValue() && rhs.getConstantValue())
    constant = foldBinary(op, *lhs.getConstantValue(), *rhs.getConstantValue());
  return AxisInfo(base.getContiguity(), divisibility, base.getConstancy(),
                  constant);
}

/// min/max of integers: either operand, so divisible by what divides both
/// (the smaller power of 2), as Triton's MaxMinOpAxisInfoVisitor.
AxisInfo visitMinMax(Operation *op, Value result, const AxisInfo &lhs,
                     const AxisInfo &rhs) {
  AxisInfo base = constancyOnly(result, {lhs, rhs});
  unsigned rank = lhs.getRank();
  auto divisibility = perDim(rank, [&](unsigned d) {
    return std::min(elementDivisibility(lhs, d), elementDivisibility(rhs, d));
  });
  // Constants fold for the signed forms (values are kept sign-extended).
  std::optional<int64_t> constant;
  if (lhs.getConstantValue() && rhs.getConstantValue() &&
      isa<arith::MinSIOp, arith::MaxSIOp>(op)) {
    int64_t l = *lhs.getConstantValue(), r = *rhs.getConstantValue();
    constant = isa<arith::MinSIOp>(op) ? std::min(l, r) : std::max(l, r);
  }
  return AxisInfo(base.getContiguity(), divisibility, base.getConstancy(),
                  constant);
}

std::optional<AxisInfo> visitConstant(arith::ConstantOp op) {
  SmallVector<int64_t> shape = shapeOf(op.getResult());
  Attribute value = op.getValue();
  if (auto dense = dyn_cast<DenseElementsAttr>(value)) {
    if (!dense.isSplat())
      return std::nullopt;
    value = dense.getSplatValue<Attribute>();
  }
  if (auto intAttr = dyn_cast<IntegerAttr>(value)) {
    int64_t v = intAttr.getType().isInteger(1)
                    ? intAttr.getValue().getZExtValue()
                    : intAttr.getValue().getSExtValue();
    return AxisInfo::getConstant(v, isa<RankedTensorType>(op.getType())
                                        ? ArrayRef<int64_t>(shape)
                                        : ArrayRef<int64_t>());
  }
  AxisInfo::DimVector ones(shape.size(), 1);
  return AxisInfo(ones, ones, AxisInfo::DimVector(shape.begin(), shape.end()));
}

std::optional<AxisInfo> visitShapeOp(Operation *op, ArrayRef<AxisInfo> in) {
  if (auto range = dyn_cast<MakeRangeOp>(op)) {
    int64_t start = range.getStart(), end = range.getEnd();
    return AxisInfo({end - start}, {AxisInfo::highestPowOf2Divisor(start)},
                    {1});
  }
  if (auto splat = dyn_cast<SplatOp>(op)) {
    SmallVector<int64_t> shape = shapeOf(splat.getResult());
    unsigned rank = shape.size();
    return AxisInfo(AxisInfo::DimVector(rank, 1),
                    AxisInfo::DimVector(rank, in[0].getDivisibility(0)),
                    AxisInfo::DimVector(shape.begin(), shape.end()),
                    in[0].getConstantValue());
  }
  if (auto bcast = dyn_cast<BroadcastOp>(op)) {
    SmallVector<int64_t> src = shapeOf(bcast.getSrc()), dst = shapeOf(bcast);
    AxisInfo::DimVector contig = in[0].getContiguity(),
                        div = in[0].getDivisibility(),
                        cons = in[0].getConstancy();
    for (unsigned d = 0; d < dst.size(); ++d)
      if (src[d] == 1 && dst[d] != 1) {
        contig[d] = 1;
        cons[d] = dst[d];
      }
    return AxisInfo(contig, div, cons, in[0].getConstantValue());
  }
  if (auto expand = dyn_cast<ExpandDimsOp>(op)) {
    const AxisInfo &src = in[0];
    int64_t newDiv = AxisInfo::kMaxDivisor;
    if (std::optional<int64_t> c = src.getConstantValue())
      newDiv = AxisInfo::highestPowOf2Divisor(*c);
    else
      for (unsigned d = 0; d < src.getRank(); ++d)
        newDiv = std::min(newDiv, elementDivisibility(src, d));
    unsigned axis = expand.getAxis();
    AxisInfo::DimVector contig = src.getContiguity(),
                        div = src.getDivisibility(), cons = src.getConstancy();
    contig.insert(contig.begin() + axis, 1);
    div.insert(div.begin() + axis, newDiv);
    cons.insert(cons.begin() + axis, 1);
    return AxisInfo(contig, div, cons, src.getConstantValue());
  }
  if (auto trans = dyn_cast<TransOp>(op)) {
    AxisInfo::DimVector contig, div, cons;
    for (int32_t d : trans.getOrder()) {
      contig.push_back(in[0].getContiguity(d));
      div.push_back(in[0].getDivisibility(d));
      cons.push_back(in[0].getConstancy(d));
    }
    return AxisInfo(contig, div, cons, in[0].getConstantValue());
  }
  if (isa<ConvertLayoutOp>(op))
    return in[0];
  if (auto hint = dyn_cast<HintOp>(op)) {
    AxisInfo::DimVector contig = in[0].getContiguity(),
                        div = in[0].getDivisibility(),
                        cons = in[0].getConstancy();
    unsigned last = contig.size() - 1;
    if (std::optional<uint64_t> m = hint.getMultipleOf())
      for (int64_t &v : div)
        v = std::max<int64_t>(v, AxisInfo::highestPowOf2Divisor(*m));
    if (std::optional<uint64_t> m = hint.getMaxContiguous())
      contig[last] = std::max<int64_t>(contig[last], *m);
    return AxisInfo(contig, div, cons, in[0].getConstantValue());
  }
  return std::nullopt;
}

} // namespace

/// The transfer function; nullopt means "no facts" (pessimistic).
std::optional<AxisInfo> computeAxisInfo(Operation *op, ArrayRef<AxisInfo> in) {
  if (auto constant = dyn_cast<arith::ConstantOp>(op))
    return visitConstant(constant);
  if (std::optional<AxisInfo> info = visitShapeOp(op, in))
    return info;
  if (op->getNumResults() != 1)
    return std::nullopt;
  Value result = op->getResult(0);
  unsigned rank = shapeOf(result).size();
  if (isa<arith::ExtSIOp, arith::ExtUIOp, arith::TruncIOp, arith::IndexCastOp,
          arith::IndexCastUIOp>(op))
    return in[0];
  if (isa<arith::SelectOp>(op) && in[1].getRank() == rank &&
      in[2].getRank() == rank)
    return visitSelect(result, in[0], in[1], in[2]);
  if (in.size() != 2 || in[0].getRank() != rank || in[1].getRank() != rank)
    return constancyOnly(result, in);
  const AxisInfo &lhs = in[0], &rhs = in[1];
  if (auto addPtr = dyn_cast<AddPtrOp>(op)) {
    return visitAddSub(op, lhs, rhs,
                       getPointeeBytes(addPtr.getPtr().getType()));
  }
  if (isa<arith::AddIOp, arith::SubIOp>(op))
    return visitAddSub(op, lhs, rhs, 1);
  if (isa<arith::MulIOp>(op))
    return visitMul(lhs, rhs);
  if (isa<arith::DivSIOp, arith::DivUIOp>(op))
    return visitDiv(op, result, lhs, rhs);
  if (isa<arith::RemSIOp, arith::RemUIOp>(op))
    return visitRem(op, result, lhs, rhs);
  if (isa<arith::CmpIOp, arith::CmpFOp>(op))
    return visitCmp(op, result, lhs, rhs);
  if (isa<arith::AndIOp, arith::OrIOp>(op))
    return visitBitwise(op, result, lhs, rhs);
  if (isa<arith::MinSIOp, arith::MaxSIOp, arith::MinUIOp, arith::MaxUIOp>(op))
    return visitMinMax(op, result, lhs, rhs);
  return constancyOnly(result, in);
}

} // namespace mgp
