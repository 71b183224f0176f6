//===- Tf32BudgetTest.cpp - The tf32 error ResNet18 should show -----------===//
//
// This file implements the measurement behind the tolerance of the GPU test
// GpuBackendTest.ResNet18Tf32MatchesReference: the same network, batch,
// size and seeds (ResNet18, batch 2, 64x64, weights seed 7, input seed 11,
// and two more seed pairs for the spread) on the `cpu` device, whose
// interpreter rounds every tf32 dot input as cvt.rna.tf32.f32 does (the
// mma.sync path rounds its operands the same way), against the reference
// executor (double accumulation). fp32 on the same kernels is the control:
// the tf32 error must be well above it (the rounding ran) and within the
// budget the GPU test allows.
//
//===----------------------------------------------------------------------===//

#include "graph/backends/cpu/CpuBackend.h"
#include "graph/ir/GraphParser.h"
#include "graph/passes/ShapeInference.h"
#include "graph/io/WeightInit.h"

#include "ModelTestSupport.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstdio>

using namespace mgp::graph;
using namespace mgp::graph::modeltest;

namespace {

/// The GPU test's tolerance (tests/unit/models/GpuBackendTest.cpp).
constexpr double kGpuTf32Tolerance = 3e-3;

/// max |got - want| / max |want| of ResNet18's logits on the cpu device at
/// `precision` against the reference executor.
double resnet18Error(Precision precision, uint64_t weightSeed,
                     uint64_t inputSeed) {
  Graph graph = resnet18(2, 64);
  WeightMap weights = initWeights(graph, weightSeed);
  Tensor x = randomNormalTensor(graph.values[graph.inputs[0]].shape, inputSeed);
  auto reference = createReferenceBackend(BackendOptions());
  EXPECT_FALSE(bool(reference->prepare(graph, weights)));
  auto want = reference->run(x);
  EXPECT_TRUE(bool(want)) << llvm::toString(want.takeError());
  BackendOptions options;
  options.precision = precision;
  auto cpu = createCpuBackend(options);
  auto got = prepareAndRun(*cpu, graph, weights, x);
  return got ? relativeError(got->front(), want->front()) : INFINITY;
}

TEST(Tf32Budget, ResNet18ErrorIsWithinTheGpuTestsTolerance) {
  const std::pair<uint64_t, uint64_t> seeds[] = {{7, 11}, {5, 13}, {3, 17}};
  for (auto [weightSeed, inputSeed] : seeds) {
    SCOPED_TRACE("weights seed " + std::to_string(weightSeed) +
                 ", input seed " + std::to_string(inputSeed));
    double fp32 = resnet18Error(Precision::FP32, weightSeed, inputSeed);
    double tf32 = resnet18Error(Precision::TF32, weightSeed, inputSeed);
    std::printf("seeds %2d/%2d: relative error fp32 %.3g, tf32 (rna) %.3g\n",
                int(weightSeed), int(inputSeed), fp32, tf32);
    EXPECT_LT(fp32, 1e-5);
    EXPECT_GT(tf32, 10 * fp32) << "the tf32 rounding ran";
    // GPU sums differ in order (split-K, mma fragments) and accumulate in
    // fp32: a factor 3 of room between this and the GPU test's tolerance.
    EXPECT_LT(tf32, kGpuTf32Tolerance / 3);
  }
}

} // namespace
