//===- ModelStats.h - Per-layer parameters and MACs -------------*- C++ -*-===//
//
// This file implements the numbers `mgp-run --info` prints: for every node its
// parameters (trainable ones: BatchNorm running statistics are buffers, as in
// PyTorch's parameters()) and its multiply-accumulates, and the totals.
//
//===----------------------------------------------------------------------===//

#ifndef MGP_GRAPH_MODELSTATS_H
#define MGP_GRAPH_MODELSTATS_H

#include "graph/ir/Graph.h"

namespace mgp::graph {

/// Statistics of one node.
struct LayerStats {
  int node = -1;
  int64_t params = 0;  ///< Trainable parameter elements first used here.
  int64_t buffers = 0; ///< Non-trainable ones (BatchNorm statistics).
  int64_t macs = 0;    ///< For the whole batch.
};

/// Statistics of a shape-inferred graph.
struct ModelStats {
  std::vector<LayerStats> layers;
  int64_t params = 0, buffers = 0, macs = 0;
};

ModelStats computeStats(const Graph &graph);

/// The multiply-accumulates of node `node` for the whole batch: a
/// convolution's before a fused max pooling, a linear layer's, else 0.
int64_t nodeMacs(const Graph &graph, int node);

} // namespace mgp::graph

#endif // MGP_GRAPH_MODELSTATS_H
