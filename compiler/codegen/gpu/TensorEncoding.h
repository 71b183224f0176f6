//===- TensorEncoding.h - encodings on tensor types -------------*- C++ -*-===//
//
// This file declares the small helpers the GPU passes share to read the
// module's warp configuration and to put an encoding on a tensor type.
//
//===----------------------------------------------------------------------===//
#ifndef MGP_CODEGEN_GPU_TENSORENCODING_H
#define MGP_CODEGEN_GPU_TENSORENCODING_H

#include "compiler/ir/MgpDialect.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Operation.h"

namespace mgp {

/// `mgp.num_warps` of the module around (or at) `op`; 4 when absent.
unsigned getModuleNumWarps(mlir::Operation *op);
/// `mgp.threads_per_warp` of the module around (or at) `op`; 32 when absent.
unsigned getModuleThreadsPerWarp(mlir::Operation *op);

/// `type` (a ranked tensor) with encoding `encoding`.
mlir::RankedTensorType withEncoding(mlir::Type type, mlir::Attribute encoding);

/// The encoding of mgp.trans(x, `perm`) for x in `blocked`: its dims
/// permuted (a register relabelling, no data moves).
BlockedEncodingAttr getTransposedEncoding(BlockedEncodingAttr blocked,
                                          llvm::ArrayRef<int32_t> perm);

} // namespace mgp

#endif // MGP_CODEGEN_GPU_TENSORENCODING_H
