//===- ModelStats.cpp - Per-layer parameters and MACs ---------------------===//
//
// This file implements the parameter and MAC counts. Convolutions count
// N*K*OH*OW*C*R*S MACs and linear layers N*K*F; elementwise ops, poolings and
// BatchNorm count none, as the usual "1.81 GMAC" figure for ResNet18 does.
//
//===----------------------------------------------------------------------===//

#include "graph/ModelStats.h"
#include "graph/KernelLaunch.h"

using namespace mgp::graph;

ModelStats mgp::graph::computeStats(const Graph &graph) {
  ModelStats stats;
  std::vector<bool> counted(graph.values.size(), false);
  for (size_t i = 0; i < graph.nodes.size(); ++i) {
    const Node &node = graph.nodes[i];
    LayerStats layer;
    layer.node = static_cast<int>(i);
    for (size_t j = 0; j < node.operands.size(); ++j) {
      int operand = node.operands[j];
      if (graph.values[operand].kind != ValueKind::Param || counted[operand])
        continue;
      counted[operand] = true;
      int64_t count = numElements(graph.values[operand].shape);
      bool isBuffer = node.op == OpKind::BatchNorm && j >= 3;
      (isBuffer ? layer.buffers : layer.params) += count;
    }
    layer.macs = nodeMacs(graph, int(i));
    stats.params += layer.params;
    stats.buffers += layer.buffers;
    stats.macs += layer.macs;
    stats.layers.push_back(layer);
  }
  return stats;
}

int64_t mgp::graph::nodeMacs(const Graph &graph, int index) {
  const Node &node = graph.nodes[index];
  if (node.op == OpKind::Conv2d || node.op == OpKind::FusedConv2d) {
    const Shape &w = graph.values[node.operands[1]].shape;
    return numElements(convOutputShape(graph, index)) * w[1] * w[2] * w[3];
  }
  if (node.op == OpKind::Linear)
    return numElements(graph.values[node.result].shape) *
           graph.values[node.operands[1]].shape[1];
  return 0;
}
