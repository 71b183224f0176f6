//===- ConvTuner.h - Per-layer convolution configs on the GPU ---*- C++ -*-===//
//
// This file implements the GPU backend's convolution tuner: the first time a
// convolution problem (graph/tune/ConvTuneCache.h's key: device, kernel, shapes,
// flags, precision) is seen, a small candidate set of block configurations
// (BM, BN, BK, warps, stages) is compiled in parallel (the compile phase's
// ThreadPool and kernel cache), each candidate is timed with CUDA events on
// scratch buffers, and the fastest is stored under MGP_CACHE_DIR/conv-tune/.
// MGP_TUNE=off keeps the defaults; MGP_CONV_CONFIG overrides everything.
//
//===----------------------------------------------------------------------===//

#ifndef MGP_GRAPH_CONVTUNER_H
#define MGP_GRAPH_CONVTUNER_H

#include "graph/tune/ConvTuneCache.h"
#include "graph/backends/gpu/GpuBackendCompile.h"
#include "graph/ModelPlan.h"

#include "runtime/Device.h"

#include <map>

namespace mgp::graph {

/// What the tuner needs to know about the device and the run.
struct ConvTunerOptions {
  /// Part of every key: the device and the arch compiled for
  /// (`NVIDIA H200 sm_90a`).
  std::string deviceName;
  GpuCompileOptions compile;
  LaunchOptions launch; ///< tf32 and numSMs as the real plan has them
  /// The activations' type (fp16/bf16 under --precision fp16|bf16): the
  /// candidates are timed with 16-bit buffers, under keys ending `|fp16`.
  DType activation = DType::F32;
  llvm::raw_ostream *log = nullptr; ///< progress and warnings; may be null
  /// Where the JIT images of the picked candidates' kernels go, by
  /// KernelLaunch::key(), for the plan's compile phase
  /// (GpuCompileOptions::knownImages); may be null.
  llvm::StringMap<DeviceImage> *images = nullptr;
};

/// Whether tuning is on: MGP_TUNE is not off|0|false|no and MGP_CONV_CONFIG
/// is not set.
bool convTuningEnabled();

/// The kind of tensor-core dot a convolution runs (wgmma candidates differ).
enum class TuneDot { SixteenBit, TF32, TF32x3 };

/// The candidate configurations timed for every problem: with `wgmma`
/// (tensor-core dots compiled for sm_90a) the warp-group tiles that can win
/// there for `dot`, else the mma.sync / FMA list (`dot` ignored).
llvm::ArrayRef<ConvConfig> convTuneCandidates(bool wgmma,
                                              TuneDot dot = TuneDot::TF32);

/// Whether a problem whose nodes do `macs` of the graph's `totalMacs`
/// convolution multiply-adds (nodeMacs, graph/ModelStats.h) is too small a
/// share (under 2 %) to be worth its candidates' compile time: it takes the
/// candidate list's first, which is stored as its pick (tuneConvolutions).
bool tunesOneCandidate(double macs, double totalMacs);

/// The tuned configuration of every convolution of `graph` (folded and
/// fused, shapes inferred), by node index: from `cache`, else timed now on
/// the current context's device and stored. A node whose candidates all fail
/// to launch keeps the default (not stored); when the candidates do not
/// compile, a warning and every untuned node keeps the default. Errors:
/// device allocation and stream creation.
llvm::Expected<std::map<int, ConvConfig>>
tuneConvolutions(const Graph &graph, const ConvTunerOptions &options,
                 ConvTuneCache &cache);

/// The tuner's options for a plan with `plan` (its launch options and
/// activation type) on a device with `props` compiled for `target`: what the
/// gpu backend tunes with and `--info` looks tuned configurations up with.
ConvTunerOptions getConvTunerOptions(const DeviceProperties &props,
                                     const Target &target,
                                     const PlanOptions &plan,
                                     llvm::raw_ostream *log = nullptr);

/// The stored configurations only (no timing), under the keys
/// tuneConvolutions stores them with.
std::map<int, ConvConfig> cachedConvConfigs(const Graph &graph,
                                            const ConvTunerOptions &options,
                                            ConvTuneCache &cache);

/// The plan the gpu backend makes for `graph` (folded, fused) at `precision`
/// on GPU 0 - its SM count and the tuned configurations it stored, without
/// timing anything - for `mgp-run --info` and `--list-kernels`. Without a GPU,
/// the gpu plan without split-K or tuning.
llvm::Expected<ModelPlan> planGpuModelFromCache(const Graph &graph,
                                                Precision precision);

} // namespace mgp::graph

#endif // MGP_GRAPH_CONVTUNER_H
