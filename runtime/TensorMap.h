//===- TensorMap.h - TMA tensor maps of tiled tensor views ------*- C++ -*-===//
//
// This file declares the host side of TMA: a tiled view of a tensor in device
// memory (base, shape and strides in elements, outermost first; the block a
// load or store moves; zero or NaN for elements outside the tensor) checked
// against the hardware's rules and encoded as the 128-byte CUtensorMap that
// `cp.async.bulk.tensor` reads (cuTensorMapEncodeTiled: no interleave, no
// swizzle, the block row-major in shared memory, as mgp.tensor_map_load and
// _store expect it).
//
//===----------------------------------------------------------------------===//
#ifndef MGP_RUNTIME_TENSORMAP_H
#define MGP_RUNTIME_TENSORMAP_H

#include "compiler/api/DType.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>

namespace mgp {

/// The bytes of a CUtensorMap.
constexpr size_t kTensorMapBytes = 128;

/// A tiled view of a tensor in device memory.
struct TensorMapSpec {
  DType dtype = DType::F32;
  uint64_t base = 0;                ///< device address of element 0
  llvm::SmallVector<int64_t> shape; ///< elements per dimension, outermost first
  llvm::SmallVector<int64_t> strides; ///< in elements, outermost first
  llvm::SmallVector<int64_t> block;   ///< the box a load or store moves
  bool nanFill = false; ///< NaN (else zero) outside the tensor; floats only
};

/// Why `spec` cannot be a tensor map, or the empty string when it can: rank 1
/// to 5; block dimensions of 1 to 256 elements whose last one spans a
/// multiple of 16 bytes; a base aligned to 16 bytes; the last stride 1 and
/// every other a multiple of 16 bytes; shape dimensions of 1 to 2**32
/// elements; strides below 2**40 bytes; NaN fill for fp16, bf16, fp32 and
/// fp64 elements.
std::string whyNotTensorMap(const TensorMapSpec &spec);

/// Encodes `spec` (which must pass whyNotTensorMap) into `out`, 128 bytes
/// of host memory, through the CUDA driver.
llvm::Error encodeTensorMap(const TensorMapSpec &spec, void *out);

} // namespace mgp

#endif // MGP_RUNTIME_TENSORMAP_H
