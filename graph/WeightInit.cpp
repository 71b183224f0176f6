//===- WeightInit.cpp - Deterministic seeded weights ----------------------===//
//
// This file implements the role-based seeded initialisation.
//
//===----------------------------------------------------------------------===//

#include "graph/WeightInit.h"
#include "graph/Random.h"

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

WeightMap mgp::graph::initWeights(const Graph &graph, uint64_t seed) {
  std::vector<Role> roles = paramRoles(graph);
  // fan_in of a linear layer, for its bias too.
  llvm::StringMap<int64_t> linearFanIn;
  for (const Node &node : graph.nodes)
    if (node.op == OpKind::Linear && node.operands.size() > 2)
      linearFanIn[graph.values[node.operands[2]].name] =
          graph.values[node.operands[1]].shape[1];

  WeightMap weights;
  for (int param : graph.params) {
    const Value &value = graph.values[param];
    Tensor tensor(value.shape);
    Random rng(seed, value.name);
    int64_t fanIn =
        value.shape.empty() ? 1 : numElements(value.shape) / value.shape[0];
    for (float &x : tensor.data) {
      double v = 0;
      switch (roles[param]) {
      case Role::ConvWeight:
        v = rng.normal(0, std::sqrt(2.0 / double(fanIn)));
        break;
      case Role::LinearWeight:
        v = rng.uniform(-1, 1) / std::sqrt(double(fanIn));
        break;
      case Role::LinearBias: {
        auto it = linearFanIn.find(value.name);
        int64_t n = it == linearFanIn.end() ? 1 : it->second;
        v = rng.uniform(-1, 1) / std::sqrt(double(n));
        break;
      }
      case Role::BnWeight:
      case Role::BnVar:
        v = rng.uniform(0.5, 1.5);
        break;
      case Role::ConvBias:
      case Role::BnBias:
      case Role::BnMean:
      case Role::Other:
        v = rng.normal(0, 0.1);
        break;
      }
      x = static_cast<float>(v);
    }
    weights[value.name] = std::move(tensor);
  }
  return weights;
}

Tensor mgp::graph::randomNormalTensor(const Shape &shape, uint64_t seed,
                                      llvm::StringRef stream) {
  Tensor tensor(shape);
  Random rng(seed, stream);
  for (float &x : tensor.data)
    x = static_cast<float>(rng.normal());
  return tensor;
}
