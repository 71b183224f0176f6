//===- MgpOps.cpp - mgp operations ----------------------------------------===//
//
// This file implements the mgp operations: verifiers (shape, element-type and
// encoding rules of docs/dialect.md), builders that infer result types, and
// the folders of splat/broadcast/convert_layout.
//
//===----------------------------------------------------------------------===//
#include "compiler/ir/Layout.h"
#include "compiler/ir/MgpDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mgp;

/// Parses `{inputPrecision = tf32|ieee}` (mgp.dot).
static ParseResult parseInputPrecision(OpAsmParser &parser,
                                       InputPrecisionAttr &attr) {
  StringRef keyword;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseLBrace() || parser.parseKeyword("inputPrecision") ||
      parser.parseEqual() || parser.parseKeyword(&keyword) ||
      parser.parseRBrace())
    return failure();
  std::optional<InputPrecision> value = symbolizeInputPrecision(keyword);
  if (!value)
    return parser.emitError(loc, "inputPrecision must be tf32 or ieee, got '")
           << keyword << "'";
  attr = InputPrecisionAttr::get(parser.getContext(), *value);
  return success();
}

static void printInputPrecision(OpAsmPrinter &printer, Operation *,
                                InputPrecisionAttr attr) {
  printer << "{inputPrecision = " << stringifyInputPrecision(attr.getValue())
          << "}";
}

#define GET_OP_CLASSES
#include "compiler/ir/MgpOps.cpp.inc"

namespace {
/// Formats a shape as `4x8`.
std::string shapeStr(ArrayRef<int64_t> shape) {
  std::string s;
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? "x" : "") + std::to_string(shape[i]);
  return s.empty() ? "scalar" : s;
}
} // namespace

//===----------------------------------------------------------------------===//
// addptr, load
//===----------------------------------------------------------------------===//

LogicalResult AddPtrOp::verify() {
  Type ptr = getPtr().getType();
  Type off = getOffset().getType();
  auto ptrTensor = dyn_cast<RankedTensorType>(ptr);
  auto offTensor = dyn_cast<RankedTensorType>(off);
  if (bool(ptrTensor) != bool(offTensor))
    return emitOpError(
        "pointer and offset must both be scalars or both be blocks");
  if (ptrTensor) {
    if (ptrTensor.getShape() != offTensor.getShape())
      return emitOpError("offset shape ")
             << shapeStr(offTensor.getShape()) << " must match pointer shape "
             << shapeStr(ptrTensor.getShape());
    if (ptrTensor.getEncoding() != offTensor.getEncoding())
      return emitOpError("offset encoding must match pointer encoding");
  }
  return success();
}

void LoadOp::build(OpBuilder &builder, OperationState &state, Value ptr,
                   Value mask, Value other) {
  build(builder, state, getPointeeLikeType(ptr.getType()), ptr, mask, other);
}

LogicalResult LoadOp::verify() {
  if (getOther() && !getMask())
    return emitOpError("'other' needs a mask");
  return success();
}

//===----------------------------------------------------------------------===//
// dot
//===----------------------------------------------------------------------===//

void DotOp::build(OpBuilder &builder, OperationState &state, Value a, Value b,
                  Value c, InputPrecision precision) {
  build(builder, state, c.getType(), a, b, c,
        InputPrecisionAttr::get(builder.getContext(), precision));
}

LogicalResult DotOp::verify() {
  auto a = getA().getType();
  auto b = getB().getType();
  auto d = getD().getType();
  if (a.getRank() != 2 || b.getRank() != 2 || d.getRank() != 2)
    return emitOpError("operands and result must be 2-D");
  if (a.getDimSize(1) != b.getDimSize(0))
    return emitOpError("K mismatch: a is ")
           << shapeStr(a.getShape()) << ", b is " << shapeStr(b.getShape());
  if (d.getDimSize(0) != a.getDimSize(0) || d.getDimSize(1) != b.getDimSize(1))
    return emitOpError("result shape must be [M, N] = [")
           << a.getDimSize(0) << ", " << b.getDimSize(1) << "], got "
           << shapeStr(d.getShape());
  Type ea = a.getElementType();
  if (ea != b.getElementType())
    return emitOpError("a and b must have the same element type");
  if (isa<PointerType>(ea))
    return emitOpError("operands must be numbers");
  Type acc = d.getElementType();
  bool okAcc =
      acc.isF32() || acc == ea || (ea.isInteger() && acc.isInteger(32));
  if (!okAcc)
    return emitOpError("accumulator must be f32 or the operand type ")
           << ea << ", got " << acc;
  // Operand encodings, when present, are dot_op of the result encoding.
  RankedTensorType operands[] = {a, b};
  for (auto [idx, type] : llvm::enumerate(operands)) {
    auto enc = dyn_cast_or_null<DotOperandEncodingAttr>(type.getEncoding());
    if (!type.getEncoding())
      continue;
    if (!enc || enc.getOpIdx() != idx || enc.getParent() != d.getEncoding())
      return emitOpError("operand ")
             << idx << " encoding must be #mgp.dot_op<{opIdx = " << idx
             << ", parent = <result encoding>, ...}>";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// reduce
//===----------------------------------------------------------------------===//

SmallVector<Type> ReduceOp::inferResultTypes(ValueRange srcs, int32_t axis) {
  SmallVector<Type> types;
  for (Value src : srcs) {
    auto type = cast<RankedTensorType>(src.getType());
    if (type.getRank() == 1) {
      types.push_back(type.getElementType());
      continue;
    }
    SmallVector<int64_t> shape(type.getShape());
    shape.erase(shape.begin() + axis);
    Attribute encoding;
    if (type.getEncoding())
      encoding =
          SliceEncodingAttr::get(src.getContext(), axis, type.getEncoding());
    types.push_back(
        RankedTensorType::get(shape, type.getElementType(), encoding));
  }
  return types;
}

void ReduceOp::build(OpBuilder &builder, OperationState &state, ValueRange srcs,
                     int32_t axis) {
  build(builder, state, inferResultTypes(srcs, axis), srcs, axis);
  Region *region = state.regions.front().get();
  SmallVector<Type> argTypes;
  for (int i = 0; i < 2; ++i)
    for (Value src : srcs)
      argTypes.push_back(
          cast<RankedTensorType>(src.getType()).getElementType());
  SmallVector<Location> locs(argTypes.size(), state.location);
  OpBuilder::InsertionGuard guard(builder);
  builder.createBlock(region, {}, argTypes, locs);
}

LogicalResult ReduceOp::verifyRegions() {
  if (getSrcs().empty())
    return emitOpError("needs at least one operand");
  auto first = cast<RankedTensorType>(getSrcs()[0].getType());
  int32_t axis = getAxis();
  if (axis < 0 || axis >= first.getRank())
    return emitOpError("axis ")
           << axis << " out of range for rank " << first.getRank();
  for (Value src : getSrcs())
    if (cast<RankedTensorType>(src.getType()).getShape() != first.getShape())
      return emitOpError("operands must all have the same shape");
  size_t n = getSrcs().size();
  if (getNumResults() != n)
    return emitOpError("needs one result per operand");
  SmallVector<Type> expected = inferResultTypes(getSrcs(), axis);
  for (size_t i = 0; i < n; ++i)
    if (getResult()[i].getType() != expected[i])
      return emitOpError("result ") << i << " must have type " << expected[i]
                                    << ", got " << getResult()[i].getType();
  Block &body = getCombineOp().front();
  if (body.getNumArguments() != 2 * n)
    return emitOpError("combiner must take ")
           << 2 * n << " arguments, got " << body.getNumArguments();
  for (size_t i = 0; i < 2 * n; ++i) {
    Type elem =
        cast<RankedTensorType>(getSrcs()[i % n].getType()).getElementType();
    if (body.getArgument(i).getType() != elem)
      return emitOpError("combiner argument ")
             << i << " must have type " << elem;
  }
  auto ret = dyn_cast<ReduceReturnOp>(body.getTerminator());
  if (!ret)
    return emitOpError("combiner must end with mgp.reduce.return");
  if (ret.getResult().size() != n)
    return emitOpError("combiner must return ") << n << " values";
  for (size_t i = 0; i < n; ++i)
    if (ret.getResult()[i].getType() != body.getArgument(i).getType())
      return emitOpError("combiner value ")
             << i << " must have type " << body.getArgument(i).getType();
  return success();
}

//===----------------------------------------------------------------------===//
// hint, convert_layout, shared memory
//===----------------------------------------------------------------------===//

LogicalResult HintOp::verify() {
  for (std::optional<uint64_t> v : {getMultipleOf(), getMaxContiguous()})
    if (v && (*v == 0 || !llvm::isPowerOf2_64(*v)))
      return emitOpError("hints must be positive powers of two");
  return success();
}

void ConvertLayoutOp::build(OpBuilder &builder, OperationState &state,
                            Value src, Attribute encoding) {
  auto srcType = cast<RankedTensorType>(src.getType());
  build(builder, state,
        RankedTensorType::get(srcType.getShape(), srcType.getElementType(),
                              encoding),
        src);
}

LogicalResult ConvertLayoutOp::verify() {
  auto src = getSrc().getType();
  auto res = getResult().getType();
  if (src.getShape() != res.getShape() ||
      src.getElementType() != res.getElementType())
    return emitOpError("must keep the shape and element type: ")
           << src << " -> " << res;
  return success();
}

OpFoldResult ConvertLayoutOp::fold(FoldAdaptor adaptor) {
  if (getSrc().getType() == getResult().getType())
    return getSrc();
  if (auto splat = dyn_cast_or_null<SplatElementsAttr>(adaptor.getSrc()))
    return SplatElementsAttr::get(getResult().getType(),
                                  splat.getSplatValue<Attribute>());
  return {};
}

namespace {
LogicalResult verifyMatchesBuffer(Operation *op, RankedTensorType tensor,
                                  MemDescType buf) {
  if (tensor.getShape() != buf.getShape() ||
      tensor.getElementType() != buf.getElementType())
    return op->emitOpError("block ")
           << tensor << " must have the shape and element type of " << buf;
  return success();
}
} // namespace

LogicalResult LocalAllocOp::verify() {
  auto buf = getResult().getType();
  if (!getSrc()) {
    if (!buf.getIsMutable())
      return emitOpError("without a source the buffer must be mutable");
    return success();
  }
  return verifyMatchesBuffer(*this, getSrc().getType(), buf);
}

LogicalResult LocalLoadOp::verify() {
  return verifyMatchesBuffer(*this, getResult().getType(), getSrc().getType());
}

LogicalResult LocalStoreOp::verify() {
  if (!getDst().getType().getIsMutable())
    return emitOpError("destination buffer must be mutable");
  return verifyMatchesBuffer(*this, getSrc().getType(), getDst().getType());
}

//===----------------------------------------------------------------------===//
// asynchronous copies
//===----------------------------------------------------------------------===//

void MemDescSubviewOp::build(OpBuilder &builder, OperationState &state,
                             Value src, Value index) {
  auto type = cast<MemDescType>(src.getType());
  build(builder, state,
        MemDescType::get(type.getShape().drop_front(), type.getElementType(),
                         type.getEncoding(), type.getIsMutable()),
        src, index);
}

/// The type of a 2-D memdesc seen transposed (MemDescTransOp).
static MemDescType getTransposedMemDesc(MemDescType type) {
  auto encoding = cast<SharedEncodingAttr>(type.getEncoding());
  SmallVector<unsigned> order(llvm::reverse(encoding.getOrder()));
  auto transposed = SharedEncodingAttr::get(
      type.getContext(), encoding.getVec(), encoding.getPerPhase(),
      encoding.getMaxPhase(), order, encoding.getBlockCols());
  SmallVector<int64_t> shape(llvm::reverse(type.getShape()));
  return MemDescType::get(shape, type.getElementType(), transposed,
                          type.getIsMutable());
}

void MemDescTransOp::build(OpBuilder &builder, OperationState &state,
                           Value src) {
  build(builder, state, getTransposedMemDesc(cast<MemDescType>(src.getType())),
        src);
}

LogicalResult MemDescTransOp::verify() {
  MemDescType src = getSrc().getType();
  if (src.getShape().size() != 2 ||
      cast<SharedEncodingAttr>(src.getEncoding()).getOrder().size() != 2)
    return emitOpError("source must be a 2-D buffer without a leading buffer "
                       "dimension: ")
           << src;
  MemDescType expected = getTransposedMemDesc(src);
  if (getResult().getType() != expected)
    return emitOpError("result must be the source transposed: expected ")
           << expected;
  return success();
}

LogicalResult MemDescSubviewOp::verify() {
  auto src = getSrc().getType();
  auto res = getResult().getType();
  auto encoding = cast<SharedEncodingAttr>(src.getEncoding());
  if (src.getShape().size() != encoding.getOrder().size() + 1)
    return emitOpError("source must have a leading buffer dimension: ") << src;
  if (res.getShape() != src.getShape().drop_front() ||
      res.getElementType() != src.getElementType() ||
      res.getEncoding() != src.getEncoding() ||
      res.getIsMutable() != src.getIsMutable())
    return emitOpError("result must be one buffer of the source: expected ")
           << MemDescType::get(src.getShape().drop_front(),
                               src.getElementType(), src.getEncoding(),
                               src.getIsMutable())
           << ", got " << res;
  return success();
}

LogicalResult AsyncCopyGlobalToLocalOp::verify() {
  auto ptr = getPtr().getType();
  auto dst = getDst().getType();
  if (!dst.getIsMutable())
    return emitOpError("destination buffer must be mutable");
  if (ptr.getShape() != dst.getShape() ||
      getPointeeLikeType(ptr.getElementType()) != dst.getElementType())
    return emitOpError("pointers ")
           << ptr << " must have the shape and pointee type of " << dst;
  if (getOther() && !getMask())
    return emitOpError("'other' needs a mask");
  return success();
}

//===----------------------------------------------------------------------===//
// warp_group_dot
//===----------------------------------------------------------------------===//

/// Whether `encoding` of a [rows x rowElems] operand tile (rowElems along
/// `order[0]`) is a layout wgmma reads with a swizzled descriptor: rows of
/// 32, 64 or 128 bytes (one swizzle atom wide), or of a multiple of 128
/// bytes in 128-byte column blocks, whose 16-byte chunks are xor-ed as the
/// hardware's swizzle of that width does (docs/wgmma.md). An MN-major tile
/// (`kMajor` false: 16-bit elements only) takes whole 128-byte atoms.
static bool isWgmmaSwizzle(SharedEncodingAttr encoding, int64_t rowElems,
                           unsigned elemBits, bool kMajor) {
  int64_t rowBytes = rowElems * elemBits / 8;
  unsigned blockCols = encoding.getBlockCols();
  if (rowBytes > 128 && rowBytes % 128 == 0 && blockCols * elemBits == 1024)
    rowBytes = 128;
  else if ((rowBytes != 32 && rowBytes != 64 && rowBytes != 128) ||
           (blockCols && blockCols < rowElems))
    return false;
  if (!kMajor && (elemBits != 16 || rowBytes != 128))
    return false;
  return encoding.getVec() * elemBits == 128 &&
         encoding.getPerPhase() == 128 / rowBytes &&
         encoding.getMaxPhase() == rowBytes / 16;
}

LogicalResult WarpGroupDotOp::verify() {
  auto a = cast<ShapedType>(getA().getType());
  MemDescType b = getB().getType();
  auto d = cast<RankedTensorType>(getD().getType());
  if (a.getShape().size() != 2 || b.getShape().size() != 2 || d.getRank() != 2)
    return emitOpError("operands and result must be 2-D");
  int64_t m = a.getShape()[0], k = a.getShape()[1], n = b.getShape()[1];
  if (b.getShape()[0] != k || d.getDimSize(0) != m || d.getDimSize(1) != n)
    return emitOpError("shapes must be a [M, K], b [K, N], d [M, N]; got ")
           << shapeStr(a.getShape()) << ", " << shapeStr(b.getShape())
           << ", " << shapeStr(d.getShape());
  Type element = a.getElementType();
  bool bytes = element.isInteger(8);
  if (element != b.getElementType() ||
      !(bytes ? d.getElementType().isInteger(32) : d.getElementType().isF32()))
    return emitOpError("a and b must have one element type and d be f32 (i32 "
                       "for i8 operands)");
  bool tf32 = element.isF32() && getInputPrecision() == InputPrecision::TF32;
  if (!tf32 && !bytes && !element.isF16() && !element.isBF16())
    return emitOpError("operands must be f32 with input precision tf32, f16, "
                       "bf16 or i8");
  auto mma = dyn_cast_or_null<MmaEncodingAttr>(d.getEncoding());
  if (!mma || mma.getVersion() != 3)
    return emitOpError("the accumulator must have an #mgp.mma version 3 "
                       "encoding");
  unsigned bits = element.getIntOrFloatBitWidth();
  if (m % 64 || n % 8 || k % (256 / bits))
    return emitOpError("needs M % 64 == 0, N % 8 == 0 and K a multiple of ")
           << 256 / bits;
  // An `a` in registers: the wgmma A fragment of the accumulator's layout.
  if (auto aTensor = dyn_cast<RankedTensorType>(a)) {
    auto aDot = dyn_cast_or_null<DotOperandEncodingAttr>(aTensor.getEncoding());
    if (bits != 16 || !aDot || aDot.getOpIdx() != 0 ||
        aDot.getParent() != mma || aDot.getKWidth() != 2)
      return emitOpError("an a in registers must be 16-bit in the "
                         "#mgp.dot_op layout (opIdx 0, kWidth 2) of the "
                         "accumulator's encoding");
  }
  SharedEncodingAttr aEnc;
  if (auto aBuffer = dyn_cast<MemDescType>(a))
    aEnc = dyn_cast<SharedEncodingAttr>(aBuffer.getEncoding());
  auto bEnc = dyn_cast<SharedEncodingAttr>(b.getEncoding());
  bool aKMajor = aEnc && aEnc.getOrder()[0] == 1,
       bKMajor = bEnc && bEnc.getOrder()[0] == 0;
  bool aInRegisters = isa<RankedTensorType>(a);
  if ((!aInRegisters && !aEnc) || !bEnc ||
      (!aInRegisters && !isWgmmaSwizzle(aEnc, aKMajor ? k : m, bits, aKMajor)) ||
      !isWgmmaSwizzle(bEnc, bKMajor ? k : n, bits, bKMajor))
    return emitOpError("a and b must be K-contiguous shared buffers with rows "
                       "of 32, 64 or 128 bytes, or 128-byte column blocks, in "
                       "the matching swizzle (16-bit ones may be M- or "
                       "N-contiguous in 128-byte column blocks)");
  // An N-contiguous B is read in 64-column blocks: whole blocks per wgmma.
  if (!bKMajor && mma.getInstrShape()[1] % 64 != 0)
    return emitOpError("an N-contiguous b needs a wgmma N that is a multiple "
                       "of 64");
  return success();
}
