//===- CudaGraph.h - CUDA graphs captured from a stream ---------*- C++ -*-===//
//
// This file implements CudaGraph, a move-only owner of a CUgraph recorded by
// stream capture (cuStreamBeginCapture .. cuStreamEndCapture), and
// CudaGraphExec, a move-only owner of its instantiation (cuGraphInstantiate),
// which replays every captured launch with one cuGraphLaunch. Kernel
// arguments are captured by value: a replay reads and writes the same device
// addresses the captured launches did.
//
//===----------------------------------------------------------------------===//
#ifndef MGP_RUNTIME_CUDAGRAPH_H
#define MGP_RUNTIME_CUDAGRAPH_H

#include "runtime/CudaDriver.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <cstddef>

namespace mgp {

/// A captured CUDA graph, destroyed with the object.
class CudaGraph {
public:
  /// Records the work \p enqueue queues on \p stream into a graph; nothing
  /// runs on the GPU. The capture is thread-local
  /// (CU_STREAM_CAPTURE_MODE_THREAD_LOCAL): this thread may not call
  /// unsafe driver functions (cuMemAlloc, synchronous copies, ...) meanwhile.
  /// \p stream must be a created stream (the legacy default stream cannot be
  /// captured). When \p enqueue fails, the capture is ended and its partial
  /// graph dropped, so the stream is usable again, and its error returned.
  static llvm::Expected<CudaGraph>
  capture(CUstream stream, llvm::function_ref<llvm::Error()> enqueue);

  /// The number of nodes (one per captured launch or copy).
  llvm::Expected<size_t> numNodes() const;

  CUgraph handle() const { return graph; }

  CudaGraph(CudaGraph &&other) noexcept
      : driver(other.driver), graph(other.graph) {
    other.graph = nullptr;
  }
  CudaGraph &operator=(CudaGraph &&other) noexcept;
  CudaGraph(const CudaGraph &) = delete;
  CudaGraph &operator=(const CudaGraph &) = delete;
  ~CudaGraph();

private:
  CudaGraph(CudaDriver &driver, CUgraph graph)
      : driver(&driver), graph(graph) {}
  CudaDriver *driver;
  CUgraph graph;
};

/// An instantiated graph, destroyed with the object.
class CudaGraphExec {
public:
  /// Instantiates \p graph (which may be destroyed afterwards).
  static llvm::Expected<CudaGraphExec> instantiate(const CudaGraph &graph);

  /// Queues one replay of the whole graph on \p stream (not the legacy
  /// default stream); replays on one stream run one after the other.
  llvm::Error launch(CUstream stream) const;

  CUgraphExec handle() const { return exec; }

  CudaGraphExec(CudaGraphExec &&other) noexcept
      : driver(other.driver), exec(other.exec) {
    other.exec = nullptr;
  }
  CudaGraphExec &operator=(CudaGraphExec &&other) noexcept;
  CudaGraphExec(const CudaGraphExec &) = delete;
  CudaGraphExec &operator=(const CudaGraphExec &) = delete;
  ~CudaGraphExec();

private:
  CudaGraphExec(CudaDriver &driver, CUgraphExec exec)
      : driver(&driver), exec(exec) {}
  CudaDriver *driver;
  CUgraphExec exec;
};

} // namespace mgp

#endif // MGP_RUNTIME_CUDAGRAPH_H
