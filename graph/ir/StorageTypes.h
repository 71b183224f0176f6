//===- StorageTypes.h - fp32 / fp16 / bf16 storage of graph values -*- C++
//-*-===//
//
// This file implements how the kernel backends store each value of a graph
// under --precision fp16|bf16: activations (the graph's inputs and node
// results) and the weights of convolutions and linear layers (parameters of
// rank >= 2) in the 16-bit type, biases and other rank-1 parameters in fp32,
// graph outputs (the logits) in fp32 unless they alias another value (a
// flatten), and the host conversions between fp32 and fp16/bf16 (round to
// nearest even, as cvt.rn does).
//
//===----------------------------------------------------------------------===//

#ifndef MGP_GRAPH_STORAGETYPES_H
#define MGP_GRAPH_STORAGETYPES_H

#include "graph/Backend.h"
#include "graph/ir/Graph.h"
#include "graph/ir/Tensor.h"

#include "compiler/api/DType.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <vector>

namespace mgp::graph {

/// The type of activations at `precision`: fp16/bf16 for those, else fp32.
DType activationType(Precision precision);

/// The storage type of every value of `graph` (indexed like graph.values)
/// when activations are `activation`.
std::vector<DType> planStorageTypes(const Graph &graph, DType activation);

/// --precision tf32: the weights of convolutions and linear layers
/// (parameters of `graph` of rank >= 2) rounded to tf32 in place, to nearest
/// with ties away from zero (interp::roundTF32). wgmma reads tf32 operands
/// from shared memory and drops the low 13 bits instead of rounding, so the
/// GPU backend rounds what its dots read before they read it: weights here,
/// activations in the kernels (LaunchOptions::roundTF32).
void roundWeightsToTF32(const Graph &graph, WeightMap &weights);

/// dtypeBytes of each of `types` (for planMemory and planArena).
std::vector<unsigned> elementBytes(llvm::ArrayRef<DType> types);

struct KernelLaunch;

/// Sets the type of every buffer parameter of `launches` from `types` (as
/// planStorageTypes gives them), and of every workspace that follows a value
/// (LaunchParam::value), so the signatures name the 16-bit pointers.
void assignBufferTypes(std::vector<KernelLaunch> &launches,
                       llvm::ArrayRef<DType> types);

/// fp32 -> fp16 / bf16 bits, rounded to nearest even (NaN stays NaN,
/// overflow gives inf); `out` holds `in.size()` elements.
void convertFromF32(llvm::ArrayRef<float> in, DType type, uint16_t *out);
/// fp16 / bf16 bits -> fp32 (exact).
void convertToF32(const uint16_t *in, size_t count, DType type, float *out);

/// One buffer of a value on the host: fp32 elements or 16-bit bits.
struct HostBuffer {
  DType type = DType::F32;
  std::vector<float> f32;
  std::vector<uint16_t> half;

  HostBuffer() = default;
  HostBuffer(DType type, size_t count) : type(type) {
    if (type == DType::F32)
      f32.resize(count);
    else
      half.resize(count);
  }
  /// `values` stored as `type` (converted when 16-bit).
  static HostBuffer fromF32(llvm::ArrayRef<float> values, DType type);
  size_t size() const { return type == DType::F32 ? f32.size() : half.size(); }
  void *data() {
    return type == DType::F32 ? static_cast<void *>(f32.data())
                              : static_cast<void *>(half.data());
  }
  /// The elements as fp32.
  std::vector<float> toF32() const;
};

} // namespace mgp::graph

#endif // MGP_GRAPH_STORAGETYPES_H
