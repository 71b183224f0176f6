//===- FoldBatchNorm.cpp - BatchNorm folded into convolutions -------------===//
//
// This file implements the folding: with s = gamma / sqrt(var + eps) per
// output channel, w' = w * s and b' = (b - mean) * s + beta, computed in double
// and rounded once to float.
//
//===----------------------------------------------------------------------===//

#include "graph/passes/FoldBatchNorm.h"
#include "graph/passes/GraphRewriter.h"

#include "llvm/Support/Parallel.h"

#include <cmath>

using namespace mgp::graph;

/// The stem of a weight name: `layer1.0.conv1.weight` -> `layer1.0.conv1`.
static std::string stemOf(llvm::StringRef name) {
  name.consume_back(".weight");
  return name.str();
}

Model mgp::graph::foldBatchNorm(const Graph &graph, const WeightMap &weights) {
  std::vector<int> uses = graph.useCounts();
  auto isParamWithWeights = [&](int value) {
    return graph.values[value].kind == ValueKind::Param &&
           weights.count(graph.values[value].name);
  };
  // bnOf[conv node] = the batchnorm node folded into it.
  std::vector<int> bnOf(graph.nodes.size(), -1);
  std::vector<bool> folded(graph.nodes.size(), false);
  for (size_t i = 0; i < graph.nodes.size(); ++i) {
    const Node &bn = graph.nodes[i];
    if (bn.op != OpKind::BatchNorm)
      continue;
    int producer = graph.values[bn.operands[0]].producer;
    if (producer < 0 || graph.nodes[producer].op != OpKind::Conv2d ||
        uses[bn.operands[0]] != 1)
      continue;
    const Node &conv = graph.nodes[producer];
    bool allParams = true;
    for (size_t j = 1; j < conv.operands.size(); ++j)
      allParams &= isParamWithWeights(conv.operands[j]);
    for (size_t j = 1; j < 5; ++j)
      allParams &= isParamWithWeights(bn.operands[j]);
    if (!allParams)
      continue;
    bnOf[producer] = static_cast<int>(i);
    folded[i] = true;
  }

  GraphRewriter rewriter(graph);
  WeightMap newWeights;
  for (size_t i = 0; i < graph.nodes.size(); ++i) {
    const Node &node = graph.nodes[i];
    if (folded[i])
      continue;
    if (bnOf[i] < 0) {
      rewriter.copyNode(node);
      continue;
    }
    const Node &bn = graph.nodes[bnOf[i]];
    auto weightOf = [&](int value) -> const Tensor & {
      return weights.find(graph.values[value].name)->second;
    };
    const Tensor &w = weightOf(node.operands[1]);
    const Tensor &gamma = weightOf(bn.operands[1]);
    const Tensor &beta = weightOf(bn.operands[2]);
    const Tensor &mean = weightOf(bn.operands[3]);
    const Tensor &var = weightOf(bn.operands[4]);
    const Tensor *bias =
        node.operands.size() > 2 ? &weightOf(node.operands[2]) : nullptr;
    double eps = bn.attr("eps");
    int64_t outChannels = w.shape[0];
    int64_t perChannel = w.size() / outChannels;
    Tensor newW(w.shape), newB(Shape{outChannels});
    // Output channels on all cores (each element as in a sequential loop).
    llvm::parallelFor(0, size_t(outChannels), [&](size_t channel) {
      int64_t k = int64_t(channel);
      double scale =
          double(gamma.data[k]) / std::sqrt(double(var.data[k]) + eps);
      for (int64_t j = 0; j < perChannel; ++j)
        newW.data[k * perChannel + j] =
            static_cast<float>(double(w.data[k * perChannel + j]) * scale);
      double b = bias ? double(bias->data[k]) : 0.0;
      newB.data[k] = static_cast<float>((b - double(mean.data[k])) * scale +
                                        double(beta.data[k]));
    });
    std::string stem = stemOf(graph.values[node.operands[1]].name);
    int wIndex =
        rewriter.addParam(stem + ".folded.weight", newW.shape, node.loc);
    int bIndex = rewriter.addParam(stem + ".folded.bias", newB.shape, node.loc);
    newWeights[stem + ".folded.weight"] = std::move(newW);
    newWeights[stem + ".folded.bias"] = std::move(newB);
    std::vector<Attribute> attrs = node.attrs;
    rewriter.emitNode(OpKind::Conv2d, bn.result,
                      {rewriter.map(node.operands[0]), wIndex, bIndex},
                      std::move(attrs), node.loc);
  }
  Model model{rewriter.finish(), {}};
  model.weights = keptWeights(model.graph, weights);
  for (auto &entry : newWeights)
    model.weights[entry.first()] = std::move(entry.second);
  return model;
}
