//===- Tensor.h - Host tensors of float32 -----------------------*- C++ -*-===//
//
// This file implements the host-side tensor every part of the model code
// exchanges: a float32 array in C (row-major, NCHW for activations) order with
// its shape, plus the map from parameter names to tensors that holds weights.
//
//===----------------------------------------------------------------------===//

#ifndef MGP_GRAPH_TENSOR_H
#define MGP_GRAPH_TENSOR_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mgp::graph {

/// A concrete shape, outermost dimension first.
using Shape = std::vector<int64_t>;

/// The number of elements of `shape` (1 for a scalar).
inline int64_t numElements(llvm::ArrayRef<int64_t> shape) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

/// The bytes of a tensor of `shape` with `elemSize`-byte elements, or -1 when
/// that overflows (a shape read from a file may be anything).
inline int64_t checkedByteSize(llvm::ArrayRef<int64_t> shape,
                               int64_t elemSize) {
  int64_t bytes = elemSize;
  for (int64_t d : shape)
    if (d < 0 || __builtin_mul_overflow(bytes, d, &bytes))
      return -1;
  return bytes;
}

/// Formats a shape as `[1,3,224,224]`.
std::string formatShape(llvm::ArrayRef<int64_t> shape);

/// A float32 tensor in C order.
struct Tensor {
  Shape shape;
  std::vector<float> data;

  Tensor() = default;
  explicit Tensor(Shape s) : shape(std::move(s)), data(numElements(shape)) {}
  int64_t size() const { return static_cast<int64_t>(data.size()); }
};

/// Parameters by name (torchvision state_dict names).
using WeightMap = llvm::StringMap<Tensor>;

} // namespace mgp::graph

#endif // MGP_GRAPH_TENSOR_H
