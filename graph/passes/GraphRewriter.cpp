//===- GraphRewriter.cpp - Building a new graph from an old one -----------===//
//
// This file implements GraphRewriter.
//
//===----------------------------------------------------------------------===//

#include "graph/passes/GraphRewriter.h"

using namespace mgp::graph;

GraphRewriter::GraphRewriter(const Graph &source)
    : source(source), result(source.getSourceMgr()),
      newIndex(source.values.size(), -1) {
  result.dims = source.dims;
  for (int input : source.inputs) {
    newIndex[input] = result.addValue(source.values[input]);
    result.inputs.push_back(newIndex[input]);
  }
}

int GraphRewriter::map(int oldIndex) {
  if (newIndex[oldIndex] >= 0)
    return newIndex[oldIndex];
  const Value &value = source.values[oldIndex];
  assert(value.kind == ValueKind::Param && "node results are emitted first");
  newIndex[oldIndex] = result.addValue(value);
  result.params.push_back(newIndex[oldIndex]);
  return newIndex[oldIndex];
}

int GraphRewriter::addParam(llvm::StringRef name, const Shape &shape,
                            llvm::SMLoc loc) {
  Value value;
  value.name = name.str();
  value.kind = ValueKind::Param;
  value.shape = shape;
  value.loc = loc;
  for (int64_t d : shape)
    value.declShape.push_back({d, ""});
  int index = result.addValue(std::move(value));
  result.params.push_back(index);
  return index;
}

void GraphRewriter::emitNode(OpKind op, int oldResult,
                             std::vector<int> operands,
                             std::vector<Attribute> attrs, llvm::SMLoc loc) {
  const Value &old = source.values[oldResult];
  int node =
      result.addNode(op, old.name, std::move(operands), std::move(attrs), loc);
  int value = result.nodes[node].result;
  result.values[value].shape = old.shape;
  newIndex[oldResult] = value;
}

void GraphRewriter::copyNode(const Node &node) {
  std::vector<int> operands;
  for (int operand : node.operands)
    operands.push_back(map(operand));
  emitNode(node.op, node.result, std::move(operands), node.attrs, node.loc);
}

Graph GraphRewriter::finish() {
  for (int output : source.outputs)
    result.outputs.push_back(map(output));
  return std::move(result);
}

WeightMap mgp::graph::keptWeights(const Graph &graph,
                                  const WeightMap &weights) {
  WeightMap kept;
  for (int param : graph.params) {
    auto it = weights.find(graph.values[param].name);
    if (it != weights.end())
      kept[it->first()] = it->second;
  }
  return kept;
}
