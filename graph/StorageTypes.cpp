//===- StorageTypes.cpp - fp32 / fp16 / bf16 storage of graph values ------===//
//
// This file implements the storage plan of StorageTypes.h and the host
// conversions. fp32 -> fp16 rounds the 24-bit significand to 11 bits (fewer
// for subnormal halves) to nearest even on the bit pattern; fp32 -> bf16
// rounds the low 16 bits away to nearest even.
//
//===----------------------------------------------------------------------===//

#include "graph/StorageTypes.h"

#include "graph/KernelLaunch.h"

#include "llvm/Support/Parallel.h"

#include <algorithm>
#include <cstring>

using namespace mgp::graph;

llvm::StringRef mgp::graph::storageTypeName(StorageType type) {
  switch (type) {
  case StorageType::F32:
    return "fp32";
  case StorageType::F16:
    return "fp16";
  case StorageType::BF16:
    return "bf16";
  }
  llvm_unreachable("unknown storage type");
}

unsigned mgp::graph::storageBytes(StorageType type) {
  return type == StorageType::F32 ? 4 : 2;
}

StorageType mgp::graph::activationType(Precision precision) {
  switch (precision) {
  case Precision::FP16:
    return StorageType::F16;
  case Precision::BF16:
    return StorageType::BF16;
  default:
    return StorageType::F32;
  }
}

std::vector<StorageType> mgp::graph::planStorageTypes(const Graph &graph,
                                                      StorageType activation) {
  std::vector<StorageType> types(graph.values.size(), activation);
  for (int param : graph.params)
    if (graph.values[param].shape.size() < 2)
      types[param] = StorageType::F32;
  std::vector<bool> isOutput(graph.values.size(), false);
  for (int output : graph.outputs)
    isOutput[output] = true;
  // Nodes are in topological order: an alias takes its operand's type.
  for (const Node &node : graph.nodes) {
    if (node.op == OpKind::Flatten)
      types[node.result] = types[node.operands[0]];
    else if (isOutput[node.result])
      types[node.result] = StorageType::F32;
  }
  return types;
}

std::vector<unsigned>
mgp::graph::elementBytes(llvm::ArrayRef<StorageType> types) {
  std::vector<unsigned> bytes;
  for (StorageType type : types)
    bytes.push_back(storageBytes(type));
  return bytes;
}

void mgp::graph::assignBufferTypes(std::vector<KernelLaunch> &launches,
                                   llvm::ArrayRef<StorageType> types) {
  for (KernelLaunch &launch : launches)
    for (LaunchParam &p : launch.params)
      if (p.kind == LaunchParam::Kind::Buffer)
        p.type = types[p.value];
}

static uint32_t bitsOf(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, 4);
  return bits;
}

static float floatOf(uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, 4);
  return value;
}

static uint16_t toHalf(float value) {
  uint32_t x = bitsOf(value);
  uint16_t sign = static_cast<uint16_t>((x >> 16) & 0x8000u);
  uint32_t abs = x & 0x7fffffffu;
  if (abs > 0x7f800000u)
    return sign | 0x7e00u; // NaN
  if (abs >= 0x477ff000u)
    return sign | 0x7c00u; // >= 65520 (and inf) round to inf
  if (abs < 0x38800000u) {
    // Below 2^-14: a subnormal half, in units of 2^-24. The implicit bit
    // joins the significand, which is shifted right by 14 + (113 - exp).
    if (abs < 0x33000000u)
      return sign; // below 2^-25: rounds to zero (2^-25 itself ties to 0)
    uint32_t exp = abs >> 23;
    uint32_t mant = (abs & 0x7fffffu) | 0x800000u;
    uint32_t shift = 126 - exp; // value / 2^-24 = mant * 2^(exp - 126)
    uint32_t half = mant >> shift;
    uint32_t rest = mant & ((1u << shift) - 1);
    uint32_t halfway = 1u << (shift - 1);
    if (rest > halfway || (rest == halfway && (half & 1u)))
      ++half;
    return sign | static_cast<uint16_t>(half);
  }
  uint32_t half = ((abs >> 23) - 112) << 10 | ((abs >> 13) & 0x3ffu);
  uint32_t rest = abs & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (half & 1u)))
    ++half; // a carry into the exponent is the right answer
  return sign | static_cast<uint16_t>(half);
}

static uint16_t toBF16(float value) {
  uint32_t x = bitsOf(value);
  if ((x & 0x7fffffffu) > 0x7f800000u)
    return static_cast<uint16_t>(((x >> 16) & 0x8000u) | 0x7fc0u);
  x += 0x7fffu + ((x >> 16) & 1u);
  return static_cast<uint16_t>(x >> 16);
}

static float fromHalf(uint16_t h) {
  uint32_t sign = uint32_t(h & 0x8000u) << 16;
  uint32_t exp = (h >> 10) & 0x1fu;
  uint32_t mant = h & 0x3ffu;
  if (exp == 0) {
    float magnitude = static_cast<float>(mant) * 0x1p-24f; // exact
    return floatOf(sign | bitsOf(magnitude));
  }
  if (exp == 31)
    return floatOf(sign | 0x7f800000u | (mant << 13));
  return floatOf(sign | ((exp + 112) << 23) | (mant << 13));
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>

/// fp32 -> fp16 with the F16C instruction (vcvtps2ph, round to nearest
/// even), 8 at a time; the tail through toHalf.
__attribute__((target("avx,f16c"))) static void
toHalfF16C(const float *in, uint16_t *out, size_t count) {
  size_t i = 0;
  for (; i + 8 <= count; i += 8) {
    __m128i half =
        _mm256_cvtps_ph(_mm256_loadu_ps(in + i), _MM_FROUND_TO_NEAREST_INT);
    _mm_storeu_si128(reinterpret_cast<__m128i *>(out + i), half);
  }
  for (; i < count; ++i)
    out[i] = toHalf(in[i]);
}

static bool hasF16C() {
  static const bool has = __builtin_cpu_supports("f16c");
  return has;
}
#endif

void mgp::graph::convertFromF32(llvm::ArrayRef<float> in, StorageType type,
                                uint16_t *out) {
  // Chunks of 1M elements on all cores: a batch-128 224x224 input (19M
  // elements) is converted before every gpu run.
  constexpr size_t kChunk = size_t(1) << 20;
  size_t chunks = (in.size() + kChunk - 1) / kChunk;
  llvm::parallelFor(0, chunks, [&](size_t chunk) {
    size_t begin = chunk * kChunk, end = std::min(in.size(), begin + kChunk);
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    if (type == StorageType::F16 && hasF16C()) {
      toHalfF16C(in.data() + begin, out + begin, end - begin);
      return;
    }
#endif
    if (type == StorageType::F16)
      for (size_t i = begin; i < end; ++i)
        out[i] = toHalf(in[i]);
    else
      for (size_t i = begin; i < end; ++i)
        out[i] = toBF16(in[i]);
  });
}

void mgp::graph::convertToF32(const uint16_t *in, size_t count,
                              StorageType type, float *out) {
  if (type == StorageType::F16)
    for (size_t i = 0; i < count; ++i)
      out[i] = fromHalf(in[i]);
  else
    for (size_t i = 0; i < count; ++i)
      out[i] = floatOf(uint32_t(in[i]) << 16);
}

HostBuffer HostBuffer::fromF32(llvm::ArrayRef<float> values, StorageType type) {
  HostBuffer buffer(type, values.size());
  if (type == StorageType::F32)
    std::memcpy(buffer.f32.data(), values.data(), values.size() * 4);
  else
    convertFromF32(values, type, buffer.half.data());
  return buffer;
}

std::vector<float> HostBuffer::toF32() const {
  if (type == StorageType::F32)
    return f32;
  std::vector<float> out(half.size());
  convertToF32(half.data(), half.size(), type, out.data());
  return out;
}
