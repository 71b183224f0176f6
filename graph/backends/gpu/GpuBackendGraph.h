//===- GpuBackendGraph.h - The forward pass as a CUDA graph -----*- C++ -*-===//
//
// This file implements ForwardGraph, the part of the `gpu` backend that
// replays the forward pass as one CUDA graph: the first run is eager (its
// launches load every module and opt kernels in to their shared memory), the
// second captures the same launches (graph/backends/gpu/GpuBackend.cpp fixes every address
// in prepare(), so the captured arguments stay valid) and every later run
// replays the instantiated graph with one cuGraphLaunch. MGP_CUDA_GRAPH=off
// (or 0, false, no) keeps every run eager; profiling runs are always eager.
//
//===----------------------------------------------------------------------===//

#ifndef MGP_GRAPH_GPUBACKENDGRAPH_H
#define MGP_GRAPH_GPUBACKENDGRAPH_H

#include "runtime/CudaGraph.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <optional>

namespace mgp::graph {

/// Whether MGP_CUDA_GRAPH allows CUDA graphs: unless it is off, 0, false or
/// no (isEnvOff, compiler/api/Environment.h).
bool cudaGraphsAllowedByEnvironment();

/// Runs the forward pass eagerly once, then as a captured CUDA graph.
class ForwardGraph {
public:
  explicit ForwardGraph(bool enabled) : enabled(enabled) {}

  /// Queues one forward pass on \p stream. \p enqueue queues every launch of
  /// the pass (the same launches, with the same arguments, each time). Eager
  /// while disabled and on the first call; the second call captures
  /// \p enqueue and replays the graph, later calls only replay it. A failed
  /// capture or instantiation is an error that names MGP_CUDA_GRAPH=off.
  llvm::Error run(CUstream stream, llvm::function_ref<llvm::Error()> enqueue);

  /// Turns replay on or off; turning it off drops a captured graph.
  void setEnabled(bool on);
  bool isEnabled() const { return enabled; }

  /// Replays since the graph was captured (the capturing run counts).
  unsigned replays() const { return replayCount; }
  /// Nodes of the captured graph (0 before the capture).
  size_t nodes() const { return nodeCount; }

private:
  bool enabled;
  unsigned eagerRuns = 0;
  unsigned replayCount = 0;
  size_t nodeCount = 0;
  std::optional<CudaGraphExec> exec;
};

} // namespace mgp::graph

#endif // MGP_GRAPH_GPUBACKENDGRAPH_H
