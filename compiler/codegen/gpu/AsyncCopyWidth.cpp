//===- AsyncCopyWidth.cpp - elements per cp.async -------------------------===//
//
// This file implements getAsyncCopyWidth (AsyncCopyWidth.h) from the
// register coordinates of compiler/ir/Layout.h.
//
//===----------------------------------------------------------------------===//
#include "compiler/codegen/gpu/AsyncCopyWidth.h"

#include "compiler/ir/Layout.h"

using namespace mlir;
using namespace mgp;

/// Whether every group of `width` consecutive registers of thread 0 holds
/// consecutive elements along `dim` (and the same index along other dims).
static bool groupsAreContiguous(RankedTensorType type, unsigned width,
                                unsigned dim) {
  auto coords = getElementCoords(type.getEncoding(), type.getShape(), 0, 0);
  if (coords.size() % width != 0)
    return false;
  for (size_t start = 0; start < coords.size(); start += width) {
    if (coords[start][dim] % width != 0)
      return false;
    for (unsigned i = 1; i < width; ++i)
      for (size_t d = 0; d < coords[start].size(); ++d) {
        int64_t step = coords[start + i][d] - coords[start][d];
        if (step != (d == dim ? static_cast<int64_t>(i) : 0))
          return false;
      }
  }
  return true;
}

unsigned mgp::getAsyncCopyWidth(RankedTensorType ptrType, MemDescType dst,
                                unsigned vectorWidth) {
  Type element = dst.getElementType();
  if (!element.isIntOrFloat() || element.getIntOrFloatBitWidth() % 8 != 0 ||
      !ptrType.getEncoding())
    return 0;
  unsigned bytes = element.getIntOrFloatBitWidth() / 8;
  auto shared = cast<SharedEncodingAttr>(dst.getEncoding());
  unsigned dim = shared.getOrder()[0];
  unsigned width = std::max(vectorWidth, 1u);
  if (shared.getMaxPhase() > 1)
    width = std::min(width, shared.getVec());
  if (shared.getBlockCols())
    width = std::min(width, shared.getBlockCols());
  while (width > 1 && width * bytes > 16)
    width /= 2;
  while (width > 1 && !groupsAreContiguous(ptrType, width, dim))
    width /= 2;
  return width * bytes >= 4 ? width : 0;
}
