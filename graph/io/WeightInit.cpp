//===- WeightInit.cpp - Deterministic seeded weights ----------------------===//
//
// This file implements the role-based seeded initialisation. Each parameter
// has its own stream (seeded from its name); its elements are filled in
// ranges on all cores, each range starting its stream at its first draw
// (Random::skip), so the values do not depend on the thread count.
//
//===----------------------------------------------------------------------===//

#include "graph/io/WeightInit.h"
#include "graph/ir/Random.h"

#include "llvm/Support/Parallel.h"

#include <functional>

using namespace mgp::graph;

namespace {
enum class Role {
  ConvWeight,
  ConvBias,
  BnWeight,
  BnBias,
  BnMean,
  BnVar,
  LinearWeight,
  LinearBias,
  Other
};
} // namespace

/// The role of each parameter, from the first node that uses it.
static std::vector<Role> paramRoles(const Graph &graph) {
  std::vector<Role> roles(graph.values.size(), Role::Other);
  std::vector<bool> seen(graph.values.size(), false);
  for (const Node &node : graph.nodes) {
    for (size_t i = 1; i < node.operands.size(); ++i) {
      int value = node.operands[i];
      if (seen[value] || graph.values[value].kind != ValueKind::Param)
        continue;
      seen[value] = true;
      switch (node.op) {
      case OpKind::Conv2d:
      case OpKind::FusedConv2d:
        roles[value] = i == 1   ? Role::ConvWeight
                       : i == 2 ? Role::ConvBias
                                : Role::Other;
        break;
      case OpKind::BatchNorm: {
        static const Role bn[] = {Role::Other, Role::BnWeight, Role::BnBias,
                                  Role::BnMean, Role::BnVar};
        roles[value] = bn[i];
        break;
      }
      case OpKind::Linear:
        roles[value] = i == 1 ? Role::LinearWeight : Role::LinearBias;
        break;
      default:
        break;
      }
    }
  }
  return roles;
}

namespace {
/// A range of one tensor's elements drawn from one stream, `drawsPerValue`
/// draws per element, so the range's first draw is at begin * drawsPerValue.
struct FillTask {
  float *data;
  int64_t begin, end;
  Random stream; ///< at the tensor's first draw
  unsigned drawsPerValue;
  std::function<double(Random &)> draw;
};
} // namespace

/// Fills every task's range on all cores. Each element gets exactly the
/// value a sequential pass over its stream gives it.
static void runFillTasks(std::vector<FillTask> &tasks) {
  llvm::parallelFor(0, tasks.size(), [&](size_t i) {
    FillTask &task = tasks[i];
    Random rng = task.stream;
    rng.skip(uint64_t(task.begin) * task.drawsPerValue);
    for (int64_t e = task.begin; e < task.end; ++e)
      task.data[e] = static_cast<float>(task.draw(rng));
  });
}

/// Splits `tensor` into ranges of at most this many elements.
static constexpr int64_t kFillChunk = int64_t(1) << 16;

static void addFillTasks(std::vector<FillTask> &tasks, Tensor &tensor,
                         const Random &stream, unsigned drawsPerValue,
                         std::function<double(Random &)> draw) {
  int64_t n = static_cast<int64_t>(tensor.data.size());
  for (int64_t begin = 0; begin < n; begin += kFillChunk)
    tasks.push_back({tensor.data.data(), begin, std::min(n, begin + kFillChunk),
                     stream, drawsPerValue, draw});
}

WeightMap mgp::graph::initWeights(const Graph &graph, uint64_t seed) {
  std::vector<Role> roles = paramRoles(graph);
  // fan_in of a linear layer, for its bias too.
  llvm::StringMap<int64_t> linearFanIn;
  for (const Node &node : graph.nodes)
    if (node.op == OpKind::Linear && node.operands.size() > 2)
      linearFanIn[graph.values[node.operands[2]].name] =
          graph.values[node.operands[1]].shape[1];

  // Every tensor is allocated first (the map does not move them later), then
  // filled in parallel ranges; normals take two draws, uniforms one.
  WeightMap weights;
  std::vector<FillTask> tasks;
  for (int param : graph.params) {
    const Value &value = graph.values[param];
    Tensor &tensor = weights[value.name] = Tensor(value.shape);
    Random rng(seed, value.name);
    int64_t fanIn =
        value.shape.empty() ? 1 : numElements(value.shape) / value.shape[0];
    switch (roles[param]) {
    case Role::ConvWeight: {
      double stddev = std::sqrt(2.0 / double(fanIn));
      addFillTasks(tasks, tensor, rng, 2,
                   [stddev](Random &r) { return r.normal(0, stddev); });
      break;
    }
    case Role::LinearWeight: {
      double scale = std::sqrt(double(fanIn));
      addFillTasks(tasks, tensor, rng, 1,
                   [scale](Random &r) { return r.uniform(-1, 1) / scale; });
      break;
    }
    case Role::LinearBias: {
      auto it = linearFanIn.find(value.name);
      double scale =
          std::sqrt(double(it == linearFanIn.end() ? 1 : it->second));
      addFillTasks(tasks, tensor, rng, 1,
                   [scale](Random &r) { return r.uniform(-1, 1) / scale; });
      break;
    }
    case Role::BnWeight:
    case Role::BnVar:
      addFillTasks(tasks, tensor, rng, 1,
                   [](Random &r) { return r.uniform(0.5, 1.5); });
      break;
    case Role::ConvBias:
    case Role::BnBias:
    case Role::BnMean:
    case Role::Other:
      addFillTasks(tasks, tensor, rng, 2,
                   [](Random &r) { return r.normal(0, 0.1); });
      break;
    }
  }
  runFillTasks(tasks);
  return weights;
}

Tensor mgp::graph::randomNormalTensor(const Shape &shape, uint64_t seed,
                                      llvm::StringRef stream) {
  Tensor tensor(shape);
  std::vector<FillTask> tasks;
  addFillTasks(tasks, tensor, Random(seed, stream), 2,
               [](Random &r) { return r.normal(); });
  runFillTasks(tasks);
  return tensor;
}
