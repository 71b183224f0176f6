//===- ResNet18Test.cpp - ResNet18 end to end on the reference ------------===//
//
// This file implements the end-to-end test: ResNet18 at batch 1, 32x32, with
// seeded weights and input, run twice on the reference executor, must give
// identical, finite, non-constant logits; a different seed must change them.
//
//===----------------------------------------------------------------------===//

#include "graph/Backend.h"
#include "graph/ir/GraphParser.h"
#include "graph/passes/ShapeInference.h"
#include "graph/io/WeightInit.h"

#include "gtest/gtest.h"

#include <cmath>

using namespace mgp::graph;

namespace {

Tensor runResNet18(uint64_t seed) {
  auto parsed = parseGraphFile(MGP_SOURCE_DIR "/models/resnet18.graph");
  EXPECT_TRUE(bool(parsed)) << llvm::toString(parsed.takeError());
  Graph graph = std::move(*parsed);
  DimBindings bindings;
  bindings["H"] = 32;
  bindings["W"] = 32;
  EXPECT_FALSE(bool(inferShapes(graph, bindings)));
  WeightMap weights = initWeights(graph, seed);
  Tensor input = randomNormalTensor(graph.values[graph.inputs[0]].shape, seed);
  auto backend = createBackend("reference", BackendOptions());
  EXPECT_TRUE(bool(backend));
  EXPECT_FALSE(bool((*backend)->prepare(graph, weights)));
  auto outputs = (*backend)->run(input);
  EXPECT_TRUE(bool(outputs)) << llvm::toString(outputs.takeError());
  return outputs->front();
}

TEST(ResNet18Test, DeterministicFiniteLogits) {
  Tensor first = runResNet18(1);
  Tensor second = runResNet18(1);
  ASSERT_EQ(first.shape, (Shape{1, 1000}));
  EXPECT_EQ(first.data, second.data);
  float lo = first.data[0], hi = first.data[0];
  for (float v : first.data) {
    ASSERT_TRUE(std::isfinite(v));
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  EXPECT_GT(hi - lo, 1e-3f);
  EXPECT_NE(runResNet18(2).data, first.data);
}

TEST(ResNet18Test, OtherDevicesAreNotAvailableYet) {
  for (const char *device : {"cpu", "gpu"}) {
    auto backend = createBackend(device, BackendOptions());
    ASSERT_FALSE(bool(backend));
    EXPECT_NE(llvm::toString(backend.takeError()).find("is not available yet"),
              std::string::npos);
  }
  auto unknown = createBackend("tpu", BackendOptions());
  ASSERT_FALSE(bool(unknown));
  EXPECT_NE(llvm::toString(unknown.takeError()).find("unknown device 'tpu'"),
            std::string::npos);
  BackendOptions tf32;
  tf32.precision = Precision::TF32;
  auto reference = createBackend("reference", tf32);
  ASSERT_TRUE(bool(reference));
  Graph empty;
  llvm::Error error = (*reference)->prepare(empty, WeightMap());
  ASSERT_TRUE(bool(error));
  EXPECT_NE(llvm::toString(std::move(error)).find("fp32 only"),
            std::string::npos);
}

} // namespace
