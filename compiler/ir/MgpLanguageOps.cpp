//===- MgpLanguageOps.cpp - verifiers of the wider language's ops ---------===//
//
// This file implements the verifiers of the ops declared in
// MgpLanguageOps.td: extern_elementwise, atomic_rmw, atomic_cas, scan, print
// and the pointer conversions.
//
//===----------------------------------------------------------------------===//
#include "compiler/ir/MgpDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mgp;

static ArrayRef<int64_t> shapeOf(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return tensor.getShape();
  return {};
}

LogicalResult ExternElementwiseOp::verify() {
  if (!getSymbol().starts_with("__nv_") &&
      !getSymbol().starts_with("llvm.nvvm."))
    return emitOpError("symbol '")
           << getSymbol()
           << "' is neither a libdevice function nor an NVVM intrinsic";
  ArrayRef<int64_t> shape = shapeOf(getResult().getType());
  for (Value src : getSrcs()) {
    if (shapeOf(src.getType()) != shape)
      return emitOpError("every operand must have the result's shape");
    if (isa<PointerType>(getElementTypeOrSelf(src.getType())))
      return emitOpError("operands must be numbers");
  }
  if (isa<PointerType>(getElementTypeOrSelf(getResult().getType())))
    return emitOpError("the result must be a number");
  return success();
}

/// The LLVM width of a register holding one element of type \p t (pointers
/// are 64-bit).
/// An element-wise op with several results: at least one, and every result
/// and operand of one shape.
static LogicalResult verifyOneShape(Operation *op, ValueRange srcs,
                                    ValueRange results) {
  if (results.empty())
    return op->emitOpError("needs at least one result");
  ArrayRef<int64_t> shape = shapeOf(results[0].getType());
  for (Value v : results)
    if (shapeOf(v.getType()) != shape)
      return op->emitOpError("every result must have one shape");
  for (Value src : srcs)
    if (shapeOf(src.getType()) != shape)
      return op->emitOpError("every operand must have the results' shape");
  return success();
}

static unsigned registerBits(Type t) {
  return t.isIntOrFloat() ? t.getIntOrFloatBitWidth() : 64;
}

unsigned mgp::inlineAsmElementsPerRegister(Type element, unsigned pack) {
  unsigned bits = registerBits(element);
  return bits < 32 ? std::min(32 / bits, pack) : 1;
}

LogicalResult InlineAsmElementwiseOp::verify() {
  int32_t pack = getPack();
  if (pack < 1 || (pack & (pack - 1)) != 0)
    return emitOpError("pack must be a power of two, got ") << pack;
  if (failed(verifyOneShape(*this, getSrcs(), getResults())))
    return failure();
  // Each packed register of an input or output is one constraint.
  unsigned outputs = 0, inputs = 0;
  for (Value v : getResults())
    outputs += pack / inlineAsmElementsPerRegister(
                          getElementTypeOrSelf(v.getType()), pack);
  for (Value v : getSrcs())
    inputs += pack / inlineAsmElementsPerRegister(
                         getElementTypeOrSelf(v.getType()), pack);
  InlineAsmConstraintCount count = countInlineAsmConstraints(getConstraints());
  if (count.outputs != outputs || count.inputs != inputs)
    return emitOpError("constraints \"")
           << getConstraints() << "\" name " << count.outputs
           << " outputs and " << count.inputs << " inputs; the operands need "
           << outputs << " and " << inputs;
  return success();
}

InlineAsmConstraintCount mgp::countInlineAsmConstraints(StringRef text) {
  InlineAsmConstraintCount count;
  SmallVector<StringRef> parts;
  text.split(parts, ',');
  for (StringRef part : parts) {
    part = part.trim();
    if (part.empty() || part.starts_with("~"))
      continue;
    if (part.starts_with("="))
      ++count.outputs;
    else
      ++count.inputs;
  }
  return count;
}

void InlineAsmElementwiseOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  if (getPure())
    return;
  effects.emplace_back(MemoryEffects::Read::get());
  effects.emplace_back(MemoryEffects::Write::get());
}

LogicalResult MapElementwiseOp::verifyRegions() {
  int32_t pack = getPack();
  if (pack < 1)
    return emitOpError("pack must be at least 1, got ") << pack;
  if (failed(verifyOneShape(*this, getSrcs(), getResults())))
    return failure();
  Region &region = getScalarOp();
  if (region.empty())
    return emitOpError("needs a region");
  Block &entry = region.front();
  size_t numSrcs = getSrcs().size(), numResults = getNumResults();
  if (entry.getNumArguments() != numSrcs * pack)
    return emitOpError("region must take ")
           << numSrcs * pack << " arguments (pack " << pack << " per operand), got "
           << entry.getNumArguments();
  for (size_t i = 0; i < entry.getNumArguments(); ++i) {
    Type elem = getElementTypeOrSelf(getSrcs()[i / pack].getType());
    if (entry.getArgument(i).getType() != elem)
      return emitOpError("region argument ") << i << " must have type " << elem;
  }
  for (Block &block : region) {
    auto ret = block.empty() ? MapElementwiseReturnOp()
                             : dyn_cast<MapElementwiseReturnOp>(block.back());
    if (!ret)
      continue;
    if (ret.getResult().size() != numResults * pack)
      return emitOpError("region must return ")
             << numResults * pack << " values (pack " << pack
             << " per result), got " << ret.getResult().size();
    for (size_t i = 0; i < ret.getResult().size(); ++i) {
      Type elem = getElementTypeOrSelf(getResults()[i / pack].getType());
      if (ret.getResult()[i].getType() != elem)
        return emitOpError("returned value ") << i << " must have type " << elem;
    }
  }
  return success();
}

LogicalResult GatherOp::verify() {
  auto src = cast<RankedTensorType>(getSrc().getType());
  auto indices = cast<RankedTensorType>(getIndices().getType());
  auto result = cast<RankedTensorType>(getType());
  int64_t rank = src.getRank();
  if (indices.getRank() != rank)
    return emitOpError("expects indices of the source's rank ")
           << rank << ", got " << indices.getRank();
  int64_t axis = getAxis();
  if (axis >= rank)
    return emitOpError("axis ") << axis << " is outside [0, " << rank << ")";
  for (int64_t d = 0; d < rank; ++d)
    if (d != axis && src.getDimSize(d) != indices.getDimSize(d))
      return emitOpError("expects indices matching the source in every "
                         "dimension but the axis");
  if (result.getShape() != indices.getShape() ||
      result.getElementType() != src.getElementType())
    return emitOpError("expects a result of the indices' shape and the "
                       "source's element type");
  return success();
}

/// A tensor-map access: one coordinate per dimension of `block`, at most
/// five dimensions, each of 1 to 256 elements (TMA's box).
static LogicalResult verifyTensorMapAccess(Operation *op, size_t coords,
                                           RankedTensorType block) {
  if (block.getRank() < 1 || block.getRank() > 5)
    return op->emitOpError("expects a block of rank 1 to 5, got ")
           << block.getRank();
  if (coords != size_t(block.getRank()))
    return op->emitOpError("expects one coordinate per dimension (")
           << block.getRank() << "), got " << coords;
  for (int64_t size : block.getShape())
    if (size < 1 || size > 256)
      return op->emitOpError("expects block dimensions of 1 to 256 elements");
  return success();
}

LogicalResult TensorMapLoadOp::verify() {
  return verifyTensorMapAccess(*this, getCoords().size(),
                               cast<RankedTensorType>(getType()));
}

LogicalResult TensorMapStoreOp::verify() {
  return verifyTensorMapAccess(*this, getCoords().size(),
                               cast<RankedTensorType>(getValue().getType()));
}

bool mgp::hasVectorAtomicForm(AtomicRMWKind kind, Type element) {
  switch (kind) {
  case AtomicRMWKind::FAdd:
    return element.isF32();
  case AtomicRMWKind::FMax:
  case AtomicRMWKind::FMin:
    return element.isF16() || element.isBF16();
  default:
    return false;
  }
}

LogicalResult AtomicRMWOp::verify() {
  Type elem = getElementTypeOrSelf(getVal().getType());
  unsigned bits = elem.getIntOrFloatBitWidth();
  bool isFloat = isa<FloatType>(elem);
  switch (getKind()) {
  case AtomicRMWKind::FAdd:
  case AtomicRMWKind::FMax:
  case AtomicRMWKind::FMin:
    if (!isFloat)
      return emitOpError("needs floating-point values for ")
             << stringifyAtomicRMWKind(getKind());
    if (!(elem.isF16() || elem.isBF16() || elem.isF32() || elem.isF64()))
      return emitOpError("does not support ")
             << elem << " values for " << stringifyAtomicRMWKind(getKind());
    return success();
  case AtomicRMWKind::Xchg:
    if (bits != 32 && bits != 64)
      return emitOpError("exchanges 32- or 64-bit values, got ") << elem;
    return success();
  default:
    if (isFloat || (bits != 32 && bits != 64))
      return emitOpError("needs 32- or 64-bit integers for ")
             << stringifyAtomicRMWKind(getKind()) << ", got " << elem;
    return success();
  }
}

LogicalResult AtomicCASOp::verify() {
  Type elem = getElementTypeOrSelf(getVal().getType());
  unsigned bits = elem.getIntOrFloatBitWidth();
  if (bits != 16 && bits != 32 && bits != 64)
    return emitOpError("compares 16-, 32- or 64-bit values, got ") << elem;
  return success();
}

LogicalResult ScanOp::verifyRegions() {
  if (getSrcs().empty())
    return emitOpError("needs at least one operand");
  auto first = cast<RankedTensorType>(getSrcs()[0].getType());
  int32_t axis = getAxis();
  if (axis < 0 || axis >= first.getRank())
    return emitOpError("axis ")
           << axis << " out of range for rank " << first.getRank();
  size_t n = getSrcs().size();
  if (getNumResults() != n)
    return emitOpError("needs one result per operand");
  for (size_t i = 0; i < n; ++i) {
    auto type = cast<RankedTensorType>(getSrcs()[i].getType());
    if (type.getShape() != first.getShape())
      return emitOpError("operands must all have the same shape");
    if (getResult()[i].getType() != type)
      return emitOpError("result ") << i << " must have its operand's type";
  }
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
  auto ret = dyn_cast<ScanReturnOp>(body.getTerminator());
  if (!ret)
    return emitOpError("combiner must end with mgp.scan.return");
  if (ret.getResult().size() != n)
    return emitOpError("combiner must return ") << n << " values";
  for (size_t i = 0; i < n; ++i)
    if (ret.getResult()[i].getType() != body.getArgument(i).getType())
      return emitOpError("combiner value ")
             << i << " must have type " << body.getArgument(i).getType();
  return success();
}

LogicalResult PrintOp::verify() {
  if (getIsSigned().size() != getArgs().size())
    return emitOpError("needs one isSigned entry per operand");
  return success();
}

/// A pointer conversion keeps the shape and changes what the type says.
static LogicalResult verifyPointerConversion(Operation *op, Type src,
                                             Type result) {
  if (shapeOf(src) != shapeOf(result))
    return op->emitOpError("operand and result must have the same shape");
  return success();
}

LogicalResult PtrToIntOp::verify() {
  if (!getElementTypeOrSelf(getResult().getType()).isInteger(64))
    return emitOpError("result must be i64");
  return verifyPointerConversion(*this, getSrc().getType(),
                                 getResult().getType());
}

LogicalResult IntToPtrOp::verify() {
  if (!getElementTypeOrSelf(getSrc().getType()).isInteger(64))
    return emitOpError("operand must be i64");
  return verifyPointerConversion(*this, getSrc().getType(),
                                 getResult().getType());
}

LogicalResult PtrCastOp::verify() {
  auto from = cast<PointerType>(getElementTypeOrSelf(getSrc().getType()));
  auto to = cast<PointerType>(getElementTypeOrSelf(getResult().getType()));
  if (from.getAddressSpace() != to.getAddressSpace())
    return emitOpError("cannot change the address space");
  return verifyPointerConversion(*this, getSrc().getType(),
                                 getResult().getType());
}
