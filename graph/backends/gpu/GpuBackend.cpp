//===- GpuBackend.cpp - The `gpu` device: mgp kernels through the driver --===//
//
// This file implements the GPU backend. prepare() folds BatchNorm, fuses the
// epilogues, plans the launches and the activation arena, compiles every
// distinct specialization (GpuBackendCompile), loads each PTX module, uploads
// the weights into one buffer, allocates the arena and builds each launch's
// argument slots once (every address is fixed from then on). run() copies the
// input into the arena, launches every kernel on one stream (a launch
// independent of the one before it on a second stream beside it,
// graph/backends/gpu/GpuBackendConcurrency.h; with events
// around each launch when profiling; otherwise replayed as a CUDA graph from
// the second run on, graph/backends/gpu/GpuBackendGraph.h) and copies the
// outputs back, both through pinned host buffers allocated in prepare()
// (graph/backends/gpu/GpuBackendStaging.h).
//
//===----------------------------------------------------------------------===//

#include "graph/backends/gpu/GpuBackend.h"

#include "graph/ModelStats.h"
#include "graph/backends/gpu/GpuBackendArena.h"
#include "graph/backends/gpu/GpuBackendConcurrency.h"
#include "graph/backends/gpu/GpuBackendGraph.h"
#include "graph/backends/gpu/GpuBackendStaging.h"
#include "graph/ir/StorageTypes.h"
#include "graph/passes/FoldBatchNorm.h"
#include "graph/passes/FuseEpilogue.h"
#include "graph/passes/NhwcLayout.h"
#include "graph/passes/Tf32Rounding.h"
#include "graph/tune/ConvTuner.h"

#include "compiler/api/Environment.h"
#include "runtime/Device.h"
#include "runtime/DeviceBuffer.h"
#include "runtime/Event.h"
#include "runtime/LoadedKernel.h"
#include "runtime/Stream.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/Parallel.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <map>
#include <optional>
#include <set>
#include <thread>
#include <utility>

using namespace mgp;
using namespace mgp::graph;

static llvm::Error backendError(const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), msg);
}

/// stderr when MGP_DEBUG is set to something other than "" and "0", else
/// null: where a fallback the user would not otherwise see is noted.
static llvm::raw_ostream *debugNotes() {
  return isEnvOn(EnvVar::Debug) ? &llvm::errs() : nullptr;
}

namespace {
/// One node's launch, ready to go.
struct ReadyLaunch {
  Function *function = nullptr;
  LaunchConfig config;
  std::vector<uint64_t> slots; ///< one per non-constexpr parameter
  std::vector<void *> args;    ///< pointers into `slots`
  int profileIndex = -1;       ///< entry in `profileTotals`
  int layerIndex = -1;         ///< entry in `layerTotals`
  double flops = 0;            ///< 2 x the node's MACs (ModelStats)
  std::string label;           ///< the node's value name, for errors
  /// >= 0: the launch runs on `sideStream` beside the launch before it, with
  /// forkEvents/joinEvents[sideIndex] (planSideLaunches).
  int sideIndex = -1;
};

class GpuBackendImpl : public GpuBackend {
public:
  GpuBackendImpl(const BackendOptions &options, Device device)
      : options(options), device(std::move(device)),
        forward(cudaGraphsAllowedByEnvironment()),
        pinnedRequested(pinnedStagingAllowedByEnvironment()) {}
  GpuBackendImpl(const BackendOptions &options,
                 std::shared_ptr<GpuDeviceOpening> opening)
      : options(options), opening(std::move(opening)),
        forward(cudaGraphsAllowedByEnvironment()),
        pinnedRequested(pinnedStagingAllowedByEnvironment()) {}

  llvm::Error prepare(const Graph &graph, const WeightMap &weights) override;
  llvm::Expected<std::vector<Tensor>>
  run(llvm::ArrayRef<Tensor> inputs) override;

  void setProfiling(bool enabled) override { profiling = enabled; }
  void setCudaGraph(bool enabled) override { forward.setEnabled(enabled); }
  bool cudaGraphEnabled() const override { return forward.isEnabled(); }
  void setPinnedStaging(bool enabled) override;
  bool pinnedStaging() const override { return staging.isPinned(); }
  unsigned sideLaunches() const override {
    return static_cast<unsigned>(forkEvents.size());
  }
  unsigned graphReplays() const override { return forward.replays(); }
  size_t graphNodes() const override { return forward.nodes(); }
  std::vector<KernelProfileEntry> profile() const override;
  std::vector<KernelProfileEntry> layerProfile() const override;
  double lastKernelMs() const override { return kernelMs; }
  const GpuCompileStats &compileStats() const override { return stats; }
  const ModelPlan *plan() const override { return &modelPlan; }
  llvm::StringRef arch() const override { return target.arch(); }
  const std::vector<GpuPrepareStep> &prepareSteps() const override {
    return steps;
  }

private:
  /// Ends prepare()'s current step, named `name` (prepareSteps()).
  void endStep(llvm::StringRef name);
  llvm::Error joinDevice();
  llvm::Error chooseArch();
  void packWeights(const WeightMap &weights);
  llvm::Error uploadWeights(std::vector<CUdeviceptr> &addressOf);
  llvm::Error buildLaunches(const GpuKernelSet &set,
                            llvm::ArrayRef<CUdeviceptr> addressOf);
  llvm::Error launchAll();
  llvm::Error enqueueLaunches(bool timed);

  BackendOptions options;
  std::optional<Device> device; ///< set once `opening` is joined
  std::shared_ptr<GpuDeviceOpening> opening;
  std::vector<GpuPrepareStep> steps;
  std::chrono::steady_clock::time_point stepStart;
  Target target; ///< getDeviceTarget's
  Model model;
  ModelPlan modelPlan; ///< the launches (graph/ModelPlan.h)
  ArenaPlan arenaPlan;
  GpuCompileStats stats;
  std::optional<DeviceBuffer> weightBuffer, arena;
  std::vector<bool> nhwc;                ///< by value: stored NHWC
  std::vector<DType> types;              ///< by value: fp32 or fp16/bf16
  std::optional<DeviceBuffer> workspace; ///< split-K partial sums
  std::optional<Stream> stream;
  /// Launches beside the one before them (none when MGP_SIDE_STREAM=off):
  /// per launch, and the stream and events that run them.
  std::vector<bool> sideLaunch;
  std::optional<Stream> sideStream;
  std::vector<Event> forkEvents, joinEvents;
  std::map<std::string, LoadedKernel> loaded; ///< by KernelLaunch::key()
  std::vector<ReadyLaunch> ready;
  std::vector<Event> launchEvents; ///< launches + 1 (profiling)
  std::vector<KernelProfileEntry> profileTotals;
  std::vector<KernelProfileEntry> layerTotals; ///< per node, in node order
  bool profiling = false;
  double kernelMs = 0;
  ForwardGraph forward;
  bool pinnedRequested;
  HostStaging staging; ///< run()'s copies (after `device`: freed before it)
  /// The weights as uploaded (packWeights; freed once on the device), and
  /// each parameter's offset in them.
  std::unique_ptr<char[]> packedWeights;
  int64_t packedBytes = 0;
  std::vector<int64_t> weightOffset;
};
} // namespace

void GpuBackendImpl::endStep(llvm::StringRef name) {
  auto now = std::chrono::steady_clock::now();
  steps.push_back(
      {name.str(),
       std::chrono::duration<double, std::milli>(now - stepStart).count()});
  stepStart = now;
}

llvm::Error GpuBackendImpl::joinDevice() {
  if (device)
    return llvm::Error::success();
  auto opened = opening->take();
  opening.reset();
  if (!opened)
    return opened.takeError();
  device.emplace(std::move(*opened));
  return llvm::Error::success();
}

llvm::Error GpuBackendImpl::chooseArch() {
  llvm::Expected<Target> chosen = getDeviceTarget(device->properties());
  if (!chosen)
    return chosen.takeError();
  target = std::move(*chosen);
  return llvm::Error::success();
}

/// One host buffer for one upload, filled on all cores before the device is
/// needed, and not zeroed first (each parameter zeroes only its alignment
/// padding).
void GpuBackendImpl::packWeights(const WeightMap &weights) {
  const Graph &graph = model.graph;
  int64_t total = 0;
  std::vector<int64_t> &offsetOf = weightOffset;
  offsetOf.assign(graph.values.size(), -1);
  for (int param : graph.params) {
    offsetOf[param] = total;
    total += static_cast<int64_t>(llvm::alignTo(
        numElements(graph.values[param].shape) * dtypeBytes(types[param]),
        kArenaAlignment));
  }
  packedBytes = total;
  packedWeights.reset(new char[std::max<int64_t>(total, 1)]);
  char *host = packedWeights.get();
  llvm::parallelFor(0, graph.params.size(), [&](size_t i) {
    int param = graph.params[i];
    const Tensor &weight = weights.find(graph.values[param].name)->second;
    char *at = host + offsetOf[param];
    size_t bytes = weight.data.size() * dtypeBytes(types[param]);
    if (types[param] == DType::F32)
      std::memcpy(at, weight.data.data(), bytes);
    else // converted once, here (round to nearest even)
      convertFromF32(weight.data, types[param],
                     reinterpret_cast<uint16_t *>(at));
    size_t padded = llvm::alignTo(bytes, kArenaAlignment);
    std::memset(at + bytes, 0, padded - bytes);
  });
}

llvm::Error GpuBackendImpl::uploadWeights(std::vector<CUdeviceptr> &addressOf) {
  const Graph &graph = model.graph;
  int64_t total = packedBytes;
  double needed = double(total) + double(arenaPlan.bytes);
  if (needed > double(device->properties().totalMemory))
    return backendError(llvm::formatv(
        "the weights and activations need {0:F1} GiB, more than the {1:F1} "
        "GiB of {2} (use a smaller --batch or --size)",
        needed / double(1 << 30),
        double(device->properties().totalMemory) / double(1 << 30),
        device->properties().name));
  auto weightsOnDevice = DeviceBuffer::allocate(std::max<int64_t>(total, 1));
  if (!weightsOnDevice)
    return weightsOnDevice.takeError();
  weightBuffer.emplace(std::move(*weightsOnDevice));
  endStep("allocate the weight buffer");
  for (int param : graph.params)
    addressOf[param] = weightBuffer->address() + weightOffset[param];
  if (total > 0)
    if (llvm::Error e =
            weightBuffer->copyFromHost(packedWeights.get(), size_t(total)))
      return e;
  packedWeights.reset();
  endStep(llvm::formatv("upload weights ({0:F1} MiB)",
                        double(total) / double(1 << 20))
              .str());
  return llvm::Error::success();
}

llvm::Error
GpuBackendImpl::buildLaunches(const GpuKernelSet &set,
                              llvm::ArrayRef<CUdeviceptr> addressOf) {
  const Graph &graph = model.graph;
  std::map<std::string, int> profileIndex;
  int layerNode = -1;          ///< the node of layerTotals.back()
  bool layerAuxiliary = false; ///< the node's launches so far are auxiliary
  std::vector<double> flopsOf(graph.nodes.size(), 0);
  for (const LayerStats &layer : computeStats(graph).layers)
    flopsOf[layer.node] = 2.0 * double(layer.macs);
  auto gridPrograms = [](const KernelLaunch &launch) {
    return double(launch.grid[0]) * double(launch.grid[1]) *
           double(launch.grid[2]);
  };
  // A node's GEMM: the kernel of its first launch that is not auxiliary (a
  // split-K convolution's partial-sum GEMM, not its epilogue launch; the
  // stem's GEMM, not its packing launch), launched once or more (the fused
  // stem pooling's even and odd rows).
  std::vector<std::string> gemmKernel(graph.nodes.size());
  std::vector<double> gemmPrograms(graph.nodes.size(), 0);
  for (const KernelLaunch &launch : modelPlan.launches) {
    if (launch.aliasOf >= 0 || launch.auxiliary)
      continue;
    if (gemmKernel[launch.node].empty())
      gemmKernel[launch.node] = launch.kernel;
    if (launch.kernel == gemmKernel[launch.node])
      gemmPrograms[launch.node] += gridPrograms(launch);
  }
  // Every kernel not loaded yet, loaded together (their JITs in parallel).
  std::vector<std::string> keys;
  std::vector<LoadedKernel::Request> requests;
  std::set<std::string> requested;
  for (const KernelLaunch &launch : modelPlan.launches) {
    std::string key = launch.key();
    if (launch.aliasOf >= 0 || loaded.count(key) ||
        !requested.insert(key).second)
      continue;
    keys.push_back(key);
    requests.push_back(set.loadRequest(
        key, "'" + launch.kernel + "' [" + launch.signature() + "]"));
  }
  auto loadStart = std::chrono::steady_clock::now();
  std::vector<llvm::Expected<LoadedKernel>> kernels =
      LoadedKernel::loadAll(requests);
  stats.loadSeconds += std::chrono::duration<double>(
                           std::chrono::steady_clock::now() - loadStart)
                           .count();
  llvm::Error firstError = llvm::Error::success();
  for (size_t i = 0; i < kernels.size(); ++i) {
    if (kernels[i])
      loaded.emplace(keys[i], std::move(*kernels[i]));
    else if (firstError)
      llvm::consumeError(kernels[i].takeError());
    else
      firstError = kernels[i].takeError();
  }
  if (firstError)
    return firstError;
  int sideLaunches = 0;
  for (size_t index = 0; index < modelPlan.launches.size(); ++index) {
    const KernelLaunch &launch = modelPlan.launches[index];
    if (launch.aliasOf >= 0)
      continue;
    auto found = loaded.find(launch.key());
    const CompiledKernel &kernel = *found->second.kernel;
    ReadyLaunch r;
    r.function = &found->second.function;
    r.label = graph.values[graph.nodes[launch.node].result].name;
    // A node's FLOPs go to its GEMM's launches, by their share of its
    // programs.
    if (!launch.auxiliary && launch.kernel == gemmKernel[launch.node])
      r.flops = flopsOf[launch.node] * gridPrograms(launch) /
                gemmPrograms[launch.node];
    for (int i = 0; i < 3; ++i) {
      assert(launch.grid[i] >= 1 && launch.grid[i] <= (i ? 65535 : INT32_MAX) &&
             "planLaunches keeps grids within the GPU's limits");
      r.config.grid[i] = static_cast<unsigned>(launch.grid[i]);
    }
    r.config.numWarps = kernel.numWarps;
    r.config.sharedBytes = kernel.sharedBytes;
    r.config.stream = stream->handle();
    for (const LaunchParam &p : launch.params) {
      uint64_t slot = 0;
      switch (p.kind) {
      case LaunchParam::Kind::Buffer:
        slot = addressOf[p.value];
        break;
      case LaunchParam::Kind::Workspace:
        slot = workspace->address();
        break;
      case LaunchParam::Kind::Int: {
        int32_t value = static_cast<int32_t>(p.intValue);
        std::memcpy(&slot, &value, sizeof(value));
        break;
      }
      case LaunchParam::Kind::Float: {
        float value = static_cast<float>(p.floatValue);
        std::memcpy(&slot, &value, sizeof(value));
        break;
      }
      case LaunchParam::Kind::Constexpr:
        continue;
      }
      r.slots.push_back(slot);
    }
    std::string profileName = launch.kernel + " " + launch.specialization();
    auto [it, inserted] = profileIndex.try_emplace(
        profileName, static_cast<int>(profileTotals.size()));
    if (inserted)
      profileTotals.push_back({profileName, 0, 0});
    r.profileIndex = it->second;
    if (layerTotals.empty() || layerNode != launch.node) {
      layerNode = launch.node;
      layerTotals.push_back({r.label + " (" + launch.kernel + ")", 0, 0});
    } else if (!launch.auxiliary && layerAuxiliary) {
      // The stem's layer is named for its GEMM, not its packing launch.
      layerTotals.back().kernel = r.label + " (" + launch.kernel + ")";
    }
    layerAuxiliary = launch.auxiliary;
    r.layerIndex = static_cast<int>(layerTotals.size()) - 1;
    if (sideLaunch[index])
      r.sideIndex = sideLaunches++;
    ready.push_back(std::move(r));
  }
  // Pointers into the slots once `ready` no longer moves.
  for (ReadyLaunch &r : ready)
    for (uint64_t &slot : r.slots)
      r.args.push_back(&slot);
  return llvm::Error::success();
}

llvm::Error GpuBackendImpl::prepare(const Graph &graph,
                                    const WeightMap &weights) {
  steps.clear();
  stepStart = std::chrono::steady_clock::now();
  for (int param : graph.params)
    if (!weights.count(graph.values[param].name))
      return backendError("no weights for parameter '" +
                          graph.values[param].name + "'");
  // The host-side steps first: a device still being opened (mgp-run's
  // GpuDeviceOpening) is joined after them.
  model = foldBatchNorm(graph, weights);
  endStep("fold batchnorm");
  model.graph =
      fuseEpilogues(model.graph, kernelFuseOptions(options.precision));
  endStep("fuse epilogues");
  repackConvWeights(model);
  endStep("repack conv weights");
  if (options.precision == Precision::TF32) {
    roundWeightsToTF32(model.graph, model.weights);
    endStep("round weights to tf32");
  }
  nhwc = planNhwcValues(model.graph);
  // fp16/bf16: activations and conv/linear weights 16-bit (StorageTypes.h).
  types = planStorageTypes(model.graph, activationType(options.precision));
  packWeights(model.weights);
  endStep("pack weights on the host");
  if (llvm::Error e = joinDevice())
    return e;
  endStep("wait for the device");
  if (llvm::Error e = chooseArch())
    return e;
  // The plan --info prints for --device gpu (graph/ModelPlan.h,
  // planGpuModelFromCache): its SM count and tuned configurations.
  PlanOptions planOptions;
  planOptions.precision = options.precision;
  planOptions.gpu = true;
  planOptions.numSMs = device->properties().smCount;
  // Sizes the kernels cannot index (a huge --batch) are errors before the
  // tuner runs any kernel on them.
  auto checked = planModel(model.graph, planOptions);
  if (!checked)
    return checked.takeError();
  // tf32 on any graph: refused where a dot would read an unrounded value.
  if (getLaunchOptions(planOptions).roundTF32)
    if (llvm::Error e = checkTF32Rounding(model.graph, checked->launches))
      return e;
  endStep("plan launches");
  // JIT images made before the plan's compile phase (the tuner's picks and
  // the kernels compiled beside it), so that it does not JIT them again.
  llvm::StringMap<DeviceImage> knownImages;
  if (convTuningEnabled()) {
    if (llvm::Error e = device->makeCurrent())
      return e;
    // The kernels that are not convolutions do not depend on the tuning:
    // they compile (into the kernel cache) and JIT-compile while the tuner
    // works. Their errors come again from the compile phase below.
    std::vector<KernelLaunch> untuned;
    for (const KernelLaunch &launch : checked->launches)
      if (!isConvNode(model.graph, launch.node))
        untuned.push_back(launch);
    GpuCompileOptions early;
    early.target = target;
    llvm::StringMap<DeviceImage> earlyImages;
    std::thread earlyCompile([&] {
      // This thread's context, for the JIT.
      if (llvm::Error e = device->makeCurrent())
        llvm::consumeError(std::move(e));
      else
        early.jitImages = true;
      auto set = compileGpuKernels(untuned, early);
      if (set)
        earlyImages = std::move(set->images);
      else
        llvm::consumeError(set.takeError());
    });
    ConvTuneCache cache(ConvTuneCache::directoryFromEnvironment(),
                        llvm::errs());
    ConvTunerOptions tunerOptions = getConvTunerOptions(
        device->properties(), target, planOptions, options.progress);
    tunerOptions.images = &knownImages;
    auto tuned = tuneConvolutions(model.graph, tunerOptions, cache);
    earlyCompile.join();
    for (auto &image : earlyImages)
      knownImages.try_emplace(image.getKey(), std::move(image.getValue()));
    if (!tuned)
      return tuned.takeError();
    planOptions.tuned = std::move(*tuned);
    endStep("conv tuner (tune cache)");
  }
  auto planned = planModel(model.graph, planOptions);
  if (!planned)
    return planned.takeError();
  modelPlan = std::move(*planned);
  assert(modelPlan.types == types && "the plan stores values as packed");
  arenaPlan = planArena(model.graph, modelPlan.launches, elementBytes(types));
  endStep("plan tuned launches and arena");

  // Compiled and JIT-compiled for the device together (in its context).
  if (llvm::Error e = device->makeCurrent())
    return e;
  GpuCompileOptions compileOptions;
  compileOptions.target = target;
  compileOptions.progress = options.progress;
  compileOptions.jitImages = true;
  compileOptions.knownImages = &knownImages;
  auto set = compileGpuKernels(modelPlan.launches, compileOptions);
  if (!set)
    return set.takeError();
  stats = set->stats;
  endStep("compile (kernel cache)");
  std::vector<CUdeviceptr> addressOf(model.graph.values.size(), 0);
  if (llvm::Error e = uploadWeights(addressOf))
    return e;
  auto arenaBuffer =
      DeviceBuffer::allocate(std::max<int64_t>(arenaPlan.bytes, 1));
  if (!arenaBuffer)
    return arenaBuffer.takeError();
  arena.emplace(std::move(*arenaBuffer));
  int64_t workspaceFloats = 1;
  for (const KernelLaunch &launch : modelPlan.launches)
    workspaceFloats = std::max(workspaceFloats, launch.workspace);
  auto workspaceBuffer =
      DeviceBuffer::allocate(workspaceFloats * int64_t(sizeof(float)));
  if (!workspaceBuffer)
    return workspaceBuffer.takeError();
  workspace.emplace(std::move(*workspaceBuffer));
  for (size_t v = 0; v < model.graph.values.size(); ++v)
    if (arenaPlan.offsetOf[v] >= 0)
      addressOf[v] = arena->address() + arenaPlan.offsetOf[v];
  auto newStream = Stream::create();
  if (!newStream)
    return newStream.takeError();
  stream.emplace(std::move(*newStream));
  sideLaunch = planGpuSideLaunches(model.graph, modelPlan);
  if (llvm::is_contained(sideLaunch, true)) {
    auto low = Stream::createLowPriority();
    if (!low)
      return low.takeError();
    sideStream.emplace(std::move(*low));
  }
  for (bool side : sideLaunch) {
    if (!side)
      continue;
    auto fork = Event::create();
    if (!fork)
      return fork.takeError();
    auto join = Event::create();
    if (!join)
      return join.takeError();
    forkEvents.push_back(std::move(*fork));
    joinEvents.push_back(std::move(*join));
  }
  endStep("allocate arena and workspace, create streams");
  std::vector<StagedValue> stagedInputs, stagedOutputs;
  for (int value : model.graph.inputs)
    stagedInputs.push_back(
        {types[value], size_t(numElements(model.graph.values[value].shape)),
         addressOf[value]});
  for (int value : model.graph.outputs)
    stagedOutputs.push_back(
        {types[value], size_t(numElements(model.graph.values[value].shape)),
         arena->address() + arenaPlan.offsetOf[value]});
  staging.setValues(std::move(stagedInputs), std::move(stagedOutputs));
  if (pinnedRequested) {
    staging.allocatePinned(debugNotes());
    endStep(llvm::formatv("allocate pinned staging ({0:F1} MiB)",
                          double(staging.pinnedBytes()) / double(1 << 20))
                .str());
  }
  if (llvm::Error e = buildLaunches(*set, addressOf))
    return e;
  endStep(llvm::formatv("module loads ({0:F1} ms) and launch arguments",
                        stats.loadSeconds * 1e3)
              .str());
  for (size_t i = 0; i <= ready.size(); ++i) {
    auto event = Event::create();
    if (!event)
      return event.takeError();
    launchEvents.push_back(std::move(*event));
  }
  endStep("create events");
  return llvm::Error::success();
}

/// Queues every launch; `timed` records launchEvents[i] before launch i
/// (launchAll records the first and the last event otherwise).
llvm::Error GpuBackendImpl::enqueueLaunches(bool timed) {
  for (size_t i = 0; i < ready.size(); ++i) {
    ReadyLaunch &r = ready[i];
    if (timed && i > 0)
      if (llvm::Error e = launchEvents[i].record(stream->handle()))
        return e;
    // A side launch waits for what came before the launch it runs beside
    // (the fork, recorded before that launch) and the launch after it for
    // the side launch (the join). Timed runs keep one stream.
    if (!timed && i + 1 < ready.size() && ready[i + 1].sideIndex >= 0)
      if (llvm::Error e =
              forkEvents[ready[i + 1].sideIndex].record(stream->handle()))
        return e;
    bool side = !timed && r.sideIndex >= 0;
    LaunchConfig config = r.config;
    if (side) {
      if (llvm::Error e = sideStream->waitFor(forkEvents[r.sideIndex].handle()))
        return e;
      config.stream = sideStream->handle();
    }
    if (llvm::Error e = r.function->launch(config, r.args.data()))
      return backendError("node '" + r.label + "' (" + r.function->name() +
                          "): " + llvm::toString(std::move(e)));
    if (side) {
      if (llvm::Error e = joinEvents[r.sideIndex].record(sideStream->handle()))
        return e;
      if (llvm::Error e = stream->waitFor(joinEvents[r.sideIndex].handle()))
        return e;
    }
  }
  return llvm::Error::success();
}

llvm::Error GpuBackendImpl::launchAll() {
  if (llvm::Error e = launchEvents[0].record(stream->handle()))
    return e;
  // Profiling times each launch, so it runs them eagerly.
  llvm::Error queued =
      profiling ? enqueueLaunches(true) : forward.run(stream->handle(), [this] {
        return enqueueLaunches(false);
      });
  if (queued)
    return queued;
  if (llvm::Error e = launchEvents[ready.size()].record(stream->handle()))
    return e;
  if (llvm::Error e = launchEvents[ready.size()].synchronize())
    return e;
  auto total = Event::elapsedMs(launchEvents[0], launchEvents[ready.size()]);
  if (!total)
    return total.takeError();
  kernelMs = *total;
  if (!profiling)
    return llvm::Error::success();
  for (size_t i = 0; i < ready.size(); ++i) {
    auto ms = Event::elapsedMs(launchEvents[i], launchEvents[i + 1]);
    if (!ms)
      return ms.takeError();
    KernelProfileEntry &entry = profileTotals[ready[i].profileIndex];
    entry.launches += 1;
    entry.ms += *ms;
    entry.flops += ready[i].flops;
    KernelProfileEntry &layer = layerTotals[ready[i].layerIndex];
    layer.launches += 1;
    layer.ms += *ms;
    layer.flops += ready[i].flops;
  }
  return llvm::Error::success();
}

void GpuBackendImpl::setPinnedStaging(bool enabled) {
  pinnedRequested = enabled;
  if (!enabled) {
    staging.dropPinned();
    return;
  }
  if (!stream || staging.isPinned()) // prepare() allocates them
    return;
  if (llvm::Error e = device->makeCurrent()) {
    if (llvm::raw_ostream *note = debugNotes())
      *note << "mgp: gpu backend: no pinned staging ("
            << llvm::toString(std::move(e)) << ")\n";
    else
      llvm::consumeError(std::move(e));
    return;
  }
  staging.allocatePinned(debugNotes());
}

llvm::Expected<std::vector<Tensor>>
GpuBackendImpl::run(llvm::ArrayRef<Tensor> inputs) {
  const Graph &graph = model.graph;
  if (llvm::Error e = checkInputCount(graph, inputs))
    return std::move(e);
  if (llvm::Error e = device->makeCurrent())
    return std::move(e);
  for (size_t i = 0; i < inputs.size(); ++i) {
    const Value &input = graph.values[graph.inputs[i]];
    if (inputs[i].shape != input.shape)
      return backendError("input '" + input.name + "' has shape " +
                          formatShape(inputs[i].shape) + ", expected " +
                          formatShape(input.shape));
    // fp16/bf16: the input is converted on the host on the way.
    if (llvm::Error e = staging.upload(i, inputs[i].data, stream->handle()))
      return std::move(e);
  }
  if (!ready.empty())
    if (llvm::Error e = launchAll())
      return std::move(e);
  for (size_t i = 0; i < graph.outputs.size(); ++i)
    if (llvm::Error e = staging.download(i, stream->handle()))
      return std::move(e);
  if (llvm::Error e = stream->synchronize())
    return std::move(e);
  std::vector<Tensor> outputs;
  for (size_t i = 0; i < graph.outputs.size(); ++i) {
    Tensor tensor;
    tensor.shape = graph.values[graph.outputs[i]].shape;
    tensor.data = staging.output(i);
    outputs.push_back(std::move(tensor));
  }
  for (size_t i = 0; i < outputs.size(); ++i)
    if (nhwc[graph.outputs[i]])
      nhwcToNchw(outputs[i]);
  return std::move(outputs);
}

std::vector<KernelProfileEntry> GpuBackendImpl::profile() const {
  std::vector<KernelProfileEntry> sorted;
  for (const KernelProfileEntry &entry : profileTotals)
    if (entry.launches > 0)
      sorted.push_back(entry);
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const KernelProfileEntry &a,
                      const KernelProfileEntry &b) { return a.ms > b.ms; });
  return sorted;
}

std::vector<KernelProfileEntry> GpuBackendImpl::layerProfile() const {
  std::vector<KernelProfileEntry> layers;
  for (const KernelProfileEntry &entry : layerTotals)
    if (entry.launches > 0)
      layers.push_back(entry);
  return layers;
}

llvm::Expected<std::unique_ptr<GpuBackend>>
mgp::graph::createGpuBackend(const BackendOptions &options) {
  auto device = Device::open(0);
  if (!device)
    return backendError(describeGpuOpenError(device.takeError()));
  return std::make_unique<GpuBackendImpl>(options, std::move(*device));
}

std::unique_ptr<GpuBackend>
mgp::graph::createGpuBackend(const BackendOptions &options,
                             std::shared_ptr<GpuDeviceOpening> opening) {
  return std::make_unique<GpuBackendImpl>(options, std::move(opening));
}

bool mgp::graph::isGpuAvailable() {
  llvm::Expected<bool> present = hasGpu();
  if (!present) {
    // A driver that is there but fails: the GPU is used, so its error shows.
    llvm::consumeError(present.takeError());
    return true;
  }
  return *present;
}

void mgp::graph::registerGpuBackend() {
  registerBackend("gpu",
                  [](const BackendOptions &options)
                      -> llvm::Expected<std::unique_ptr<Backend>> {
                    auto backend = createGpuBackend(options);
                    if (!backend)
                      return backend.takeError();
                    return std::unique_ptr<Backend>(std::move(*backend));
                  });
}
