//===- SharedScratch.cpp - shared-memory scratch of ops -------------------===//
//
// This file implements the scratch sizes and layouts declared in
// SharedScratch.h, deriving everything from the layout function of
// compiler/ir/Layout.h.
//
//===----------------------------------------------------------------------===//
#include "compiler/codegen/gpu/SharedScratch.h"
#include "compiler/codegen/gpu/AxisInfo.h"
#include "compiler/ir/Layout.h"

#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;

namespace mgp {

namespace {

int64_t linearize(ArrayRef<int64_t> coords, ArrayRef<int64_t> shape) {
  int64_t index = 0;
  for (auto [c, size] : llvm::zip(coords, shape))
    index = index * size + c;
  return index;
}

int64_t getConvertScratchSize(ConvertLayoutOp convert) {
  auto src = cast<RankedTensorType>(convert.getSrc().getType());
  auto dst = cast<RankedTensorType>(convert.getType());
  if (!convertNeedsSharedMemory(src, dst))
    return 0;
  if (std::optional<VectorScratchLayout> vector =
          getVectorScratchLayout(src, dst))
    return vector->getSizeInBytes();
  return getConvertScratchLayout(src, dst).getSizeInBytes();
}

/// A coordinate bit: (dim, bit).
using CoordBit = std::pair<unsigned, unsigned>;

/// The coordinate bit `basis` sets, or none when it is zero (a replica).
/// False when it is neither (several dims, or not a power of two).
bool getBasisBit(ArrayRef<int64_t> basis, std::optional<CoordBit> &bit) {
  bit.reset();
  for (auto [d, value] : llvm::enumerate(basis)) {
    if (value == 0)
      continue;
    if (bit || !llvm::isPowerOf2_64(value))
      return false;
    bit = CoordBit(d, llvm::Log2_64(value));
  }
  return true;
}

/// Whether the non-zero bases of `bases` are coordinate bits, each of the
/// shape's `totalBits` bits exactly once (a one-to-one layout up to replicas).
bool coversEachBitOnce(const LayoutBases &bases, unsigned totalBits) {
  llvm::SmallVector<CoordBit> seen;
  for (const auto *list : {&bases.reg, &bases.lane, &bases.warp})
    for (const auto &basis : *list) {
      std::optional<CoordBit> bit;
      if (!getBasisBit(basis, bit))
        return false;
      if (!bit)
        continue;
      if (llvm::is_contained(seen, *bit))
        return false;
      seen.push_back(*bit);
    }
  return seen.size() == totalBits;
}

int64_t getResultElements(RankedTensorType type, unsigned axis) {
  return type.getNumElements() / type.getShape()[axis];
}

} // namespace

/// Whether some thread of `dst` holds an element that the same thread does
/// not hold in `src`, or holds it in a register that differs between threads
/// (the lowering permutes the register struct once, the same for every
/// thread). Elements are matched by their coordinates, or with `byIndex`
/// (a reshape) by their row-major index in each shape.
static bool movesElementsBetweenThreads(RankedTensorType src,
                                        RankedTensorType dst, bool byIndex) {
  Attribute srcEnc = src.getEncoding(), dstEnc = dst.getEncoding();
  if (!isDistributedEncoding(srcEnc) || !isDistributedEncoding(dstEnc))
    return true;
  ArrayRef<int64_t> srcShape = src.getShape(), dstShape = dst.getShape();
  unsigned lanes = std::max(getNumLanes(srcEnc), getNumLanes(dstEnc));
  unsigned warps = std::max(getNumWarps(srcEnc), getNumWarps(dstEnc));
  LayoutBases srcBases = getLayoutBases(srcEnc, srcShape);
  LayoutBases dstBases = getLayoutBases(dstEnc, dstShape);
  unsigned srcLanes = getNumLanes(srcEnc), dstLanes = getNumLanes(dstEnc);
  unsigned srcWarps = getNumWarps(srcEnc), dstWarps = getNumWarps(dstEnc);
  // The register of `dst` holding an element reads the `src` register that
  // holds it in thread 0.
  llvm::DenseMap<int64_t, unsigned> srcRegOf;
  auto srcAtZero = srcBases.elementCoords(0, 0);
  for (unsigned reg = srcAtZero.size(); reg-- > 0;)
    srcRegOf[linearize(srcAtZero[reg], srcShape)] = reg;
  llvm::SmallVector<unsigned> mapping;
  for (const auto &coords : dstBases.elementCoords(0, 0)) {
    auto it = srcRegOf.find(linearize(coords, dstShape));
    if (it == srcRegOf.end())
      return true;
    mapping.push_back(it->second);
  }
  for (unsigned warp = 0; warp < warps; ++warp)
    for (unsigned lane = 0; lane < lanes; ++lane) {
      auto srcCoords =
          srcBases.elementCoords(lane % srcLanes, warp % srcWarps);
      auto dstCoords =
          dstBases.elementCoords(lane % dstLanes, warp % dstWarps);
      for (auto [reg, coords] : llvm::enumerate(dstCoords)) {
        const auto &held = srcCoords[mapping[reg]];
        if (byIndex ? linearize(held, srcShape) != linearize(coords, dstShape)
                    : held != coords)
          return true;
      }
    }
  return false;
}

bool convertNeedsSharedMemory(RankedTensorType src, RankedTensorType dst) {
  if (src.getEncoding() == dst.getEncoding())
    return false;
  return movesElementsBetweenThreads(src, dst, /*byIndex=*/false);
}

bool reshapeNeedsSharedMemory(RankedTensorType src, RankedTensorType dst) {
  return movesElementsBetweenThreads(src, dst, /*byIndex=*/true);
}

int64_t ConvertScratchLayout::getOffset(ArrayRef<int64_t> coords) const {
  int64_t row =
      linearize(coords.drop_back(), ArrayRef<int64_t>(shape).drop_back());
  return row * rowStride + coords.back();
}

int64_t ConvertScratchLayout::getSizeInBytes() const {
  int64_t rows = 1;
  for (int64_t size : ArrayRef<int64_t>(shape).drop_back())
    rows *= size;
  return rows * rowStride * elemBytes;
}

ConvertScratchLayout getConvertScratchLayout(RankedTensorType src,
                                             RankedTensorType dst) {
  ConvertScratchLayout layout;
  layout.shape.assign(src.getShape().begin(), src.getShape().end());
  layout.elemBytes = getElementBytes(src.getElementType());
  unsigned last = src.getRank() - 1;
  int64_t pad = 0;
  if (src.getRank() >= 2 && src.getShape()[last] > 1) {
    pad = 1;
    for (RankedTensorType type : {src, dst})
      if (isDistributedEncoding(type.getEncoding()))
        pad = std::max<int64_t>(
            pad, getContigPerThread(type.getEncoding(), type.getShape())[last]);
  }
  layout.rowStride = src.getShape()[last] + pad;
  return layout;
}

int64_t VectorScratchLayout::getOffset(ArrayRef<int64_t> coords) const {
  int64_t offset = 0;
  for (auto [coord, bits] : llvm::zip(coords, bitOffsets))
    for (auto [bit, bitOffset] : llvm::enumerate(bits))
      if (coord >> bit & 1)
        offset ^= bitOffset;
  return offset;
}

std::optional<VectorScratchLayout>
getVectorScratchLayout(RankedTensorType src, RankedTensorType dst) {
  Attribute srcEnc = src.getEncoding(), dstEnc = dst.getEncoding();
  if (!isDistributedEncoding(srcEnc) || !isDistributedEncoding(dstEnc) ||
      src.getShape() != dst.getShape() || src.getRank() == 0)
    return std::nullopt;
  ArrayRef<int64_t> shape = src.getShape();
  unsigned last = shape.size() - 1, totalBits = 0;
  for (int64_t size : shape) {
    if (!llvm::isPowerOf2_64(size))
      return std::nullopt;
    totalBits += llvm::Log2_64(size);
  }
  LayoutBases srcBases = getLayoutBases(srcEnc, shape);
  LayoutBases dstBases = getLayoutBases(dstEnc, shape);
  if (!coversEachBitOnce(srcBases, totalBits) ||
      !coversEachBitOnce(dstBases, totalBits))
    return std::nullopt;
  auto isZero = [](ArrayRef<int64_t> basis) {
    return llvm::all_of(basis, [](int64_t v) { return v == 0; });
  };
  // Each element is stored by its one owner: no replicated lanes or warps.
  if (llvm::any_of(srcBases.lane, isZero) ||
      llvm::any_of(srcBases.warp, isZero))
    return std::nullopt;

  VectorScratchLayout layout;
  layout.elemBytes = getElementBytes(src.getElementType());
  layout.numElements = src.getNumElements();
  int64_t maxVector = std::max<int64_t>(1, 16 / layout.elemBytes);
  for (auto [srcBit, basis] : llvm::enumerate(srcBases.reg)) {
    if (isZero(basis) || int64_t(2) << layout.srcVectorBits.size() > maxVector)
      continue;
    auto *it = llvm::find(dstBases.reg, basis);
    if (it == dstBases.reg.end())
      continue;
    layout.srcVectorBits.push_back(srcBit);
    layout.dstVectorBits.push_back(it - dstBases.reg.begin());
  }
  if (layout.srcVectorBits.empty())
    return std::nullopt;
  unsigned vectorBits = layout.srcVectorBits.size();
  layout.vector = 1u << vectorBits;
  // The padded row-major scratch moves each side in runs of its contiguous
  // elements along the last dim (at most 16 bytes): keep it unless the
  // vector layout's runs take fewer accesses, 2 / vector < 1 / srcRun +
  // 1 / dstRun (always when one side has single elements).
  auto rowRun = [&](Attribute enc) {
    return std::min<int64_t>(getContigPerThread(enc, shape)[last], maxVector);
  };
  int64_t srcRun = rowRun(srcEnc), dstRun = rowRun(dstEnc);
  if (2 * srcRun * dstRun >= int64_t(layout.vector) * (srcRun + dstRun))
    return std::nullopt;

  for (int64_t size : shape)
    layout.bitOffsets.emplace_back(llvm::Log2_64(size), 0);
  unsigned next = 0;
  auto place = [&](ArrayRef<int64_t> basis) {
    std::optional<CoordBit> bit;
    getBasisBit(basis, bit);
    int64_t &offset = layout.bitOffsets[bit->first][bit->second];
    if (offset == 0)
      offset = int64_t(1) << next++;
    return &offset;
  };
  for (unsigned srcBit : layout.srcVectorBits)
    place(srcBases.reg[srcBit]);
  // One shared-memory access phase: the lanes that together move 128 bytes.
  int64_t vectorBytes = layout.vector * layout.elemBytes;
  unsigned bankBits = llvm::Log2_64(std::min<int64_t>(
      std::min<int64_t>(32, 128 / vectorBytes), srcBases.getNumLanes()));
  for (unsigned lane = 0; lane < bankBits; ++lane)
    place(srcBases.lane[lane]);
  for (unsigned d : getOrder(dstEnc))
    for (int64_t &offset : layout.bitOffsets[d])
      if (offset == 0)
        offset = int64_t(1) << next++;
  assert(next == totalBits && "every coordinate bit has its offset bit");

  // The destination's phase lanes: those not already on distinct bank bits
  // XOR a free bank bit in.
  auto bankBitOf = [&](int64_t offset) -> std::optional<unsigned> {
    unsigned bit = llvm::Log2_64(offset);
    if (bit >= vectorBits && bit < vectorBits + bankBits)
      return bit - vectorBits;
    return std::nullopt;
  };
  llvm::SmallVector<bool> used(bankBits, false);
  llvm::SmallVector<int64_t *> swizzled;
  for (unsigned lane = 0;
       lane < std::min<size_t>(bankBits, dstBases.lane.size()); ++lane) {
    if (isZero(dstBases.lane[lane]))
      continue;
    int64_t *offset = place(dstBases.lane[lane]);
    if (std::optional<unsigned> bank = bankBitOf(*offset))
      used[*bank] = true;
    else
      swizzled.push_back(offset);
  }
  for (int64_t *offset : swizzled) {
    auto *free = llvm::find(used, false);
    if (free == used.end())
      break;
    *offset |= int64_t(1) << (vectorBits + (free - used.begin()));
    *free = true;
  }
  return layout;
}

unsigned getReduceWarpsAlongAxis(RankedTensorType type, unsigned axis) {
  LayoutBases bases = getLayoutBases(type.getEncoding(), type.getShape());
  unsigned count = 1;
  for (const auto &basis : bases.warp)
    if (basis[axis] != 0)
      count *= 2;
  return count;
}

/// The offset of operand `index`'s region of warpsAlongAxis x result
/// elements, for a reduce or a scan over `srcs`.
static int64_t getAxisScratchOperandOffset(ValueRange srcs, unsigned axis,
                                           unsigned index) {
  auto type = cast<RankedTensorType>(srcs[0].getType());
  int64_t rows =
      getReduceWarpsAlongAxis(type, axis) * getResultElements(type, axis);
  int64_t offset = 0;
  for (unsigned k = 0; k < index; ++k)
    offset = llvm::alignTo(offset + rows * getElementBytes(srcs[k].getType()),
                           kSharedAlignment);
  return offset;
}

int64_t getReduceScratchOperandOffset(ReduceOp reduce, unsigned index) {
  return getAxisScratchOperandOffset(reduce.getSrcs(), reduce.getAxis(), index);
}

int64_t getScanScratchOperandOffset(ScanOp scan, unsigned index) {
  return getAxisScratchOperandOffset(scan.getSrcs(), scan.getAxis(), index);
}

bool atomicNeedsScratch(Operation *op) {
  Value result = op->getResult(0);
  if (result.use_empty())
    return false;
  auto type = dyn_cast<RankedTensorType>(result.getType());
  if (!type)
    return true;
  if (!type.getEncoding() || !isDistributedEncoding(type.getEncoding()))
    return false;
  BroadcastMasks masks = getBroadcastMasks(type.getEncoding(), type.getShape());
  return masks.reg || masks.lane || masks.warp;
}

int64_t getAtomicScratchSizeInBytes(Operation *op) {
  if (!atomicNeedsScratch(op))
    return 0;
  Type type = op->getResult(0).getType();
  int64_t elements = 1;
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    elements = tensor.getNumElements();
  return elements * getElementBytes(getElementTypeOrSelf(type));
}

int64_t getBufferSizeInBytes(MemDescType type) {
  int64_t elements = 1;
  for (int64_t size : type.getShape())
    elements *= size;
  return elements * getElementBytes(type.getElementType());
}

LocalAllocOp getBufferAllocation(Value memdesc) {
  while (Operation *def = memdesc.getDefiningOp()) {
    if (auto view = dyn_cast<MemDescSubviewOp>(def))
      memdesc = view.getSrc();
    else if (auto trans = dyn_cast<MemDescTransOp>(def))
      memdesc = trans.getSrc();
    else
      break;
  }
  return memdesc.getDefiningOp<LocalAllocOp>();
}

int64_t getTensorMapBlockBytes(RankedTensorType type) {
  return type.getNumElements() * getElementBytes(type.getElementType());
}

int64_t getScratchAlignment(Operation *op) {
  return isa<TensorMapLoadOp, TensorMapStoreOp>(op) ? kTensorMapAlignment
                                                    : kSharedAlignment;
}

int64_t getScratchSizeInBytes(Operation *op) {
  if (auto load = dyn_cast<TensorMapLoadOp>(op))
    return llvm::alignTo(getTensorMapBlockBytes(load.getType()),
                         kSharedAlignment) +
           8;
  if (auto store = dyn_cast<TensorMapStoreOp>(op))
    return getTensorMapBlockBytes(store.getValue().getType());
  if (auto convert = dyn_cast<ConvertLayoutOp>(op))
    return getConvertScratchSize(convert);
  if (auto reduce = dyn_cast<ReduceOp>(op)) {
    auto type = cast<RankedTensorType>(reduce.getSrcs()[0].getType());
    if (!type.getEncoding() ||
        getReduceWarpsAlongAxis(type, reduce.getAxis()) <= 1)
      return 0;
    return getReduceScratchOperandOffset(reduce, reduce.getSrcs().size());
  }
  if (auto scan = dyn_cast<ScanOp>(op)) {
    auto type = cast<RankedTensorType>(scan.getSrcs()[0].getType());
    if (!type.getEncoding() ||
        getReduceWarpsAlongAxis(type, scan.getAxis()) <= 1)
      return 0;
    return getScanScratchOperandOffset(scan, scan.getSrcs().size());
  }
  if (isa<AtomicRMWOp, AtomicCASOp>(op))
    return getAtomicScratchSizeInBytes(op);
  if (auto gather = dyn_cast<GatherOp>(op)) {
    auto src = cast<RankedTensorType>(gather.getSrc().getType());
    if (!src.getEncoding())
      return 0;
    return src.getNumElements() * getElementBytes(src.getElementType());
  }
  if (auto reshape = dyn_cast<ReshapeOp>(op)) {
    auto src = cast<RankedTensorType>(reshape.getSrc().getType());
    auto dst = cast<RankedTensorType>(reshape.getType());
    if (!src.getEncoding() || !dst.getEncoding() ||
        !reshapeNeedsSharedMemory(src, dst))
      return 0;
    return src.getNumElements() * getElementBytes(src.getElementType());
  }
  return 0;
}

} // namespace mgp
