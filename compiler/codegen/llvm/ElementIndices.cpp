//===- ElementIndices.cpp - which element each register holds -------------===//
//
// This file implements ElementIndices.h on top of the layout bases of
// compiler/ir/Layout.h: coordinates are the sum of the basis vectors of the
// set bits of (register, lane, warp), modulo the shape.
//
//===----------------------------------------------------------------------===//
#include "compiler/codegen/llvm/ElementIndices.h"

#include "compiler/codegen/llvm/RegisterStruct.h"
#include "compiler/ir/Layout.h"
#include "compiler/ir/MgpDialect.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/MathExtras.h"

#include <optional>

using namespace mlir;
using namespace mgp;

RegisterTable mgp::getLane0RegisterTable(RankedTensorType type) {
  RegisterTable table;
  auto coords = getElementCoords(type.getEncoding(), type.getShape(), 0, 0);
  for (unsigned reg = coords.size(); reg-- > 0;)
    table[{coords[reg][0], coords[reg][1]}] = reg;
  return table;
}

unsigned mgp::getRegisterCount(RankedTensorType type) {
  return getTotalElemsPerThread(type.getEncoding(), type.getShape());
}

/// The dimension of the only nonzero entry of `basis`, if it has one entry
/// and that entry is a power of two.
static std::optional<unsigned> singlePowerOfTwoDim(ArrayRef<int64_t> basis) {
  std::optional<unsigned> dim;
  for (auto [d, v] : llvm::enumerate(basis)) {
    if (v == 0)
      continue;
    if (dim || v < 0 || !llvm::isPowerOf2_64(uint64_t(v)))
      return std::nullopt;
    dim = d;
  }
  return dim;
}

/// sum over the set bits of `id` of bases[bit][dim], as i32 values per dim.
/// A run of bits whose bases double along one dimension (a lane's bits in a
/// blocked layout) is one bit field, ((id >> first) & mask) * basis[first],
/// rather than a shift, mask, multiply and add per bit: the same value, with
/// far less IR for LLVM's combiner to take apart.
static SmallVector<Value> emitBasisSum(OpBuilder &b, Location loc, Value id,
                                       ArrayRef<SmallVector<int64_t>> bases,
                                       unsigned rank) {
  SmallVector<Value> sums(rank);
  auto addTerm = [&](unsigned d, Value term) {
    sums[d] = sums[d] ? LLVM::AddOp::create(b, loc, sums[d], term) : term;
  };
  for (unsigned bit = 0; bit < bases.size();) {
    ArrayRef<int64_t> basis = bases[bit];
    if (llvm::all_of(basis, [](int64_t v) { return v == 0; })) {
      ++bit;
      continue;
    }
    unsigned end = bit + 1;
    std::optional<unsigned> dim = singlePowerOfTwoDim(basis);
    if (dim) {
      while (end < bases.size() && end - bit < 31 &&
             singlePowerOfTwoDim(bases[end]) == dim &&
             bases[end][*dim] == basis[*dim] << (end - bit))
        ++end;
    }
    Value field = id;
    if (bit != 0)
      field = LLVM::LShrOp::create(b, loc, id, i32Constant(b, loc, bit));
    field = LLVM::AndOp::create(
        b, loc, field, i32Constant(b, loc, (int64_t(1) << (end - bit)) - 1));
    for (unsigned d = 0; d < rank; ++d) {
      if (basis[d] == 0)
        continue;
      addTerm(
          d, LLVM::MulOp::create(b, loc, field, i32Constant(b, loc, basis[d])));
    }
    bit = end;
  }
  for (Value &sum : sums)
    if (!sum)
      sum = i32Constant(b, loc, 0);
  return sums;
}

SmallVector<SmallVector<Value>>
mgp::emitElementIndices(OpBuilder &b, Location loc, RankedTensorType type,
                        Value laneId, Value warpId) {
  ArrayRef<int64_t> shape = type.getShape();
  unsigned rank = shape.size();
  LayoutBases bases = getLayoutBases(type.getEncoding(), shape);
  SmallVector<Value> laneSum = emitBasisSum(b, loc, laneId, bases.lane, rank);
  SmallVector<Value> warpSum = emitBasisSum(b, loc, warpId, bases.warp, rank);
  SmallVector<Value> threadSum;
  for (unsigned d = 0; d < rank; ++d)
    threadSum.push_back(LLVM::AddOp::create(b, loc, laneSum[d], warpSum[d]));

  SmallVector<SmallVector<Value>> indices;
  unsigned count = getRegisterCount(type);
  for (unsigned reg = 0; reg < count; ++reg) {
    SmallVector<int64_t> regCoords = bases.apply(reg, 0, 0);
    SmallVector<Value> coords;
    for (unsigned d = 0; d < rank; ++d) {
      Value sum = LLVM::AddOp::create(b, loc, threadSum[d],
                                      i32Constant(b, loc, regCoords[d]));
      coords.push_back(
          LLVM::AndOp::create(b, loc, sum, i32Constant(b, loc, shape[d] - 1)));
    }
    indices.push_back(std::move(coords));
  }
  return indices;
}

Value mgp::emitLinearOffset(OpBuilder &b, Location loc, ValueRange coords,
                            ArrayRef<int64_t> shape) {
  Value offset = i32Constant(b, loc, 0);
  for (auto [coord, size] : llvm::zip(coords, shape)) {
    offset = LLVM::MulOp::create(b, loc, offset, i32Constant(b, loc, size));
    offset = LLVM::AddOp::create(b, loc, offset, coord);
  }
  return offset;
}

std::optional<SmallVector<unsigned>>
mgp::findRegisterMapping(RankedTensorType src, RankedTensorType dst,
                         CoordMap dstToSrc) {
  Attribute srcEncoding = src.getEncoding(), dstEncoding = dst.getEncoding();
  if (!srcEncoding || !dstEncoding || !isDistributedEncoding(srcEncoding) ||
      !isDistributedEncoding(dstEncoding))
    return std::nullopt;
  unsigned lanes = std::max(getNumLanes(srcEncoding), getNumLanes(dstEncoding));
  unsigned warps = std::max(getNumWarps(srcEncoding), getNumWarps(dstEncoding));
  unsigned srcCount = getRegisterCount(src), dstCount = getRegisterCount(dst);

  // The layout functions once (a thread's coordinates are XORs of bases).
  LayoutBases srcBases = getLayoutBases(srcEncoding, src.getShape());
  LayoutBases dstBases = getLayoutBases(dstEncoding, dst.getShape());
  unsigned srcLanes = getNumLanes(srcEncoding);
  unsigned dstLanes = getNumLanes(dstEncoding);
  unsigned srcWarps = getNumWarps(srcEncoding);
  unsigned dstWarps = getNumWarps(dstEncoding);
  // A candidate from lane 0 / warp 0, then checked for every thread.
  DenseMap<SmallVector<int64_t>, unsigned> srcRegOf;
  SmallVector<SmallVector<int64_t>> srcAtZero = srcBases.elementCoords(0, 0);
  for (unsigned reg = srcCount; reg-- > 0;)
    srcRegOf[srcAtZero[reg]] = reg;
  SmallVector<unsigned> mapping;
  SmallVector<SmallVector<int64_t>> dstAtZero = dstBases.elementCoords(0, 0);
  for (unsigned reg = 0; reg < dstCount; ++reg) {
    auto it = srcRegOf.find(dstToSrc(dstAtZero[reg]));
    if (it == srcRegOf.end())
      return std::nullopt;
    mapping.push_back(it->second);
  }
  // A thread's coordinates are its lane and warp bits' XOR applied to those
  // of lane 0 / warp 0: one offset per thread and layout.
  SmallVector<int64_t> coords(dst.getRank());
  for (unsigned warp = 0; warp < warps; ++warp) {
    for (unsigned lane = 0; lane < lanes; ++lane) {
      SmallVector<int64_t> srcOffset =
          srcBases.apply(0, lane % srcLanes, warp % srcWarps);
      SmallVector<int64_t> dstOffset =
          dstBases.apply(0, lane % dstLanes, warp % dstWarps);
      for (unsigned reg = 0; reg < dstCount; ++reg) {
        for (size_t d = 0; d < coords.size(); ++d)
          coords[d] = dstAtZero[reg][d] ^ dstOffset[d];
        SmallVector<int64_t> want = dstToSrc(coords);
        const SmallVector<int64_t> &held = srcAtZero[mapping[reg]];
        for (size_t d = 0; d < want.size(); ++d)
          if (want[d] != (held[d] ^ srcOffset[d]))
            return std::nullopt;
      }
    }
  }
  return mapping;
}

int mgp::getNumWarps(Operation *op) {
  auto module =
      isa<ModuleOp>(op) ? cast<ModuleOp>(op) : op->getParentOfType<ModuleOp>();
  if (module)
    if (auto attr = module->getAttrOfType<IntegerAttr>(kNumWarpsAttrName))
      return attr.getInt();
  return 4;
}

unsigned mgp::getAccessVectorWidth(Operation *op, RankedTensorType type,
                                   unsigned memBits) {
  auto attr = op->getAttrOfType<IntegerAttr>("mgp.vector_width");
  return getRegisterGroupWidth(type, attr ? attr.getInt() : 1, memBits);
}

unsigned mgp::getRegisterGroupWidth(RankedTensorType type, unsigned width,
                                    unsigned memBits) {
  unsigned count = getRegisterCount(type);
  while (width > 1 && (width * memBits > 128 || count % width != 0))
    width /= 2;
  if (width <= 1)
    return 1;
  auto coords = getElementCoords(type.getEncoding(), type.getShape(), 0, 0);
  for (unsigned start = 0; start < count; start += width) {
    for (unsigned i = 1; i < width; ++i) {
      unsigned differing = 0;
      bool unitStep = true;
      for (unsigned d = 0; d < coords[start].size(); ++d) {
        int64_t step = coords[start + i][d] - coords[start][d];
        if (step != 0) {
          ++differing;
          unitStep &= step == static_cast<int64_t>(i);
        }
      }
      if (differing != 1 || !unitStep)
        return 1;
    }
  }
  return width;
}
