//===- LayoutBuilders.cpp - layout builders, swizzling, dumpLayout -------===//
//
// This file implements the parts of Layout.h built on the layout function:
// the blocked-layout builders that follow Triton's BlockedEncodingAttr::get,
// the slice/dot_op constructors, shared-memory swizzling and dumpLayout.
//
//===----------------------------------------------------------------------===//
#include "compiler/ir/Layout.h"

#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <map>

using namespace mlir;
using namespace mgp;

BlockedEncodingAttr mgp::getBlockedEncoding(
    MLIRContext *ctx, ArrayRef<int64_t> shape, ArrayRef<unsigned> sizePerThread,
    ArrayRef<unsigned> order, unsigned numWarps, unsigned threadsPerWarp) {
  unsigned rank = shape.size();
  SmallVector<unsigned> tpw(rank, 1), wpc(rank, 1);
  unsigned remainingLanes = threadsPerWarp, remainingWarps = numWarps;
  unsigned remainingThreads = numWarps * threadsPerWarp;
  unsigned prevLanes = 1, prevWarps = 1;
  for (unsigned i = 0; i + 1 < rank; ++i) {
    unsigned d = order[i];
    unsigned maxThreads = std::max<int64_t>(1, shape[d] / sizePerThread[d]);
    unsigned threads = std::clamp(remainingThreads, 1u, maxThreads);
    tpw[d] = std::clamp(threads, 1u, remainingLanes);
    wpc[d] = std::clamp(threads / tpw[d], 1u, remainingWarps);
    remainingWarps /= wpc[d];
    remainingLanes /= tpw[d];
    remainingThreads /= threads;
    prevLanes *= tpw[d];
    prevWarps *= wpc[d];
  }
  tpw[order[rank - 1]] = threadsPerWarp / prevLanes;
  wpc[order[rank - 1]] = numWarps / prevWarps;
  return BlockedEncodingAttr::get(ctx, sizePerThread, tpw, wpc, order);
}

BlockedEncodingAttr
mgp::getDefaultBlockedEncoding(MLIRContext *ctx, ArrayRef<int64_t> shape,
                               unsigned numWarps, unsigned threadsPerWarp,
                               unsigned sizePerThreadFastest) {
  unsigned rank = shape.size();
  SmallVector<unsigned> order, spt(rank, 1);
  for (unsigned i = 0; i < rank; ++i)
    order.push_back(rank - 1 - i);
  spt[rank - 1] = sizePerThreadFastest;
  return getBlockedEncoding(ctx, shape, spt, order, numWarps, threadsPerWarp);
}

SliceEncodingAttr mgp::getSliceEncoding(Attribute parent, unsigned dim) {
  return SliceEncodingAttr::get(parent.getContext(), dim, parent);
}

DotOperandEncodingAttr
mgp::getDotOperandEncoding(unsigned opIdx, Attribute parent, unsigned kWidth) {
  return DotOperandEncodingAttr::get(parent.getContext(), opIdx, parent,
                                     kWidth);
}

SharedEncodingAttr mgp::getDotOperandSharedEncoding(MLIRContext *ctx,
                                                    ArrayRef<int64_t> shape,
                                                    ArrayRef<unsigned> order,
                                                    unsigned elemBits) {
  int64_t rowBytes = shape[order[0]] * elemBits / 8;
  unsigned vec = std::max(1u, 128 / elemBits);
  unsigned perPhase =
      std::max<int64_t>(1, 128 / std::max<int64_t>(1, rowBytes));
  unsigned maxPhase = std::max(1u, 8 / perPhase);
  // The xor must stay inside the row: at most rowBytes / 16 chunks.
  maxPhase = std::min<int64_t>(maxPhase, std::max<int64_t>(1, rowBytes / 16));
  if (int64_t(vec) > shape[order[0]])
    vec = shape[order[0]];
  return SharedEncodingAttr::get(ctx, vec, perPhase, maxPhase, order);
}

int64_t mgp::getSharedOffset(SharedEncodingAttr encoding,
                             ArrayRef<int64_t> shape,
                             ArrayRef<int64_t> coords) {
  ArrayRef<unsigned> order = encoding.getOrder();
  size_t lead = shape.size() - order.size();
  assert((lead == 0 || lead == 1) && coords.size() == shape.size() &&
         "bad shared coords");
  ArrayRef<int64_t> inner = shape.drop_front(lead),
                    at = coords.drop_front(lead);
  int64_t bufferElems = 1;
  for (int64_t d : inner)
    bufferElems *= d;
  int64_t col = at[order[0]], rowLen = inner[order[0]];
  int64_t row = 0;
  for (size_t i = order.size(); i-- > 1;)
    row = row * inner[order[i]] + at[order[i]];
  // Column blocks: block b of the rows is a buffer of its own, rows of
  // blockCols elements, after the b blocks before it.
  int64_t blockBase = 0;
  if (int64_t blockCols = encoding.getBlockCols();
      blockCols && blockCols < rowLen) {
    blockBase = col / blockCols * (bufferElems / rowLen) * blockCols;
    col %= blockCols;
    rowLen = blockCols;
  }
  int64_t vec = encoding.getVec();
  int64_t phase = (row / encoding.getPerPhase()) % encoding.getMaxPhase();
  int64_t physCol = (((col / vec) ^ phase) * vec + col % vec) % rowLen;
  int64_t offset = blockBase + row * rowLen + physCol;
  return lead ? coords[0] * bufferElems + offset : offset;
}

std::string mgp::dumpLayout(Attribute encoding, ArrayRef<int64_t> shape) {
  LayoutBases bases = getLayoutBases(encoding, shape);
  std::map<SmallVector<int64_t>, std::string> owners;
  for (unsigned w = 0; w < bases.getNumWarps(); ++w)
    for (unsigned l = 0; l < bases.getNumLanes(); ++l)
      for (unsigned r = 0; r < bases.getNumRegs(); ++r) {
        std::string &s = owners[bases.apply(r, l, w)];
        s += " (w" + std::to_string(w) + ", l" + std::to_string(l) + ", r" +
             std::to_string(r) + ")";
      }
  std::string out;
  llvm::raw_string_ostream os(out);
  for (auto &[coords, who] : owners) {
    os << "[";
    llvm::interleaveComma(coords, os);
    os << "]:" << who << "\n";
  }
  return out;
}
