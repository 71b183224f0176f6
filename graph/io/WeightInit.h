//===- WeightInit.h - Deterministic seeded weights --------------*- C++ -*-===//
//
// This file implements the weights a model gets without a weights file: each
// parameter is drawn from its own seeded stream according to its role in the
// graph (He-normal convolution weights; BatchNorm weight U(0.5, 1.5), bias
// N(0, 0.1), running_mean N(0, 0.1), running_var U(0.5, 1.5); linear weight and
// bias U(-1/sqrt(fan_in), 1/sqrt(fan_in)) as PyTorch does), so the network is
// far from the identity and the same on every machine.
//
//===----------------------------------------------------------------------===//

#ifndef MGP_GRAPH_WEIGHTINIT_H
#define MGP_GRAPH_WEIGHTINIT_H

#include "graph/ir/Graph.h"

namespace mgp::graph {

/// Weights for every parameter of shape-inferred `graph`, from `seed`.
WeightMap initWeights(const Graph &graph, uint64_t seed);

/// A tensor of `shape` filled with N(0, 1) values from `seed` (the random
/// input batch).
Tensor randomNormalTensor(const Shape &shape, uint64_t seed,
                          llvm::StringRef stream = "input");

} // namespace mgp::graph

#endif // MGP_GRAPH_WEIGHTINIT_H
