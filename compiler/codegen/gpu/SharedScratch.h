//===- SharedScratch.h - shared-memory scratch of ops -----------*- C++ -*-===//
//
// This file declares how much shared memory an op needs for itself
// (scratch) and how that scratch is laid out. The allocator
// (mgp-allocate-shared) and the LLVM lowering both include it, so the sizes
// they use and the addresses the lowering computes always agree.
//
//  - mgp.convert_layout between distributed layouts needs scratch unless every
//    thread already holds the elements its destination registers want
//    (a register reindexing). The scratch holds the whole tensor row-major
//    (last dim fastest) with each row padded to `rowStride` elements, so that
//    column-wise accesses of a transposing conversion spread across banks.
//  - mgp.reduce needs scratch when more than one warp holds elements along the
//    reduced axis: for each operand k, in operand order, a region of
//    warpsAlongAxis x numResultElements elements of operand k's type; element
//    (warp w along the axis, result element i in row-major order of the result
//    shape; 0 for a scalar result) is at index w * numResultElements + i.
//    Each region starts at a multiple of kSharedAlignment.
//  - mgp.scan needs the same regions as a reduce along its axis when more
//    than one warp holds the axis: each warp's running total per line.
//  - mgp.reshape whose elements are not where the result layout wants them
//    (not a register permutation) needs the whole tensor, row-major and
//    unpadded: the element with row-major index i at element i.
//  - mgp.gather needs its whole source, row-major and unpadded, as reshape.
//  - mgp.tensor_map_load needs the block row-major and unpadded (TMA's box
//    without swizzle) from byte 0, then its mbarrier (8 bytes) at the next
//    multiple of 16; mgp.tensor_map_store the block alone. Both start at a
//    multiple of kTensorMapAlignment.
//  - mgp.atomic_rmw / atomic_cas whose old values are used need, when the
//    value is a scalar or its layout replicates elements, the whole result
//    row-major (owners write what the atomic returned, everyone reads).
//
//===----------------------------------------------------------------------===//
#ifndef MGP_CODEGEN_GPU_SHAREDSCRATCH_H
#define MGP_CODEGEN_GPU_SHAREDSCRATCH_H

#include "compiler/ir/MgpDialect.h"

#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace mgp {

/// Every buffer and scratch region starts at a multiple of this many bytes.
constexpr int64_t kSharedAlignment = 16;

/// Where a TMA copy's shared memory starts: a multiple of this many bytes.
constexpr int64_t kTensorMapAlignment = 128;

/// The byte alignment of the scratch of `op` (kSharedAlignment but for
/// tensor-map copies).
int64_t getScratchAlignment(mlir::Operation *op);

/// The bytes of a tensor-map block of `type` in shared memory (row-major,
/// unpadded; the mbarrier of a load follows at the next multiple of 16).
int64_t getTensorMapBlockBytes(mlir::RankedTensorType type);

/// The shared memory op `op` uses for itself, in bytes (0: none). The one
/// function both the allocator and the lowering ask.
int64_t getScratchSizeInBytes(mlir::Operation *op);

/// The bytes of a shared buffer of type `type` (no padding).
int64_t getBufferSizeInBytes(MemDescType type);

/// The mgp.local_alloc a memdesc value views (through memdesc_subviews: a
/// slot's whole multi-buffer, and memdesc_trans), or null when it cannot be
/// traced.
LocalAllocOp getBufferAllocation(mlir::Value memdesc);

/// Whether converting `src` to `dst` moves elements between threads (and so
/// goes through shared memory); false when each thread of `dst` finds all of
/// its elements in its own `src` registers, in the same registers for every
/// thread (the lowering's register permutation is thread-independent).
bool convertNeedsSharedMemory(mlir::RankedTensorType src,
                              mlir::RankedTensorType dst);

/// Whether reshaping `src` into `dst` (elements matched by row-major index)
/// moves elements between threads, as convertNeedsSharedMemory.
bool reshapeNeedsSharedMemory(mlir::RankedTensorType src,
                              mlir::RankedTensorType dst);

/// The scratch layout of a convert_layout through shared memory.
struct ConvertScratchLayout {
  llvm::SmallVector<int64_t> shape; ///< the tensor shape
  int64_t rowStride = 0;            ///< elements between rows (last dim padded)
  int64_t elemBytes = 0;            ///< bytes per element (pointers: 8, i1: 1)

  /// Element index (not bytes) of the tensor element at `coords`.
  int64_t getOffset(llvm::ArrayRef<int64_t> coords) const;
  /// Bytes the scratch occupies.
  int64_t getSizeInBytes() const;
};

/// The scratch layout of converting `src` to `dst`: row-major over the shape,
/// each row (last dim) padded by max(1, src and dst contiguous elements per
/// thread along the last dim) elements for rank >= 2; unpadded for rank 1.
ConvertScratchLayout getConvertScratchLayout(mlir::RankedTensorType src,
                                             mlir::RankedTensorType dst);

/// The scratch layout of a convert_layout whose source and destination hold
/// some elements in the same registers' pattern: where the padded row-major
/// scratch would take more accesses (a transposing conversion leaves one side
/// to single elements), the element offset is instead a GF(2)-linear map of the
/// coordinate bits (as Triton's linear layouts do). Its lowest bits are
/// `vector` elements that both sides hold in registers (their bases are
/// register bases of both layouts), so each thread stores and loads whole
/// `vector`-element runs; the next bits are the source's first lanes (the lanes
/// of one shared-memory access phase fall into distinct banks), the rest the
/// remaining coordinate bits in the destination's order, with the destination's
/// first lanes also XORed into the bank bits (its phase is conflict-free too).
/// No padding: the scratch holds exactly the tensor.
struct VectorScratchLayout {
  unsigned vector = 0;   ///< elements per access (a power of two >= 2)
  int64_t elemBytes = 0; ///< bytes per element (pointers: 8, i1: 1)
  int64_t numElements = 0;
  /// Per dim, per coordinate bit (value 1 << i): the offset bits it XORs in.
  llvm::SmallVector<llvm::SmallVector<int64_t>> bitOffsets;
  /// The register bits of the source and of the destination whose bases make
  /// up a vector, element bit j first (element j of a run is the register
  /// with bit srcVectorBits[k] set for each set bit k of j).
  llvm::SmallVector<unsigned> srcVectorBits, dstVectorBits;

  /// Element index of the tensor element at `coords` (XOR of bitOffsets).
  int64_t getOffset(llvm::ArrayRef<int64_t> coords) const;
  int64_t getSizeInBytes() const { return numElements * elemBytes; }
};

/// The vector scratch layout of converting `src` to `dst`, or none where the
/// padded row-major one serves: both layouts must map their register, lane
/// and warp bits one-to-one onto the coordinate bits (the source with no
/// replicated lanes or warps) and share register bases, and the runs those
/// give must take fewer accesses than the padded layout's (each side's
/// contiguous elements along the last dim): 2 / vector < 1 / srcRun +
/// 1 / dstRun.
std::optional<VectorScratchLayout>
getVectorScratchLayout(mlir::RankedTensorType src, mlir::RankedTensorType dst);

/// The number of distinct warps holding elements along `axis` of a tensor of
/// `type` (warps that only replicate data do not count).
unsigned getReduceWarpsAlongAxis(mlir::RankedTensorType type, unsigned axis);

/// The byte offset of operand `index`'s region inside a reduce's scratch.
int64_t getReduceScratchOperandOffset(ReduceOp reduce, unsigned index);

/// The byte offset of operand `index`'s region inside a scan's scratch.
int64_t getScanScratchOperandOffset(ScanOp scan, unsigned index);

/// Whether an atomic's old values must be shared through scratch: they are
/// used and the op is on a scalar or a layout that replicates elements.
bool atomicNeedsScratch(mlir::Operation *op);

/// The scratch of an atomic (0 unless atomicNeedsScratch): its result
/// row-major.
int64_t getAtomicScratchSizeInBytes(mlir::Operation *op);

} // namespace mgp

#endif // MGP_CODEGEN_GPU_SHAREDSCRATCH_H
