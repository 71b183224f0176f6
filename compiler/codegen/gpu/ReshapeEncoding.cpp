//===- ReshapeEncoding.cpp - reshapes that only relabel registers ---------===//
//
// This file implements getReshapedEncoding. A blocked layout places element
// x of a dimension of size n by the digits of x, least significant first:
// the register within sizePerThread, the lane, the warp, then the repeat of
// the CTA tile. A row-major reshape concatenates the dimensions' digits
// (the last dimension least significant) and cuts the sequence anew at the
// new sizes, splitting a digit where a cut falls inside it. The result is a
// blocked layout when each new dimension reads, after merging neighbours of
// one kind, registers, then lanes, then warps, then registers (the repeats),
// and one `order` puts every dimension's lane and warp bits where the source
// had them. The candidate is then checked element by element
// (reshapeNeedsSharedMemory), so a mistake here costs a shared-memory
// reshape, never a wrong value.
//
//===----------------------------------------------------------------------===//
#include "compiler/codegen/gpu/ReshapeEncoding.h"
#include "compiler/codegen/gpu/SharedScratch.h"
#include "compiler/codegen/gpu/TensorEncoding.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <numeric>

using namespace mlir;

namespace mgp {
namespace {

enum class DigitKind { Register, Lane, Warp };

/// A factor of the row-major element index: `size` values of one kind; a
/// lane or warp digit occupies id bits [shift, shift + log2(size)).
struct Digit {
  DigitKind kind;
  int64_t size;
  unsigned shift;
};

/// The layout of one result dimension read from its digits.
struct DimLayout {
  unsigned sizePerThread = 1, lanes = 1, warps = 1;
  unsigned laneShift = 0, warpShift = 0;
};

/// The digits of `blocked` on `shape`, least significant first; false when
/// lanes or warps replicate elements.
bool collectDigits(BlockedEncodingAttr blocked, ArrayRef<int64_t> shape,
                   SmallVectorImpl<Digit> &digits) {
  unsigned rank = shape.size();
  SmallVector<unsigned> laneShift(rank), warpShift(rank);
  unsigned laneBit = 0, warpBit = 0;
  for (unsigned d : blocked.getOrder()) {
    laneShift[d] = laneBit;
    laneBit += llvm::Log2_32(blocked.getThreadsPerWarp()[d]);
    warpShift[d] = warpBit;
    warpBit += llvm::Log2_32(blocked.getWarpsPerCTA()[d]);
  }
  for (int d = rank - 1; d >= 0; --d) {
    int64_t left = shape[d];
    auto take = [&](DigitKind kind, int64_t size, unsigned shift) {
      if (size > left)
        return false;
      if (size > 1)
        digits.push_back({kind, size, shift});
      left /= size;
      return true;
    };
    if (!take(DigitKind::Register, blocked.getSizePerThread()[d], 0) ||
        !take(DigitKind::Lane, blocked.getThreadsPerWarp()[d], laneShift[d]) ||
        !take(DigitKind::Warp, blocked.getWarpsPerCTA()[d], warpShift[d]))
      return false;
    take(DigitKind::Register, left, 0); // the repeats of the CTA tile
  }
  return true;
}

/// One result dimension from its digits (least significant first), or
/// nullopt when they are not registers, lanes, warps, registers.
std::optional<DimLayout> readDimension(ArrayRef<Digit> digits) {
  SmallVector<Digit> merged;
  for (const Digit &digit : digits) {
    if (!merged.empty() && merged.back().kind == digit.kind) {
      Digit &last = merged.back();
      bool adjacent = digit.kind == DigitKind::Register ||
                      digit.shift == last.shift + llvm::Log2_64(last.size);
      if (!adjacent)
        return std::nullopt;
      last.size *= digit.size;
      continue;
    }
    merged.push_back(digit);
  }
  DimLayout layout;
  unsigned next = 0; // 0: registers, 1: lanes, 2: warps, 3: repeats
  for (auto [i, digit] : llvm::enumerate(merged)) {
    switch (digit.kind) {
    case DigitKind::Register:
      if (i == 0) {
        layout.sizePerThread = digit.size;
        next = 1;
      } else {
        next = 4; // the repeats: nothing may follow
      }
      break;
    case DigitKind::Lane:
      if (next > 1)
        return std::nullopt;
      layout.lanes = digit.size;
      layout.laneShift = digit.shift;
      next = 2;
      break;
    case DigitKind::Warp:
      if (next > 2)
        return std::nullopt;
      layout.warps = digit.size;
      layout.warpShift = digit.shift;
      next = 3;
      break;
    }
    if (next == 4 && i + 1 != merged.size())
      return std::nullopt;
  }
  return layout;
}

/// Whether `order` (fastest first) gives each dimension's lane and warp bits
/// the position its layout names.
bool orderPlacesBits(ArrayRef<unsigned> order, ArrayRef<DimLayout> dims) {
  unsigned laneBit = 0, warpBit = 0;
  for (unsigned d : order) {
    if (dims[d].lanes > 1 && dims[d].laneShift != laneBit)
      return false;
    if (dims[d].warps > 1 && dims[d].warpShift != warpBit)
      return false;
    laneBit += llvm::Log2_32(dims[d].lanes);
    warpBit += llvm::Log2_32(dims[d].warps);
  }
  return true;
}

/// Inversions of `order` against row-major [rank-1, ..., 0].
unsigned inversions(ArrayRef<unsigned> order) {
  unsigned count = 0;
  for (unsigned i = 0; i < order.size(); ++i)
    for (unsigned j = i + 1; j < order.size(); ++j)
      count += order[i] < order[j];
  return count;
}

} // namespace

BlockedEncodingAttr getReshapedEncoding(RankedTensorType src,
                                        ArrayRef<int64_t> dstShape) {
  auto blocked = dyn_cast_or_null<BlockedEncodingAttr>(src.getEncoding());
  constexpr unsigned kMaxRank = 6;
  if (!blocked || dstShape.empty() || dstShape.size() > kMaxRank)
    return {};
  auto powerOfTwo = [](int64_t size) {
    return size > 0 && llvm::isPowerOf2_64(size);
  };
  if (!llvm::all_of(src.getShape(), powerOfTwo) ||
      !llvm::all_of(dstShape, powerOfTwo) ||
      src.getNumElements() !=
          std::accumulate(dstShape.begin(), dstShape.end(), int64_t(1),
                          std::multiplies<int64_t>()))
    return {};

  SmallVector<Digit> digits;
  if (!collectDigits(blocked, src.getShape(), digits))
    return {};

  // Cut the digits at the result's sizes, last dimension first.
  unsigned rank = dstShape.size();
  SmallVector<DimLayout> dims(rank);
  size_t next = 0;
  for (int d = rank - 1; d >= 0; --d) {
    SmallVector<Digit> own;
    int64_t need = dstShape[d];
    while (need > 1) {
      if (next == digits.size())
        return {};
      Digit &digit = digits[next];
      if (digit.size <= need) {
        own.push_back(digit);
        need /= digit.size;
        ++next;
        continue;
      }
      own.push_back({digit.kind, need, digit.shift});
      digit.size /= need;
      if (digit.kind != DigitKind::Register)
        digit.shift += llvm::Log2_64(need);
      need = 1;
    }
    std::optional<DimLayout> layout = readDimension(own);
    if (!layout)
      return {};
    dims[d] = *layout;
  }

  // The order closest to row-major that puts the lane and warp bits back.
  SmallVector<unsigned> order(rank), best;
  std::iota(order.begin(), order.end(), 0);
  unsigned bestInversions = ~0u;
  do {
    if (orderPlacesBits(order, dims) && inversions(order) < bestInversions) {
      best = order;
      bestInversions = inversions(order);
    }
  } while (std::next_permutation(order.begin(), order.end()));
  if (best.empty())
    return {};

  SmallVector<unsigned> sizePerThread, lanes, warps;
  for (const DimLayout &dim : dims) {
    sizePerThread.push_back(dim.sizePerThread);
    lanes.push_back(dim.lanes);
    warps.push_back(dim.warps);
  }
  auto result = BlockedEncodingAttr::get(blocked.getContext(), sizePerThread,
                                         lanes, warps, best);
  auto dstType =
      RankedTensorType::get(dstShape, src.getElementType(), result);
  if (reshapeNeedsSharedMemory(src, dstType))
    return {};
  return result;
}

BlockedEncodingAttr getInnerExpandedEncoding(RankedTensorType src) {
  auto blocked = dyn_cast_or_null<BlockedEncodingAttr>(src.getEncoding());
  if (!blocked)
    return {};
  SmallVector<unsigned> sizePerThread(blocked.getSizePerThread());
  SmallVector<unsigned> lanes(blocked.getThreadsPerWarp());
  SmallVector<unsigned> warps(blocked.getWarpsPerCTA());
  sizePerThread.push_back(1);
  lanes.push_back(1);
  warps.push_back(1);
  SmallVector<unsigned> order{blocked.getRank()};
  llvm::append_range(order, blocked.getOrder());
  return BlockedEncodingAttr::get(blocked.getContext(), sizePerThread, lanes,
                                  warps, order);
}

} // namespace mgp
