//===- GpuBackendArena.cpp - Activation offsets in one device arena -------===//
//
// This file implements planArena: aliases are resolved to the value that owns
// their storage, the graph's uses are redirected to it (so the memory plan
// keeps it alive as long as any alias is used), the memory plan is computed
// on that graph, and its buffers are laid out back to back, aligned.
//
//===----------------------------------------------------------------------===//

#include "graph/backends/gpu/GpuBackendArena.h"

#include "graph/passes/MemoryPlan.h"

#include "llvm/Support/MathExtras.h"

using namespace mgp::graph;

ArenaPlan mgp::graph::planArena(const Graph &graph,
                                llvm::ArrayRef<KernelLaunch> launches,
                                llvm::ArrayRef<unsigned> elementBytes) {
  ArenaPlan arena;
  size_t numValues = graph.values.size();
  arena.storageOf.resize(numValues);
  for (size_t v = 0; v < numValues; ++v)
    arena.storageOf[v] = static_cast<int>(v);
  // Launches are in node order, so an alias of an alias resolves in one go.
  for (const KernelLaunch &launch : launches)
    if (launch.aliasOf >= 0)
      arena.storageOf[graph.nodes[launch.node].result] =
          arena.storageOf[launch.aliasOf];

  Graph redirected = graph;
  for (Node &node : redirected.nodes)
    for (int &operand : node.operands)
      operand = arena.storageOf[operand];
  for (int &output : redirected.outputs)
    output = arena.storageOf[output];
  MemoryPlan plan = planMemory(redirected, elementBytes);

  std::vector<int64_t> bufferOffset;
  for (int64_t bytes : plan.bufferBytes) {
    bufferOffset.push_back(arena.bytes);
    arena.bytes += static_cast<int64_t>(
        llvm::alignTo(static_cast<uint64_t>(bytes), kArenaAlignment));
  }
  arena.offsetOf.assign(numValues, -1);
  for (size_t v = 0; v < numValues; ++v) {
    int buffer = plan.bufferOf[arena.storageOf[v]];
    if (buffer >= 0 && graph.values[v].kind != ValueKind::Param)
      arena.offsetOf[v] = bufferOffset[buffer];
  }
  return arena;
}
