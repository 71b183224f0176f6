//===- MgpDialect.cpp - the mgp dialect -----------------------------------===//
//
// This file implements the mgp dialect's registration, its inliner interface,
// its constant materializer (arith.constant), the aliases it gives its layout
// attributes in printed IR (`#blocked`, `#slice`, ...) and the type helpers
// shared by the op definitions.
//
//===----------------------------------------------------------------------===//
#include "compiler/ir/MgpDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Transforms/InliningUtils.h"

using namespace mlir;
using namespace mgp;

#include "compiler/ir/MgpDialect.cpp.inc"

namespace {
/// Prints layout encodings as `#blocked`, `#slice1`, ... aliases.
struct MgpOpAsmInterface : public OpAsmDialectInterface {
  using OpAsmDialectInterface::OpAsmDialectInterface;

  AliasResult getAlias(Attribute attr, raw_ostream &os) const override {
    if (isa<BlockedEncodingAttr>(attr))
      os << "blocked";
    else if (isa<SliceEncodingAttr>(attr))
      os << "slice";
    else if (isa<MmaEncodingAttr>(attr))
      os << "mma";
    else if (isa<DotOperandEncodingAttr>(attr))
      os << "dot_op";
    else if (isa<SharedEncodingAttr>(attr))
      os << "shared";
    else
      return AliasResult::NoAlias;
    return AliasResult::FinalAlias;
  }
};

/// Every mgp op may be inlined (helper functions are inlined into kernels).
struct MgpInlinerInterface : public DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;

  bool isLegalToInline(Operation *, Region *, bool,
                       IRMapping &) const override {
    return true;
  }
  bool isLegalToInline(Region *, Region *, bool, IRMapping &) const override {
    return true;
  }
};
} // namespace

Operation *MgpDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                           Type type, Location loc) {
  return arith::ConstantOp::materialize(builder, value, type, loc);
}

void MgpDialect::initialize() {
  registerTypes();
  registerAttributes();
  addOperations<
#define GET_OP_LIST
#include "compiler/ir/MgpOps.cpp.inc"
      >();
  addInterfaces<MgpOpAsmInterface, MgpInlinerInterface>();
}

Type mgp::getPointeeLikeType(Type ptrLike) {
  if (auto ptr = dyn_cast<PointerType>(ptrLike))
    return ptr.getPointeeType();
  if (auto tensor = dyn_cast<RankedTensorType>(ptrLike))
    if (auto ptr = dyn_cast<PointerType>(tensor.getElementType()))
      return RankedTensorType::get(tensor.getShape(), ptr.getPointeeType(),
                                   tensor.getEncoding());
  return ptrLike;
}

Type mgp::getI1LikeType(Type type) {
  auto i1 = IntegerType::get(type.getContext(), 1);
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return RankedTensorType::get(tensor.getShape(), i1, tensor.getEncoding());
  return i1;
}

Attribute mgp::getEncoding(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return tensor.getEncoding();
  return {};
}
