//===- GpuBackendConcurrency.cpp - Launches beside the one before ---------===//
//
// This file implements planSideLaunches: the arena byte ranges each launch
// reads and writes, and the pairs of consecutive launches that share none
// that either writes.
//
//===----------------------------------------------------------------------===//

#include "graph/backends/gpu/GpuBackendConcurrency.h"

#include "graph/ir/StorageTypes.h"
#include "graph/ir/Tensor.h"

#include "compiler/api/Environment.h"

using namespace mgp::graph;

namespace {
struct ByteRange {
  int64_t begin = 0, end = 0;
  bool overlaps(const ByteRange &other) const {
    return begin < other.end && other.begin < end;
  }
};

/// The arena bytes one launch writes (its node's result) and reads (its
/// other buffers); parameters live outside the arena and are only read.
struct LaunchAccess {
  std::vector<ByteRange> writes, reads;
};

bool anyOverlap(llvm::ArrayRef<ByteRange> a, llvm::ArrayRef<ByteRange> b) {
  for (const ByteRange &x : a)
    for (const ByteRange &y : b)
      if (x.overlaps(y))
        return true;
  return false;
}
} // namespace

std::vector<bool> mgp::graph::planSideLaunches(
    const Graph &graph, llvm::ArrayRef<KernelLaunch> launches,
    const ArenaPlan &arena, llvm::ArrayRef<unsigned> elementBytes) {
  std::vector<int> launchesOfNode(graph.nodes.size(), 0);
  for (const KernelLaunch &launch : launches)
    if (launch.aliasOf < 0)
      ++launchesOfNode[launch.node];
  auto rangeOf = [&](int value) -> std::optional<ByteRange> {
    int64_t offset = arena.offsetOf[value];
    if (offset < 0)
      return std::nullopt;
    int64_t bytes = numElements(graph.values[value].shape) *
                    (elementBytes.empty() ? 4 : elementBytes[value]);
    return ByteRange{offset, offset + bytes};
  };
  // A launch that can take part in a pair, and what it touches.
  auto accessOf =
      [&](const KernelLaunch &launch) -> std::optional<LaunchAccess> {
    if (launchesOfNode[launch.node] != 1)
      return std::nullopt;
    LaunchAccess access;
    int result = graph.nodes[launch.node].result;
    for (const LaunchParam &p : launch.params) {
      if (p.kind == LaunchParam::Kind::Workspace)
        return std::nullopt;
      if (p.kind != LaunchParam::Kind::Buffer || p.value == result)
        continue;
      if (std::optional<ByteRange> range = rangeOf(p.value))
        access.reads.push_back(*range);
    }
    if (std::optional<ByteRange> range = rangeOf(result))
      access.writes.push_back(*range);
    return access;
  };

  std::vector<bool> side(launches.size(), false);
  int previous = -1; ///< the last kernel launch before `i`
  for (size_t i = 0; i < launches.size(); ++i) {
    if (launches[i].aliasOf >= 0)
      continue;
    if (previous >= 0 && !side[previous]) {
      std::optional<LaunchAccess> before = accessOf(launches[previous]);
      std::optional<LaunchAccess> now = accessOf(launches[i]);
      side[i] = before && now && !anyOverlap(before->writes, now->writes) &&
                !anyOverlap(before->writes, now->reads) &&
                !anyOverlap(now->writes, before->reads);
    }
    previous = static_cast<int>(i);
  }
  return side;
}

std::vector<bool> mgp::graph::planGpuSideLaunches(const Graph &graph,
                                                  const ModelPlan &plan) {
  if (isEnvOff(EnvVar::SideStream))
    return std::vector<bool>(plan.launches.size(), false);
  std::vector<unsigned> bytes = elementBytes(plan.types);
  return planSideLaunches(graph, plan.launches,
                          planArena(graph, plan.launches, bytes), bytes);
}
