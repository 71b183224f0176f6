//===- GraphPassesTest.cpp - Tests of folding, fusion and memory plans ----===//
//
// This file implements the tests of the graph-to-graph passes: BatchNorm
// folding and epilogue fusion must leave the reference outputs unchanged
// (within 1e-5 relative, on seeded weights far from the identity) and produce
// the expected nodes; the memory plan must match hand-computed liveness.
//
//===----------------------------------------------------------------------===//

#include "graph/Backend.h"
#include "graph/KernelLaunch.h"
#include "graph/io/WeightInit.h"
#include "graph/ir/GraphParser.h"
#include "graph/passes/FoldBatchNorm.h"
#include "graph/passes/FuseEpilogue.h"
#include "graph/passes/MemoryPlan.h"
#include "graph/passes/ShapeInference.h"
#include "tests/unit/support/TensorCompare.h"

#include "gtest/gtest.h"

#include "llvm/Support/raw_ostream.h"

#include <cmath>

using namespace mgp::graph;

namespace {

Graph parse(llvm::StringRef text) {
  auto graph = parseGraphString(text, "p.graph");
  EXPECT_TRUE(bool(graph)) << llvm::toString(graph.takeError());
  return std::move(*graph);
}

Tensor runReference(const Graph &graph, const WeightMap &weights,
                    const Tensor &input) {
  auto backend = createBackend("reference", BackendOptions());
  EXPECT_TRUE(bool(backend));
  EXPECT_FALSE(bool((*backend)->prepare(graph, weights)));
  auto outputs = (*backend)->run(input);
  EXPECT_TRUE(bool(outputs)) << llvm::toString(outputs.takeError());
  return outputs->front();
}

using mgp::test::relativeError;

/// models/resnet18.graph with its shapes inferred at batch `n`, `h` x `w`.
Graph shapedResNet18(DimBindings &bindings, int64_t n, int64_t h, int64_t w) {
  bindings["N"] = n;
  bindings["H"] = h;
  bindings["W"] = w;
  auto parsed = parseGraphFile(MGP_SOURCE_DIR "/models/resnet18.graph");
  if (!parsed) {
    ADD_FAILURE() << llvm::toString(parsed.takeError());
    return Graph();
  }
  Graph graph = std::move(*parsed);
  EXPECT_FALSE(bool(inferShapes(graph, bindings)));
  return graph;
}

int countOps(const Graph &graph, OpKind op) {
  int count = 0;
  for (const Node &node : graph.nodes)
    count += node.op == op;
  return count;
}

TEST(GraphPassesTest, FoldingAndFusionKeepResNet18Outputs) {
  DimBindings bindings;
  Graph graph = shapedResNet18(bindings, 2, 32, 32);
  ASSERT_FALSE(graph.nodes.empty());
  WeightMap weights = initWeights(graph, 7);
  Tensor input = randomNormalTensor(graph.values[graph.inputs[0]].shape, 7);

  Model folded = foldBatchNorm(graph, weights);
  EXPECT_EQ(countOps(folded.graph, OpKind::BatchNorm), 0);
  EXPECT_EQ(countOps(folded.graph, OpKind::Conv2d), 20);
  EXPECT_EQ(folded.graph.nodes.size(), graph.nodes.size() - 20);
  // The folded graph's parameters: 20 folded (weight, bias) pairs + fc.
  EXPECT_EQ(folded.graph.params.size(), 42u);
  EXPECT_EQ(folded.weights.size(), 42u);
  EXPECT_TRUE(folded.weights.count("layer2.0.downsample.0.folded.bias"));

  Graph fused = fuseEpilogues(folded.graph);
  EXPECT_EQ(countOps(fused, OpKind::FusedConv2d), 20);
  EXPECT_EQ(countOps(fused, OpKind::Add), 0);
  EXPECT_EQ(countOps(fused, OpKind::Relu), 0);
  int withResidual = 0, withRelu = 0;
  for (const Node &node : fused.nodes) {
    if (node.op != OpKind::FusedConv2d)
      continue;
    withResidual += node.operands.size() == 4;
    withRelu += node.intAttr("relu");
  }
  EXPECT_EQ(withResidual, 8); // conv2 of every BasicBlock
  EXPECT_EQ(withRelu, 17);    // all but the three downsample convs

  Tensor reference = runReference(graph, weights, input);
  Tensor afterFold = runReference(folded.graph, folded.weights, input);
  Tensor afterFuse = runReference(fused, folded.weights, input);
  for (float v : reference.data)
    ASSERT_TRUE(std::isfinite(v));
  EXPECT_LT(relativeError(afterFold, reference), 1e-5);
  EXPECT_LT(relativeError(afterFuse, reference), 1e-5);
}

TEST(GraphPassesTest, FoldingKeepsAConvBiasAndSkipsSharedConvs) {
  Graph graph = parse(R"(input x: f32[2, 3, 6, 6]
param w: f32[4, 3, 3, 3]
param b: f32[4]
param g: f32[4]
param be: f32[4]
param m: f32[4]
param v: f32[4]
c = conv2d(x, w, b, padding=1)
n = batchnorm(c, g, be, m, v, eps=0.001)
c2 = conv2d(x, w, padding=1)
n2 = batchnorm(c2, g, be, m, v)
s = add(n2, c2)
o = add(n, s)
output o
)");
  ASSERT_FALSE(bool(inferShapes(graph)));
  WeightMap weights = initWeights(graph, 3);
  Model folded = foldBatchNorm(graph, weights);
  // c folds; c2 has a second use (the add) and must stay.
  EXPECT_EQ(countOps(folded.graph, OpKind::BatchNorm), 1);
  Tensor input = randomNormalTensor(Shape{2, 3, 6, 6}, 3);
  EXPECT_LT(relativeError(runReference(folded.graph, folded.weights, input),
                          runReference(graph, weights, input)),
            1e-6);
}

TEST(GraphPassesTest, FusionOfAnAddOfTwoConvsClaimsTheAddOnce) {
  Graph graph = parse(R"(input x: f32[1, 2, 5, 5]
param w: f32[2, 2, 1, 1]
param b: f32[2]
c1 = conv2d(x, w, b)
c2 = conv2d(x, w, b)
s = add(c1, c2)
r = relu(s)
output r
)");
  ASSERT_FALSE(bool(inferShapes(graph)));
  Graph fused = fuseEpilogues(graph);
  ASSERT_EQ(fused.nodes.size(), 2u);
  EXPECT_EQ(fused.nodes[0].op, OpKind::FusedConv2d);
  EXPECT_EQ(fused.nodes[1].operands.size(), 4u);
  EXPECT_EQ(fused.nodes[1].intAttr("relu"), 1);
  WeightMap weights = initWeights(graph, 5);
  Tensor input = randomNormalTensor(Shape{1, 2, 5, 5}, 5);
  EXPECT_LT(relativeError(runReference(fused, weights, input),
                          runReference(graph, weights, input)),
            1e-6);
}

TEST(GraphPassesTest, MemoryPlanMatchesHandComputedLiveness) {
  // 64-byte values: x dies at a; b reuses x's buffer; c needs a third one.
  Graph graph = parse(R"(input x: f32[1, 1, 4, 4]
a = relu(x)
b = relu(a)
c = add(a, b)
output c
)");
  ASSERT_FALSE(bool(inferShapes(graph)));
  MemoryPlan plan = planMemory(graph);
  EXPECT_EQ(plan.peakLiveBytes, 192);
  EXPECT_EQ(plan.pooledBytes, 192);
  EXPECT_EQ(plan.unpooledBytes, 256);
  EXPECT_EQ(plan.bufferOf[graph.lookup("b")], plan.bufferOf[graph.lookup("x")]);

  Graph chain = parse(R"(input x: f32[1, 1, 4, 4]
a = relu(x)
b = relu(a)
c = relu(b)
d = relu(c)
output d
)");
  ASSERT_FALSE(bool(inferShapes(chain)));
  plan = planMemory(chain);
  EXPECT_EQ(plan.peakLiveBytes, 128);
  EXPECT_EQ(plan.bufferBytes.size(), 2u);
  EXPECT_EQ(plan.unpooledBytes, 320);
}

TEST(GraphPassesTest, ResNet18PeakMemoryScalesWithBatch) {
  auto parsed = parseGraphFile(MGP_SOURCE_DIR "/models/resnet18.graph");
  ASSERT_TRUE(bool(parsed));
  Graph graph = std::move(*parsed);
  ASSERT_FALSE(bool(inferShapes(graph)));
  MemoryPlan one = planMemory(graph);
  // Peak: conv1's output and bn1's (64x112x112 each) are live at once.
  EXPECT_EQ(one.peakLiveBytes, 2 * 64 * 112 * 112 * 4);
  DimBindings bindings;
  bindings["N"] = 8;
  ASSERT_FALSE(bool(inferShapes(graph, bindings)));
  EXPECT_EQ(planMemory(graph).peakLiveBytes, 8 * one.peakLiveBytes);
}

} // namespace

TEST(GraphPassesTest, StemMaxPoolJoinsTheStemWhereActivationsAreFp32) {
  DimBindings bindings;
  Graph graph = shapedResNet18(bindings, 2, 40, 38);
  ASSERT_FALSE(graph.nodes.empty());
  WeightMap weights = initWeights(graph, 11);
  Tensor input = randomNormalTensor(graph.values[graph.inputs[0]].shape, 11);
  Model folded = foldBatchNorm(graph, weights);

  // fp16/bf16 keep the max pooling a node of its own.
  Graph half = fuseEpilogues(folded.graph, kernelFuseOptions(Precision::FP16));
  EXPECT_EQ(countOps(half, OpKind::MaxPool2d), 1);

  Graph fused = fuseEpilogues(folded.graph, kernelFuseOptions(Precision::TF32));
  EXPECT_EQ(countOps(fused, OpKind::MaxPool2d), 0);
  EXPECT_EQ(countOps(fused, OpKind::FusedConv2d), 20);
  const Node &stem = fused.nodes[0];
  ASSERT_EQ(stem.op, OpKind::FusedConv2d);
  EXPECT_EQ(fused.values[stem.result].name, "maxpool");
  EXPECT_EQ(stem.intAttr("pool_kernel"), 3);
  EXPECT_EQ(stem.intAttr("pool_stride"), 2);
  EXPECT_EQ(stem.intAttr("pool_padding"), 1);
  // 40x38 -> the stem's 20x19 -> pooled 10x10.
  EXPECT_EQ(fused.values[stem.result].shape, (Shape{2, 64, 10, 10}));
  EXPECT_EQ(convOutputShape(fused, 0), (Shape{2, 64, 20, 19}));
  for (size_t i = 1; i < fused.nodes.size(); ++i)
    if (fused.nodes[i].op == OpKind::FusedConv2d)
      EXPECT_EQ(fused.nodes[i].intAttr("pool_kernel"), 0);

  // The reference runs the fused node as convolution, ReLU, pooling.
  Tensor reference = runReference(graph, weights, input);
  EXPECT_LT(
      relativeError(runReference(fused, folded.weights, input), reference),
      1e-5);

  // Printed, the node reads back with its attributes and shape.
  std::string text;
  llvm::raw_string_ostream os(text);
  printGraph(fused, os);
  Graph reparsed = parse(os.str());
  ASSERT_FALSE(bool(inferShapes(reparsed, bindings)));
  EXPECT_EQ(reparsed.nodes[0].intAttr("pool_kernel"), 3);
  EXPECT_EQ(reparsed.values[reparsed.nodes[0].result].shape,
            (Shape{2, 64, 10, 10}));
}

TEST(GraphPassesTest, MaxPoolStaysOutsideConvolutionsTheKernelsCannotPool) {
  // Each graph has one conv + bias + relu + maxpool the stem kernel cannot
  // take: too many input channels, a 2x2 window, a second use of the relu,
  // no relu, a residual add.
  const char *graphs[] = {
      "input x: f32[1, 8, 20, 20]\nparam w: f32[16, 8, 7, 7]\n"
      "param b: f32[16]\nc = conv2d(x, w, b, stride=2, padding=3)\n"
      "r = relu(c)\np = maxpool2d(r, kernel=3, stride=2, padding=1)\n"
      "output p",
      "input x: f32[1, 3, 20, 20]\nparam w: f32[16, 3, 7, 7]\n"
      "param b: f32[16]\nc = conv2d(x, w, b, stride=2, padding=3)\n"
      "r = relu(c)\np = maxpool2d(r, kernel=2)\noutput p",
      "input x: f32[1, 3, 20, 20]\nparam w: f32[16, 3, 7, 7]\n"
      "param b: f32[16]\nc = conv2d(x, w, b, stride=2, padding=3)\n"
      "r = relu(c)\np = maxpool2d(r, kernel=3, stride=2, padding=1)\n"
      "s = maxpool2d(r, kernel=2)\noutput p\noutput s",
      "input x: f32[1, 3, 20, 20]\nparam w: f32[16, 3, 7, 7]\n"
      "param b: f32[16]\nc = conv2d(x, w, b, stride=2, padding=3)\n"
      "p = maxpool2d(c, kernel=3, stride=2, padding=1)\noutput p",
      "input x: f32[1, 3, 20, 20]\nparam w: f32[16, 3, 7, 7]\n"
      "param b: f32[16]\ninput t: f32[1, 16, 10, 10]\n"
      "c = conv2d(x, w, b, stride=2, padding=3)\na = add(c, t)\nr = relu(a)\n"
      "p = maxpool2d(r, kernel=3, stride=2, padding=1)\noutput p",
  };
  for (const char *text : graphs) {
    SCOPED_TRACE(text);
    Graph graph = parse(text);
    ASSERT_FALSE(bool(inferShapes(graph)));
    Graph fused = fuseEpilogues(graph, kernelFuseOptions(Precision::TF32));
    EXPECT_GE(countOps(fused, OpKind::MaxPool2d), 1);
    for (const Node &node : fused.nodes)
      if (node.op == OpKind::FusedConv2d)
        EXPECT_EQ(node.intAttr("pool_kernel"), 0);
  }
}

TEST(GraphPassesTest, AWrittenPoolingTheKernelsCannotRunIsALocatedError) {
  // fused_conv2d with pool attributes is valid graph text (the reference
  // runs it), but the kernels pool only in the stem kernel.
  Graph graph = parse("input x: f32[1, 8, 20, 20]\nparam w: f32[16, 8, 3, 3]\n"
                      "param b: f32[16]\n"
                      "y = fused_conv2d(x, w, b, stride=1, padding=1, relu=1, "
                      "pool_kernel=3, pool_stride=2, pool_padding=1)\n"
                      "output y\n");
  ASSERT_FALSE(bool(inferShapes(graph)));
  EXPECT_EQ(graph.values[graph.nodes[0].result].shape, (Shape{1, 16, 10, 10}));
  auto launches = planLaunches(graph, LaunchOptions());
  ASSERT_FALSE(bool(launches));
  std::string message = llvm::toString(launches.takeError());
  EXPECT_NE(message.find("p.graph:4:1: error: 'y': the kernels fuse a max "
                         "pooling into a convolution only"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("^"), std::string::npos) << message;
}
