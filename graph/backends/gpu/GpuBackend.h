//===- GpuBackend.h - mgp kernels on the GPU --------------------*- C++ -*-===//
//
// This file implements the entry points of the `gpu` backend: every node of
// the folded and fused graph runs as its kernels_dsl kernel
// (graph/KernelLaunch.h), compiled to PTX for the device's architecture
// (graph/backends/gpu/GpuBackendCompile.h) and launched through the CUDA
// driver on one stream (a launch independent of the one before it on a
// second, graph/backends/gpu/GpuBackendConcurrency.h), with the weights
// uploaded once and the activations in one arena planned by liveness
// (graph/backends/gpu/GpuBackendArena.h).
//
//===----------------------------------------------------------------------===//

#ifndef MGP_GRAPH_GPUBACKEND_H
#define MGP_GRAPH_GPUBACKEND_H

#include "graph/Backend.h"
#include "graph/backends/gpu/GpuBackendCompile.h"
#include "graph/backends/gpu/GpuBackendProfile.h"
#include "graph/backends/gpu/GpuDeviceOpening.h"

#include <memory>
#include <string>
#include <vector>

namespace mgp::graph {

/// One step of GpuBackend::prepare() and its wall time (MGP_DEBUG=1 mgp-run
/// prints them as `mgp-run: prepare step <name>: <ms> ms`).
struct GpuPrepareStep {
  std::string name;
  double ms = 0;
};

/// The `gpu` device. Precisions: fp32 (every dot "ieee"), tf32 (dot inputs
/// rounded to tf32 on the tensor cores), fp16 and bf16 (activations and
/// conv/linear weights stored 16-bit, converted once at upload; the input
/// converted on the host; fp32 logits; graph/ir/StorageTypes.h).
class GpuBackend : public Backend {
public:
  llvm::StringRef name() const override { return "gpu"; }

  /// When on, run() records an event pair around every launch and adds the
  /// time to profile() (the launches then cannot overlap).
  virtual void setProfiling(bool enabled) = 0;
  /// Whether run() replays the forward pass as a CUDA graph from its second
  /// call on (graph/backends/gpu/GpuBackendGraph.h). On unless MGP_CUDA_GRAPH=off;
  /// profiling runs stay eager.
  virtual void setCudaGraph(bool enabled) = 0;
  virtual bool cudaGraphEnabled() const = 0;
  /// Whether run() copies the graph's inputs and outputs through page-locked
  /// host buffers allocated once in prepare() (graph/backends/gpu/GpuBackendStaging.h),
  /// so that the transfers are DMAs. On unless MGP_PINNED=off. Turning it
  /// off frees the buffers; turning it on after prepare() allocates them. A
  /// failed allocation keeps the pageable copies (MGP_DEBUG=1 notes it).
  virtual void setPinnedStaging(bool enabled) = 0;
  /// Whether run() copies through pinned buffers now.
  virtual bool pinnedStaging() const = 0;
  /// Launches that run on a second stream beside the launch before them
  /// (graph/backends/gpu/GpuBackendConcurrency.h; 0 with MGP_SIDE_STREAM=off).
  /// Profiling runs queue them on the main stream all the same.
  virtual unsigned sideLaunches() const = 0;
  /// Graph replays so far (the capturing run counts) and the graph's nodes.
  virtual unsigned graphReplays() const = 0;
  virtual size_t graphNodes() const = 0;
  /// Per-node totals since prepare() (the node's value name and kernel; a
  /// split-K convolution's two launches count as its node), in node order.
  virtual std::vector<KernelProfileEntry> layerProfile() const = 0;
  /// Per-specialization totals since prepare(), largest first.
  virtual std::vector<KernelProfileEntry> profile() const = 0;
  /// GPU milliseconds from the first to the last launch of the last run()
  /// (input upload and output download excluded).
  virtual double lastKernelMs() const = 0;
  /// What prepare()'s compile phase did.
  virtual const GpuCompileStats &compileStats() const = 0;
  /// The architecture kernels are compiled for (from the device).
  virtual llvm::StringRef arch() const = 0;
  /// prepare()'s steps in order, with their wall times.
  virtual const std::vector<GpuPrepareStep> &prepareSteps() const = 0;
};

/// Opens GPU 0; an error when there is no driver or no GPU.
llvm::Expected<std::unique_ptr<GpuBackend>>
createGpuBackend(const BackendOptions &options);

/// The backend on a device still being opened: prepare() does its
/// host-side steps (BatchNorm folding, fusion, weight repacking and
/// packing) first and then joins `opening`; its error (the same as
/// createGpuBackend's) is prepare()'s.
std::unique_ptr<GpuBackend>
createGpuBackend(const BackendOptions &options,
                 std::shared_ptr<GpuDeviceOpening> opening);

/// False only when there is no GPU here (no driver library or no device); a
/// driver that is there but fails counts as available, so that whoever uses
/// the GPU reports its error instead of falling back or skipping.
bool isGpuAvailable();

/// Registers createGpuBackend as device `gpu`.
void registerGpuBackend();

} // namespace mgp::graph

#endif // MGP_GRAPH_GPUBACKEND_H
