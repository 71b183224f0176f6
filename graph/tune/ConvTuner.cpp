//===- ConvTuner.cpp - Per-layer convolution configs on the GPU -----------===//
//
// This file implements the tuner: problems not in the tuning cache are
// collected, every (problem, candidate) launch is compiled in one parallel
// compile phase and loaded (the driver's JITs in parallel too), then each
// problem gets scratch buffers (zeroed) and each candidate is launched once
// to warm up and timed over a few repetitions between two CUDA events; the
// fastest candidate is stored. A problem with a small share of the graph's
// convolution work (tunesOneCandidate) is not worth its candidates'
// compile time: it takes the list's first candidate, stored as its pick.
//
//===----------------------------------------------------------------------===//

#include "graph/tune/ConvTuner.h"
#include "graph/ModelStats.h"

#include "compiler/api/Environment.h"
#include "runtime/CudaDriver.h"
#include "runtime/Device.h"
#include "runtime/DeviceBuffer.h"
#include "runtime/Event.h"
#include "runtime/LoadedKernel.h"
#include "runtime/Stream.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <set>

using namespace mgp;
using namespace mgp::graph;

/// Timed repetitions per candidate.
static constexpr int kTimedRuns = 5;

bool mgp::graph::convTuningEnabled() {
  return !readEnv(EnvVar::ConvConfig) && !isEnvOff(EnvVar::Tune);
}

llvm::ArrayRef<ConvConfig>
mgp::graph::convTuneCandidates(bool wgmma, TuneDot dot) {
  auto make = [](int64_t m, int64_t n, int64_t k, int warps, int stages) {
    ConvConfig config{m, n, k, warps};
    config.numStages = stages;
    return config;
  };
  auto splitInTwo = [](ConvConfig config) {
    config.splitK = 2;
    return config;
  };
  auto throughL1 = [](ConvConfig config) {
    config.aL1 = 1;
    return config;
  };
  auto chunksFirst = [](ConvConfig config) {
    config.aL1 = 2;
    return config;
  };
  static const ConvConfig candidates[] = {
      make(128, 64, 16, 8, 3), // the 3x3 default
      make(64, 64, 16, 4, 3),  // the others' default
      make(128, 64, 32, 8, 3),  make(64, 128, 32, 8, 3),
      make(128, 128, 16, 8, 3), make(64, 64, 32, 4, 4),
      make(128, 64, 16, 8, 2),  make(32, 64, 32, 4, 3),
      // The largest tile: fewer loop overheads per mma (96 KiB of tf32
      // operand buffers at 3 stages, the pipeliner's budget).
      make(128, 128, 32, 8, 3),
  };
  if (!wgmma)
    return candidates;
  // sm_90a (wgmma): per dot kind, the tiles the tuner picked for a
  // ResNet18 layer inside the network on the H100 or the H200
  // (MGP_DEBUG=1 prints every candidate's time); each candidate costs about
  // 0.1 s of cold start (compile, driver JIT, timing) and the largest tiles
  // compile slowest, so the lists are short. 128x256 tiles, which won
  // layer4 in the stand-alone convolution benchmark, lost it in the network
  // on both machines and are not here.
  // 16-bit: 128x128 with a 64-element K step at three stages (most layers;
  // narrowed to 128x64 for the 64-channel layer1 on the H100) or two
  // (buffers that leave room for three blocks per SM), 256x64 at four stages
  // for layer1 on the H200, one warp group over 128x64 for the stem GEMM and
  // the smallest 1x1 downsample, and over 128x64x64 for layer1 (buffers for
  // three blocks per SM in Triton's copy order, mgp-pipeline).
  static const ConvConfig sixteenBit[] = {
      make(128, 128, 64, 8, 3), make(128, 128, 64, 8, 2),
      make(256, 64, 32, 8, 4),  make(128, 64, 32, 4, 3),
      make(128, 64, 64, 4, 3),
  };
  // tf32: twice the operand bytes per K step; 128x128x32 wins most layers;
  // 128x128x32 with its reduction split in two (196 tiles of 72 steps on
  // 132 SMs become 392 of 36) the two 512-channel convolutions of layer4.1
  // and layer4.0's second one on the H100; one warp group over 128x64x32
  // (three blocks per SM) the stem GEMM. A channel chunk's taps as
  // consecutive steps (ConvConfig::aL1), on the H100: 128x128x32 with the A
  // tile through L1 (aL1 1) layer1's convolutions with a residual and
  // layers 2-4's first ones; 256x64x32 through L1 layer1's first
  // convolutions (0.1611 against 0.1639 ms for the next best, H100);
  // 128x128x32 with the L2-only copies (aL1 2) the downsamples and
  // layer2.1.conv1 (the network 2.506-2.510 ms against 2.522-2.527 without
  // aL1 2); the 16-bit dots lost with either order. 64x128x32 and
  // 128x128x16 (picked for layer4 and a downsample by earlier builds) won
  // no layer of the network on the H100 in the tuner's timing, and left the
  // list: each tile is about 10 kernels more to compile at a cold start.
  static const ConvConfig tf32[] = {
      make(128, 128, 32, 8, 3),
      splitInTwo(make(128, 128, 32, 8, 3)),
      make(128, 64, 32, 4, 3),
      throughL1(make(128, 128, 32, 8, 3)),
      throughL1(make(256, 64, 32, 8, 3)),
      chunksFirst(make(128, 128, 32, 8, 3)),
  };
  // tf32x3 (fp32): the split operands take more shared memory, so the
  // 256x64 tile never launches; 128x128x64 (two stages) won only a 1x1
  // downsample by 7 us and its kernels took up to 1 s each to compile.
  static const ConvConfig tf32x3[] = {
      make(128, 128, 32, 8, 3),
      make(64, 128, 32, 8, 3),
      make(128, 128, 16, 8, 3),
  };
  switch (dot) {
  case TuneDot::SixteenBit:
    return sixteenBit;
  case TuneDot::TF32:
    return tf32;
  case TuneDot::TF32x3:
    return tf32x3;
  }
  return tf32;
}

/// The cache key of convolution `node`'s problem: convTuneKey, and the
/// activation type when it is 16-bit.
static std::string problemKey(const Graph &graph, int node,
                              const ConvTunerOptions &options) {
  std::string key =
      convTuneKey(graph, node, options.deviceName,
                  dotPrecisionKey(options.launch));
  if (options.activation != DType::F32)
    key += ("|" + dtypeName(options.activation)).str();
  return key;
}

ConvTunerOptions mgp::graph::getConvTunerOptions(const DeviceProperties &props,
                                                 const Target &target,
                                                 const PlanOptions &plan,
                                                 llvm::raw_ostream *log) {
  ConvTunerOptions tuner;
  tuner.deviceName = convTuneDevice(props.name, target.arch());
  tuner.compile.target = target;
  tuner.launch = getLaunchOptions(plan);
  tuner.activation = activationType(plan.precision);
  tuner.log = log;
  return tuner;
}

std::map<int, ConvConfig> mgp::graph::cachedConvConfigs(
    const Graph &graph, const ConvTunerOptions &options, ConvTuneCache &cache) {
  std::map<int, ConvConfig> configs;
  for (int i = 0, e = int(graph.nodes.size()); i < e; ++i)
    if (isConvNode(graph, i))
      if (auto config = cache.lookup(problemKey(graph, i, options)))
        configs[i] = *config;
  return configs;
}

bool mgp::graph::tunesOneCandidate(double macs, double totalMacs) {
  // ResNet18's three 1x1 downsamples are 0.7 % each: on the H100 their
  // best candidate beat the list's first by at most 1 us in all (tf32 and
  // fp16), and their 15 tf32 candidate kernels took a fifth of a cold
  // start's tuning.
  return macs < 0.02 * totalMacs;
}

namespace {
/// One problem to time: its first node and the candidates' launches.
struct Problem {
  std::string key;
  int node = -1;
  std::vector<int> nodes; ///< every node with this key
  double macs = 0;        ///< of all its nodes
  std::vector<ConvConfig> configs;
  std::vector<std::vector<KernelLaunch>> launches; ///< per config
};

/// Scratch buffers of one problem, by graph value.
struct Scratch {
  std::map<int, DeviceBuffer> values;
  std::optional<DeviceBuffer> workspace;
};
} // namespace

static llvm::Error zero(const DeviceBuffer &buffer, size_t bytes) {
  auto driver = CudaDriver::get();
  if (!driver)
    return driver.takeError();
  return driver->check(driver->cuMemsetD8(buffer.address(), 0, bytes),
                       "cuMemsetD8");
}

/// Buffers for every value and workspace `launches` use, zeroed.
static llvm::Error allocateScratch(const Graph &graph,
                                   llvm::ArrayRef<KernelLaunch> launches,
                                   Scratch &scratch) {
  for (const KernelLaunch &launch : launches) {
    for (const LaunchParam &p : launch.params)
      if (p.kind == LaunchParam::Kind::Buffer &&
          !scratch.values.count(p.value)) {
        size_t bytes = size_t(numElements(graph.values[p.value].shape)) * 4;
        auto buffer = DeviceBuffer::allocate(std::max<size_t>(bytes, 4));
        if (!buffer)
          return buffer.takeError();
        if (llvm::Error e = zero(*buffer, bytes))
          return e;
        scratch.values.emplace(p.value, std::move(*buffer));
      }
    if (launch.workspace > 0 &&
        (!scratch.workspace ||
         scratch.workspace->size() < size_t(launch.workspace) * 4)) {
      auto buffer = DeviceBuffer::allocate(size_t(launch.workspace) * 4);
      if (!buffer)
        return buffer.takeError();
      scratch.workspace.emplace(std::move(*buffer));
    }
  }
  return llvm::Error::success();
}

namespace {
/// Every candidate kernel loaded, by launch key, or why it did not load.
struct LoadedCandidates {
  std::map<std::string, LoadedKernel> kernels;
  std::map<std::string, std::string> errors;
};

/// A candidate's launches, loaded and with their argument slots.
struct ReadyCandidate {
  std::vector<LoadedKernel *> kernels;
  std::vector<LaunchConfig> configs;
  std::vector<std::vector<uint64_t>> slots;
};
} // namespace

/// Loads the kernels of every launch in `all` together (their JITs in
/// parallel: one at a time they were most of a cold start).
static LoadedCandidates loadCandidates(llvm::ArrayRef<KernelLaunch> all,
                                       const GpuKernelSet &set) {
  std::vector<std::string> keys;
  std::vector<LoadedKernel::Request> requests;
  std::set<std::string> seen;
  for (const KernelLaunch &launch : all) {
    std::string key = launch.key();
    if (!seen.insert(key).second)
      continue;
    keys.push_back(key);
    requests.push_back(set.loadRequest(key, "'" + launch.kernel + "'"));
  }
  LoadedCandidates candidates;
  std::vector<llvm::Expected<LoadedKernel>> loaded =
      LoadedKernel::loadAll(requests);
  for (size_t i = 0; i < loaded.size(); ++i) {
    if (loaded[i])
      candidates.kernels.emplace(keys[i], std::move(*loaded[i]));
    else
      candidates.errors[keys[i]] = llvm::toString(loaded[i].takeError());
  }
  return candidates;
}

static llvm::Expected<ReadyCandidate>
prepareCandidate(llvm::ArrayRef<KernelLaunch> launches,
                 LoadedCandidates &loaded, const Scratch &scratch,
                 CUstream stream) {
  ReadyCandidate ready;
  for (const KernelLaunch &launch : launches) {
    std::string key = launch.key();
    auto found = loaded.kernels.find(key);
    if (found == loaded.kernels.end())
      return llvm::createStringError(loaded.errors[key]);
    const CompiledKernel &kernel = *found->second.kernel;
    ready.kernels.push_back(&found->second);
    LaunchConfig config;
    for (int i = 0; i < 3; ++i)
      config.grid[i] = unsigned(launch.grid[i]);
    config.numWarps = kernel.numWarps;
    config.sharedBytes = kernel.sharedBytes;
    config.stream = stream;
    ready.configs.push_back(config);
    std::vector<uint64_t> slots;
    for (const LaunchParam &p : launch.params) {
      uint64_t slot = 0;
      switch (p.kind) {
      case LaunchParam::Kind::Buffer:
        slot = scratch.values.find(p.value)->second.address();
        break;
      case LaunchParam::Kind::Workspace:
        slot = scratch.workspace->address();
        break;
      case LaunchParam::Kind::Int: {
        int32_t value = int32_t(p.intValue);
        std::memcpy(&slot, &value, sizeof(value));
        break;
      }
      case LaunchParam::Kind::Float: {
        float value = float(p.floatValue);
        std::memcpy(&slot, &value, sizeof(value));
        break;
      }
      case LaunchParam::Kind::Constexpr:
        continue;
      }
      slots.push_back(slot);
    }
    ready.slots.push_back(std::move(slots));
  }
  return std::move(ready);
}

static llvm::Error launchOnce(ReadyCandidate &ready) {
  for (size_t i = 0; i < ready.kernels.size(); ++i) {
    std::vector<void *> args;
    for (uint64_t &slot : ready.slots[i])
      args.push_back(&slot);
    if (llvm::Error e =
            ready.kernels[i]->function.launch(ready.configs[i], args.data()))
      return e;
  }
  return llvm::Error::success();
}

/// Milliseconds per run of `launches` (a warm-up, then kTimedRuns).
static llvm::Expected<double>
timeCandidate(llvm::ArrayRef<KernelLaunch> launches, LoadedCandidates &loaded,
              const Scratch &scratch, Stream &stream) {
  auto ready = prepareCandidate(launches, loaded, scratch, stream.handle());
  if (!ready)
    return ready.takeError();
  auto start = Event::create();
  auto end = Event::create();
  if (!start)
    return start.takeError();
  if (!end)
    return end.takeError();
  if (llvm::Error e = launchOnce(*ready))
    return std::move(e);
  if (llvm::Error e = start->record(stream.handle()))
    return std::move(e);
  for (int run = 0; run < kTimedRuns; ++run)
    if (llvm::Error e = launchOnce(*ready))
      return std::move(e);
  if (llvm::Error e = end->record(stream.handle()))
    return std::move(e);
  if (llvm::Error e = end->synchronize())
    return std::move(e);
  auto ms = Event::elapsedMs(*start, *end);
  if (!ms)
    return ms.takeError();
  return double(*ms) / kTimedRuns;
}

llvm::Expected<std::map<int, ConvConfig>> mgp::graph::tuneConvolutions(
    const Graph &graph, const ConvTunerOptions &options, ConvTuneCache &cache) {
  auto start = std::chrono::steady_clock::now();
  std::map<int, ConvConfig> chosen;
  std::map<std::string, Problem> problems;
  bool tensorCores = dotPrecision(options.launch) == DotPrecision::TF32;
  std::vector<DType> types = planStorageTypes(graph, options.activation);
  double totalMacs = 0;
  for (int i = 0, e = int(graph.nodes.size()); i < e; ++i) {
    if (!isConvNode(graph, i))
      continue;
    std::string key = problemKey(graph, i, options);
    auto [it, inserted] = problems.try_emplace(key);
    it->second.nodes.push_back(i);
    double macs = double(nodeMacs(graph, i));
    it->second.macs += macs;
    totalMacs += macs;
    if (!inserted)
      continue;
    it->second.key = key;
    it->second.node = i;
  }
  // Problems in the cache are done; the others get their candidates, with
  // the size of their tiles (what their compile time grows with).
  std::vector<std::pair<int64_t, KernelLaunch>> sized;
  std::vector<Problem *> toTune;
  for (auto &[key, problem] : problems) {
    if (auto config = cache.lookup(key)) {
      for (int node : problem.nodes)
        chosen[node] = *config;
      continue;
    }
    std::set<std::string> seen;
    // wgmma: a tensor-core dot on sm_90a (tf32, tf32x3, fp16, bf16).
    bool wgmma = options.compile.target.hasWgmma() &&
                 (tensorCores || options.activation != DType::F32);
    TuneDot dot = options.activation != DType::F32 ? TuneDot::SixteenBit
                  : options.launch.tf32x3          ? TuneDot::TF32x3
                                                   : TuneDot::TF32;
    llvm::ArrayRef<ConvConfig> candidates = convTuneCandidates(wgmma, dot);
    if (tunesOneCandidate(problem.macs, totalMacs))
      candidates = candidates.take_front();
    for (const ConvConfig &config : candidates) {
      std::vector<KernelLaunch> launches =
          planConvLaunches(graph, problem.node, config, options.launch);
      assignBufferTypes(launches, types);
      std::string id;
      for (const KernelLaunch &launch : launches)
        id += launch.key() + ";";
      if (!seen.insert(id).second)
        continue; // the same kernels once clamped to the problem
      problem.configs.push_back(config);
      problem.launches.push_back(launches);
      for (const KernelLaunch &launch : launches)
        sized.push_back(
            {config.blockM * config.blockN * config.blockK, launch});
    }
    toTune.push_back(&problem);
  }
  if (toTune.empty())
    return std::move(chosen);
  // The largest tiles compile first, so that the parallel compile phase
  // does not end waiting for one of them.
  std::stable_sort(
      sized.begin(), sized.end(),
      [](const auto &a, const auto &b) { return a.first > b.first; });
  std::vector<KernelLaunch> all;
  for (auto &[size, launch] : sized)
    all.push_back(std::move(launch));

  GpuCompileOptions compileOptions = options.compile;
  compileOptions.progress = nullptr;
  compileOptions.jitImages = true;
  auto set = compileGpuKernels(all, compileOptions);
  if (!set) {
    // A candidate the compiler rejects must not stop the run: the untuned
    // layers keep the defaults (whose own compile reports real errors).
    if (options.log)
      *options.log << "mgp: warning: convolution tuning skipped: "
                   << llvm::toString(set.takeError()) << "\n";
    else
      llvm::consumeError(set.takeError());
    return std::move(chosen);
  }
  auto compiled = std::chrono::steady_clock::now();
  LoadedCandidates loaded = loadCandidates(all, *set);
  auto timingStart = std::chrono::steady_clock::now();
  auto stream = Stream::create();
  if (!stream)
    return stream.takeError();
  for (Problem *problem : toTune) {
    Scratch scratch;
    std::vector<KernelLaunch> used;
    for (const auto &launches : problem->launches)
      used.insert(used.end(), launches.begin(), launches.end());
    if (llvm::Error e = allocateScratch(graph, used, scratch))
      return std::move(e);
    double best = std::numeric_limits<double>::infinity();
    std::optional<size_t> winner;
    // MGP_DEBUG=1: every candidate's time, so a candidate list can be judged.
    bool debug = options.log && isEnvOn(EnvVar::Debug);
    std::string times;
    for (size_t c = 0; c < problem->configs.size(); ++c) {
      auto ms = timeCandidate(problem->launches[c], loaded, scratch, *stream);
      if (!ms) {
        // e.g. more shared memory than the device has: not a candidate.
        if (options.log)
          *options.log << "mgp: tuning: candidate "
                       << formatConvConfig(problem->configs[c]) << " of '"
                       << graph.values[graph.nodes[problem->node].result].name
                       << "' failed: " << llvm::toString(ms.takeError())
                       << "\n";
        else
          llvm::consumeError(ms.takeError());
        continue;
      }
      if (debug)
        times += llvm::formatv(" {0} {1:F4}",
                               formatConvConfig(problem->configs[c]), *ms);
      if (*ms < best) {
        best = *ms;
        winner = c;
      }
    }
    if (!winner)
      continue;
    const ConvConfig &picked = problem->configs[*winner];
    if (debug)
      *options.log << "mgp: tuning '"
                   << graph.values[graph.nodes[problem->node].result].name
                   << "': picked " << formatConvConfig(picked) << " of (ms)"
                   << times << "\n";
    for (int node : problem->nodes)
      chosen[node] = picked;
    if (options.images)
      for (const KernelLaunch &launch : problem->launches[*winner]) {
        std::string key = launch.key();
        auto image = set->images.find(key);
        if (image != set->images.end())
          options.images->try_emplace(key, image->second);
      }
    if (llvm::Error e = cache.store(problem->key, picked)) {
      if (options.log)
        *options.log << "mgp: warning: " << llvm::toString(std::move(e))
                     << "\n";
      else
        llvm::consumeError(std::move(e));
    }
  }
  auto seconds = [](auto from, auto to) {
    return std::chrono::duration<double>(to - from).count();
  };
  auto end = std::chrono::steady_clock::now();
  if (options.log)
    *options.log << llvm::formatv(
        "gpu: tuned {0} convolution shapes ({1} candidate kernels) in {2:F2} "
        "s (compile and driver JIT {3:F2} s, module loads {4:F2} s, timing "
        "{5:F2} s)\n",
        toTune.size(), set->kernels.size(), seconds(start, end),
        seconds(start, compiled), seconds(compiled, timingStart),
        seconds(timingStart, end));
  return std::move(chosen);
}

llvm::Expected<ModelPlan>
mgp::graph::planGpuModelFromCache(const Graph &graph, Precision precision) {
  PlanOptions plan;
  plan.precision = precision;
  plan.gpu = true;
  auto device = Device::open(0);
  if (!device) {
    llvm::consumeError(device.takeError()); // no GPU: no split-K, no tuning
    return planModel(graph, plan);
  }
  const DeviceProperties &props = device->properties();
  plan.numSMs = props.smCount;
  if (convTuningEnabled()) {
    auto target = getDeviceTarget(props);
    if (!target)
      return target.takeError();
    ConvTuneCache cache(ConvTuneCache::directoryFromEnvironment(),
                        llvm::errs());
    plan.tuned = cachedConvConfigs(
        graph, getConvTunerOptions(props, *target, plan), cache);
  }
  return planModel(graph, plan);
}
