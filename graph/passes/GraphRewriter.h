//===- GraphRewriter.h - Building a new graph from an old one ---*- C++ -*-===//
//
// This file implements the helper every graph-to-graph pass uses: it copies
// the dimensions and inputs of a source graph, maps old value indices to new
// ones, declares a parameter in the new graph only when a node uses it, and
// carries shapes across, so a pass only decides what to emit.
//
//===----------------------------------------------------------------------===//

#ifndef MGP_GRAPH_GRAPHREWRITER_H
#define MGP_GRAPH_GRAPHREWRITER_H

#include "graph/ir/Graph.h"

namespace mgp::graph {

/// Emits a new graph node by node from a shape-inferred source graph.
class GraphRewriter {
public:
  explicit GraphRewriter(const Graph &source);

  /// The new index of source value `oldIndex` (declaring a parameter on first
  /// use). Node results must have been emitted already.
  int map(int oldIndex);
  /// Declares a new parameter of concrete `shape`.
  int addParam(llvm::StringRef name, const Shape &shape, llvm::SMLoc loc);
  /// Copies source node `node` with its operands mapped.
  void copyNode(const Node &node);
  /// Emits a node whose result is the source value `oldResult` (its name and
  /// shape); `operands` are new indices.
  void emitNode(OpKind op, int oldResult, std::vector<int> operands,
                std::vector<Attribute> attrs, llvm::SMLoc loc);
  /// Maps the outputs and returns the new graph.
  Graph finish();

private:
  const Graph &source;
  Graph result;
  std::vector<int> newIndex;
};

/// The weights of `graph`'s parameters taken from `weights` where the name is
/// there (a pass adds the parameters it creates).
WeightMap keptWeights(const Graph &graph, const WeightMap &weights);

} // namespace mgp::graph

#endif // MGP_GRAPH_GRAPHREWRITER_H
