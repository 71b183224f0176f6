//===- FoldBatchNorm.h - BatchNorm folded into convolutions -----*- C++ -*-===//
//
// This file implements the BatchNorm folding pass: every `batchnorm` whose
// input is a `conv2d` used only by it, with parameters as statistics, becomes
// part of the convolution, whose weight and bias are rescaled. The pass makes
// a new graph and a new weight map and leaves its inputs untouched.
//
//===----------------------------------------------------------------------===//

#ifndef MGP_GRAPH_FOLDBATCHNORM_H
#define MGP_GRAPH_FOLDBATCHNORM_H

#include "graph/ir/Graph.h"

namespace mgp::graph {

/// A graph with the weights its parameters take.
struct Model {
  Graph graph;
  WeightMap weights;
};

/// Folds BatchNorm into the preceding convolutions of a shape-inferred
/// `graph`. The folded parameters are named `<conv>.folded.weight` and
/// `<conv>.folded.bias` (`layer1.0.conv1.folded.weight`).
Model foldBatchNorm(const Graph &graph, const WeightMap &weights);

} // namespace mgp::graph

#endif // MGP_GRAPH_FOLDBATCHNORM_H
