//===- TypeConverter.cpp - mgp types to LLVM types ------------------------===//
//
// This file implements MgpLLVMTypeConverter (see TypeConverter.h).
//
//===----------------------------------------------------------------------===//
#include "compiler/codegen/llvm/TypeConverter.h"

#include "compiler/ir/Layout.h"
#include "compiler/ir/MgpDialect.h"

#include "mlir/Dialect/LLVMIR/LLVMTypes.h"

using namespace mlir;
using namespace mgp;

MgpLLVMTypeConverter::MgpLLVMTypeConverter(MLIRContext *ctx)
    : LLVMTypeConverter(ctx) {
  addConversion([ctx](PointerType type) -> Type {
    return LLVM::LLVMPointerType::get(ctx, type.getAddressSpace());
  });
  addConversion([this](RankedTensorType type) -> std::optional<Type> {
    Attribute encoding = type.getEncoding();
    if (!encoding || !isDistributedEncoding(encoding))
      return std::nullopt;
    unsigned count = getTotalElemsPerThread(encoding, type.getShape());
    Type element = convertElementType(type.getElementType());
    if (!element)
      return std::nullopt;
    SmallVector<Type> fields(count, element);
    return LLVM::LLVMStructType::getLiteral(type.getContext(), fields);
  });
  addConversion([ctx](MemDescType type) -> Type {
    SmallVector<Type> fields{LLVM::LLVMPointerType::get(ctx, 3)};
    fields.append(type.getShape().size(), IntegerType::get(ctx, 32));
    return LLVM::LLVMStructType::getLiteral(ctx, fields);
  });
}

Type MgpLLVMTypeConverter::convertElementType(Type elementType) const {
  return convertType(elementType);
}
