//===- PackedRegisters.h - element-wise ops `pack` registers at a time -*- C++ -*-===//
//
// This file declares the register handling shared by the lowerings that run
// something once per `pack` registers of a thread (inline asm, mapped scalar
// functions): how many registers the results hold, the operands' registers
// padded with zeros to a multiple of `pack`, and the results packed back.
//
//===----------------------------------------------------------------------===//
#ifndef MGP_CODEGEN_LLVM_PACKEDREGISTERS_H
#define MGP_CODEGEN_LLVM_PACKEDREGISTERS_H

#include "compiler/codegen/llvm/TypeConverter.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Value.h"

namespace mgp {

/// The registers a thread holds of `type`: the fields of its converted
/// struct, 1 for a scalar or a one-register tensor; 0 for a tensor without a
/// layout.
size_t getThreadRegisterCount(const MgpLLVMTypeConverter &converter,
                              mlir::Type type);

/// The registers of each converted operand of `srcs` (`count` each), each
/// list padded to `padded` with zeros of its element type; false when an
/// operand holds another number of registers.
bool unpackPaddedOperands(
    mlir::OpBuilder &b, mlir::Location loc,
    const MgpLLVMTypeConverter &converter, mlir::ValueRange srcs,
    mlir::ValueRange operands, size_t count, size_t padded,
    llvm::SmallVectorImpl<llvm::SmallVector<mlir::Value>> &registers);

/// The converted values of `results` from their registers (the first
/// `count` of each list; a scalar result is its first register).
llvm::SmallVector<mlir::Value>
packResults(mlir::OpBuilder &b, mlir::Location loc,
            const MgpLLVMTypeConverter &converter, mlir::ValueRange results,
            llvm::MutableArrayRef<llvm::SmallVector<mlir::Value>> registers,
            size_t count);

} // namespace mgp

#endif // MGP_CODEGEN_LLVM_PACKEDREGISTERS_H
