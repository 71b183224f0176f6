//===- TypeConverter.h - mgp types to LLVM types ----------------*- C++ -*-===//
//
// This file declares MgpLLVMTypeConverter: a distributed tensor becomes an
// `!llvm.struct` of the getTotalElemsPerThread scalars one thread holds (in
// register order), `!mgp.ptr<T, as>` becomes `!llvm.ptr<as>`, and a memdesc
// becomes `!llvm.struct<(ptr<3>, i32 x rank)>` (base pointer and offsets).
//
//===----------------------------------------------------------------------===//
#ifndef MGP_CODEGEN_LLVM_TYPECONVERTER_H
#define MGP_CODEGEN_LLVM_TYPECONVERTER_H

#include "mlir/Conversion/LLVMCommon/TypeConverter.h"

namespace mgp {

/// The type converter of the mgp-to-LLVM lowering.
class MgpLLVMTypeConverter : public mlir::LLVMTypeConverter {
public:
  explicit MgpLLVMTypeConverter(mlir::MLIRContext *ctx);

  /// The LLVM type of one element of a tensor of `elementType` (pointers to
  /// `!llvm.ptr<as>`, numbers unchanged).
  mlir::Type convertElementType(mlir::Type elementType) const;
};

} // namespace mgp

#endif // MGP_CODEGEN_LLVM_TYPECONVERTER_H
