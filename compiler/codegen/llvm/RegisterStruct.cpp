//===- RegisterStruct.cpp - a thread's registers as an LLVM struct --------===//
//
// This file implements the struct packing helpers of RegisterStruct.h and
// replaceWithRegisters (Patterns.h).
//
//===----------------------------------------------------------------------===//
#include "compiler/codegen/llvm/RegisterStruct.h"
#include "compiler/codegen/llvm/Patterns.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;

SmallVector<Value> mgp::unpackRegisters(OpBuilder &b, Location loc,
                                        Value value) {
  auto structType = dyn_cast<LLVM::LLVMStructType>(value.getType());
  if (!structType)
    return {value};
  SmallVector<Value> registers;
  for (int64_t i = 0, e = structType.getBody().size(); i < e; ++i)
    registers.push_back(LLVM::ExtractValueOp::create(b, loc, value, i));
  return registers;
}

Value mgp::packRegisters(OpBuilder &b, Location loc, Type structType,
                         ValueRange registers) {
  if (!isa<LLVM::LLVMStructType>(structType)) {
    assert(registers.size() == 1 && "a scalar holds one register");
    return registers.front();
  }
  Value result = LLVM::UndefOp::create(b, loc, structType);
  for (auto [i, reg] : llvm::enumerate(registers))
    result = LLVM::InsertValueOp::create(b, loc, result, reg, i);
  return result;
}

Value mgp::i32Constant(OpBuilder &b, Location loc, int64_t value) {
  return intConstant(b, loc, b.getI32Type(), value);
}

Value mgp::intConstant(OpBuilder &b, Location loc, Type type, int64_t value) {
  return LLVM::ConstantOp::create(b, loc, type, b.getIntegerAttr(type, value));
}

Value mgp::zeroValue(OpBuilder &b, Location loc, Type type) {
  if (isa<LLVM::LLVMPointerType>(type))
    return LLVM::ZeroOp::create(b, loc, type);
  if (isa<FloatType>(type))
    return LLVM::ConstantOp::create(b, loc, type, b.getFloatAttr(type, 0.0));
  return LLVM::ConstantOp::create(b, loc, type, b.getIntegerAttr(type, 0));
}

LogicalResult mgp::replaceWithRegisters(Operation *op, ValueRange registers,
                                        const MgpLLVMTypeConverter &converter,
                                        ConversionPatternRewriter &rewriter) {
  Type resultType = op->getResult(0).getType();
  if (!isa<RankedTensorType>(resultType)) {
    rewriter.replaceOp(op, registers.front());
    return success();
  }
  Type structType = converter.convertType(resultType);
  if (!structType)
    return rewriter.notifyMatchFailure(op, "tensor without a layout");
  rewriter.replaceOp(op, packRegisters(rewriter, op->getLoc(), structType,
                                       registers));
  return success();
}
