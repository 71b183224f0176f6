//===- MemoryPlan.cpp - Liveness-based activation buffers -----------------===//
//
// This file implements the liveness scan and the best-fit buffer reuse.
//
//===----------------------------------------------------------------------===//

#include "graph/passes/MemoryPlan.h"

using namespace mgp::graph;

MemoryPlan mgp::graph::planMemory(const Graph &graph,
                                  llvm::ArrayRef<unsigned> elementBytes) {
  MemoryPlan plan;
  size_t numValues = graph.values.size();
  int numNodes = static_cast<int>(graph.nodes.size());
  plan.bufferOf.assign(numValues, -1);
  plan.lastUse.assign(numValues, -1);
  for (int i = 0; i < numNodes; ++i)
    for (int operand : graph.nodes[i].operands)
      plan.lastUse[operand] = i;
  for (int output : graph.outputs)
    plan.lastUse[output] = numNodes; // alive past the last node
  auto bytesOf = [&](int value) {
    int64_t size = elementBytes.empty() ? int64_t(sizeof(float))
                                        : int64_t(elementBytes[value]);
    return numElements(graph.values[value].shape) * size;
  };

  std::vector<int> freeBuffers;
  int64_t live = 0;
  auto allocate = [&](int value) {
    int64_t bytes = bytesOf(value);
    int best = -1;
    for (size_t i = 0; i < freeBuffers.size(); ++i) {
      int64_t size = plan.bufferBytes[freeBuffers[i]];
      if (size >= bytes &&
          (best < 0 || size < plan.bufferBytes[freeBuffers[best]]))
        best = static_cast<int>(i);
    }
    if (best >= 0) {
      plan.bufferOf[value] = freeBuffers[best];
      freeBuffers.erase(freeBuffers.begin() + best);
    } else {
      plan.bufferOf[value] = static_cast<int>(plan.bufferBytes.size());
      plan.bufferBytes.push_back(bytes);
    }
    live += bytes;
    plan.unpooledBytes += bytes;
    plan.peakLiveBytes = std::max(plan.peakLiveBytes, live);
  };
  auto release = [&](int value) {
    freeBuffers.push_back(plan.bufferOf[value]);
    live -= bytesOf(value);
  };

  for (int input : graph.inputs)
    allocate(input);
  for (int i = 0; i < numNodes; ++i) {
    const Node &node = graph.nodes[i];
    // The result is written while the operands are still read.
    allocate(node.result);
    for (size_t j = 0; j < node.operands.size(); ++j) {
      int operand = node.operands[j];
      bool repeated = false;
      for (size_t k = 0; k < j; ++k)
        repeated |= node.operands[k] == operand;
      if (!repeated && plan.bufferOf[operand] >= 0 &&
          plan.lastUse[operand] == i)
        release(operand);
    }
    if (plan.lastUse[node.result] < 0) // a dead result
      release(node.result);
  }
  for (int64_t bytes : plan.bufferBytes)
    plan.pooledBytes += bytes;
  return plan;
}
