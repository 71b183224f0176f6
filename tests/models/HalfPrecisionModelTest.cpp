//===- HalfPrecisionModelTest.cpp - ResNet18 in fp16/bf16 on the cpu device
//-===//
//
// This file implements the tests of --precision fp16|bf16 on the `cpu`
// kernel backend: ResNet18 (folded, fused, batch 2 at 32x32) with
// activations and conv/linear weights stored 16-bit against the fp32
// reference executor (fp16/bf16 tolerance on the logits, top-1 equal per
// image, and an error well above fp32's, so the 16-bit path really ran), and
// the typed launch plan (16-bit activation pointers, fp32 logits and biases).
//
//===----------------------------------------------------------------------===//

#include "graph/backends/cpu/CpuBackend.h"
#include "graph/passes/FoldBatchNorm.h"
#include "graph/passes/FuseEpilogue.h"
#include "graph/ir/GraphParser.h"
#include "graph/KernelLaunch.h"
#include "graph/passes/ShapeInference.h"
#include "graph/ir/StorageTypes.h"
#include "graph/io/WeightInit.h"

#include "ModelTestSupport.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cmath>

using namespace mgp;
using namespace mgp::graph;
using namespace mgp::graph::modeltest;

namespace {

struct Comparison {
  double relError = INFINITY; ///< max |got - want| / max |want|
  int top1Agree = 0;
  int rows = 0;
};

/// ResNet18 logits on the cpu device at `precision` against the reference.
Comparison compareResNet18(Precision precision, uint64_t seed) {
  Graph graph = resnet18(2, 32);
  WeightMap weights = initWeights(graph, seed);
  Tensor x = randomNormalTensor(graph.values[graph.inputs[0]].shape, seed);
  auto reference = createReferenceBackend(BackendOptions());
  EXPECT_FALSE(bool(reference->prepare(graph, weights)));
  auto want = reference->run(x);
  EXPECT_TRUE(bool(want));
  BackendOptions options;
  options.precision = precision;
  auto cpu = createCpuBackend(options);
  Comparison result;
  auto got = prepareAndRun(*cpu, graph, weights, x);
  if (!got)
    return result;
  const Tensor &g = got->front(), &w = want->front();
  result.relError = relativeError(g, w);
  result.rows = int(w.shape[0]);
  int64_t classes = w.size() / result.rows;
  for (int row = 0; row < result.rows; ++row) {
    const float *gr = g.data.data() + row * classes;
    const float *wr = w.data.data() + row * classes;
    result.top1Agree += std::max_element(gr, gr + classes) - gr ==
                        std::max_element(wr, wr + classes) - wr;
  }
  return result;
}

TEST(HalfPrecisionModel, ResNet18FP16MatchesReference) {
  for (uint64_t seed : {1, 2}) {
    Comparison c = compareResNet18(Precision::FP16, seed);
    EXPECT_EQ(c.top1Agree, c.rows) << "seed " << seed;
    EXPECT_LT(c.relError, 1e-2) << "seed " << seed;
    EXPECT_GT(c.relError, 1e-4) << "fp16 storage must show in the error";
  }
}

TEST(HalfPrecisionModel, ResNet18BF16MatchesReference) {
  // bf16 keeps 8 significant bits against fp16's 11: about 8x its error
  // (0.65-0.92 % seen at 32x32), so the bound is 2e-2.
  for (uint64_t seed : {1, 2}) {
    Comparison c = compareResNet18(Precision::BF16, seed);
    EXPECT_EQ(c.top1Agree, c.rows) << "seed " << seed;
    EXPECT_LT(c.relError, 2e-2) << "seed " << seed;
    EXPECT_GT(c.relError, 1e-3) << "bf16 storage must show in the error";
  }
}

TEST(HalfPrecisionModel, LaunchPlanTypesEveryBuffer) {
  Graph graph = resnet18(2, 64);
  Model model = foldBatchNorm(graph, initWeights(graph, 3));
  Graph fused = fuseEpilogues(model.graph);
  auto launches = planLaunches(fused, LaunchOptions());
  ASSERT_TRUE(bool(launches)) << llvm::toString(launches.takeError());
  std::vector<DType> types = planStorageTypes(fused, DType::F16);
  assignBufferTypes(*launches, types);
  int halfPointers = 0, stemWorkspaces = 0;
  for (const KernelLaunch &launch : *launches) {
    for (const LaunchParam &p : launch.params) {
      if (p.kind == LaunchParam::Kind::Workspace) {
        // The stem's packed input copy is 16-bit with its input (an f16
        // dot); split-K partial sums stay fp32.
        bool stem = launch.kernel == "conv_stem_pack_kernel" ||
                    launch.kernel == "conv2d_stem_kernel";
        EXPECT_EQ(p.type, stem ? DType::F16 : DType::F32) << launch.kernel;
        stemWorkspaces += stem;
        continue;
      }
      if (p.kind != LaunchParam::Kind::Buffer)
        continue;
      EXPECT_EQ(p.type, types[p.value]) << launch.kernel << " " << p.name;
      halfPointers += p.type == DType::F16;
    }
    if (launch.kernel == "conv2d_stem_kernel") {
      EXPECT_EQ(launch.signature().rfind("*fp16:16,*fp32:16,", 0), 0u)
          << launch.signature();
    }
    if (launch.kernel == "linear_kernel") {
      // fp16 input and weight, fp32 bias and logits.
      EXPECT_EQ(
          launch.signature().rfind("*fp16:16,*fp16:16,*fp32:16,*fp32:16", 0),
          0u)
          << launch.signature();
    }
  }
  EXPECT_GT(halfPointers, 40);
  EXPECT_EQ(stemWorkspaces, 2);
}

} // namespace
