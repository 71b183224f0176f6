//===- MgpShapeOps.cpp - mgp block construction and shape ops -------------===//
//
// This file implements the verifiers, type-inferring builders and folders of
// the ops that build blocks and change their shape: make_range, splat,
// broadcast, expand_dims, reshape and trans.
//
//===----------------------------------------------------------------------===//
#include "compiler/ir/Layout.h"
#include "compiler/ir/MgpDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mgp;

namespace {
/// Formats a shape as `4x8`.
std::string shapeStr(ArrayRef<int64_t> shape) {
  std::string s;
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? "x" : "") + std::to_string(shape[i]);
  return s.empty() ? "scalar" : s;
}

LogicalResult verifySameElementType(Operation *op, Type a, Type b) {
  if (getElementTypeOrSelf(a) != getElementTypeOrSelf(b))
    return op->emitOpError("operand and result element types differ: ")
           << getElementTypeOrSelf(a) << " vs " << getElementTypeOrSelf(b);
  return success();
}
} // namespace

//===----------------------------------------------------------------------===//
// make_range
//===----------------------------------------------------------------------===//

void MakeRangeOp::build(OpBuilder &builder, OperationState &state,
                        int32_t start, int32_t end) {
  auto type = RankedTensorType::get({end - start}, builder.getI32Type());
  build(builder, state, type, start, end);
}

LogicalResult MakeRangeOp::verify() {
  auto type = getResult().getType();
  if (type.getRank() != 1)
    return emitOpError("result must be a 1-D tensor");
  int64_t length = int64_t(getEnd()) - int64_t(getStart());
  if (length <= 0)
    return emitOpError("end must be greater than start");
  if (!llvm::isPowerOf2_64(length))
    return emitOpError("length ")
           << length << " (end - start) must be a power of two";
  if (type.getDimSize(0) != length)
    return emitOpError("result length ")
           << type.getDimSize(0) << " must equal end - start = " << length;
  return success();
}

//===----------------------------------------------------------------------===//
// splat, broadcast, expand_dims, reshape, trans
//===----------------------------------------------------------------------===//

LogicalResult SplatOp::verify() {
  if (getResult().getType().getElementType() != getSrc().getType())
    return emitOpError("result element type ")
           << getResult().getType().getElementType()
           << " must be the operand type " << getSrc().getType();
  return success();
}

void SplatOp::build(OpBuilder &builder, OperationState &state, Value src,
                    ArrayRef<int64_t> shape, Attribute encoding) {
  build(builder, state, RankedTensorType::get(shape, src.getType(), encoding),
        src);
}

OpFoldResult SplatOp::fold(FoldAdaptor adaptor) {
  // splat(constant) -> dense constant.
  Attribute value = adaptor.getSrc();
  if (!value || !isa<IntegerAttr, FloatAttr>(value))
    return {};
  return SplatElementsAttr::get(getResult().getType(), value);
}

LogicalResult BroadcastOp::verify() {
  auto src = getSrc().getType();
  auto res = getResult().getType();
  if (failed(verifySameElementType(*this, src, res)))
    return failure();
  if (src.getRank() != res.getRank())
    return emitOpError("operand rank ")
           << src.getRank() << " must equal result rank " << res.getRank();
  for (int64_t d = 0; d < src.getRank(); ++d)
    if (src.getDimSize(d) != 1 && src.getDimSize(d) != res.getDimSize(d))
      return emitOpError("can only broadcast size-1 dimensions: ")
             << shapeStr(src.getShape()) << " -> " << shapeStr(res.getShape());
  return success();
}

void BroadcastOp::build(OpBuilder &builder, OperationState &state, Value src,
                        ArrayRef<int64_t> shape) {
  auto srcType = cast<RankedTensorType>(src.getType());
  build(builder, state, srcType.clone(shape), src);
}

OpFoldResult BroadcastOp::fold(FoldAdaptor adaptor) {
  if (getSrc().getType() == getResult().getType())
    return getSrc();
  // broadcast(splat constant) -> splat constant.
  if (auto splat = dyn_cast_or_null<SplatElementsAttr>(adaptor.getSrc()))
    return SplatElementsAttr::get(getResult().getType(),
                                  splat.getSplatValue<Attribute>());
  return {};
}

void ExpandDimsOp::build(OpBuilder &builder, OperationState &state, Value src,
                         int32_t axis) {
  auto srcType = cast<RankedTensorType>(src.getType());
  SmallVector<int64_t> shape(srcType.getShape());
  shape.insert(shape.begin() + axis, 1);
  Attribute encoding;
  if (auto slice = dyn_cast_or_null<SliceEncodingAttr>(srcType.getEncoding()))
    encoding = slice.getParent();
  build(builder, state,
        RankedTensorType::get(shape, srcType.getElementType(), encoding), src,
        axis);
}

LogicalResult ExpandDimsOp::verify() {
  auto src = getSrc().getType();
  auto res = getResult().getType();
  if (failed(verifySameElementType(*this, src, res)))
    return failure();
  int32_t axis = getAxis();
  if (axis < 0 || axis > src.getRank())
    return emitOpError("axis ")
           << axis << " out of range for rank " << src.getRank();
  SmallVector<int64_t> expected(src.getShape());
  expected.insert(expected.begin() + axis, 1);
  if (ArrayRef<int64_t>(expected) != res.getShape())
    return emitOpError("result shape must be ")
           << shapeStr(expected) << ", got " << shapeStr(res.getShape());
  return success();
}

void ReshapeOp::build(OpBuilder &builder, OperationState &state, Value src,
                      ArrayRef<int64_t> shape) {
  auto srcType = cast<RankedTensorType>(src.getType());
  build(builder, state, RankedTensorType::get(shape, srcType.getElementType()),
        src);
}

LogicalResult ReshapeOp::verify() {
  auto src = getSrc().getType();
  auto res = getResult().getType();
  if (failed(verifySameElementType(*this, src, res)))
    return failure();
  if (src.getNumElements() != res.getNumElements())
    return emitOpError("element count changes: ")
           << shapeStr(src.getShape()) << " -> " << shapeStr(res.getShape());
  return success();
}

void TransOp::build(OpBuilder &builder, OperationState &state, Value src,
                    ArrayRef<int32_t> order) {
  auto srcType = cast<RankedTensorType>(src.getType());
  SmallVector<int64_t> shape;
  for (int32_t o : order)
    shape.push_back(srcType.getDimSize(o));
  build(builder, state, RankedTensorType::get(shape, srcType.getElementType()),
        src, builder.getDenseI32ArrayAttr(order));
}

LogicalResult TransOp::verify() {
  auto src = getSrc().getType();
  auto res = getResult().getType();
  if (failed(verifySameElementType(*this, src, res)))
    return failure();
  ArrayRef<int32_t> order = getOrder();
  if (int64_t(order.size()) != src.getRank())
    return emitOpError("order must have one entry per dimension");
  SmallVector<bool> seen(order.size(), false);
  for (int32_t o : order) {
    if (o < 0 || o >= src.getRank() || seen[o])
      return emitOpError("order must be a permutation");
    seen[o] = true;
  }
  if (res.getRank() != src.getRank())
    return emitOpError("result rank must equal operand rank");
  for (size_t i = 0; i < order.size(); ++i)
    if (res.getDimSize(i) != src.getDimSize(order[i]))
      return emitOpError("result dim ")
             << i << " must be operand dim " << order[i] << " (size "
             << src.getDimSize(order[i]) << ")";
  return success();
}
