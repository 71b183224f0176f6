//===- RegisterStruct.h - a thread's registers as an LLVM struct -*- C++
//-*-===//
//
// This file declares packing and unpacking of the `!llvm.struct` that holds a
// thread's registers of a distributed tensor, and small constant builders
// used by every lowering file.
//
//===----------------------------------------------------------------------===//
#ifndef MGP_CODEGEN_LLVM_REGISTERSTRUCT_H
#define MGP_CODEGEN_LLVM_REGISTERSTRUCT_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/Value.h"

namespace mgp {

/// The registers held in `value`: the fields of a struct, or the value itself.
llvm::SmallVector<mlir::Value>
unpackRegisters(mlir::OpBuilder &b, mlir::Location loc, mlir::Value value);

/// Packs `registers` into `structType` (returns the single register when
/// `structType` is not a struct).
mlir::Value packRegisters(mlir::OpBuilder &b, mlir::Location loc,
                          mlir::Type structType, mlir::ValueRange registers);

/// An `llvm.mlir.constant` of type i32.
mlir::Value i32Constant(mlir::OpBuilder &b, mlir::Location loc, int64_t value);

/// An `llvm.mlir.constant` of integer type `type`.
mlir::Value intConstant(mlir::OpBuilder &b, mlir::Location loc, mlir::Type type,
                        int64_t value);

/// The zero of an integer, float or pointer type.
mlir::Value zeroValue(mlir::OpBuilder &b, mlir::Location loc, mlir::Type type);

} // namespace mgp

#endif // MGP_CODEGEN_LLVM_REGISTERSTRUCT_H
