//===- ConvConfigTest.cpp - Convolution block configurations --------------===//
//
// This file implements the tests of the convolution tuning knob: parsing of
// `BM,BN,BK,warps[,stages[,l1[,transposed]]]` and its errors, the transposed
// kernel's launches, the tuned per-kernel defaults
// of the launch rules, an override reaching every convolution launch (blocks,
// warps, key), the MGP_CONV_CONFIG environment variable and its error, and the
// warps of each launch reaching the compiled kernel through the compile phase.
//
//===----------------------------------------------------------------------===//

#include "graph/passes/FoldBatchNorm.h"
#include "graph/passes/FuseEpilogue.h"
#include "graph/backends/gpu/GpuBackendCompile.h"
#include "graph/ir/GraphParser.h"
#include "graph/KernelLaunch.h"
#include "graph/passes/ShapeInference.h"
#include "graph/io/WeightInit.h"

#include "gtest/gtest.h"

#include <cstdlib>

using namespace mgp;
using namespace mgp::graph;

namespace {

/// ResNet18 at batch 2, 64x64, folded and fused (`options` as the kernel
/// backends give them at a precision, or the plain fusion).
Graph fusedResNet18(const FuseOptions &options = {}) {
  auto parsed = parseGraphFile(MGP_SOURCE_DIR "/models/resnet18.graph");
  EXPECT_TRUE(bool(parsed)) << llvm::toString(parsed.takeError());
  Graph graph = std::move(*parsed);
  DimBindings bindings;
  bindings["N"] = 2;
  bindings["H"] = 64;
  bindings["W"] = 64;
  EXPECT_FALSE(bool(inferShapes(graph, bindings)));
  return fuseEpilogues(foldBatchNorm(graph, initWeights(graph, 3)).graph,
                       options);
}

int64_t constexprOf(const KernelLaunch &launch, llvm::StringRef name) {
  for (const LaunchParam &p : launch.params)
    if (p.name == name)
      return p.intValue;
  ADD_FAILURE() << "no parameter " << name.str();
  return -1;
}

bool isConv(const KernelLaunch &launch) {
  return launch.aliasOf < 0 && launch.file == "conv2d_nhwc.mgp" &&
         launch.kernel != "conv2d_splitk_epilogue_kernel" &&
         launch.kernel != "conv_stem_pack_kernel";
}

TEST(ConvConfigTest, ParsesFourFields) {
  auto config = parseConvConfig("128, 64,16,8");
  ASSERT_TRUE(bool(config)) << llvm::toString(config.takeError());
  EXPECT_EQ(config->blockM, 128);
  EXPECT_EQ(config->blockN, 64);
  EXPECT_EQ(config->blockK, 16);
  EXPECT_EQ(config->numWarps, 8);
}

TEST(ConvConfigTest, ParsesStagesAndL1) {
  auto config = parseConvConfig("256,64,32,8,4,1");
  ASSERT_TRUE(bool(config)) << llvm::toString(config.takeError());
  EXPECT_EQ(config->numStages, 4);
  EXPECT_EQ(config->aL1, 1);
  auto chunks = parseConvConfig("256,64,32,8,4,2");
  ASSERT_TRUE(bool(chunks)) << llvm::toString(chunks.takeError());
  EXPECT_EQ(chunks->aL1, 2);
  auto plain = parseConvConfig("256,64,32,8");
  ASSERT_TRUE(bool(plain)) << llvm::toString(plain.takeError());
  EXPECT_EQ(plain->numStages, 3);
  EXPECT_EQ(plain->aL1, 0);
  EXPECT_FALSE(plain->transposed);
  auto transposed = parseConvConfig("256,64,32,4,4,0,1");
  ASSERT_TRUE(bool(transposed)) << llvm::toString(transposed.takeError());
  EXPECT_EQ(transposed->aL1, 0);
  EXPECT_TRUE(transposed->transposed);
}

TEST(ConvConfigTest, RejectsMalformedConfigs) {
  const std::pair<const char *, const char *> cases[] = {
      {"64,64", "four to seven comma-separated integers"},
      {"64,64,32,4,3,1,0,1", "four to seven comma-separated integers"},
      {"64,64,32,4,3,3", "l1 must be 0, 1 or 2"},
      {"64,64,32,4,3,-1", "l1 must be 0, 1 or 2"},
      {"64,64,32,4,3,0,2", "transposed must be 0 or 1"},
      {"64,64,32,4,9", "stages must be in [1, 8]"},
      {"64,x,32,4", "'x' is not an integer"},
      {"48,64,32,4", "BM and BN must be powers of two"},
      {"64,512,32,4", "BM and BN must be powers of two"},
      {"64,64,4,4", "BK must be a power of two"},
      {"64,64,32,3", "warps must be 1, 2, 4, 8 or 16"},
  };
  for (auto [text, why] : cases) {
    auto config = parseConvConfig(text);
    ASSERT_FALSE(bool(config)) << text;
    std::string message = llvm::toString(config.takeError());
    EXPECT_NE(message.find(std::string("bad conv config '") + text + "'"),
              std::string::npos)
        << message;
    EXPECT_NE(message.find(why), std::string::npos) << message;
  }
}

TEST(ConvConfigTest, DefaultsArePerKernel) {
  Graph graph = fusedResNet18();
  auto launches = planLaunches(graph, LaunchOptions());
  ASSERT_TRUE(bool(launches)) << llvm::toString(launches.takeError());
  int convs = 0;
  for (const KernelLaunch &launch : *launches) {
    if (!isConv(launch))
      continue;
    ++convs;
    // The 7x7 stem: 128x64 tiles over 8 warps, one padded row per step.
    bool isStem = launch.kernel == "conv2d_stem_kernel";
    bool big = isStem || constexprOf(launch, "R") == 3;
    EXPECT_EQ(launch.options.numWarps, big ? 8 : 4) << launch.kernel;
    EXPECT_LE(constexprOf(launch, "BLOCK_M"), big ? 128 : 64);
    EXPECT_LE(constexprOf(launch, "BLOCK_N"), 64);
    EXPECT_EQ(constexprOf(launch, "BLOCK_K"), isStem ? 32 : 16);
  }
  EXPECT_EQ(convs, 20);
}

TEST(ConvConfigTest, OverrideReachesEveryConvolution) {
  Graph graph = fusedResNet18();
  LaunchOptions options;
  options.conv = ConvConfig{32, 16, 8, 2};
  auto launches = planLaunches(graph, options);
  auto defaults = planLaunches(graph, LaunchOptions());
  ASSERT_TRUE(bool(launches) && bool(defaults));
  for (size_t i = 0; i < launches->size(); ++i) {
    const KernelLaunch &launch = (*launches)[i];
    if (!isConv(launch)) {
      EXPECT_EQ(launch.key(), (*defaults)[i].key()) << "only convs change";
      continue;
    }
    EXPECT_EQ(launch.options.numWarps, 2);
    EXPECT_LE(constexprOf(launch, "BLOCK_M"), 32);
    EXPECT_EQ(constexprOf(launch, "BLOCK_N"), 16);
    // The stem's step is at least 4 taps x 4 channels.
    EXPECT_EQ(constexprOf(launch, "BLOCK_K"),
              launch.kernel == "conv2d_stem_kernel" ? 16 : 8);
    EXPECT_NE(launch.key(), (*defaults)[i].key());
  }
}

TEST(ConvConfigTest, L1ReachesTheTapKernel) {
  Graph graph = fusedResNet18();
  LaunchOptions options;
  options.conv = ConvConfig{64, 64, 16, 4};
  for (int l1 : {0, 1, 2}) {
    options.conv->aL1 = l1;
    auto launches = planLaunches(graph, options);
    ASSERT_TRUE(bool(launches)) << llvm::toString(launches.takeError());
    int tapKernels = 0;
    for (const KernelLaunch &launch : *launches) {
      if (launch.aliasOf >= 0 || launch.kernel != "conv2d_nhwc_kernel")
        continue;
      ++tapKernels;
      EXPECT_EQ(constexprOf(launch, "A_L1"), l1);
    }
    // Every convolution but the stem: sixteen 3x3 and three 1x1.
    EXPECT_EQ(tapKernels, 19);
  }
}

TEST(ConvConfigTest, TransposedPicksTheColumnsKernel) {
  // Every convolution but the stem runs conv2d_nhwc_cols_kernel with the
  // plain kernel's arguments; the stem's gather kernel stays.
  Graph graph = fusedResNet18();
  LaunchOptions options;
  options.conv = ConvConfig{64, 64, 16, 4};
  auto plain = planLaunches(graph, options);
  options.conv->transposed = true;
  auto transposed = planLaunches(graph, options);
  ASSERT_TRUE(bool(plain) && bool(transposed));
  ASSERT_EQ(plain->size(), transposed->size());
  int columns = 0;
  for (size_t i = 0; i < plain->size(); ++i) {
    const KernelLaunch &a = (*plain)[i], &b = (*transposed)[i];
    if (a.kernel != "conv2d_nhwc_kernel") {
      EXPECT_EQ(a.key(), b.key()) << a.kernel;
      continue;
    }
    ++columns;
    EXPECT_EQ(b.kernel, "conv2d_nhwc_cols_kernel");
    EXPECT_EQ(a.signature(), b.signature());
    EXPECT_EQ(a.specialization(), b.specialization());
  }
  EXPECT_EQ(columns, 19);
}

TEST(ConvConfigTest, KeyNamesTheWarps) {
  KernelLaunch a;
  a.file = "conv2d_nhwc.mgp";
  a.kernel = "conv2d_nhwc_kernel";
  KernelLaunch b = a, c = a;
  b.options.numWarps = 8;
  c.options.numStages = 2;
  EXPECT_NE(a.key(), b.key());
  EXPECT_NE(a.key(), c.key());
  EXPECT_EQ(a.signature(), b.signature());
}

TEST(ConvConfigTest, EnvironmentVariableOverridesAndErrs) {
  Graph graph = fusedResNet18();
  ASSERT_EQ(setenv("MGP_CONV_CONFIG", "32,32,16,2", 1), 0);
  auto launches = planLaunches(graph, LaunchOptions());
  ASSERT_TRUE(bool(launches)) << llvm::toString(launches.takeError());
  for (const KernelLaunch &launch : *launches)
    if (isConv(launch))
      EXPECT_EQ(launch.options.numWarps, 2);

  ASSERT_EQ(setenv("MGP_CONV_CONFIG", "64,64,32", 1), 0);
  auto bad = planLaunches(graph, LaunchOptions());
  unsetenv("MGP_CONV_CONFIG");
  ASSERT_FALSE(bool(bad));
  std::string message = llvm::toString(bad.takeError());
  EXPECT_NE(message.find("MGP_CONV_CONFIG: bad conv config '64,64,32'"),
            std::string::npos)
      << message;
}

TEST(ConvConfigTest, WarpsReachTheCompiledKernel) {
  Graph graph = fusedResNet18();
  auto launches = planLaunches(graph, LaunchOptions());
  ASSERT_TRUE(bool(launches));
  const KernelLaunch *oneByOne = nullptr;
  for (const KernelLaunch &launch : *launches)
    if (isConv(launch) && constexprOf(launch, "R") == 1)
      oneByOne = &launch;
  ASSERT_NE(oneByOne, nullptr);
  KernelLaunch two = *oneByOne, eight = *oneByOne;
  two.options.numWarps = 2;
  eight.options.numWarps = 8;
  CacheConfig config; // memory only
  config.diskEnabled = false;
  KernelCache cache(config);
  GpuCompileOptions options;
  options.cache = &cache;
  auto set = compileGpuKernels({two, eight}, options);
  ASSERT_TRUE(bool(set)) << llvm::toString(set.takeError());
  ASSERT_EQ(set->kernels.size(), 2u);
  EXPECT_EQ(set->kernels.find(two.key())->second->numWarps, 2);
  EXPECT_EQ(set->kernels.find(eight.key())->second->numWarps, 8);
  EXPECT_EQ(set->stats.compiled, 2u) << "one compile per warp count";
}

} // namespace

TEST(ConvConfigTest, ConvolutionsRunOppositeToTheirInputsWriter) {
  // REVERSE=1 (tiles last to first) where a convolution's input was written
  // first to last, so that its first tiles read what the launch before left
  // in L2, and the next one runs first to last again. In tf32 the stem with
  // its pooling fused in ends with its odd rows, images last to first, so
  // layer1.0.conv1 runs first to last and every BasicBlock's second
  // convolution reversed; in fp16 the separate pooling runs first to last,
  // so the first convolutions (and the downsamples beside them) reverse.
  for (Precision precision : {Precision::TF32, Precision::FP16}) {
    SCOPED_TRACE(int(precision));
    Graph graph = fusedResNet18(kernelFuseOptions(precision));
    LaunchOptions options;
    options.conv = ConvConfig{64, 64, 16, 4};
    auto launches = planLaunches(graph, options);
    ASSERT_TRUE(bool(launches)) << llvm::toString(launches.takeError());
    int reversed = 0, forward = 0;
    for (const KernelLaunch &launch : *launches) {
      if (launch.kernel != "conv2d_nhwc_kernel")
        continue;
      llvm::StringRef name = graph.values[graph.nodes[launch.node].result].name;
      bool reverse =
          launch.specialization().find("REVERSE=1") != std::string::npos;
      bool tf32 = precision == Precision::TF32;
      EXPECT_EQ(reverse, name.ends_with(".out") == tf32) << name.str();
      (reverse ? reversed : forward) += 1;
    }
    // 8 second convolutions, 8 first ones and 3 downsamples.
    EXPECT_EQ(precision == Precision::TF32 ? reversed : forward, 8);
    EXPECT_EQ(precision == Precision::TF32 ? forward : reversed, 11);
  }
}
