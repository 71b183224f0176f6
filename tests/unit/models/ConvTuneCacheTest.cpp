//===- ConvTuneCacheTest.cpp - The convolution tuner's files and choices --===//
//
// This file implements the tests of the GPU backend's tuning memory (no GPU
// needed): problem keys (device, kernel, shapes, precision; equal for equal
// layers), the round trip of a stored configuration, corrupt and mismatched
// files reported by path and ignored, an unwritable directory's error, the
// switches (MGP_TUNE, MGP_CONV_CONFIG), the candidate set, and tuned
// per-node configurations reaching the plan (and losing to an override).
//
//===----------------------------------------------------------------------===//

#include "graph/ModelStats.h"
#include "graph/io/WeightInit.h"
#include "graph/ir/GraphParser.h"
#include "graph/passes/FoldBatchNorm.h"
#include "graph/passes/FuseEpilogue.h"
#include "graph/passes/ShapeInference.h"
#include "graph/tune/ConvTuner.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include "gtest/gtest.h"

#include <cstdlib>

using namespace mgp;
using namespace mgp::graph;

namespace {

Graph fusedResNet18(int64_t batch, const FuseOptions &fuse = {}) {
  auto parsed = parseGraphFile(MGP_SOURCE_DIR "/models/resnet18.graph");
  EXPECT_TRUE(bool(parsed)) << llvm::toString(parsed.takeError());
  Graph graph = std::move(*parsed);
  DimBindings bindings;
  bindings["N"] = batch;
  bindings["H"] = 64;
  bindings["W"] = 64;
  EXPECT_FALSE(bool(inferShapes(graph, bindings)));
  return fuseEpilogues(foldBatchNorm(graph, initWeights(graph, 3)).graph, fuse);
}

int nodeNamed(const Graph &graph, llvm::StringRef name) {
  for (int i = 0, e = int(graph.nodes.size()); i < e; ++i)
    if (graph.values[graph.nodes[i].result].name == name)
      return i;
  ADD_FAILURE() << "no node " << name.str();
  return 0;
}

/// A fresh directory for one test.
std::string tempDir() {
  llvm::SmallString<128> dir;
  EXPECT_FALSE(llvm::sys::fs::createUniqueDirectory("mgp-tune", dir));
  return dir.str().str();
}

void writeFile(llvm::StringRef path, llvm::StringRef text) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  ASSERT_FALSE(ec);
  os << text;
}

TEST(ConvTuneKeyTest, NamesDeviceKernelShapeAndPrecision) {
  Graph graph = fusedResNet18(2);
  int a = nodeNamed(graph, "layer1.0.relu1");
  int b = nodeNamed(graph, "layer1.1.relu1");
  int c = nodeNamed(graph, "layer2.0.relu1");
  std::string key = convTuneKey(graph, a, "NVIDIA H200", "tf32");
  EXPECT_EQ(key, "NVIDIA H200|conv2d_nhwc_kernel|x=2,64,16,16 w=64,64,3,3 "
                 "s=1 p=1 bias=1 res=0 relu=1 x_nchw=0 w_kcrs=0 "
                 "res_nchw=0|tf32");
  EXPECT_EQ(convTuneKey(graph, b, "NVIDIA H200", "tf32"), key);
  EXPECT_NE(convTuneKey(graph, c, "NVIDIA H200", "tf32"), key);
  EXPECT_NE(convTuneKey(graph, a, "NVIDIA H100", "tf32"), key);
  EXPECT_NE(convTuneKey(graph, a, "NVIDIA H200", "fp32"), key);
  EXPECT_NE(convTuneKey(fusedResNet18(4), a, "NVIDIA H200", "tf32"), key);
  EXPECT_NE(convTuneKey(graph, 0, "NVIDIA H200", "tf32")
                .find("conv2d_stem_kernel|x=2,3,64,64 w=64,3,7,7 s=2 p=3"),
            std::string::npos);
}

TEST(ConvTuneCacheTest, StoresAndFindsAConfig) {
  std::string dir = tempDir();
  std::string log;
  llvm::raw_string_ostream os(log);
  ConvTuneCache cache(dir + "/conv-tune", os);
  EXPECT_FALSE(cache.lookup("k1").has_value());
  ConvConfig config{64, 128, 32, 8};
  config.numStages = 4;
  config.splitK = 2;
  ASSERT_FALSE(bool(cache.store("k1", config)));
  auto found = cache.lookup("k1");
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(formatConvConfig(*found), "64,128,32,8,4,2");
  EXPECT_FALSE(cache.lookup("k2").has_value());
  auto text = llvm::MemoryBuffer::getFile(cache.pathFor("k1"));
  ASSERT_TRUE(bool(text));
  EXPECT_EQ((*text)->getBuffer(), "mgp-conv-tune 1\nk1\n64,128,32,8,4,2\n");
  EXPECT_EQ(log, "");
  // Overwriting replaces the file (no temporary left behind).
  ASSERT_FALSE(bool(cache.store("k1", ConvConfig{32, 32, 16, 2})));
  EXPECT_EQ(formatConvConfig(*cache.lookup("k1")), "32,32,16,2,3,0");
  std::error_code ec;
  int files = 0;
  for (llvm::sys::fs::directory_iterator it(dir + "/conv-tune", ec), end;
       it != end && !ec; it.increment(ec))
    ++files;
  EXPECT_EQ(files, 1);
  // The A tile through L1: a seventh field.
  for (int order : {1, 2}) {
    ConvConfig l1{256, 64, 32, 8};
    l1.aL1 = order;
    ASSERT_FALSE(bool(cache.store("k3", l1)));
    text = llvm::MemoryBuffer::getFile(cache.pathFor("k3"));
    ASSERT_TRUE(bool(text));
    EXPECT_EQ((*text)->getBuffer(), "mgp-conv-tune 1\nk3\n256,64,32,8,3,0," +
                                        std::to_string(order) + "\n");
    auto foundL1 = cache.lookup("k3");
    ASSERT_TRUE(foundL1.has_value());
    EXPECT_EQ(foundL1->aL1, order);
    EXPECT_EQ(foundL1->splitK, 0);
  }
  EXPECT_EQ(cache.lookup("k1")->aL1, 0);
  // The transposed kernel: an eighth field after the L1 one.
  for (int l1 : {0, 1}) {
    ConvConfig cols{256, 64, 32, 4};
    cols.numStages = 4;
    cols.aL1 = l1;
    cols.transposed = true;
    ASSERT_FALSE(bool(cache.store("k4", cols)));
    text = llvm::MemoryBuffer::getFile(cache.pathFor("k4"));
    ASSERT_TRUE(bool(text));
    EXPECT_EQ((*text)->getBuffer(),
              std::string("mgp-conv-tune 1\nk4\n256,64,32,4,4,0,") +
                  std::to_string(l1) + ",1\n");
    auto foundCols = cache.lookup("k4");
    ASSERT_TRUE(foundCols.has_value());
    EXPECT_TRUE(foundCols->transposed);
    EXPECT_EQ(foundCols->aL1, l1);
  }
  EXPECT_FALSE(cache.lookup("k3")->transposed);
  llvm::sys::fs::remove_directories(dir);
}

TEST(ConvTuneCacheTest, CorruptFilesAreReportedByNameAndIgnored) {
  std::string dir = tempDir();
  const std::pair<const char *, const char *> cases[] = {
      {"garbage\x01\x02", "expected 'mgp-conv-tune 1'"},
      {"mgp-conv-tune 1\nother key\n64,64,16,4,3,0\n",
       "it holds another problem ('other key')"},
      {"mgp-conv-tune 1\nkey\n64,64,16\n", "bad config line '64,64,16'"},
      {"mgp-conv-tune 1\nkey\n48,64,16,4,3,0\n", "bad config line"},
      {"mgp-conv-tune 1\nkey\n64,64,16,4,3,-1\n", "bad config line"},
      {"mgp-conv-tune 1\nkey\n64,64,16,4,3,0,0\n", "bad config line"},
      {"mgp-conv-tune 1\nkey\n64,64,16,4,3,0,3\n", "bad config line"},
      {"mgp-conv-tune 1\nkey\n64,64,16,4,3,0,1,0\n", "bad config line"},
      {"mgp-conv-tune 1\nkey\n64,64,16,4,3,0,3,1\n", "bad config line"},
      {"mgp-conv-tune 1\nkey\n64,64,16,4,3,0,12\n", "bad config line"},
      {"mgp-conv-tune 1\nkey\n64,64,16,4,3,0,1,1,1\n", "bad config line"},
      {"", "expected 'mgp-conv-tune 1'"},
  };
  for (auto [text, why] : cases) {
    std::string log;
    llvm::raw_string_ostream os(log);
    ConvTuneCache cache(dir, os);
    writeFile(cache.pathFor("key"), text);
    EXPECT_FALSE(cache.lookup("key").has_value()) << text;
    EXPECT_NE(log.find("mgp: warning: ignoring corrupt tuning file '" +
                       cache.pathFor("key") + "': "),
              std::string::npos)
        << log;
    EXPECT_NE(log.find(why), std::string::npos) << log;
    // A new result replaces the corrupt file.
    ASSERT_FALSE(bool(cache.store("key", ConvConfig{64, 64, 16, 4})));
    EXPECT_TRUE(cache.lookup("key").has_value());
  }
  llvm::sys::fs::remove_directories(dir);
}

TEST(ConvTuneCacheTest, UnwritableDirectoryIsAnError) {
  std::string dir = tempDir();
  writeFile(dir + "/file", "x");
  ConvTuneCache cache(dir + "/file/conv-tune", llvm::nulls());
  llvm::Error e = cache.store("k", ConvConfig{});
  ASSERT_TRUE(bool(e));
  std::string message = llvm::toString(std::move(e));
  EXPECT_NE(
      message.find("cannot write tuning file '" + dir + "/file/conv-tune/"),
      std::string::npos)
      << message;
  EXPECT_FALSE(cache.lookup("k").has_value());
  llvm::sys::fs::remove_directories(dir);
}

TEST(ConvTuneCacheTest, DirectoryFromEnvironment) {
  ASSERT_EQ(setenv("MGP_CACHE_DIR", "/tmp/mgp-x", 1), 0);
  EXPECT_EQ(ConvTuneCache::directoryFromEnvironment(), "/tmp/mgp-x/conv-tune");
  ASSERT_EQ(setenv("MGP_CACHE", "off", 1), 0);
  EXPECT_EQ(ConvTuneCache::directoryFromEnvironment(), "");
  unsetenv("MGP_CACHE");
  unsetenv("MGP_CACHE_DIR");
}

TEST(ConvTunerTest, SwitchesAndCandidates) {
  unsetenv("MGP_CONV_CONFIG");
  unsetenv("MGP_TUNE");
  EXPECT_TRUE(convTuningEnabled());
  ASSERT_EQ(setenv("MGP_TUNE", "off", 1), 0);
  EXPECT_FALSE(convTuningEnabled());
  ASSERT_EQ(setenv("MGP_TUNE", "1", 1), 0);
  EXPECT_TRUE(convTuningEnabled());
  ASSERT_EQ(setenv("MGP_CONV_CONFIG", "64,64,16,4", 1), 0);
  EXPECT_FALSE(convTuningEnabled()) << "a forced config is not tuned";
  unsetenv("MGP_CONV_CONFIG");
  unsetenv("MGP_TUNE");
  llvm::ArrayRef<ConvConfig> older = convTuneCandidates(false);
  EXPECT_GE(older.size(), 6u);
  EXPECT_LE(older.size(), 10u);
  llvm::SmallVector<ConvConfig> all(older.begin(), older.end());
  for (TuneDot dot : {TuneDot::SixteenBit, TuneDot::TF32, TuneDot::TF32x3}) {
    // sm_90a: few candidates per dot kind (cold start), every one whole warp
    // groups with 64 rows each, so each really runs on wgmma.
    llvm::ArrayRef<ConvConfig> wgmma = convTuneCandidates(true, dot);
    EXPECT_GE(wgmma.size(), 3u);
    EXPECT_LE(wgmma.size(), 8u);
    for (const ConvConfig &c : wgmma) {
      EXPECT_EQ(c.numWarps % 4, 0) << formatConvConfig(c);
      EXPECT_EQ(c.blockM % 64, 0) << formatConvConfig(c);
    }
    all.append(wgmma.begin(), wgmma.end());
  }
  for (const ConvConfig &c : all)
    EXPECT_EQ(c.blockK % 16, 0) << formatConvConfig(c);
  // tf32's list also splits the largest tile's reduction in two (layer4).
  EXPECT_EQ(llvm::count_if(convTuneCandidates(true, TuneDot::TF32),
                           [](const ConvConfig &c) { return c.splitK == 2; }),
            1);
  // Chunk-major taps are tf32 candidates, twice through L1 and once with
  // the L2-only copies (layers 1-3), and never 16-bit ones (slower there).
  auto withOrder = [](TuneDot dot, int aL1) {
    return llvm::count_if(convTuneCandidates(true, dot),
                          [&](const ConvConfig &c) { return c.aL1 == aL1; });
  };
  EXPECT_EQ(withOrder(TuneDot::TF32, 1), 2);
  EXPECT_EQ(withOrder(TuneDot::TF32, 2), 1);
  EXPECT_EQ(withOrder(TuneDot::SixteenBit, 1), 0);
  EXPECT_EQ(withOrder(TuneDot::SixteenBit, 2), 0);
}

TEST(ConvTunerTest, StoredConfigsReachThePlan) {
  Graph graph = fusedResNet18(2);
  std::string dir = tempDir();
  ConvTuneCache cache(dir, llvm::nulls());
  int node = nodeNamed(graph, "layer1.0.relu1");
  ConvConfig tuned{32, 32, 32, 2};
  tuned.numStages = 2;
  ASSERT_FALSE(
      bool(cache.store(convTuneKey(graph, node, "GPU X", "tf32"), tuned)));
  ConvTunerOptions tuner;
  tuner.deviceName = "GPU X";
  tuner.launch.tf32 = true;
  std::map<int, ConvConfig> configs = cachedConvConfigs(graph, tuner, cache);
  // layer1's two 3x3 convolutions without a residual share the problem.
  EXPECT_EQ(configs.size(), 2u);
  ASSERT_TRUE(configs.count(node));
  // Another device, or fp16 activations (their keys end |fp16): not tuned.
  ConvTunerOptions other = tuner;
  other.deviceName = "GPU Y";
  EXPECT_TRUE(cachedConvConfigs(graph, other, cache).empty());
  other = tuner;
  other.activation = DType::F16;
  EXPECT_TRUE(cachedConvConfigs(graph, other, cache).empty());
  ASSERT_FALSE(bool(
      cache.store(convTuneKey(graph, node, "GPU X", "tf32") + "|fp16", tuned)));
  EXPECT_EQ(cachedConvConfigs(graph, other, cache).size(), 2u)
      << "the keys the tuner stores fp16 problems under";

  LaunchOptions options;
  options.tf32 = true;
  options.nodeConv = configs;
  auto launches = planLaunches(graph, options);
  ASSERT_TRUE(bool(launches));
  for (const KernelLaunch &launch : *launches) {
    if (launch.node != node)
      continue;
    EXPECT_EQ(launch.options.numWarps, 2);
    EXPECT_EQ(launch.options.numStages, 2);
    EXPECT_NE(launch.specialization().find("BLOCK_M=32 BLOCK_N=32 BLOCK_K=32"),
              std::string::npos)
        << launch.specialization();
  }
  options.conv = ConvConfig{64, 64, 16, 4};
  auto forced = planLaunches(graph, options);
  ASSERT_TRUE(bool(forced));
  for (const KernelLaunch &launch : *forced) {
    if (launch.node == node) {
      EXPECT_EQ(launch.options.numWarps, 4) << "an override wins over tuning";
    }
  }
  llvm::sys::fs::remove_directories(dir);
}

} // namespace

TEST(ConvTunerTest, SmallProblemsTakeTheFirstCandidate) {
  // ResNet18 at batch 3, 64x64, the stem's max pooling fused in (tf32):
  // nodeMacs counts the stem's convolution before the pooling, and only the
  // three 1x1 downsamples (0.7 % of the work each) are too small to tune.
  Graph graph = fusedResNet18(3, kernelFuseOptions(Precision::TF32));
  int stem = nodeNamed(graph, "maxpool");
  // 3 images x 64 channels x 32 x 32 outputs x (3 x 7 x 7).
  EXPECT_EQ(double(nodeMacs(graph, stem)), 3.0 * 64 * 32 * 32 * 3 * 7 * 7);
  double total = 0;
  for (int i = 0, e = int(graph.nodes.size()); i < e; ++i)
    if (isConvNode(graph, i))
      total += double(nodeMacs(graph, i));
  std::vector<std::string> small;
  for (int i = 0, e = int(graph.nodes.size()); i < e; ++i)
    if (isConvNode(graph, i) &&
        tunesOneCandidate(double(nodeMacs(graph, i)), total))
      small.push_back(graph.values[graph.nodes[i].result].name);
  EXPECT_EQ(small, (std::vector<std::string>{"layer2.0.downsample.1",
                                             "layer3.0.downsample.1",
                                             "layer4.0.downsample.1"}));
  EXPECT_TRUE(tunesOneCandidate(1.9, 100));
  EXPECT_FALSE(tunesOneCandidate(2.0, 100));
}
