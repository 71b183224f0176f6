//===- MemoryPlan.h - Liveness-based activation buffers ---------*- C++ -*-===//
//
// This file implements the buffer plan of a graph: each activation (inputs
// and node results; parameters are not activations) lives from the node that
// defines it to its last use, outputs to the end. Buffers whose value died
// are reused best-fit for later results. The plan gives the peak of the live
// bytes and the total size of the reused buffers a device would allocate.
//
//===----------------------------------------------------------------------===//

#ifndef MGP_GRAPH_MEMORYPLAN_H
#define MGP_GRAPH_MEMORYPLAN_H

#include "graph/ir/Graph.h"

namespace mgp::graph {

/// Where activations live.
struct MemoryPlan {
  std::vector<int> bufferOf;        ///< Per value: buffer index, or -1.
  std::vector<int64_t> bufferBytes; ///< Per buffer: its size.
  std::vector<int> lastUse;         ///< Per value: last node using it.
  int64_t peakLiveBytes = 0;        ///< Max over time of live activations.
  int64_t pooledBytes = 0;          ///< Sum of bufferBytes.
  int64_t unpooledBytes = 0;        ///< Every activation in its own buffer.
};

/// Plans the activation buffers of shape-inferred `graph`; `elementBytes`
/// gives each value's element size (indexed like graph.values; empty: every
/// value float32).
MemoryPlan planMemory(const Graph &graph,
                      llvm::ArrayRef<unsigned> elementBytes = {});

} // namespace mgp::graph

#endif // MGP_GRAPH_MEMORYPLAN_H
