//===- Layout.h - what the layout encodings mean ----------------*- C++ -*-===//
//
// This file declares the meaning of the mgp layout encodings. A distributed
// encoding (#mgp.blocked, #mgp.slice, #mgp.mma, #mgp.dot_op) on a tensor of a
// given shape says which element each (register, lane, warp) of a CTA holds;
// that mapping is computed in ONE place, getLayoutBases(), and every other
// query here (and all lowering) derives from it. The mapping is linear over
// the bits of the register, lane and warp ids (Triton's LinearLayout,
// restricted to power-of-two shapes): the element of (reg, lane, warp) is the
// sum of the basis vectors of the set bits, each coordinate taken modulo the
// shape. A zero basis vector means replication (that bit does not change the
// element).
//
// Register order, per encoding (docs/dialect.md, notes/triton-lowering.md §1):
//  - blocked{S,T,W,O}: register = linearize(r, S, O) + prod(S) * linearize(k,
//    reps, O), where r is the position inside the thread's S-block, k the
//    repetition of the CTA tile S*T*W, O[0] fastest; lane = linearize(l, T, O),
//    warp = linearize(w, W, O). Dims smaller than the tile wrap (replicate).
//  - slice{d, P}: P's registers on the shape with a size-1 dim inserted at d,
//    minus those that step along d, in P's order; lanes and warps that step
//    along d in P hold the same elements (replicated).
//  - mma v2 (m16n8): 2 regs along N, then 2 along M (+8); lanes: t = lane%4
//    along N (x2), g = lane/4 along M; warps N-fastest (row-major); then tile
//    repetitions, N fastest. c0=(g,2t) c1=(g,2t+1) c2=(g+8,2t) c3=(g+8,2t+1).
//  - mma v3 (wgmma, instrShape [16,n,k]): like v2 with n/8 register groups
//  along
//    N inside the instruction; warps M-fastest (warpgroups stack along M).
//  - dot_op{opIdx, mma parent, kWidth}: kWidth regs along K, 4 lanes along K,
//    8 lanes along M (A) / N (B), 2 regs along M (A only), 2 regs along K, then
//    repetitions K-fastest; A is replicated over warps that differ in N, B over
//    those that differ in M. Tables: tf32 (kWidth 1) a0=(g,t) a1=(g+8,t)
//    a2=(g,t+4) a3=(g+8,t+4), b0=(t,g) b1=(t+4,g); f16 (kWidth 2) registers
//    are single elements: a0,a1=(g,2t..2t+1) a2,a3=(g+8,..) a4,a5=(g,2t+8..)
//    a6,a7=(g+8,2t+8..), b0,b1=(2t..2t+1,g) b2,b3=(2t+8..,g).
//  - dot_op{opIdx, blocked parent}: the thread holds its parent rows (A) or
//    columns (B) over ALL of K: registers are K first (fastest), then the
//    parent's registers along M (A) / N (B) in parent order; lanes and warps
//    are the parent's, replicated along the other parent dim.
//
//===----------------------------------------------------------------------===//
#ifndef MGP_IR_LAYOUT_H
#define MGP_IR_LAYOUT_H

#include "compiler/ir/MgpDialect.h"

#include "llvm/ADT/SmallVector.h"

#include <string>

namespace mgp {

/// True for #mgp.blocked, #mgp.slice, #mgp.mma and #mgp.dot_op.
bool isDistributedEncoding(mlir::Attribute encoding);

/// The tensor rank an encoding describes (shared: its order's rank).
unsigned getEncodingRank(mlir::Attribute encoding);

/// The linear map of a distributed encoding on one shape. Each basis vector
/// has one entry per dim; bit i of the register id contributes reg[i], etc.
/// Vectors are already reduced modulo the shape (zero = replication).
struct LayoutBases {
  llvm::SmallVector<llvm::SmallVector<int64_t>> reg, lane, warp;
  llvm::SmallVector<int64_t> shape;

  unsigned getNumRegs() const { return 1u << reg.size(); }
  unsigned getNumLanes() const { return 1u << lane.size(); }
  unsigned getNumWarps() const { return 1u << warp.size(); }
  /// The coordinates of the element of (reg, lane, warp).
  llvm::SmallVector<int64_t> apply(unsigned regId, unsigned laneId,
                                   unsigned warpId) const;
  /// For one thread (lane, warp): the coordinates held in each register.
  llvm::SmallVector<llvm::SmallVector<int64_t>>
  elementCoords(unsigned laneId, unsigned warpId) const;
};

/// THE layout function: the basis vectors of `encoding` on `shape` (every
/// dimension a power of two). All other queries derive from it.
LayoutBases getLayoutBases(mlir::Attribute encoding,
                           llvm::ArrayRef<int64_t> shape);

/// The coordinates of the element held in register `reg` of (lane, warp).
llvm::SmallVector<int64_t> coordsOf(mlir::Attribute encoding,
                                    llvm::ArrayRef<int64_t> shape, unsigned reg,
                                    unsigned lane, unsigned warp);

/// For one thread (lane, warp): the coordinates held in each register, indexed
/// by register (getTotalElemsPerThread entries).
llvm::SmallVector<llvm::SmallVector<int64_t>>
getElementCoords(mlir::Attribute encoding, llvm::ArrayRef<int64_t> shape,
                 unsigned lane, unsigned warp);

/// Registers per thread for a tensor of `shape` (replicated elements count).
unsigned getTotalElemsPerThread(mlir::Attribute encoding,
                                llvm::ArrayRef<int64_t> shape);

/// Per dim: how many consecutive elements (stride 1 along that dim) a thread
/// holds in registers; the vector width limit along the fastest dim.
llvm::SmallVector<unsigned> getContigPerThread(mlir::Attribute encoding,
                                               llvm::ArrayRef<int64_t> shape);

/// The dims, fastest-varying first (blocked: its order; slice: the parent's
/// without the sliced dim; mma: [1, 0]; dot_op: K first).
llvm::SmallVector<unsigned> getOrder(mlir::Attribute encoding);

/// Per dim, elements a thread holds in one CTA tile (blocked: sizePerThread;
/// mma v2: [2, 2]; dot_op/blocked: the parent's along M/N and 1 along K).
llvm::SmallVector<unsigned> getSizePerThread(mlir::Attribute encoding);

/// Per dim, distinct lanes along that dim (replicated lanes are not counted,
/// so the product can be below the warp size for slice and dot_op).
llvm::SmallVector<unsigned> getThreadsPerWarp(mlir::Attribute encoding);

/// Per dim, distinct warps along that dim (as getThreadsPerWarp).
llvm::SmallVector<unsigned> getWarpsPerCTA(mlir::Attribute encoding);

/// Per dim, the extent covered by one tile of all registers, lanes and warps
/// without repetition (blocked: S*T*W).
llvm::SmallVector<int64_t> getShapePerCTATile(mlir::Attribute encoding);

/// The lanes and warps the encoding assumes (2^number of lane/warp bits).
unsigned getNumLanes(mlir::Attribute encoding);
unsigned getNumWarps(mlir::Attribute encoding);

/// Bit masks of register, lane and warp id bits that do not change the
/// element on `shape` (replication); predicate stores on (id & mask) == 0.
struct BroadcastMasks {
  unsigned reg = 0, lane = 0, warp = 0;
};
BroadcastMasks getBroadcastMasks(mlir::Attribute encoding,
                                 llvm::ArrayRef<int64_t> shape);

/// Triton's BlockedEncodingAttr::get: walks the dims in `order` (fastest
/// first), giving each dim threads = clamp(remaining, 1, shape/sizePerThread),
/// lanes first, then warps; the slowest dim takes the remaining lanes/warps.
BlockedEncodingAttr getBlockedEncoding(mlir::MLIRContext *ctx,
                                       llvm::ArrayRef<int64_t> shape,
                                       llvm::ArrayRef<unsigned> sizePerThread,
                                       llvm::ArrayRef<unsigned> order,
                                       unsigned numWarps,
                                       unsigned threadsPerWarp = 32);

/// The default layout: order [rank-1, ..., 0], sizePerThread 1 except
/// `sizePerThreadFastest` along the fastest dim, then getBlockedEncoding.
BlockedEncodingAttr
getDefaultBlockedEncoding(mlir::MLIRContext *ctx, llvm::ArrayRef<int64_t> shape,
                          unsigned numWarps, unsigned threadsPerWarp = 32,
                          unsigned sizePerThreadFastest = 1);

/// `#mgp.slice<{dim, parent}>` (the layout of reduce(axis = dim) over parent).
SliceEncodingAttr getSliceEncoding(mlir::Attribute parent, unsigned dim);

/// `#mgp.dot_op<{opIdx, parent, kWidth}>` (kWidth is ignored for a blocked
/// parent, where the FMA path holds all of K per thread).
DotOperandEncodingAttr
getDotOperandEncoding(unsigned opIdx, mlir::Attribute parent, unsigned kWidth);

/// The shared layout that stages a dot operand of an mma parent (Triton's
/// SwizzledSharedEncodingAttr::get for dot operands, notes §1.5): `order` as
/// given; one 16-byte chunk per swizzle vector (vec = 128 / elemBits),
/// perPhase = max(1, 128 / row bytes), maxPhase = max(1, 8 / perPhase), so
/// the 8 rows an ldmatrix 8x8 matrix reads land in different bank groups.
SharedEncodingAttr getDotOperandSharedEncoding(mlir::MLIRContext *ctx,
                                               llvm::ArrayRef<int64_t> shape,
                                               llvm::ArrayRef<unsigned> order,
                                               unsigned elemBits);

/// The element offset of `coords` in a shared buffer of `shape` with the
/// swizzle of `encoding` (an optional leading dim indexes whole buffers):
/// phase = (row / perPhase) % maxPhase; col' = ((col / vec) ^ phase) * vec +
/// col % vec, rows and columns taken along `order`. With column blocks
/// (blockCols below the row length) column col is column col % blockCols of
/// block col / blockCols, each block a [rows, blockCols] buffer in turn.
int64_t getSharedOffset(SharedEncodingAttr encoding,
                        llvm::ArrayRef<int64_t> shape,
                        llvm::ArrayRef<int64_t> coords);

/// One line per element, `[i, j]: (w W, l L, r R) ...` listing every owner;
/// for debugging and tests.
std::string dumpLayout(mlir::Attribute encoding, llvm::ArrayRef<int64_t> shape);

} // namespace mgp

#endif // MGP_IR_LAYOUT_H
