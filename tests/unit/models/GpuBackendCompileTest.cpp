//===- GpuBackendCompileTest.cpp - The gpu backend's device-free half -----===//
//
// This file implements the tests of the `gpu` backend that need no GPU: the
// activation arena of ResNet18 (aligned, aliases shared, no two live values
// overlapping), every launch's compile request (its signature and options), the
// whole compile phase of ResNet18 (batch 2, 64x64) to PTX for sm_90 through a
// private disk cache (cold, then warm from disk with identical PTX, and
// ptxas-checked when ptxas is available), and the user-facing errors.
//
//===----------------------------------------------------------------------===//

#include "graph/LaunchRequest.h"
#include "graph/backends/gpu/GpuBackend.h"
#include "graph/backends/gpu/GpuBackendArena.h"
#include "graph/backends/gpu/GpuBackendConcurrency.h"
#include "graph/io/WeightInit.h"
#include "graph/ir/GraphParser.h"
#include "graph/ir/StorageTypes.h"
#include "graph/passes/FoldBatchNorm.h"
#include "graph/passes/FuseEpilogue.h"
#include "graph/passes/ShapeInference.h"

#include "runtime/CacheKey.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cmath>

using namespace mgp;
using namespace mgp::graph;

namespace {

/// ResNet18 folded and fused at batch `n`, `size`x`size`, with its launches
/// (fp32: its dots tf32x3, as the gpu backend plans them; or tf32).
struct PlannedResNet {
  Graph graph;
  std::vector<KernelLaunch> launches;
};

PlannedResNet planResNet18(int64_t n, int64_t size, bool tf32) {
  auto parsed = parseGraphFile(MGP_SOURCE_DIR "/models/resnet18.graph");
  EXPECT_TRUE(bool(parsed)) << llvm::toString(parsed.takeError());
  Graph graph = std::move(*parsed);
  DimBindings bindings;
  bindings["N"] = n;
  bindings["H"] = size;
  bindings["W"] = size;
  EXPECT_FALSE(bool(inferShapes(graph, bindings)));
  Model model = foldBatchNorm(graph, initWeights(graph, 3));
  PlannedResNet planned{fuseEpilogues(model.graph), {}};
  LaunchOptions options; // as getLaunchOptions: fp32 dots are tf32x3
  options.tf32 = tf32;
  options.tf32x3 = !tf32;
  auto launches = planLaunches(planned.graph, options);
  EXPECT_TRUE(bool(launches)) << llvm::toString(launches.takeError());
  planned.launches = std::move(*launches);
  return planned;
}

TEST(GpuBackendArenaTest, HalfActivationsHalveTheArena) {
  PlannedResNet net = planResNet18(2, 64, false);
  const Graph &graph = net.graph;
  ArenaPlan fp32 = planArena(graph, net.launches);
  std::vector<DType> types = planStorageTypes(graph, DType::F16);
  ArenaPlan fp16 = planArena(graph, net.launches, elementBytes(types));
  for (size_t v = 0; v < graph.values.size(); ++v) {
    if (graph.values[v].kind == ValueKind::Param)
      continue;
    ASSERT_GE(fp16.offsetOf[v], 0) << graph.values[v].name;
    EXPECT_EQ(fp16.offsetOf[v] % kArenaAlignment, 0);
    EXPECT_LE(fp16.offsetOf[v] +
                  numElements(graph.values[v].shape) * dtypeBytes(types[v]),
              fp16.bytes);
  }
  // Every activation but the fp32 logits takes 2 bytes an element.
  EXPECT_LT(fp16.bytes, fp32.bytes * 0.55);
  EXPECT_GT(fp16.bytes, fp32.bytes * 0.45);
}

TEST(GpuBackendArenaTest, ResNet18LiveValuesNeverOverlap) {
  PlannedResNet net = planResNet18(2, 64, false);
  const Graph &graph = net.graph;
  ArenaPlan arena = planArena(graph, net.launches);
  ASSERT_EQ(arena.offsetOf.size(), graph.values.size());
  int64_t unpooled = 0;
  for (size_t v = 0; v < graph.values.size(); ++v) {
    if (graph.values[v].kind == ValueKind::Param) {
      EXPECT_EQ(arena.offsetOf[v], -1);
      continue;
    }
    ASSERT_GE(arena.offsetOf[v], 0) << graph.values[v].name;
    EXPECT_EQ(arena.offsetOf[v] % kArenaAlignment, 0);
    int64_t bytes = numElements(graph.values[v].shape) * 4;
    EXPECT_LE(arena.offsetOf[v] + bytes, arena.bytes);
    unpooled += bytes;
  }
  EXPECT_LT(arena.bytes, unpooled) << "buffers are reused";

  // Aliases (flatten) share their operand's storage.
  int aliases = 0;
  for (const KernelLaunch &launch : net.launches)
    if (launch.aliasOf >= 0) {
      int result = graph.nodes[launch.node].result;
      EXPECT_EQ(arena.offsetOf[result], arena.offsetOf[launch.aliasOf]);
      ++aliases;
    }
  EXPECT_EQ(aliases, 1);

  // Simulate: a value lives from its definition to its storage's last use
  // (outputs to the end); a node's result must not overlap any other value
  // live while it runs.
  std::vector<int> lastUse(graph.values.size(), -1);
  for (size_t i = 0; i < graph.nodes.size(); ++i)
    for (int operand : graph.nodes[i].operands)
      lastUse[arena.storageOf[operand]] =
          std::max(lastUse[arena.storageOf[operand]], int(i));
  for (int output : graph.outputs)
    lastUse[arena.storageOf[output]] = int(graph.nodes.size());
  std::vector<int> defined(graph.values.size(), -1);
  for (size_t i = 0; i < graph.nodes.size(); ++i)
    defined[graph.nodes[i].result] = int(i);
  auto range = [&](int v) {
    return std::make_pair(arena.offsetOf[v],
                          arena.offsetOf[v] +
                              numElements(graph.values[v].shape) * 4);
  };
  for (size_t i = 0; i < graph.nodes.size(); ++i) {
    int result = graph.nodes[i].result;
    if (arena.storageOf[result] != result)
      continue; // an alias writes nothing
    auto [lo, hi] = range(result);
    for (size_t v = 0; v < graph.values.size(); ++v) {
      int storage = arena.storageOf[v];
      if (int(v) != storage || int(v) == result ||
          graph.values[v].kind == ValueKind::Param)
        continue;
      bool live = defined[v] < int(i) && lastUse[v] >= int(i);
      if (!live)
        continue;
      auto [otherLo, otherHi] = range(int(v));
      EXPECT_TRUE(hi <= otherLo || otherHi <= lo)
          << graph.values[result].name << " overlaps live "
          << graph.values[v].name;
    }
  }
}

// In ResNet18 exactly the three downsample convolutions run beside the
// launch before them, their block's first 3x3 convolution (the same input,
// neither reading the other's result), in fp32 and with fp16 storage; a
// downsample whose result the arena put on the bytes of that convolution's
// input (as it could put a value that died) stays on one stream.
TEST(GpuBackendConcurrencyTest, ResNet18DownsamplesRunBesideTheirBlocksConv1) {
  PlannedResNet net = planResNet18(2, 64, false);
  const Graph &graph = net.graph;
  std::vector<DType> types = planStorageTypes(graph, DType::F16);
  for (bool half : {false, true}) {
    std::vector<unsigned> bytes =
        half ? elementBytes(types) : std::vector<unsigned>();
    ArenaPlan arena = planArena(graph, net.launches, bytes);
    std::vector<bool> side =
        planSideLaunches(graph, net.launches, arena, bytes);
    ASSERT_EQ(side.size(), net.launches.size());
    int previous = -1;
    std::vector<std::string> beside;
    for (size_t i = 0; i < net.launches.size(); ++i) {
      const KernelLaunch &launch = net.launches[i];
      if (launch.aliasOf >= 0) {
        EXPECT_FALSE(side[i]);
        continue;
      }
      if (side[i]) {
        const std::string &name =
            graph.values[graph.nodes[launch.node].result].name;
        beside.push_back(name);
        ASSERT_GE(previous, 0);
        const KernelLaunch &before = net.launches[previous];
        EXPECT_EQ(graph.nodes[launch.node].operands[0],
                  graph.nodes[before.node].operands[0])
            << name << " and the launch before it read the same input";
      }
      previous = int(i);
    }
    EXPECT_EQ(beside, (std::vector<std::string>{"layer2.0.downsample.1",
                                                "layer3.0.downsample.1",
                                                "layer4.0.downsample.1"}));
  }

  ArenaPlan arena = planArena(graph, net.launches);
  std::vector<bool> side = planSideLaunches(graph, net.launches, arena);
  size_t first = std::find(side.begin(), side.end(), true) - side.begin();
  ASSERT_LT(first, side.size());
  int downsample = graph.nodes[net.launches[first].node].result;
  int input = graph.nodes[net.launches[first].node].operands[0];
  arena.offsetOf[downsample] = arena.offsetOf[input];
  std::vector<bool> unsafe = planSideLaunches(graph, net.launches, arena);
  EXPECT_FALSE(unsafe[first]);
  EXPECT_EQ(std::count(unsafe.begin(), unsafe.end(), true), 2);
}

// The residual block of the GPU test SideStreamGivesTheOneStreamOutputsBitwise
// (tests/lit/models/Inputs/residual-block.graph, batch 32), planned for 132
// SMs: its 1x1 downsample runs beside the block's first 3x3 convolution. At
// batch 2 the convolutions have fewer tiles than SMs, split their reductions
// through the shared workspace and stay on one stream.
TEST(GpuBackendConcurrencyTest, SplitKLaunchesStayOnTheMainStream) {
  for (int64_t batch : {32, 2}) {
    auto parsed = parseGraphFile(
        MGP_SOURCE_DIR "/tests/lit/models/Inputs/residual-block.graph");
    ASSERT_TRUE(bool(parsed)) << llvm::toString(parsed.takeError());
    DimBindings bindings;
    bindings["N"] = batch;
    ASSERT_FALSE(bool(inferShapes(*parsed, bindings)));
    Model model = foldBatchNorm(*parsed, initWeights(*parsed, 3));
    Graph graph = fuseEpilogues(model.graph);
    LaunchOptions options;
    options.numSMs = 132;
    auto launches = planLaunches(graph, options);
    ASSERT_TRUE(bool(launches)) << llvm::toString(launches.takeError());
    ArenaPlan arena = planArena(graph, *launches);
    std::vector<bool> side = planSideLaunches(graph, *launches, arena);
    std::vector<std::string> beside;
    for (size_t i = 0; i < launches->size(); ++i)
      if (side[i])
        beside.push_back(
            graph.values[graph.nodes[(*launches)[i].node].result].name);
    if (batch == 32)
      EXPECT_EQ(beside, std::vector<std::string>{"down.1"});
    else
      EXPECT_TRUE(beside.empty()) << beside.front();
  }
}

TEST(GpuBackendCompileTest, LaunchRequestsCarryTheSignature) {
  PlannedResNet net = planResNet18(2, 64, true);
  Target sm90 = *Target::parse("sm_90");
  for (const KernelLaunch &launch : net.launches) {
    if (launch.aliasOf < 0) {
      auto request = getLaunchRequest(launch, sm90);
      ASSERT_TRUE(bool(request)) << llvm::toString(request.takeError());
      EXPECT_EQ(request->signature.str(), launch.signature()) << launch.kernel;
      EXPECT_EQ(request->fileName, "kernels_dsl/" + launch.file);
      EXPECT_EQ(request->options.numWarps, launch.options.numWarps);
      EXPECT_EQ(request->options.numStages, launch.options.numStages);
      EXPECT_EQ(request->options.precision, DotPrecision::TF32);
      EXPECT_EQ(request->target, sm90);
    }
  }
  // The key covers the options: fp32 and tf32 never share an entry.
  KernelLaunch ieee = net.launches.front();
  ieee.options.precision = DotPrecision::IEEE;
  EXPECT_NE(computeCacheKey(*getLaunchRequest(ieee, sm90)),
            computeCacheKey(*getLaunchRequest(net.launches.front(), sm90)));
}

/// A fresh directory for a private disk cache.
std::string makeCacheDir() {
  llvm::SmallString<128> path;
  EXPECT_FALSE(llvm::sys::fs::createUniqueDirectory("mgp-gpub-cache", path));
  return std::string(path);
}

TEST(GpuBackendCompileTest, ResNet18CompilesToPTXColdThenFromDisk) {
  PlannedResNet net = planResNet18(2, 64, false);
  std::string dir = makeCacheDir();
  CacheConfig config;
  config.directory = dir;
  std::string log;
  llvm::raw_string_ostream logStream(log);
  std::string progressText;
  llvm::raw_string_ostream progress(progressText);

  GpuCompileOptions options;
  options.target = *Target::parse("sm_90");
  options.progress = &progress;
  KernelCache cold(config, logStream);
  options.cache = &cold;
  auto first = compileGpuKernels(net.launches, options);
  ASSERT_TRUE(bool(first)) << llvm::toString(first.takeError());
  EXPECT_GE(first->stats.kernels, 8u);
  EXPECT_EQ(first->stats.compiled, first->stats.kernels);
  EXPECT_NE(progressText.find("kernel specializations for sm_90"),
            std::string::npos)
      << progressText;
  for (auto &entry : first->kernels) {
    const CompiledKernel &kernel = *entry.second;
    EXPECT_NE(kernel.ptx.find(".target sm_90"), std::string::npos);
    EXPECT_NE(kernel.ptx.find(".entry " + kernel.name), std::string::npos)
        << entry.first().str();
    EXPECT_GE(kernel.numWarps, 1);
  }

  KernelCache warm(config, logStream);
  options.cache = &warm;
  auto second = compileGpuKernels(net.launches, options);
  ASSERT_TRUE(bool(second)) << llvm::toString(second.takeError());
  EXPECT_EQ(second->stats.fromDisk, second->stats.kernels);
  EXPECT_EQ(second->stats.compiled, 0u);
  for (auto &entry : first->kernels)
    EXPECT_EQ(second->kernels[entry.first()]->ptx, entry.second->ptx);
  EXPECT_EQ(log, "") << "no cache warnings";

#ifdef MGP_PTXAS
  // ptxas accepts the kernels (a few, to keep the test short).
  if (llvm::sys::fs::can_execute(MGP_PTXAS)) {
    int checked = 0;
    for (auto &entry : first->kernels) {
      if (checked++ == 3)
        break;
      llvm::SmallString<128> ptxPath = llvm::StringRef(dir);
      llvm::sys::path::append(ptxPath, "k" + std::to_string(checked) + ".ptx");
      {
        std::error_code ec;
        llvm::raw_fd_ostream out(ptxPath, ec);
        ASSERT_FALSE(ec);
        out << entry.second->ptx;
      }
      std::string outPath = (ptxPath + ".cubin").str();
      llvm::StringRef args[] = {MGP_PTXAS, "-arch=sm_90", ptxPath, "-o",
                                outPath};
      std::string message;
      int rc = llvm::sys::ExecuteAndWait(MGP_PTXAS, args, std::nullopt, {}, 0,
                                         0, &message);
      EXPECT_EQ(rc, 0) << entry.first().str() << ": " << message;
    }
  }
#endif
  llvm::sys::fs::remove_directories(dir);
}

TEST(GpuBackendCompileTest, UnknownKernelFileIsNamed) {
  KernelLaunch launch;
  launch.node = 0;
  launch.file = "nope.mgp";
  launch.kernel = "nope_kernel";
  CacheConfig config; // memory only
  config.diskEnabled = false;
  KernelCache cache(config);
  GpuCompileOptions options;
  options.cache = &cache;
  auto set = compileGpuKernels(launch, options);
  ASSERT_FALSE(bool(set));
  std::string message = llvm::toString(set.takeError());
  EXPECT_NE(message.find("no kernel file kernels_dsl/nope.mgp (have: add.mgp"),
            std::string::npos)
      << message;
}

TEST(GpuBackendErrorsTest, HalfPrecisionsNeedOnlyAGpu) {
  // fp16 and bf16 are accepted: without a GPU the only error is its absence.
  for (Precision precision : {Precision::FP16, Precision::BF16}) {
    BackendOptions options;
    options.precision = precision;
    auto backend = createGpuBackend(options);
    if (isGpuAvailable()) {
      EXPECT_TRUE(bool(backend));
      if (!backend)
        ADD_FAILURE() << llvm::toString(backend.takeError());
      continue;
    }
    ASSERT_FALSE(bool(backend));
    std::string message = llvm::toString(backend.takeError());
    EXPECT_NE(message.find("the gpu device is not available here"),
              std::string::npos)
        << message;
  }
}

TEST(GpuBackendOpeningTest, PrepareJoinsTheOpeningWithTheSameError) {
  // mgp-run opens the GPU on a thread of its own; prepare() joins it after
  // its host-side steps. Without a GPU its error is createGpuBackend's; with
  // one, prepare() lists its timed steps, the wait for the device among them.
  auto parsed =
      parseGraphFile(MGP_SOURCE_DIR "/tests/lit/models/Inputs/tiny.graph");
  ASSERT_TRUE(bool(parsed)) << llvm::toString(parsed.takeError());
  Graph graph = std::move(*parsed);
  ASSERT_FALSE(bool(inferShapes(graph, DimBindings())));
  WeightMap weights = initWeights(graph, 5);
  std::unique_ptr<GpuBackend> backend =
      createGpuBackend(BackendOptions(), GpuDeviceOpening::start());
  llvm::Error prepared = backend->prepare(graph, weights);
  if (!isGpuAvailable()) {
    ASSERT_TRUE(bool(prepared));
    std::string message = llvm::toString(std::move(prepared));
    auto direct = createGpuBackend(BackendOptions());
    ASSERT_FALSE(bool(direct));
    EXPECT_EQ(message, llvm::toString(direct.takeError()));
    EXPECT_NE(message.find("the gpu device is not available here"),
              std::string::npos)
        << message;
    return;
  }
  ASSERT_FALSE(bool(prepared)) << llvm::toString(std::move(prepared));
  std::vector<std::string> names;
  for (const GpuPrepareStep &step : backend->prepareSteps()) {
    EXPECT_GE(step.ms, 0.0) << step.name;
    names.push_back(step.name);
  }
  EXPECT_EQ(names.front(), "fold batchnorm");
  // The host-side packing overlaps the open: it comes before the wait.
  auto pack = llvm::find(names, "pack weights on the host");
  auto wait = llvm::find(names, "wait for the device");
  EXPECT_TRUE(pack < wait && wait != names.end());
  EXPECT_TRUE(llvm::is_contained(names, "compile (kernel cache)"));
  EXPECT_EQ(names.back(), "create events");
  // The device joined late runs the graph as the reference does (fp32).
  Tensor x = randomNormalTensor(graph.values[graph.inputs[0]].shape, 6);
  auto outputs = backend->run(x);
  ASSERT_TRUE(bool(outputs)) << llvm::toString(outputs.takeError());
  std::unique_ptr<Backend> reference = createReferenceBackend(BackendOptions());
  ASSERT_FALSE(bool(reference->prepare(graph, weights)));
  auto want = reference->run(x);
  ASSERT_TRUE(bool(want)) << llvm::toString(want.takeError());
  const Tensor &got = outputs->front(), &expected = want->front();
  ASSERT_EQ(got.data.size(), expected.data.size());
  for (size_t i = 0; i < got.data.size(); ++i)
    EXPECT_NEAR(got.data[i], expected.data[i],
                1e-5 + 1e-5 * std::abs(expected.data[i]))
        << i;
}

TEST(GpuBackendErrorsTest, NoGpuIsAClearError) {
  if (isGpuAvailable())
    GTEST_SKIP() << "a GPU is present";
  auto backend = createGpuBackend(BackendOptions());
  ASSERT_FALSE(bool(backend));
  EXPECT_NE(llvm::toString(backend.takeError())
                .find("the gpu device is not available here"),
            std::string::npos);
}

} // namespace
