//===- Layout.cpp - what the layout encodings mean ------------------------===//
//
// This file implements the core of Layout.h: the basis vectors of every
// distributed encoding (the single layout function) and the queries derived
// from them. Builders, swizzling and dumpLayout are in LayoutBuilders.cpp.
//
//===----------------------------------------------------------------------===//
#include "compiler/ir/Layout.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <map>

using namespace mlir;
using namespace mgp;

namespace {
using Basis = SmallVector<int64_t>;
using BasisList = SmallVector<Basis>;

/// Bases before reduction modulo the shape: a basis may point past the end of
/// a dim (the layout tile is larger than the tensor there).
struct RawBases {
  BasisList reg, lane, warp;
};

Basis unitBasis(unsigned rank, unsigned dim, int64_t value) {
  Basis b(rank, 0);
  b[dim] = value;
  return b;
}

/// Appends log2(count) bases along `dim`: step, 2*step, ... (count a power of
/// 2).
void addBases(BasisList &list, unsigned rank, unsigned dim, int64_t step,
              int64_t count) {
  assert(count > 0 && llvm::isPowerOf2_64(count) &&
         "layout sizes must be powers of two");
  for (int64_t v = 1; v < count; v *= 2)
    list.push_back(unitBasis(rank, dim, step * v));
}

int64_t repsAlong(int64_t size, int64_t tile) {
  return std::max<int64_t>(1, size / tile);
}

RawBases rawBases(Attribute encoding, ArrayRef<int64_t> shape);

RawBases blockedBases(BlockedEncodingAttr enc, ArrayRef<int64_t> shape) {
  unsigned rank = enc.getRank();
  assert(shape.size() == rank &&
         "blocked encoding rank differs from the shape's");
  ArrayRef<unsigned> s = enc.getSizePerThread(), t = enc.getThreadsPerWarp(),
                     w = enc.getWarpsPerCTA(), order = enc.getOrder();
  RawBases out;
  for (unsigned d : order)
    addBases(out.reg, rank, d, 1, s[d]);
  for (unsigned d : order)
    addBases(out.lane, rank, d, s[d], t[d]);
  for (unsigned d : order)
    addBases(out.warp, rank, d, int64_t(s[d]) * t[d], w[d]);
  for (unsigned d : order) {
    int64_t tile = int64_t(s[d]) * t[d] * w[d];
    addBases(out.reg, rank, d, tile, repsAlong(shape[d], tile));
  }
  return out;
}

/// Removes dim `dim` from a parent's bases: registers stepping along it are
/// dropped, lanes and warps stepping along it become replicated (zero).
RawBases dropDim(RawBases parent, unsigned dim) {
  auto erase = [&](Basis &b) { b.erase(b.begin() + dim); };
  RawBases out;
  for (Basis &b : parent.reg) {
    if (b[dim] != 0)
      continue;
    erase(b);
    out.reg.push_back(b);
  }
  for (Basis &b : parent.lane) {
    erase(b);
    out.lane.push_back(b);
  }
  for (Basis &b : parent.warp) {
    erase(b);
    out.warp.push_back(b);
  }
  return out;
}

RawBases sliceBases(SliceEncodingAttr enc, ArrayRef<int64_t> shape) {
  SmallVector<int64_t> padded(shape);
  padded.insert(padded.begin() + enc.getDim(), 1);
  return dropDim(rawBases(enc.getParent(), padded), enc.getDim());
}

RawBases mmaBases(MmaEncodingAttr enc, ArrayRef<int64_t> shape) {
  assert(shape.size() == 2 && "mma layouts are 2-D");
  unsigned wm = enc.getWarpsPerCTA()[0], wn = enc.getWarpsPerCTA()[1];
  int64_t instrN = enc.getVersion() == 2 ? 8 : enc.getInstrShape()[1];
  RawBases out;
  out.reg.push_back(unitBasis(2, 1, 1));
  out.reg.push_back(unitBasis(2, 0, 8));
  addBases(out.reg, 2, 1, 8, instrN / 8);
  addBases(out.lane, 2, 1, 2, 4);
  addBases(out.lane, 2, 0, 1, 8);
  if (enc.getVersion() == 2) {
    addBases(out.warp, 2, 1, instrN, wn);
    addBases(out.warp, 2, 0, 16, wm);
  } else {
    addBases(out.warp, 2, 0, 16, wm);
    addBases(out.warp, 2, 1, instrN, wn);
  }
  int64_t tileM = 16 * wm, tileN = instrN * wn;
  addBases(out.reg, 2, 1, tileN, repsAlong(shape[1], tileN));
  addBases(out.reg, 2, 0, tileM, repsAlong(shape[0], tileM));
  return out;
}

RawBases dotOperandMmaBases(DotOperandEncodingAttr enc, MmaEncodingAttr mma,
                            ArrayRef<int64_t> shape) {
  unsigned opIdx = enc.getOpIdx();
  int64_t kw = enc.getKWidth();
  unsigned kDim = opIdx == 0 ? 1 : 0, nonK = opIdx == 0 ? 0 : 1;
  unsigned wm = mma.getWarpsPerCTA()[0], wn = mma.getWarpsPerCTA()[1];
  RawBases out;
  addBases(out.reg, 2, kDim, 1, kw);
  if (opIdx == 0)
    out.reg.push_back(unitBasis(2, 0, 8));
  out.reg.push_back(unitBasis(2, kDim, 4 * kw));
  addBases(out.lane, 2, kDim, kw, 4);
  addBases(out.lane, 2, nonK, 1, 8);
  // Warp bits in the parent's warp order; bits along the other dim replicate.
  auto addWarps = [&](unsigned parentDim) {
    unsigned count = parentDim == 0 ? wm : wn;
    if (parentDim == nonK)
      addBases(out.warp, 2, nonK, opIdx == 0 ? 16 : 8, count);
    else
      for (unsigned c = 1; c < count; c *= 2)
        out.warp.push_back(Basis(2, 0));
  };
  if (mma.getVersion() == 2) {
    addWarps(1);
    addWarps(0);
  } else {
    addWarps(0);
    addWarps(1);
  }
  int64_t tileK = 8 * kw, tileNonK = opIdx == 0 ? 16 * wm : 8 * wn;
  addBases(out.reg, 2, kDim, tileK, repsAlong(shape[kDim], tileK));
  addBases(out.reg, 2, nonK, tileNonK, repsAlong(shape[nonK], tileNonK));
  return out;
}

RawBases dotOperandBlockedBases(DotOperandEncodingAttr enc,
                                BlockedEncodingAttr parent,
                                ArrayRef<int64_t> shape) {
  unsigned opIdx = enc.getOpIdx();
  unsigned kDim = opIdx == 0 ? 1 : 0;
  // The parent is [M, N]; A keeps parent dim 0 (M), B keeps parent dim 1 (N).
  // Compute the parent on the shape with the other dim at size 1, then drop
  // that dim's registers and replicate its lanes/warps.
  unsigned otherParentDim = opIdx == 0 ? 1 : 0;
  SmallVector<int64_t> parentShape(shape);
  parentShape[otherParentDim] = 1;
  RawBases parentBases = blockedBases(parent, parentShape);
  RawBases out;
  addBases(out.reg, 2, kDim, 1, shape[kDim]);
  for (Basis &b : parentBases.reg)
    if (b[otherParentDim] == 0)
      out.reg.push_back(b);
  for (Basis b : parentBases.lane) {
    b[otherParentDim] = 0;
    out.lane.push_back(b);
  }
  for (Basis b : parentBases.warp) {
    b[otherParentDim] = 0;
    out.warp.push_back(b);
  }
  return out;
}

RawBases rawBases(Attribute encoding, ArrayRef<int64_t> shape) {
  assert(
      llvm::all_of(shape,
                   [](int64_t d) { return d > 0 && llvm::isPowerOf2_64(d); }) &&
      "layout shapes must be powers of two");
  if (auto blocked = dyn_cast<BlockedEncodingAttr>(encoding))
    return blockedBases(blocked, shape);
  if (auto slice = dyn_cast<SliceEncodingAttr>(encoding))
    return sliceBases(slice, shape);
  if (auto mma = dyn_cast<MmaEncodingAttr>(encoding))
    return mmaBases(mma, shape);
  if (auto dot = dyn_cast<DotOperandEncodingAttr>(encoding)) {
    assert(shape.size() == 2 && "dot operands are 2-D");
    if (auto mmaParent = dyn_cast<MmaEncodingAttr>(dot.getParent()))
      return dotOperandMmaBases(dot, mmaParent, shape);
    return dotOperandBlockedBases(
        dot, cast<BlockedEncodingAttr>(dot.getParent()), shape);
  }
  llvm_unreachable("not a distributed encoding");
}

/// Bases on an all-ones shape of the encoding's rank (no repetitions).
RawBases tileBases(Attribute encoding) {
  SmallVector<int64_t> ones(getEncodingRank(encoding), 1);
  return rawBases(encoding, ones);
}

/// Per dim, 2^(number of bases that step along it).
SmallVector<unsigned> countAlongDims(const BasisList &list, unsigned rank) {
  SmallVector<unsigned> out(rank, 1);
  for (const Basis &b : list)
    for (unsigned d = 0; d < rank; ++d)
      if (b[d] != 0)
        out[d] *= 2;
  return out;
}

SmallVector<unsigned> dropEntry(SmallVector<unsigned> values, unsigned dim) {
  values.erase(values.begin() + dim);
  return values;
}
} // namespace

bool mgp::isDistributedEncoding(Attribute encoding) {
  return isa_and_nonnull<BlockedEncodingAttr, SliceEncodingAttr,
                         MmaEncodingAttr, DotOperandEncodingAttr>(encoding);
}

unsigned mgp::getEncodingRank(Attribute encoding) {
  return llvm::TypeSwitch<Attribute, unsigned>(encoding)
      .Case([](BlockedEncodingAttr e) { return e.getRank(); })
      .Case([](SliceEncodingAttr e) {
        return getEncodingRank(e.getParent()) - 1;
      })
      .Case([](MmaEncodingAttr) { return 2u; })
      .Case([](DotOperandEncodingAttr) { return 2u; })
      .Case([](SharedEncodingAttr e) { return unsigned(e.getOrder().size()); })
      .Default([](Attribute) { return 0u; });
}

SmallVector<int64_t> LayoutBases::apply(unsigned regId, unsigned laneId,
                                        unsigned warpId) const {
  SmallVector<int64_t> coords(shape.size(), 0);
  auto accumulate = [&](const BasisList &list, unsigned id) {
    for (size_t bit = 0; bit < list.size(); ++bit)
      if (id & (1u << bit))
        for (size_t d = 0; d < coords.size(); ++d)
          coords[d] ^= list[bit][d];
  };
  accumulate(reg, regId);
  accumulate(lane, laneId);
  accumulate(warp, warpId);
  return coords;
}

LayoutBases mgp::getLayoutBases(Attribute encoding, ArrayRef<int64_t> shape) {
  assert(isDistributedEncoding(encoding) &&
         getEncodingRank(encoding) == shape.size() &&
         "getLayoutBases needs a distributed encoding of the shape's rank");
  RawBases raw = rawBases(encoding, shape);
  LayoutBases out;
  out.shape.assign(shape.begin(), shape.end());
  auto reduce = [&](BasisList &list, decltype(out.reg) &dst) {
    for (Basis &b : list) {
      for (size_t d = 0; d < shape.size(); ++d)
        b[d] = b[d] >= shape[d] ? 0 : b[d];
      dst.push_back(b);
    }
  };
  reduce(raw.reg, out.reg);
  reduce(raw.lane, out.lane);
  reduce(raw.warp, out.warp);
  return out;
}

SmallVector<int64_t> mgp::coordsOf(Attribute encoding, ArrayRef<int64_t> shape,
                                   unsigned reg, unsigned lane, unsigned warp) {
  return getLayoutBases(encoding, shape).apply(reg, lane, warp);
}

SmallVector<SmallVector<int64_t>>
LayoutBases::elementCoords(unsigned laneId, unsigned warpId) const {
  SmallVector<SmallVector<int64_t>> out;
  out.reserve(getNumRegs());
  for (unsigned r = 0; r < getNumRegs(); ++r)
    out.push_back(apply(r, laneId, warpId));
  return out;
}

SmallVector<SmallVector<int64_t>> mgp::getElementCoords(Attribute encoding,
                                                        ArrayRef<int64_t> shape,
                                                        unsigned lane,
                                                        unsigned warp) {
  return getLayoutBases(encoding, shape).elementCoords(lane, warp);
}

unsigned mgp::getTotalElemsPerThread(Attribute encoding,
                                     ArrayRef<int64_t> shape) {
  return getLayoutBases(encoding, shape).getNumRegs();
}

SmallVector<unsigned> mgp::getContigPerThread(Attribute encoding,
                                              ArrayRef<int64_t> shape) {
  LayoutBases bases = getLayoutBases(encoding, shape);
  SmallVector<unsigned> out;
  for (unsigned d = 0; d < shape.size(); ++d) {
    unsigned contig = 1;
    while (llvm::any_of(bases.reg, [&](const Basis &b) {
      return b[d] == int64_t(contig) &&
             llvm::count_if(b, [](int64_t v) { return v != 0; }) == 1;
    }))
      contig *= 2;
    out.push_back(contig);
  }
  return out;
}

SmallVector<unsigned> mgp::getOrder(Attribute encoding) {
  if (auto blocked = dyn_cast<BlockedEncodingAttr>(encoding))
    return SmallVector<unsigned>(blocked.getOrder());
  if (auto slice = dyn_cast<SliceEncodingAttr>(encoding)) {
    SmallVector<unsigned> out;
    for (unsigned d : getOrder(slice.getParent()))
      if (d != slice.getDim())
        out.push_back(d > slice.getDim() ? d - 1 : d);
    return out;
  }
  if (isa<MmaEncodingAttr>(encoding))
    return {1, 0};
  if (auto dot = dyn_cast<DotOperandEncodingAttr>(encoding))
    return dot.getOpIdx() == 0 ? SmallVector<unsigned>{1, 0}
                               : SmallVector<unsigned>{0, 1};
  if (auto shared = dyn_cast<SharedEncodingAttr>(encoding))
    return SmallVector<unsigned>(shared.getOrder());
  llvm_unreachable("getOrder: not a layout encoding");
}

SmallVector<unsigned> mgp::getSizePerThread(Attribute encoding) {
  if (auto blocked = dyn_cast<BlockedEncodingAttr>(encoding))
    return SmallVector<unsigned>(blocked.getSizePerThread());
  if (auto slice = dyn_cast<SliceEncodingAttr>(encoding))
    return dropEntry(getSizePerThread(slice.getParent()), slice.getDim());
  if (auto mma = dyn_cast<MmaEncodingAttr>(encoding)) {
    unsigned instrN = mma.getVersion() == 2 ? 8 : mma.getInstrShape()[1];
    return {2, instrN / 4};
  }
  if (auto dot = dyn_cast<DotOperandEncodingAttr>(encoding)) {
    if (isa<MmaEncodingAttr>(dot.getParent())) {
      unsigned kw = dot.getKWidth();
      return dot.getOpIdx() == 0 ? SmallVector<unsigned>{2, 2 * kw}
                                 : SmallVector<unsigned>{2 * kw, 1};
    }
    SmallVector<unsigned> s = getSizePerThread(dot.getParent());
    s[dot.getOpIdx() == 0 ? 1 : 0] = 1;
    return s;
  }
  llvm_unreachable("getSizePerThread: not a distributed encoding");
}

SmallVector<unsigned> mgp::getThreadsPerWarp(Attribute encoding) {
  return countAlongDims(tileBases(encoding).lane, getEncodingRank(encoding));
}

SmallVector<unsigned> mgp::getWarpsPerCTA(Attribute encoding) {
  return countAlongDims(tileBases(encoding).warp, getEncodingRank(encoding));
}

SmallVector<int64_t> mgp::getShapePerCTATile(Attribute encoding) {
  unsigned rank = getEncodingRank(encoding);
  RawBases bases = tileBases(encoding);
  SmallVector<int64_t> out(rank, 1);
  for (const BasisList *list : {&bases.reg, &bases.lane, &bases.warp})
    for (const Basis &b : *list)
      for (unsigned d = 0; d < rank; ++d)
        out[d] += b[d];
  return out;
}

unsigned mgp::getNumLanes(Attribute encoding) {
  return 1u << tileBases(encoding).lane.size();
}

unsigned mgp::getNumWarps(Attribute encoding) {
  return 1u << tileBases(encoding).warp.size();
}

BroadcastMasks mgp::getBroadcastMasks(Attribute encoding,
                                      ArrayRef<int64_t> shape) {
  LayoutBases bases = getLayoutBases(encoding, shape);
  auto maskOf = [](const BasisList &list) {
    unsigned mask = 0;
    for (size_t bit = 0; bit < list.size(); ++bit)
      if (llvm::all_of(list[bit], [](int64_t v) { return v == 0; }))
        mask |= 1u << bit;
    return mask;
  };
  return {maskOf(bases.reg), maskOf(bases.lane), maskOf(bases.warp)};
}
