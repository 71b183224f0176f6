//===- StorageTypesTest.cpp - fp16/bf16 storage of graph values -----------===//
//
// This file implements the tests of graph/ir/StorageTypes.h: the host
// conversions fp32 -> fp16/bf16 against llvm::APFloat (round to nearest
// even, ties, subnormal halves, overflow, NaN) and back (exact), and the
// storage plan of ResNet18 (activations and rank >= 2 weights 16-bit,
// biases and the logits fp32).
//
//===----------------------------------------------------------------------===//

#include "graph/ir/StorageTypes.h"
#include "graph/ir/GraphParser.h"
#include "graph/passes/ShapeInference.h"
#include "tests/unit/support/APFloatReference.h"

#include "llvm/ADT/APFloat.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>

using namespace mgp;
using namespace mgp::graph;
using mgp::test::apfloatBits;
using mgp::test::apfloatValue;

namespace {

float fromBits(uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, 4);
  return value;
}

TEST(StorageTypes, ConversionsMatchAPFloat) {
  std::mt19937 gen(11);
  std::uniform_int_distribution<uint32_t> anyBits;
  std::uniform_real_distribution<float> normal(-70000.0f, 70000.0f);
  std::vector<float> values;
  for (int i = 0; i < 20000; ++i) {
    float v = normal(gen);
    values.push_back(v);
    values.push_back(v * 1e-9f); // subnormal halves and their rounding
    float bits = fromBits(anyBits(gen));
    if (!std::isnan(bits))
      values.push_back(bits);
  }
  // Ties: halfway between two halves (11 bits) or two bf16 (8 bits).
  for (float tie :
       {1.0f + 0x1p-11f, 1.0f + 3 * 0x1p-11f, 1.0f + 0x1p-8f,
        1.0f + 3 * 0x1p-8f, 0x1p-25f, 3 * 0x1p-25f, 65520.0f, 65519.0f,
        0x1p-14f - 0x1p-25f, INFINITY, -INFINITY, 0.0f, -0.0f})
    values.push_back(tie);
  for (auto [type, sem] : {std::pair{DType::F16, &llvm::APFloat::IEEEhalf()},
                           std::pair{DType::BF16, &llvm::APFloat::BFloat()}}) {
    std::vector<uint16_t> bits(values.size()), scalar(values.size());
    convertFromF32(values, type, bits.data());
    // Slices of 7 take the scalar path (F16C converts groups of 8).
    llvm::ArrayRef<float> all(values);
    for (size_t i = 0; i < values.size(); i += 7)
      convertFromF32(all.slice(i, std::min<size_t>(7, values.size() - i)), type,
                     scalar.data() + i);
    EXPECT_EQ(scalar, bits);
    std::vector<float> back(values.size());
    convertToF32(bits.data(), bits.size(), type, back.data());
    for (size_t i = 0; i < values.size(); ++i) {
      ASSERT_EQ(bits[i], apfloatBits(values[i], *sem))
          << dtypeName(type).str() << " of " << values[i];
      ASSERT_EQ(back[i], apfloatValue(bits[i], *sem)) << values[i];
    }
    uint16_t nan;
    convertFromF32({NAN}, type, &nan);
    float nanBack;
    convertToF32(&nan, 1, type, &nanBack);
    EXPECT_TRUE(std::isnan(nanBack));
  }
}

TEST(StorageTypes, HostBufferRoundTrip) {
  std::vector<float> values = {1.0f, -2.5f, 1.0f + 0x1p-11f, 3.14159f};
  HostBuffer f32 = HostBuffer::fromF32(values, DType::F32);
  EXPECT_EQ(f32.toF32(), values);
  HostBuffer half = HostBuffer::fromF32(values, DType::F16);
  ASSERT_EQ(half.size(), values.size());
  std::vector<float> back = half.toF32();
  for (size_t i = 0; i < values.size(); ++i)
    EXPECT_EQ(back[i],
              apfloatValue(apfloatBits(values[i], llvm::APFloat::IEEEhalf()),
                           llvm::APFloat::IEEEhalf()));
}

TEST(StorageTypes, ResNet18Plan) {
  auto parsed = parseGraphFile(MGP_SOURCE_DIR "/models/resnet18.graph");
  ASSERT_TRUE(bool(parsed)) << llvm::toString(parsed.takeError());
  Graph graph = std::move(*parsed);
  DimBindings bindings;
  bindings["H"] = 32;
  bindings["W"] = 32;
  ASSERT_FALSE(bool(inferShapes(graph, bindings)));
  EXPECT_EQ(activationType(Precision::FP16), DType::F16);
  EXPECT_EQ(activationType(Precision::BF16), DType::BF16);
  EXPECT_EQ(activationType(Precision::TF32), DType::F32);
  std::vector<DType> types = planStorageTypes(graph, DType::BF16);
  ASSERT_EQ(types.size(), graph.values.size());
  int weights = 0, vectors = 0, activations = 0;
  for (size_t v = 0; v < graph.values.size(); ++v) {
    const Value &value = graph.values[v];
    bool isOutput = llvm::is_contained(graph.outputs, int(v));
    if (value.kind == ValueKind::Param && value.shape.size() >= 2) {
      EXPECT_EQ(types[v], DType::BF16) << value.name;
      ++weights;
    } else if (value.kind == ValueKind::Param) {
      EXPECT_EQ(types[v], DType::F32) << value.name;
      ++vectors;
    } else if (isOutput) {
      EXPECT_EQ(types[v], DType::F32) << value.name;
    } else {
      EXPECT_EQ(types[v], DType::BF16) << value.name;
      ++activations;
    }
  }
  EXPECT_EQ(weights, 21); // 20 convolutions and the fc layer
  EXPECT_GT(vectors, 0);
  EXPECT_GT(activations, 0);
  for (DType t : planStorageTypes(graph, DType::F32))
    EXPECT_EQ(t, DType::F32);
}

} // namespace
