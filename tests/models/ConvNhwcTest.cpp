//===- ConvNhwcTest.cpp - NHWC convolutions and split-K on the interpreter ===//
//
// This file implements the tests of the kernel backends' NHWC storage
// (graph/passes/NhwcLayout.h) and the convolution launch rules (ConvLaunch.cpp):
// every convolution variant (3x3 stride 1 and 2, 1x1 stride-2 downsample,
// 7x7 stride-2 stem, with and without residual and ReLU, reading NCHW graph
// inputs and NHWC activations, weights repacked or not), the layout kernels
// (pools, global average pool, flatten, mixed-layout add, batchnorm), and
// split-K, all run on the `cpu` backend and compared with the reference
// executor at fp32 on random inputs whose sizes are not multiples of the
// blocks; and the layout and split-K decisions of the plan.
//
//===----------------------------------------------------------------------===//

#include "graph/backends/cpu/CpuBackend.h"
#include "graph/passes/FoldBatchNorm.h"
#include "graph/passes/FuseEpilogue.h"
#include "graph/ir/GraphParser.h"
#include "graph/KernelLaunch.h"
#include "graph/passes/NhwcLayout.h"
#include "graph/passes/ShapeInference.h"
#include "graph/io/WeightInit.h"

#include "ModelTestSupport.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstdlib>

using namespace mgp::graph;
using namespace mgp::graph::modeltest;

namespace {

/// Runs `graph` on the reference executor and on the cpu backend planned for
/// `numSMs` multiprocessors; returns the relative error of the outputs.
double compare(const Graph &graph, bool optimize, int numSMs,
               Precision precision = Precision::FP32, uint64_t seed = 7) {
  WeightMap weights = initWeights(graph, seed);
  std::vector<Tensor> inputs;
  for (int input : graph.inputs)
    inputs.push_back(
        randomNormalTensor(graph.values[input].shape, seed + inputs.size()));
  auto reference = createReferenceBackend(BackendOptions());
  EXPECT_FALSE(bool(reference->prepare(graph, weights)));
  auto want = reference->run(inputs);
  EXPECT_TRUE(bool(want));
  BackendOptions options;
  options.precision = precision;
  auto cpu = createCpuBackend(options, optimize, numSMs);
  auto got = prepareAndRun(*cpu, graph, weights, inputs);
  return got ? relativeError(*got, *want) : INFINITY;
}

struct ConvCase {
  const char *name;
  const char *graph;
};

// `t = conv2d(x, w0)` (a 1x1 convolution of the NCHW input) makes an NHWC
// activation for the convolution under test to read.
const ConvCase kConvCases[] = {
    {"stem_7x7_s2_nchw_input",
     "input x: f32[2, 3, 37, 29]\nparam w: f32[24, 3, 7, 7]\n"
     "param b: f32[24]\ny = fused_conv2d(x, w, b, stride=2, padding=3, "
     "relu=1)\noutput y"},
    {"stem_7x7_s2_nhwc_input_nobias",
     "input x: f32[1, 5, 23, 19]\nparam w0: f32[6, 5, 1, 1]\n"
     "param w: f32[20, 6, 7, 7]\nt = conv2d(x, w0)\n"
     "y = conv2d(t, w, stride=2, padding=3)\noutput y"},
    // The stem kernel (C <= 4, S <= 8): input channels 1..4, taps 1..8 per
    // row, residuals NHWC and NCHW, weights repacked and not.
    {"stem_7x7_s2_c4_nhwc_input_nhwc_residual",
     "input x: f32[2, 3, 20, 18]\nparam w0: f32[4, 3, 1, 1]\n"
     "param w: f32[10, 4, 7, 7]\nparam b: f32[10]\n"
     "param wd: f32[10, 4, 1, 1]\nt = conv2d(x, w0)\n"
     "r = conv2d(t, wd, stride=2)\n"
     "y = fused_conv2d(t, w, b, r, stride=2, padding=3, relu=0)\noutput y"},
    {"stem_5x5_s1_c2_nchw_residual_relu",
     "input x: f32[1, 2, 11, 13]\ninput q: f32[1, 6, 11, 13]\n"
     "param w: f32[6, 2, 5, 5]\nparam b: f32[6]\n"
     "y = fused_conv2d(x, w, b, q, stride=1, padding=2, relu=1)\noutput y"},
    {"stem_3x3_c1_weight_not_a_parameter",
     "input x: f32[2, 1, 9, 10]\nparam w: f32[5, 1, 3, 3]\nv = relu(w)\n"
     "y = conv2d(x, v, stride=1, padding=1)\noutput y"},
    {"stem_7x1_s1_c3", "input x: f32[1, 3, 12, 5]\nparam w: f32[4, 3, 7, 1]\n"
                       "y = conv2d(x, w, stride=1, padding=3)\noutput y"},
    {"stem_8x8_s3_c3_nopad",
     "input x: f32[2, 3, 25, 19]\nparam w: f32[17, 3, 8, 8]\n"
     "param b: f32[17]\ny = conv2d(x, w, b, stride=3, padding=0)\noutput y"},
    {"3x3_s1_relu",
     "input x: f32[2, 20, 11, 9]\nparam w0: f32[40, 20, 1, 1]\n"
     "param w: f32[36, 40, 3, 3]\nparam b: f32[36]\nt = conv2d(x, w0)\n"
     "y = fused_conv2d(t, w, b, stride=1, padding=1, relu=1)\noutput y"},
    {"3x3_s1_residual_relu",
     "input x: f32[2, 20, 11, 9]\nparam w0: f32[40, 20, 1, 1]\n"
     "param w: f32[40, 40, 3, 3]\nparam b: f32[40]\nt = conv2d(x, w0)\n"
     "y = fused_conv2d(t, w, b, t, stride=1, padding=1, relu=1)\noutput y"},
    {"3x3_s1_residual_norelu",
     "input x: f32[1, 20, 7, 13]\nparam w0: f32[33, 20, 1, 1]\n"
     "param w: f32[33, 33, 3, 3]\nparam b: f32[33]\nt = conv2d(x, w0)\n"
     "y = fused_conv2d(t, w, b, t, stride=1, padding=1, relu=0)\noutput y"},
    {"3x3_s2_residual_relu",
     "input x: f32[2, 20, 12, 10]\nparam w0: f32[40, 20, 1, 1]\n"
     "param w: f32[72, 40, 3, 3]\nparam b: f32[72]\n"
     "param wd: f32[72, 40, 1, 1]\nt = conv2d(x, w0)\n"
     "r = conv2d(t, wd, stride=2)\n"
     "y = fused_conv2d(t, w, b, r, stride=2, padding=1, relu=1)\noutput y"},
    {"3x3_s2_plain", "input x: f32[2, 17, 9, 11]\nparam w0: f32[24, 17, 1, 1]\n"
                     "param w: f32[18, 24, 3, 3]\nt = conv2d(x, w0)\n"
                     "y = conv2d(t, w, stride=2, padding=1)\noutput y"},
    {"1x1_s2_downsample",
     "input x: f32[2, 20, 13, 11]\nparam w0: f32[40, 20, 1, 1]\n"
     "param w: f32[48, 40, 1, 1]\nparam b: f32[48]\nt = conv2d(x, w0)\n"
     "y = fused_conv2d(t, w, b, stride=2, padding=0, relu=0)\noutput y"},
    {"1x1_residual_nchw_input",
     "input x: f32[2, 24, 5, 6]\nparam w: f32[24, 24, 1, 1]\n"
     "param b: f32[24]\n"
     "y = fused_conv2d(x, w, b, x, stride=1, padding=0, relu=1)\noutput y"},
    {"weight_not_a_parameter",
     "input x: f32[1, 16, 6, 7]\nparam w: f32[20, 16, 3, 3]\n"
     "param w0: f32[16, 16, 1, 1]\nt = conv2d(x, w0)\nv = relu(w)\n"
     "y = conv2d(t, v, stride=1, padding=1)\noutput y"},
    {"weight_also_an_output",
     "input x: f32[1, 18, 6, 5]\nparam w: f32[20, 18, 3, 3]\n"
     "y = conv2d(x, w, stride=1, padding=1)\noutput y\noutput w"},
    {"two_outputs_nhwc",
     "input x: f32[2, 16, 9, 7]\nparam w0: f32[17, 16, 1, 1]\n"
     "param w: f32[19, 17, 3, 3]\nt = conv2d(x, w0)\n"
     "y = conv2d(t, w, stride=1, padding=1)\noutput t\noutput y"},
    {"maxpool_avgpool_nhwc",
     "input x: f32[2, 3, 21, 17]\nparam w: f32[20, 3, 7, 7]\n"
     "c = conv2d(x, w, stride=2, padding=3)\n"
     "m = maxpool2d(c, kernel=3, stride=2, padding=1)\n"
     "y = avgpool2d(m, kernel=2)\noutput y"},
    {"global_avgpool_nhwc_head",
     "input x: f32[3, 16, 6, 5]\nparam w0: f32[40, 16, 1, 1]\n"
     "param w: f32[11, 40]\nparam b: f32[11]\nt = conv2d(x, w0)\n"
     "g = global_avgpool(t)\nf = flatten(g)\ny = linear(f, w, b)\noutput y"},
    {"flatten_nhwc", "input x: f32[2, 16, 4, 3]\nparam w0: f32[5, 16, 1, 1]\n"
                     "param w: f32[7, 60]\nt = conv2d(x, w0)\nf = flatten(t)\n"
                     "y = linear(f, w)\noutput y"},
    {"add_nhwc_nchw", "input x: f32[2, 16, 5, 7]\nparam w: f32[16, 16, 3, 3]\n"
                      "c = conv2d(x, w, stride=1, padding=1)\na = add(x, c)\n"
                      "y = relu(a)\noutput y"},
    {"batchnorm_relu_nhwc",
     "input x: f32[2, 16, 5, 7]\nparam w: f32[21, 16, 3, 3]\n"
     "param g: f32[21]\nparam b: f32[21]\nparam m: f32[21]\n"
     "param v: f32[21]\nc = conv2d(x, w, stride=1, padding=1)\n"
     "n = batchnorm(c, g, b, m, v, eps=0.00001)\ny = relu(n)\noutput y"},
};

class ConvNhwcTest : public ::testing::TestWithParam<ConvCase> {};

TEST_P(ConvNhwcTest, MatchesReferenceFP32) {
  EXPECT_LT(compare(parse(GetParam().graph), false, 0), 1e-5);
}

TEST_P(ConvNhwcTest, SplitKMatchesReferenceFP32) {
  // 132 multiprocessors (an H200): every layer here has fewer tiles.
  EXPECT_LT(compare(parse(GetParam().graph), false, 132), 1e-5);
}

INSTANTIATE_TEST_SUITE_P(Convs, ConvNhwcTest, ::testing::ValuesIn(kConvCases),
                         [](const auto &info) {
                           return std::string(info.param.name);
                         });

TEST(ConvNhwcL1Test, L1CopyMatchesReferenceFP32) {
  // MGP_CONV_CONFIG's l1 field: the tap kernel's A tile loaded with
  // cache_modifier=".ca" (the interpreter runs that branch of the kernel).
  ASSERT_EQ(setenv("MGP_CONV_CONFIG", "32,32,16,4,3,1", 1), 0);
  for (const ConvCase &c : kConvCases)
    if (llvm::StringRef(c.name).starts_with("3x3"))
      EXPECT_LT(compare(parse(c.graph), false, 0), 1e-5) << c.name;
  unsetenv("MGP_CONV_CONFIG");
}

int64_t constexprOf(const KernelLaunch &launch, llvm::StringRef name) {
  for (const LaunchParam &p : launch.params)
    if (p.name == name)
      return p.intValue;
  ADD_FAILURE() << "no parameter " << name.str();
  return -1;
}

TEST(ConvNhwcPlanTest, LayoutsOfValues) {
  Graph graph = parse(kConvCases[10].graph); // 3x3_s2_residual_relu
  std::vector<bool> nhwc = planNhwcValues(graph);
  std::vector<bool> repacked = planRepackedWeights(graph);
  for (size_t v = 0; v < graph.values.size(); ++v) {
    const Value &value = graph.values[v];
    EXPECT_EQ(nhwc[v], value.kind == ValueKind::Node) << value.name;
    EXPECT_EQ(repacked[v], value.kind == ValueKind::Param && value.name != "b")
        << value.name;
  }
  auto launches = planLaunches(graph, LaunchOptions());
  ASSERT_TRUE(bool(launches)) << llvm::toString(launches.takeError());
  ASSERT_EQ(launches->size(), 3u);
  EXPECT_EQ(constexprOf((*launches)[0], "X_NCHW"), 1);
  EXPECT_EQ(constexprOf((*launches)[2], "X_NCHW"), 0);
  EXPECT_EQ(constexprOf((*launches)[2], "RES_NCHW"), 0);
  EXPECT_EQ(constexprOf((*launches)[2], "W_KCRS"), 0);
  EXPECT_EQ((*launches)[2].kernel, "conv2d_nhwc_kernel");
}

TEST(ConvNhwcPlanTest, StemPacksIntoTheWorkspace) {
  // C = 3 and S = 7: the packing launch, then the GEMM over the workspace
  // (24 * 7 weight rows of 8 taps x 4 channels, then 2 images of 43 x 48
  // zero-padded pixels of 4: 37 + 2*3 rows; 29 + 2*3 columns plus one for
  // the last output column's 8th (padded) tap, 36, rounded up to a multiple
  // of 16).
  Graph graph = parse(kConvCases[0].graph); // stem_7x7_s2_nchw_input
  auto launches = planLaunches(graph, LaunchOptions());
  ASSERT_TRUE(bool(launches)) << llvm::toString(launches.takeError());
  ASSERT_EQ(launches->size(), 2u);
  const KernelLaunch &pack = (*launches)[0], &gemm = (*launches)[1];
  EXPECT_EQ(pack.kernel, "conv_stem_pack_kernel");
  EXPECT_TRUE(pack.auxiliary && !pack.lastOfNode);
  EXPECT_EQ(constexprOf(pack, "X_NCHW"), 1);
  EXPECT_EQ(constexprOf(pack, "W_KCRS"), 0);
  EXPECT_EQ(constexprOf(pack, "SP"), 8);
  EXPECT_EQ(pack.workspace, (24 * 7 * 8 + 2 * 43 * 48) * 4);
  EXPECT_EQ(constexprOf(pack, "WP"), 48);
  EXPECT_EQ(constexprOf(gemm, "WP"), 48);
  EXPECT_EQ(constexprOf(gemm, "HP"), 43);
  EXPECT_EQ(gemm.kernel, "conv2d_stem_kernel");
  EXPECT_TRUE(!gemm.auxiliary && gemm.lastOfNode);
  EXPECT_EQ(gemm.workspace, pack.workspace);
  EXPECT_EQ(constexprOf(gemm, "X_OFF"), 24 * 7 * 8 * 4);
  EXPECT_EQ(constexprOf(gemm, "BLOCK_K"), 32);
  // Never split: the grid's z stays 1 with many multiprocessors.
  LaunchOptions many;
  many.numSMs = 1000;
  auto split = planLaunches(graph, many);
  ASSERT_TRUE(bool(split));
  EXPECT_EQ(split->size(), 2u);
  EXPECT_EQ((*split)[1].grid[2], 1);
  // S = 3 pads to 4 taps, one 16-float step per row; a weight that is not a
  // parameter is read [K,C,R,S].
  Graph small = parse(kConvCases[4].graph); // stem_3x3_c1_weight_not_a_...
  auto smallLaunches = planLaunches(small, LaunchOptions());
  ASSERT_TRUE(bool(smallLaunches));
  ASSERT_EQ(smallLaunches->size(), 3u);
  EXPECT_EQ(constexprOf((*smallLaunches)[1], "SP"), 4);
  EXPECT_EQ(constexprOf((*smallLaunches)[1], "W_KCRS"), 1);
  EXPECT_EQ(constexprOf((*smallLaunches)[2], "BLOCK_K"), 16);
  // Five input channels keep the gather kernel.
  Graph five = parse(kConvCases[1].graph); // stem_7x7_s2_nhwc_input_nobias
  auto fiveLaunches = planLaunches(five, LaunchOptions());
  ASSERT_TRUE(bool(fiveLaunches));
  EXPECT_EQ(fiveLaunches->back().kernel, "conv2d_nhwc_gather_kernel");
}

TEST(ConvNhwcPlanTest, StemWithTwoStepsPerRowMatchesReference) {
  // BLOCK_K = 16 splits each padded row of 8 taps into two steps; small
  // tiles leave partial tiles in M and N.
  ASSERT_EQ(setenv("MGP_CONV_CONFIG", "32,16,16,2", 1), 0);
  Graph graph = parse(kConvCases[2].graph); // stem_7x7_s2_c4_nhwc_input_...
  auto launches = planLaunches(graph, LaunchOptions());
  double fp32 = compare(graph, false, 0);
  double tf32 = compare(graph, false, 0, Precision::TF32);
  unsetenv("MGP_CONV_CONFIG");
  ASSERT_TRUE(bool(launches)) << llvm::toString(launches.takeError());
  EXPECT_EQ(launches->back().kernel, "conv2d_stem_kernel");
  EXPECT_EQ(constexprOf(launches->back(), "BLOCK_K"), 16);
  EXPECT_LT(fp32, 1e-5);
  EXPECT_LT(tf32, 5e-3);
}

TEST(ConvNhwcPlanTest, EightWarpTF32ConvolutionsLeaveRoomForTwoBlocks) {
  // tf32 dots at 8 warps: at most 128 registers per thread, so two blocks
  // fit in a multiprocessor's 64K (the key says so); 4 warps, ieee, tf32x3
  // and 16-bit dots (fp16/bf16 storage, where `tf32` is set for the fp32
  // dots only): no limit. The stem's GEMM takes the same rule, its packing
  // launch none.
  LaunchOptions tf32, tf32x3, half;
  tf32.tf32 = true;
  tf32x3.tf32x3 = true;
  half.tf32 = true;
  half.halfActivations = true;
  for (const char *name : {"3x3_s1_relu", "stem_7x7_s2_nchw_input"})
    for (int warps : {8, 4}) {
      const ConvCase *conv = nullptr;
      for (const ConvCase &c : kConvCases)
        if (llvm::StringRef(c.name) == name)
          conv = &c;
      ASSERT_NE(conv, nullptr);
      std::string config = "64,32,16," + std::to_string(warps);
      ASSERT_EQ(setenv("MGP_CONV_CONFIG", config.c_str(), 1), 0);
      Graph graph = parse(conv->graph);
      auto launches = planLaunches(graph, tf32);
      auto ieee = planLaunches(graph, LaunchOptions());
      auto split = planLaunches(graph, tf32x3);
      auto sixteen = planLaunches(graph, half);
      unsetenv("MGP_CONV_CONFIG");
      ASSERT_TRUE(launches && ieee && split && sixteen);
      EXPECT_EQ(ieee->back().options.maxNumRegs, 0);
      EXPECT_EQ(split->back().options.maxNumRegs, 0);
      EXPECT_EQ(sixteen->back().options.maxNumRegs, 0);
      const KernelLaunch &gemm = launches->back();
      EXPECT_EQ(gemm.options.maxNumRegs, warps == 8 ? 128 : 0) << name;
      EXPECT_EQ(llvm::StringRef(gemm.key()).ends_with("/r128"), warps == 8)
          << gemm.key();
      if (launches->size() > 1 && launches->front().auxiliary)
        EXPECT_EQ(launches->front().options.maxNumRegs, 0);
    }
}

TEST(ConvNhwcModelTest, StemAt224MatchesReference) {
  // The real stem: 3x224x224, 64 channels, 7x7 stride 2 padding 3, bias and
  // ReLU fused.
  Graph graph = parse("input x: f32[1, 3, 224, 224]\n"
                      "param w: f32[64, 3, 7, 7]\nparam b: f32[64]\n"
                      "y = fused_conv2d(x, w, b, stride=2, padding=3, "
                      "relu=1)\noutput y");
  auto launches = planLaunches(graph, LaunchOptions());
  ASSERT_TRUE(bool(launches));
  EXPECT_EQ(launches->back().kernel, "conv2d_stem_kernel");
  EXPECT_LT(compare(graph, false, 0), 1e-5);
}

TEST(ConvNhwcPlanTest, SplitKWhenTilesAreFewerThanSMs) {
  Graph graph = parse(kConvCases[7].graph); // 3x3_s1_relu
  LaunchOptions options;
  auto plain = planLaunches(graph, options);
  options.numSMs = 132;
  auto split = planLaunches(graph, options);
  ASSERT_TRUE(bool(plain) && bool(split));
  ASSERT_EQ(plain->size(), 2u);
  ASSERT_EQ(split->size(), 3u);
  const KernelLaunch &partial = (*split)[1], &epilogue = (*split)[2];
  EXPECT_EQ(partial.kernel, "conv2d_nhwc_kernel");
  EXPECT_EQ(constexprOf(partial, "SPLIT_K"), 1);
  EXPECT_FALSE(partial.lastOfNode);
  EXPECT_GT(partial.grid[2], 1);
  // 2*11*9 = 198 pixels x 36 channels of 128x64 tiles, 9 taps x 3 chunks.
  EXPECT_EQ(partial.grid[0] * partial.grid[1], 2);
  EXPECT_EQ(partial.workspace, partial.grid[2] * 198 * 36);
  EXPECT_EQ(epilogue.kernel, "conv2d_splitk_epilogue_kernel");
  EXPECT_EQ(epilogue.node, partial.node);
  EXPECT_TRUE(epilogue.lastOfNode);
  EXPECT_EQ(epilogue.workspace, partial.workspace);
  EXPECT_EQ(constexprOf((*plain)[1], "SPLIT_K"), 0);
  EXPECT_EQ((*plain)[1].grid[2], 1);
  // A forced split, and no split when it is turned off.
  ConvConfig config{32, 32, 16, 4};
  config.splitK = 5;
  auto forced = planConvLaunches(graph, 1, config, LaunchOptions());
  ASSERT_EQ(forced.size(), 2u);
  EXPECT_EQ(forced[0].grid[2], 5);
  config.splitK = 1;
  LaunchOptions many;
  many.numSMs = 1000;
  EXPECT_EQ(planConvLaunches(graph, 1, config, many).size(), 1u);
}

TEST(ConvNhwcPlanTest, SplitKSlicesCoverTheReduction) {
  // 7 steps (a 1x1 conv over 100 channels in chunks of 16) in 3 slices of 3.
  Graph graph = parse("input x: f32[1, 100, 4, 4]\n"
                      "param w: f32[20, 100, 1, 1]\n"
                      "y = conv2d(x, w)\noutput y");
  ConvConfig config{64, 64, 16, 4};
  config.splitK = 3;
  auto launches = planConvLaunches(graph, 0, config, LaunchOptions());
  ASSERT_EQ(launches.size(), 2u);
  int64_t perSplit = -1, chunks = -1;
  for (const LaunchParam &p : launches[0].params) {
    if (p.name == "CB")
      chunks = p.intValue;
    if (p.name == "T_SPLIT")
      perSplit = p.intValue;
  }
  EXPECT_EQ(chunks, 7);
  EXPECT_EQ(perSplit, 3);
  EXPECT_EQ(launches[0].grid[2], 3);
  EXPECT_LT(compare(graph, false, 0), 1e-5);
}

TEST(ConvNhwcModelTest, ResNet18SplitKMatchesReference) {
  // Folded and fused, planned for 132 multiprocessors: the small layers at
  // batch 1, 32x32 split their reduction.
  Graph graph = resnet18(1, 32);
  WeightMap weights = initWeights(graph, 0);
  Graph fused = fuseEpilogues(foldBatchNorm(graph, weights).graph);
  LaunchOptions options;
  options.numSMs = 132;
  auto launches = planLaunches(fused, options);
  ASSERT_TRUE(bool(launches));
  int splits = 0;
  for (const KernelLaunch &launch : *launches)
    splits += launch.kernel == "conv2d_splitk_epilogue_kernel";
  EXPECT_GT(splits, 10);
  EXPECT_LT(compare(graph, true, 132), 1e-5);
}

TEST(ConvNhwcModelTest, ResNet18SplitKTF32) {
  EXPECT_LT(compare(resnet18(1, 32), true, 132, Precision::TF32), 5e-3);
}

} // namespace
