//===- GpuBackendArena.h - Activation offsets in one device arena -*- C++ -*-=//
//
// This file implements the device memory layout of the `gpu` backend: every
// activation (graph inputs and node results) gets an offset in one arena
// allocated once, taken from the liveness-based memory plan
// (graph/passes/MemoryPlan.h): values whose lifetimes do not overlap share a buffer,
// and each buffer sits at an aligned offset. Nodes that run no kernel
// (flatten, KernelLaunch::aliasOf) share their operand's storage, which then
// lives until the alias's last use.
//
//===----------------------------------------------------------------------===//

#ifndef MGP_GRAPH_GPUBACKENDARENA_H
#define MGP_GRAPH_GPUBACKENDARENA_H

#include "graph/KernelLaunch.h"

#include <cstdint>
#include <vector>

namespace mgp::graph {

/// Where each activation lives in the arena.
struct ArenaPlan {
  /// Per value: byte offset in the arena, or -1 (parameters).
  std::vector<int64_t> offsetOf;
  /// Per value: the value whose storage it uses (itself unless an alias).
  std::vector<int> storageOf;
  /// The arena's size in bytes (the sum of the aligned reused buffers).
  int64_t bytes = 0;
};

/// Every buffer offset is a multiple of this (the kernels' `*fp32:16` hint
/// needs 16; 256 matches cuMemAlloc's own alignment).
inline constexpr int64_t kArenaAlignment = 256;

/// Plans the arena of shape-inferred `graph` run by `launches`
/// (planLaunches(graph, ...)), each value taking `elementBytes[value]` bytes
/// per element (empty: 4; fp16/bf16 activations take 2).
ArenaPlan planArena(const Graph &graph, llvm::ArrayRef<KernelLaunch> launches,
                    llvm::ArrayRef<unsigned> elementBytes = {});

} // namespace mgp::graph

#endif // MGP_GRAPH_GPUBACKENDARENA_H
