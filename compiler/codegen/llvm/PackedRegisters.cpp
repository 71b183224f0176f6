//===- PackedRegisters.cpp - element-wise ops `pack` registers at a time --===//
//
// This file implements PackedRegisters.h.
//
//===----------------------------------------------------------------------===//
#include "compiler/codegen/llvm/PackedRegisters.h"
#include "compiler/codegen/llvm/RegisterStruct.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mgp;

size_t mgp::getThreadRegisterCount(const MgpLLVMTypeConverter &converter,
                                   Type type) {
  if (!isa<RankedTensorType>(type))
    return 1;
  Type structType = converter.convertType(type);
  if (!structType)
    return 0;
  if (auto s = dyn_cast<LLVM::LLVMStructType>(structType))
    return s.getBody().size();
  return 1;
}

bool mgp::unpackPaddedOperands(
    OpBuilder &b, Location loc, const MgpLLVMTypeConverter &converter,
    ValueRange srcs, ValueRange operands, size_t count, size_t padded,
    SmallVectorImpl<SmallVector<Value>> &registers) {
  for (auto [src, operand] : llvm::zip(srcs, operands)) {
    SmallVector<Value> regs = unpackRegisters(b, loc, operand);
    if (regs.size() != count)
      return false;
    Type element =
        converter.convertElementType(getElementTypeOrSelf(src.getType()));
    Value zero = LLVM::ZeroOp::create(b, loc, element);
    regs.resize(padded, zero);
    registers.push_back(std::move(regs));
  }
  return true;
}

SmallVector<Value>
mgp::packResults(OpBuilder &b, Location loc,
                 const MgpLLVMTypeConverter &converter, ValueRange results,
                 MutableArrayRef<SmallVector<Value>> registers, size_t count) {
  SmallVector<Value> values;
  for (auto [result, regs] : llvm::zip(results, registers)) {
    regs.resize(count);
    if (!isa<RankedTensorType>(result.getType())) {
      values.push_back(regs.front());
      continue;
    }
    values.push_back(
        packRegisters(b, loc, converter.convertType(result.getType()), regs));
  }
  return values;
}
