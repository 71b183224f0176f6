//===- StageDotOperands.cpp - mma dot operands through shared memory ------===//
//
// This file implements `mgp-stage-dot-operands` (Triton's
// ReduceDataDuplication): convert_layout(x -> #mgp.dot_op{mma parent}) becomes
// local_alloc x into a swizzled #mgp.shared buffer + local_load into the dot
// operand layout, so the shared-memory staging of a tensor-core operand is
// explicit IR that the pipeliner can multi-buffer and the lowering can read
// with ldmatrix.
//
//===----------------------------------------------------------------------===//
#include "compiler/codegen/gpu/Passes.h"
#include "compiler/ir/Layout.h"

#include "mlir/IR/Builders.h"

namespace mgp {
#define GEN_PASS_DEF_MGPSTAGEDOTOPERANDS
#include "compiler/codegen/gpu/Passes.h.inc"
} // namespace mgp

using namespace mlir;
using namespace mgp;

namespace {

/// The shared order of a staged operand: K contiguous for 32-bit and 8-bit
/// elements (ldmatrix reads 32-bit elements only along K; wgmma transposes
/// 16-bit operands only), else the source's order (16-bit elements use
/// ldmatrix.trans when M or N is contiguous). A wgmma operand (version-3
/// parent) is M- or N-contiguous only in whole 128-byte atoms (the extent
/// along M or N a multiple of 64, and for B the wgmma N too), like
/// mgp.warp_group_dot's verifier asks; else K-contiguous.
SmallVector<unsigned> stagingOrder(DotOperandEncodingAttr dot,
                                   RankedTensorType srcType) {
  unsigned kDim = dot.getOpIdx() == 0 ? 1 : 0;
  SmallVector<unsigned> kMajor = {kDim, 1 - kDim};
  if (srcType.getElementTypeBitWidth() != 16)
    return kMajor;
  Attribute srcEncoding = srcType.getEncoding();
  if (!isa<BlockedEncodingAttr, SliceEncodingAttr, MmaEncodingAttr>(srcEncoding))
    return kMajor;
  SmallVector<unsigned> order = getOrder(srcEncoding);
  auto mma = cast<MmaEncodingAttr>(dot.getParent());
  if (mma.getVersion() != 3 || order[0] == kDim)
    return order;
  bool wholeAtoms = srcType.getShape()[1 - kDim] % 64 == 0 &&
                    (dot.getOpIdx() == 0 || mma.getInstrShape()[1] % 64 == 0);
  return wholeAtoms ? order : kMajor;
}

void stage(ConvertLayoutOp cvt) {
  auto dstType = cast<RankedTensorType>(cvt.getType());
  auto srcType = cast<RankedTensorType>(cvt.getSrc().getType());
  auto dot = dyn_cast_or_null<DotOperandEncodingAttr>(dstType.getEncoding());
  if (!dot || !isa<MmaEncodingAttr>(dot.getParent()) ||
      !isDistributedEncoding(srcType.getEncoding()) ||
      !srcType.getElementType().isIntOrFloat())
    return;
  SmallVector<unsigned> order = stagingOrder(dot, srcType);
  unsigned bits = dstType.getElementTypeBitWidth();
  SharedEncodingAttr shared = getDotOperandSharedEncoding(
      cvt.getContext(), dstType.getShape(), order, bits);
  // A wgmma operand's K rows wider than the 128-byte swizzle atom are cut
  // into 128-byte column blocks (the NVMMA layout, docs/wgmma.md).
  int64_t rowBytes = dstType.getShape()[order[0]] * bits / 8;
  if (cast<MmaEncodingAttr>(dot.getParent()).getVersion() == 3 &&
      rowBytes > 128)
    shared = SharedEncodingAttr::get(cvt.getContext(), shared.getVec(),
                                     shared.getPerPhase(),
                                     shared.getMaxPhase(), order, 1024 / bits);
  auto bufferType =
      MemDescType::get(dstType.getShape(), dstType.getElementType(), shared);
  // The buffer is written right after its value is computed in the same
  // block (Triton's ReorderInstructions does the same): each operand's
  // registers die at its store instead of all staying live until the dot
  // (an unpipelined int8 tile of byte loads otherwise holds both operands'
  // bytes at once and ptxas serializes each load with its store).
  OpBuilder builder(cvt);
  Operation *def = cvt.getSrc().getDefiningOp();
  if (def && def->getBlock() == cvt->getBlock())
    builder.setInsertionPointAfter(def);
  auto alloc =
      LocalAllocOp::create(builder, cvt.getLoc(), bufferType, cvt.getSrc());
  builder.setInsertionPoint(cvt);
  auto load = LocalLoadOp::create(builder, cvt.getLoc(), dstType, alloc);
  cvt.replaceAllUsesWith(load.getResult());
  cvt.erase();
}

struct StageDotOperandsPass
    : public mgp::impl::MgpStageDotOperandsBase<StageDotOperandsPass> {
  void runOnOperation() override {
    SmallVector<ConvertLayoutOp> converts;
    getOperation().walk([&](ConvertLayoutOp cvt) { converts.push_back(cvt); });
    for (ConvertLayoutOp cvt : converts)
      stage(cvt);
  }
};

} // namespace
