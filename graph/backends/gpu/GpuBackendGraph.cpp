//===- GpuBackendGraph.cpp - The forward pass as a CUDA graph -------------===//
//
// This file implements ForwardGraph: eager first run, capture and
// instantiation on the second, replay afterwards; and the MGP_CUDA_GRAPH
// switch.
//
//===----------------------------------------------------------------------===//

#include "graph/backends/gpu/GpuBackendGraph.h"

#include "compiler/api/Environment.h"

#include "llvm/ADT/StringRef.h"

#include <cstdlib>

using namespace mgp;
using namespace mgp::graph;

bool mgp::graph::cudaGraphsAllowedByEnvironment() {
  return !isEnvOff(EnvVar::CudaGraph);
}

void ForwardGraph::setEnabled(bool on) {
  enabled = on;
  if (!on) {
    exec.reset();
    nodeCount = 0;
    replayCount = 0;
  }
}

llvm::Error ForwardGraph::run(CUstream stream,
                              llvm::function_ref<llvm::Error()> enqueue) {
  if (!enabled || (!exec && eagerRuns == 0)) {
    ++eagerRuns;
    return enqueue();
  }
  if (!exec) {
    auto captured = CudaGraph::capture(stream, enqueue);
    if (!captured)
      return llvm::createStringError(
          "capturing the forward pass as a CUDA graph: " +
          llvm::toString(captured.takeError()) +
          " (MGP_CUDA_GRAPH=off runs it without a graph)");
    auto nodes = captured->numNodes();
    if (!nodes)
      return nodes.takeError();
    auto instantiated = CudaGraphExec::instantiate(*captured);
    if (!instantiated)
      return llvm::createStringError(
          "instantiating the forward pass's CUDA graph: " +
          llvm::toString(instantiated.takeError()) +
          " (MGP_CUDA_GRAPH=off runs it without a graph)");
    exec.emplace(std::move(*instantiated));
    nodeCount = *nodes;
  }
  if (llvm::Error e = exec->launch(stream))
    return e;
  ++replayCount;
  return llvm::Error::success();
}
