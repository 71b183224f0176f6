//===- ElementIndices.h - which element each register holds -----*- C++ -*-===//
//
// This file declares the lowering's view of compiler/ir/Layout.h: the
// coordinates each register of a thread holds, as LLVM values (from the
// thread's lane and warp ids) or as constants, and the search for a pure
// register permutation between two layouts (no data movement across threads).
//
//===----------------------------------------------------------------------===//
#ifndef MGP_CODEGEN_LLVM_ELEMENTINDICES_H
#define MGP_CODEGEN_LLVM_ELEMENTINDICES_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <optional>

namespace mgp {

class TargetInfo;

/// Registers per thread of a distributed tensor type.
unsigned getRegisterCount(mlir::RankedTensorType type);

/// (row, col) -> register of a 2-D distributed tensor `type`.
using RegisterTable = llvm::DenseMap<std::pair<int64_t, int64_t>, unsigned>;

/// The (row, col) each register of lane 0 / warp 0 holds, mapped to the
/// lowest register holding it (every other thread holds its own elements at
/// the same registers): how the dot lowerings find an operand or accumulator
/// fragment without assuming the layout.
RegisterTable getLane0RegisterTable(mlir::RankedTensorType type);

/// For each register of `type`, its coordinates (i32 values) in the tensor
/// for the thread with lane `laneId` and warp `warpId`.
llvm::SmallVector<llvm::SmallVector<mlir::Value>>
emitElementIndices(mlir::OpBuilder &b, mlir::Location loc,
                   mlir::RankedTensorType type, mlir::Value laneId,
                   mlir::Value warpId);

/// The row-major linear offset (i32) of `coords` in `shape`.
mlir::Value emitLinearOffset(mlir::OpBuilder &b, mlir::Location loc,
                             mlir::ValueRange coords,
                             llvm::ArrayRef<int64_t> shape);

/// Maps a coordinate of the destination tensor to the source coordinate it
/// reads.
using CoordMap =
    llvm::function_ref<llvm::SmallVector<int64_t>(llvm::ArrayRef<int64_t>)>;

/// If every thread holds, for each register of `dst`, the source element
/// `dstToSrc(coords)` in one of its own registers of `src` (the same register
/// for every lane and warp), returns that source register per destination
/// register; std::nullopt when data would have to move between threads.
std::optional<llvm::SmallVector<unsigned>>
findRegisterMapping(mlir::RankedTensorType src, mlir::RankedTensorType dst,
                    CoordMap dstToSrc);

/// The number of warps of the module around `op` (`mgp.num_warps`, default 4).
int getNumWarps(mlir::Operation *op);

/// The vector width of a memory access `op` on `type` (elements of
/// `memBits`): its `mgp.vector_width` (set by mgp-coalesce), kept only if
/// every group of that many registers is contiguous along one dim and fits
/// 128 bits; else smaller, down to 1.
unsigned getAccessVectorWidth(mlir::Operation *op, mlir::RankedTensorType type,
                              unsigned memBits);

/// `width` (a power of two), or less down to 1, such that every group of
/// that many registers of `type` is contiguous along one dim and fits 128
/// bits of `memBits` elements.
unsigned getRegisterGroupWidth(mlir::RankedTensorType type, unsigned width,
                               unsigned memBits);

} // namespace mgp

#endif // MGP_CODEGEN_LLVM_ELEMENTINDICES_H
