//===- TensorEncoding.cpp - encodings on tensor types ---------------------===//
//
// This file implements the helpers of TensorEncoding.h: the module's warp
// configuration and re-encoded tensor types.
//
//===----------------------------------------------------------------------===//
#include "compiler/codegen/gpu/TensorEncoding.h"

#include "mlir/IR/BuiltinOps.h"

using namespace mlir;

namespace mgp {

static unsigned getModuleInt(Operation *op, StringRef name, unsigned fallback) {
  auto module = dyn_cast<ModuleOp>(op);
  if (!module)
    module = op->getParentOfType<ModuleOp>();
  if (module)
    if (auto attr = module->getAttrOfType<IntegerAttr>(name))
      return attr.getInt();
  return fallback;
}

unsigned getModuleNumWarps(Operation *op) {
  return getModuleInt(op, "mgp.num_warps", 4);
}

unsigned getModuleThreadsPerWarp(Operation *op) {
  return getModuleInt(op, "mgp.threads_per_warp", 32);
}

RankedTensorType withEncoding(Type type, Attribute encoding) {
  auto tensor = cast<RankedTensorType>(type);
  return RankedTensorType::get(tensor.getShape(), tensor.getElementType(),
                               encoding);
}

BlockedEncodingAttr getTransposedEncoding(BlockedEncodingAttr blocked,
                                          ArrayRef<int32_t> perm) {
  SmallVector<unsigned> size, lanes, warps, order;
  for (int32_t d : perm) {
    size.push_back(blocked.getSizePerThread()[d]);
    lanes.push_back(blocked.getThreadsPerWarp()[d]);
    warps.push_back(blocked.getWarpsPerCTA()[d]);
  }
  for (unsigned d : blocked.getOrder())
    order.push_back(llvm::find(perm, int32_t(d)) - perm.begin());
  return BlockedEncodingAttr::get(blocked.getContext(), size, lanes, warps,
                                  order);
}

} // namespace mgp
