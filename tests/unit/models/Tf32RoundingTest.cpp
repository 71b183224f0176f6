//===- Tf32RoundingTest.cpp - tf32 dots read only rounded operands --------===//
//
// checkTF32Rounding (graph/passes/Tf32Rounding.h) on planned graphs: ResNet18's tf32
// plan passes (every activation a dot reads is stored rounded, through max
// pooling and flatten too); a plan without the rounding stores, a dot reading
// a separate add's sum and a dot reading the graph input directly are each
// refused with a message naming the nodes.
//
//===----------------------------------------------------------------------===//
#include "graph/passes/FoldBatchNorm.h"
#include "graph/passes/FuseEpilogue.h"
#include "graph/ir/GraphParser.h"
#include "graph/KernelLaunch.h"
#include "graph/passes/ShapeInference.h"
#include "graph/passes/Tf32Rounding.h"
#include "graph/io/WeightInit.h"

#include "gtest/gtest.h"

using namespace mgp::graph;

namespace {

/// The fused graph of \p text (or of ResNet18 when empty) and the error of
/// checkTF32Rounding on its plan ("" when it passes).
std::string checkPlan(const std::string &text, bool roundTF32 = true) {
  auto parsed = text.empty()
                    ? parseGraphFile(MGP_SOURCE_DIR "/models/resnet18.graph")
                    : parseGraphString(text);
  EXPECT_TRUE(bool(parsed)) << llvm::toString(parsed.takeError());
  if (!parsed)
    return "unparsed";
  DimBindings bindings;
  if (text.empty())
    bindings = {{"N", 2}, {"H", 64}, {"W", 64}};
  EXPECT_FALSE(bool(inferShapes(*parsed, bindings)));
  Model model = foldBatchNorm(*parsed, initWeights(*parsed, 3));
  Graph fused = fuseEpilogues(model.graph);
  LaunchOptions options;
  options.tf32 = true;
  options.roundTF32 = roundTF32;
  auto launches = planLaunches(fused, options);
  EXPECT_TRUE(bool(launches)) << llvm::toString(launches.takeError());
  if (!launches)
    return "unplanned";
  llvm::Error e = checkTF32Rounding(fused, *launches);
  return e ? llvm::toString(std::move(e)) : "";
}

TEST(Tf32RoundingTest, ResNet18PlanReadsOnlyRoundedOperands) {
  EXPECT_EQ(checkPlan(""), "");
}

TEST(Tf32RoundingTest, PlanWithoutRoundingStoresIsRefused) {
  std::string message = checkPlan("", /*roundTF32=*/false);
  EXPECT_NE(message.find("without ROUND_TF32"), std::string::npos) << message;
}

TEST(Tf32RoundingTest, DotReadingASeparateAddIsRefused) {
  // The stem (C = 3) rounds its packed input; the 3x3 convolutions after it
  // read its rounded output, but the last one reads a separate add's sum.
  std::string message = checkPlan(R"(
input x: f32[1, 3, 16, 16]
param stem.weight: f32[64, 3, 3, 3]
param a.weight: f32[64, 64, 3, 3]
param b.weight: f32[64, 64, 3, 3]
param c.weight: f32[64, 64, 3, 3]
s = conv2d(x, stem.weight, padding=1)
ca = conv2d(s, a.weight, padding=1)
ra = relu(ca)
cb = conv2d(s, b.weight, padding=1)
rb = relu(cb)
t = add(ra, rb)
cc = conv2d(t, c.weight, padding=1)
output cc
)");
  EXPECT_NE(message.find("node 'cc' (conv2d) reads x_ptr = 't' (add), which "
                         "is stored unrounded"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("--precision fp32, fp16 or bf16"), std::string::npos);
}

TEST(Tf32RoundingTest, DotReadingTheGraphInputDirectlyIsRefused) {
  std::string message = checkPlan(R"(
input x: f32[1, 64, 8, 8]
param a.weight: f32[64, 64, 3, 3]
y = conv2d(x, a.weight, padding=1)
output y
)");
  EXPECT_NE(message.find("reads x_ptr = 'x' (a graph input)"),
            std::string::npos)
      << message;
}

} // namespace
