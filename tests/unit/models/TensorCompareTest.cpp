//===- TensorCompareTest.cpp - a NaN in a model output fails its test -----===//
//
// The model tests' relativeError (tests/unit/support/TensorCompare.h) on a
// real output: the reference executor's logits for the small test graph,
// compared with themselves (no error) and with copies where one logit is
// NaN or +Inf, which must fail the test with the logit's position whatever
// the tolerance, as std::max would not.
//
//===----------------------------------------------------------------------===//
#include "graph/Backend.h"
#include "graph/ir/GraphParser.h"
#include "graph/passes/ShapeInference.h"
#include "graph/io/WeightInit.h"
#include "tests/unit/support/TensorCompare.h"

#include "gtest/gtest-spi.h"
#include "gtest/gtest.h"

#include <cmath>
#include <limits>

using namespace mgp::graph;
using mgp::test::relativeError;

namespace {

/// The reference executor's logits of tests/lit/models/Inputs/tiny.graph.
Tensor tinyLogits() {
  auto parsed =
      parseGraphFile(MGP_SOURCE_DIR "/tests/lit/models/Inputs/tiny.graph");
  EXPECT_TRUE(bool(parsed)) << llvm::toString(parsed.takeError());
  EXPECT_FALSE(bool(inferShapes(*parsed, DimBindings())));
  WeightMap weights = initWeights(*parsed, 5);
  Tensor x = randomNormalTensor(parsed->values[parsed->inputs[0]].shape, 6);
  auto reference = createReferenceBackend(BackendOptions());
  EXPECT_FALSE(bool(reference->prepare(*parsed, weights)));
  auto out = reference->run(x);
  EXPECT_TRUE(bool(out)) << llvm::toString(out.takeError());
  return out->front();
}

TEST(TensorCompareTest, IdenticalOutputsHaveNoError) {
  Tensor want = tinyLogits();
  EXPECT_EQ(relativeError(want, want), 0.0);
}

TEST(TensorCompareTest, NaNPlantedInAModelOutputFails) {
  Tensor want = tinyLogits();
  Tensor got = want;
  got.data[2] = std::numeric_limits<float>::quiet_NaN();
  double error = 0;
  EXPECT_NONFATAL_FAILURE(error = relativeError(got, want), "NaN at [2]");
  EXPECT_TRUE(std::isinf(error)) << "no tolerance may accept it";
}

TEST(TensorCompareTest, InfPlantedInAModelOutputFails) {
  Tensor want = tinyLogits();
  Tensor got = want;
  got.data[1] = std::numeric_limits<float>::infinity();
  double error = 0;
  EXPECT_NONFATAL_FAILURE(error = relativeError(got, want), "+Inf at [1]");
  EXPECT_TRUE(std::isinf(error));
}

} // namespace
