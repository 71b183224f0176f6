//===- SharedAccess.h - a thread's registers to and from shared -*- C++ -*-===//
//
// This file declares the stores and loads of a distributed tensor's registers
// to and from shared memory, shared by the convert_layout scratch and the
// local_alloc / local_load / local_store lowering. Elements travel in their
// shared memory type (i1 as i8, pointers as i64); replicated owners are
// skipped when storing (registers statically, lanes and warps by a masked
// store), so each element is written once.
//
//===----------------------------------------------------------------------===//
#ifndef MGP_CODEGEN_LLVM_SHAREDACCESS_H
#define MGP_CODEGEN_LLVM_SHAREDACCESS_H

#include "compiler/codegen/gpu/SharedScratch.h"
#include "compiler/ir/MgpDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace mgp {

class TargetInfo;

/// The element offset (i32, in elements of the memory type) of the tensor
/// element at `coords` (i32 values, one per dim).
using SharedOffsetFn =
    llvm::function_ref<mlir::Value(mlir::OpBuilder &, mlir::ValueRange)>;

/// The byte alignment the access of register `reg` may promise (0: the
/// element's natural alignment). A larger one lets LLVM merge neighbouring
/// registers into one vector ld/st.shared.
using SharedAlignFn = llvm::function_ref<unsigned(unsigned reg)>;

/// The type an element of LLVM type `elementType` has in shared memory: i1 as
/// i8, pointers as i64, everything else unchanged.
mlir::Type getSharedMemoryType(mlir::Type elementType);

/// Stores the registers `registers` of a thread holding tensor `type` at
/// `base + offsetOf(coords)`; each element is stored by one owner only.
void emitSharedStores(mlir::OpBuilder &b, mlir::Location loc,
                      const TargetInfo &target, mlir::RankedTensorType type,
                      llvm::ArrayRef<mlir::Value> registers, mlir::Value base,
                      SharedOffsetFn offsetOf, SharedAlignFn alignOf = {});

/// Loads the registers (of LLVM type `elementType`) of a thread holding
/// tensor `type` from `base + offsetOf(coords)`.
llvm::SmallVector<mlir::Value>
emitSharedLoads(mlir::OpBuilder &b, mlir::Location loc,
                const TargetInfo &target, mlir::RankedTensorType type,
                mlir::Type elementType, mlir::Value base,
                SharedOffsetFn offsetOf, SharedAlignFn alignOf = {});

/// Stores the registers `registers` of a thread holding `type`, the source of
/// a conversion through the vector scratch `layout`, as layout.vector-element
/// runs (one vector st.shared each) at `base`.
void emitVectorScratchStores(mlir::OpBuilder &b, mlir::Location loc,
                             const TargetInfo &target,
                             mlir::RankedTensorType type,
                             llvm::ArrayRef<mlir::Value> registers,
                             mlir::Value base,
                             const VectorScratchLayout &layout);

/// Loads the registers (of LLVM type `elementType`) of a thread holding
/// `type`, the destination of a conversion through the vector scratch
/// `layout`, as layout.vector-element runs (one vector ld.shared each).
llvm::SmallVector<mlir::Value>
emitVectorScratchLoads(mlir::OpBuilder &b, mlir::Location loc,
                       const TargetInfo &target, mlir::RankedTensorType type,
                       mlir::Type elementType, mlir::Value base,
                       const VectorScratchLayout &layout);

/// The swizzled element offset (i32) of `coords` (one per dim of `type`,
/// start offsets included) in a shared buffer of `type`, as Layout.h's
/// getSharedOffset computes it (LocalMemOpToLLVM.cpp).
mlir::Value emitSwizzledOffset(mlir::OpBuilder &b, mlir::Location loc,
                               MemDescType type, mlir::ValueRange coords);

/// The byte alignment of each register's scratch address for a thread
/// holding `type`: the largest power-of-two vector of p elements (at most 16
/// bytes) such that the scratch row stride, the last dim, the buffer's byte
/// offset and every lane and warp basis along the last dim are multiples of
/// p: then the register's last coordinate is congruent mod p to its register
/// bits' part (the thread's part and the wrap to the shape keep the low bits),
/// and registers at a multiple of p start an aligned p-element run that LLVM
/// can merge into one vector access.
llvm::SmallVector<unsigned>
getScratchAlignments(mlir::RankedTensorType type,
                     const ConvertScratchLayout &layout, int64_t offsetBytes);

} // namespace mgp

#endif // MGP_CODEGEN_LLVM_SHAREDACCESS_H
