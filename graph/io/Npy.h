//===- Npy.h - NumPy .npy arrays --------------------------------*- C++ -*-===//
//
// This file implements the `.npy` format (versions 1 to 3): a reader that
// returns float32 or int64 arrays in C order with clear errors for any other
// dtype, Fortran order, a bad header or truncated data, and an atomic writer of
// float32 arrays (for logits other tools compare against).
//
//===----------------------------------------------------------------------===//

#ifndef MGP_GRAPH_NPY_H
#define MGP_GRAPH_NPY_H

#include "graph/ir/Tensor.h"

#include "llvm/Support/Error.h"

namespace mgp::graph {

/// Reads a little-endian float32 ('<f4') C-order array.
llvm::Expected<Tensor> readNpyFloat32(llvm::StringRef path);

/// Reads a little-endian int64 ('<i8') C-order array; `shape` gets its shape.
llvm::Expected<std::vector<int64_t>> readNpyInt64(llvm::StringRef path,
                                                  Shape &shape);

/// Writes `tensor` as a float32 .npy file, atomically.
llvm::Error writeNpy(llvm::StringRef path, const Tensor &tensor);

} // namespace mgp::graph

#endif // MGP_GRAPH_NPY_H
