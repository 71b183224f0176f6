//===- ReshapeEncoding.h - reshapes that only relabel registers -*- C++ -*-===//
//
// This file declares getReshapedEncoding: for a tensor in a blocked layout,
// the blocked layout of its row-major reshape in which every thread holds the
// same elements it held before, so that mgp.reshape is a register
// permutation (no shared memory), as Triton's linear layouts make a reshape
// of a suitable layout.
//
//===----------------------------------------------------------------------===//
#ifndef MGP_CODEGEN_GPU_RESHAPEENCODING_H
#define MGP_CODEGEN_GPU_RESHAPEENCODING_H

#include "compiler/ir/MgpDialect.h"
#include "mlir/IR/BuiltinTypes.h"

namespace mgp {

/// The blocked encoding of `dstShape` (same element count as `src`, every
/// dimension a power of two) whose threads hold the elements, matched by
/// row-major index, that they hold in `src`; null when `src` is not blocked,
/// replicates elements over lanes or warps, or no blocked encoding does it
/// (a dimension would need lanes, then registers, then lanes again, or lane
/// bits of two dimensions in an order no `order` gives).
BlockedEncodingAttr getReshapedEncoding(mlir::RankedTensorType src,
                                        llvm::ArrayRef<int64_t> dstShape);

/// The encoding of `expand_dims(src, axis = rank)` that keeps `src`'s
/// blocked layout and holds the new (last) dimension in each thread's
/// registers: sizePerThread 1, one lane and one warp along it, fastest in
/// `order`. A join's two halves (broadcast along it) then stay in the
/// threads that computed them. Null when `src` is not blocked.
BlockedEncodingAttr getInnerExpandedEncoding(mlir::RankedTensorType src);

} // namespace mgp

#endif // MGP_CODEGEN_GPU_RESHAPEENCODING_H
