//===- StorageTypes.cpp - fp32 / fp16 / bf16 storage of graph values ------===//
//
// This file implements the storage plan of StorageTypes.h and the host
// conversions of whole buffers: element by element through runtime/HalfFloat.h
// (round to nearest even, shared with the interpreter), fp32 -> fp16 with
// F16C where the CPU has it (the same rounding).
//
//===----------------------------------------------------------------------===//

#include "graph/ir/StorageTypes.h"

#include "graph/KernelLaunch.h"
#include "runtime/HalfFloat.h"
#include "runtime/interp/Numerics.h"

#include "llvm/Support/Parallel.h"

#include <algorithm>
#include <cstring>

using namespace mgp::graph;
using mgp::bf16BitsToFloat;
using mgp::DType;
using mgp::floatToBF16Bits;
using mgp::floatToHalfBits;
using mgp::halfBitsToFloat;

DType mgp::graph::activationType(Precision precision) {
  switch (precision) {
  case Precision::FP16:
    return DType::F16;
  case Precision::BF16:
    return DType::BF16;
  default:
    return DType::F32;
  }
}

std::vector<DType> mgp::graph::planStorageTypes(const Graph &graph,
                                                DType activation) {
  std::vector<DType> types(graph.values.size(), activation);
  for (int param : graph.params)
    if (graph.values[param].shape.size() < 2)
      types[param] = DType::F32;
  std::vector<bool> isOutput(graph.values.size(), false);
  for (int output : graph.outputs)
    isOutput[output] = true;
  // Nodes are in topological order: an alias takes its operand's type.
  for (const Node &node : graph.nodes) {
    if (node.op == OpKind::Flatten)
      types[node.result] = types[node.operands[0]];
    else if (isOutput[node.result])
      types[node.result] = DType::F32;
  }
  return types;
}

void mgp::graph::roundWeightsToTF32(const Graph &graph, WeightMap &weights) {
  for (int param : graph.params) {
    const Value &value = graph.values[param];
    if (value.shape.size() < 2)
      continue;
    auto it = weights.find(value.name);
    if (it == weights.end())
      continue;
    std::vector<float> &data = it->second.data;
    llvm::parallelFor(0, data.size(), [&](size_t i) {
      data[i] = interp::roundTF32(data[i]);
    });
  }
}

std::vector<unsigned> mgp::graph::elementBytes(llvm::ArrayRef<DType> types) {
  std::vector<unsigned> bytes;
  for (DType type : types)
    bytes.push_back(dtypeBytes(type));
  return bytes;
}

void mgp::graph::assignBufferTypes(std::vector<KernelLaunch> &launches,
                                   llvm::ArrayRef<DType> types) {
  for (KernelLaunch &launch : launches)
    for (LaunchParam &p : launch.params)
      if (p.kind == LaunchParam::Kind::Buffer ||
          (p.kind == LaunchParam::Kind::Workspace && p.value >= 0))
        p.type = types[p.value];
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>

/// fp32 -> fp16 with the F16C instruction (vcvtps2ph, round to nearest
/// even), 8 at a time; the tail through floatToHalfBits.
__attribute__((target("avx,f16c"))) static void
toHalfF16C(const float *in, uint16_t *out, size_t count) {
  size_t i = 0;
  for (; i + 8 <= count; i += 8) {
    __m128i half =
        _mm256_cvtps_ph(_mm256_loadu_ps(in + i), _MM_FROUND_TO_NEAREST_INT);
    _mm_storeu_si128(reinterpret_cast<__m128i *>(out + i), half);
  }
  for (; i < count; ++i)
    out[i] = floatToHalfBits(in[i]);
}

static bool hasF16C() {
  static const bool has = __builtin_cpu_supports("f16c");
  return has;
}
#endif

void mgp::graph::convertFromF32(llvm::ArrayRef<float> in, DType type,
                                uint16_t *out) {
  // Chunks of 1M elements on all cores: a batch-128 224x224 input (19M
  // elements) is converted before every gpu run.
  constexpr size_t kChunk = size_t(1) << 20;
  size_t chunks = (in.size() + kChunk - 1) / kChunk;
  llvm::parallelFor(0, chunks, [&](size_t chunk) {
    size_t begin = chunk * kChunk, end = std::min(in.size(), begin + kChunk);
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    if (type == DType::F16 && hasF16C()) {
      toHalfF16C(in.data() + begin, out + begin, end - begin);
      return;
    }
#endif
    if (type == DType::F16)
      for (size_t i = begin; i < end; ++i)
        out[i] = floatToHalfBits(in[i]);
    else
      for (size_t i = begin; i < end; ++i)
        out[i] = floatToBF16Bits(in[i]);
  });
}

void mgp::graph::convertToF32(const uint16_t *in, size_t count, DType type,
                              float *out) {
  if (type == DType::F16)
    for (size_t i = 0; i < count; ++i)
      out[i] = halfBitsToFloat(in[i]);
  else
    for (size_t i = 0; i < count; ++i)
      out[i] = bf16BitsToFloat(in[i]);
}

HostBuffer HostBuffer::fromF32(llvm::ArrayRef<float> values, DType type) {
  HostBuffer buffer(type, values.size());
  if (type == DType::F32)
    std::memcpy(buffer.f32.data(), values.data(), values.size() * 4);
  else
    convertFromF32(values, type, buffer.half.data());
  return buffer;
}

std::vector<float> HostBuffer::toF32() const {
  if (type == DType::F32)
    return f32;
  std::vector<float> out(half.size());
  convertToF32(half.data(), half.size(), type, out.data());
  return out;
}
