//===- StageDotOperands.cpp - mma dot operands through shared memory ------===//
//
// This file implements `mgp-stage-dot-operands` (Triton's
// ReduceDataDuplication): convert_layout(x -> #mgp.dot_op{mma parent}) becomes
// local_alloc x into a swizzled #mgp.shared buffer + local_load into the dot
// operand layout, so the shared-memory staging of a tensor-core operand is
// explicit IR that the pipeliner can multi-buffer and the lowering can read
// with ldmatrix. A wgmma operand trans(x) stages x and reads it through
// mgp.memdesc_trans; one computed outside the dot's loop is staged there; a
// 16-bit wgmma A already in its fragment's registers is not staged.
//
//===----------------------------------------------------------------------===//
#include "compiler/codegen/gpu/Passes.h"
#include "compiler/codegen/gpu/SharedScratch.h"
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
  unsigned bits = dstType.getElementTypeBitWidth();
  bool wgmma = cast<MmaEncodingAttr>(dot.getParent()).getVersion() == 3;
  // A 16-bit wgmma A whose value its threads already hold as the A fragment
  // (P of attention, computed from the previous dot's accumulator) is read
  // from registers: the convert is a register permutation.
  if (wgmma && dot.getOpIdx() == 0 && bits == 16 &&
      !convertNeedsSharedMemory(srcType, dstType))
    return;
  SmallVector<unsigned> order = stagingOrder(dot, srcType);
  SharedEncodingAttr shared = getDotOperandSharedEncoding(
      cvt.getContext(), dstType.getShape(), order, bits);
  // A wgmma operand's K rows wider than the 128-byte swizzle atom are cut
  // into 128-byte column blocks (the NVMMA layout, docs/wgmma.md).
  int64_t rowBytes = dstType.getShape()[order[0]] * bits / 8;
  if (wgmma && rowBytes > 128)
    shared = SharedEncodingAttr::get(cvt.getContext(), shared.getVec(),
                                     shared.getPerPhase(),
                                     shared.getMaxPhase(), order, 1024 / bits);
  auto bufferType =
      MemDescType::get(dstType.getShape(), dstType.getElementType(), shared);
  // A wgmma operand given as trans(x) of a 2-D x: x is staged, in the
  // operand's encoding seen transposed, and read through a memdesc_trans
  // view (no transposition in registers; a loaded x is then copied into
  // shared memory asynchronously by mgp-pipeline).
  Value staged = cvt.getSrc();
  auto trans = staged.getDefiningOp<TransOp>();
  bool viaTrans = wgmma && trans && dstType.getRank() == 2 &&
                  isDistributedEncoding(trans.getSrc().getType().getEncoding());
  if (viaTrans) {
    staged = trans.getSrc();
    SmallVector<unsigned> reversed(llvm::reverse(order));
    bufferType = MemDescType::get(
        cast<RankedTensorType>(staged.getType()).getShape(),
        dstType.getElementType(),
        SharedEncodingAttr::get(cvt.getContext(), shared.getVec(),
                                shared.getPerPhase(), shared.getMaxPhase(),
                                reversed, shared.getBlockCols()));
  }
  // The buffer is written right after its value is computed in the same
  // block (Triton's ReorderInstructions does the same): each operand's
  // registers die at its store instead of all staying live until the dot
  // (an unpipelined int8 tile of byte loads otherwise holds both operands'
  // bytes at once and ptxas serializes each load with its store). A wgmma
  // operand computed outside the loop (or other region) the dot is in is
  // staged once, where it is computed: wgmma reads it from there.
  OpBuilder builder(cvt);
  Operation *def = staged.getDefiningOp();
  if (def && (def->getBlock() == cvt->getBlock() ||
              (wgmma && def->getBlock()->findAncestorOpInBlock(*cvt))))
    builder.setInsertionPointAfter(def);
  auto alloc = LocalAllocOp::create(builder, cvt.getLoc(), bufferType, staged);
  builder.setInsertionPoint(cvt);
  Value buffer = alloc;
  if (viaTrans)
    buffer = MemDescTransOp::create(builder, cvt.getLoc(), alloc);
  auto load = LocalLoadOp::create(builder, cvt.getLoc(), dstType, buffer);
  cvt.replaceAllUsesWith(load.getResult());
  cvt.erase();
  if (viaTrans && trans->use_empty())
    trans.erase();
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
