//===- AsyncCopyWidth.h - elements per cp.async -----------------*- C++ -*-===//
//
// How many elements one `cp.async` of mgp.async_copy_global_to_local moves:
// shared by the pipeliner (which copies only loads with a legal width) and the
// lowering (which emits one copy per group of that many registers).
//
//===----------------------------------------------------------------------===//
#ifndef MGP_CODEGEN_GPU_ASYNCCOPYWIDTH_H
#define MGP_CODEGEN_GPU_ASYNCCOPYWIDTH_H

#include "compiler/ir/MgpDialect.h"

#include "mlir/IR/BuiltinTypes.h"

namespace mgp {

/// The elements per copy for pointers `ptrType` (a distributed layout) into
/// `dst`, starting from the coalescing pass's `vectorWidth`: each group of
/// that many consecutive registers must be consecutive along the buffer's
/// contiguous dim, fit in one swizzle chunk (`vec`) when the buffer is
/// swizzled, and move 4, 8 or 16 bytes. Returns 0 when no width is legal
/// (fewer than 4 bytes).
unsigned getAsyncCopyWidth(mlir::RankedTensorType ptrType, MemDescType dst,
                           unsigned vectorWidth);

} // namespace mgp

#endif // MGP_CODEGEN_GPU_ASYNCCOPYWIDTH_H
