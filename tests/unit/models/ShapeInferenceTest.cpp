//===- ShapeInferenceTest.cpp - Tests of shape inference ------------------===//
//
// This file implements the shape inference tests: ResNet18 at several input
// sizes and class counts, every op's rule on a small graph, and the errors
// that name the node and its line.
//
//===----------------------------------------------------------------------===//

#include "graph/passes/ShapeInference.h"
#include "graph/ir/GraphParser.h"

#include "gtest/gtest.h"

using namespace mgp::graph;

namespace {

Graph parseResNet18() {
  auto graph = parseGraphFile(MGP_SOURCE_DIR "/models/resnet18.graph");
  EXPECT_TRUE(bool(graph)) << llvm::toString(graph.takeError());
  return std::move(*graph);
}

const Shape &shapeOf(const Graph &graph, llvm::StringRef name) {
  int index = graph.lookup(name);
  EXPECT_GE(index, 0) << name.str();
  return graph.values[index].shape;
}

TEST(ShapeInferenceTest, ResNet18AtDefaults) {
  Graph graph = parseResNet18();
  ASSERT_FALSE(bool(inferShapes(graph)));
  EXPECT_EQ(shapeOf(graph, "x"), (Shape{1, 3, 224, 224}));
  EXPECT_EQ(shapeOf(graph, "conv1"), (Shape{1, 64, 112, 112}));
  EXPECT_EQ(shapeOf(graph, "maxpool"), (Shape{1, 64, 56, 56}));
  EXPECT_EQ(shapeOf(graph, "layer2.0.out"), (Shape{1, 128, 28, 28}));
  EXPECT_EQ(shapeOf(graph, "layer4.1.out"), (Shape{1, 512, 7, 7}));
  EXPECT_EQ(shapeOf(graph, "flat"), (Shape{1, 512}));
  EXPECT_EQ(shapeOf(graph, "logits"), (Shape{1, 1000}));
}

TEST(ShapeInferenceTest, ResNet18AnySizeBatchAndClasses) {
  Graph graph = parseResNet18();
  DimBindings bindings;
  bindings["N"] = 3;
  bindings["H"] = 32;
  bindings["W"] = 48;
  bindings["classes"] = 10;
  ASSERT_FALSE(bool(inferShapes(graph, bindings)));
  EXPECT_EQ(shapeOf(graph, "conv1"), (Shape{3, 64, 16, 24}));
  EXPECT_EQ(shapeOf(graph, "maxpool"), (Shape{3, 64, 8, 12}));
  EXPECT_EQ(shapeOf(graph, "layer4.1.out"), (Shape{3, 512, 1, 2}));
  EXPECT_EQ(shapeOf(graph, "fc.weight"), (Shape{10, 512}));
  EXPECT_EQ(shapeOf(graph, "logits"), (Shape{3, 10}));
  // An odd size: 97 -> 49 -> 25 -> 13 -> 7 -> 4.
  bindings["H"] = 97;
  bindings["W"] = 97;
  ASSERT_FALSE(bool(inferShapes(graph, bindings)));
  EXPECT_EQ(shapeOf(graph, "layer4.1.out"), (Shape{3, 512, 4, 4}));
}

Graph parse(llvm::StringRef text) {
  auto graph = parseGraphString(text, "s.graph");
  EXPECT_TRUE(bool(graph)) << llvm::toString(graph.takeError());
  return std::move(*graph);
}

TEST(ShapeInferenceTest, EveryOpRule) {
  Graph graph = parse(R"(input x: f32[2, 3, 9, 9]
param w: f32[4, 3, 3, 3]
param b: f32[4]
param g: f32[4]
param fc: f32[5, 16]
c = conv2d(x, w, b, stride=2, padding=1)
n = batchnorm(c, g, g, g, g)
r = relu(n)
s = add(r, c)
m = maxpool2d(s, kernel=3, stride=2, padding=1)
a = avgpool2d(s, kernel=2)
f = fused_conv2d(x, w, b, c, stride=2, padding=1, relu=1)
gp = global_avgpool(m)
fl = flatten(a)
l = linear(fl, fc)
output l, gp, f
)");
  ASSERT_FALSE(bool(inferShapes(graph)));
  EXPECT_EQ(shapeOf(graph, "c"), (Shape{2, 4, 5, 5}));
  EXPECT_EQ(shapeOf(graph, "s"), (Shape{2, 4, 5, 5}));
  EXPECT_EQ(shapeOf(graph, "m"), (Shape{2, 4, 3, 3}));
  EXPECT_EQ(shapeOf(graph, "a"), (Shape{2, 4, 2, 2}));
  EXPECT_EQ(shapeOf(graph, "f"), (Shape{2, 4, 5, 5}));
  EXPECT_EQ(shapeOf(graph, "gp"), (Shape{2, 4, 1, 1}));
  EXPECT_EQ(shapeOf(graph, "fl"), (Shape{2, 16}));
  EXPECT_EQ(shapeOf(graph, "l"), (Shape{2, 5}));
}

std::string inferError(llvm::StringRef text, const DimBindings &bindings = {}) {
  Graph graph = parse(text);
  llvm::Error error = inferShapes(graph, bindings);
  EXPECT_TRUE(bool(error));
  return llvm::toString(std::move(error));
}

TEST(ShapeInferenceTest, ChannelMismatchNamesNodeAndLine) {
  std::string msg = inferError(R"(input x: f32[1, 3, 8, 8]
param w: f32[4, 5, 3, 3]
y = conv2d(x, w)
output y
)");
  EXPECT_NE(msg.find("s.graph:3:1: error: shape mismatch in 'conv2d' node "
                     "'y': input 'x' has 3 channels but weight 'w' "
                     "[4,5,3,3] expects 5"),
            std::string::npos)
      << msg;
  EXPECT_NE(msg.find("y = conv2d(x, w)\n^"), std::string::npos) << msg;
}

TEST(ShapeInferenceTest, OtherMismatches) {
  EXPECT_NE(inferError("input x: f32[1,2]\ninput y: f32[1,3]\n"
                       "z = add(x, y)\noutput z\n")
                .find("3:1: error: shape mismatch in 'add' node 'z': "
                      "operands 'x' [1,2] and 'y' [1,3] differ"),
            std::string::npos);
  EXPECT_NE(inferError("input x: f32[1,4,2,2]\nparam g: f32[3]\n"
                       "z = batchnorm(x, g, g, g, g)\noutput z\n")
                .find("weight 'g' has shape [3] but must be [4]"),
            std::string::npos);
  EXPECT_NE(inferError("input x: f32[1,8]\nparam w: f32[2,9]\n"
                       "z = linear(x, w)\noutput z\n")
                .find("input 'x' has 8 features but weight 'w' [2,9] "
                      "expects 9"),
            std::string::npos);
  EXPECT_NE(inferError("input x: f32[1,8]\nz = maxpool2d(x, kernel=2)\n"
                       "output z\n")
                .find("operand 'x' has shape [1,8] but must have rank 4"),
            std::string::npos);
  EXPECT_NE(inferError("input x: f32[1,1,4,4]\n"
                       "z = maxpool2d(x, kernel=2, padding=2)\noutput z\n")
                .find("padding 2 is more than half the kernel 2"),
            std::string::npos);
}

TEST(ShapeInferenceTest, TooSmallInput) {
  DimBindings bindings;
  bindings["H"] = 4;
  std::string msg = inferError("dim H = 8\ninput x: f32[1,1,H,H]\n"
                               "param w: f32[1,1,7,7]\ny = conv2d(x, w)\n"
                               "output y\n",
                               bindings);
  EXPECT_NE(msg.find("4:1: error: shape mismatch in 'conv2d' node 'y': the "
                     "input height 4 (padding 0) is smaller than the kernel "
                     "7"),
            std::string::npos)
      << msg;
}

} // namespace
