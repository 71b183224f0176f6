//===- FuseEpilogue.cpp - conv + bias + residual + relu as one node -------===//
//
// This file implements the fusion: a scan finds each group (conv, optional
// add, optional relu, with FuseOptions a max pooling after the relu) and the
// fused node is emitted where the group's last node was, so the residual
// operand is always defined before it.
//
//===----------------------------------------------------------------------===//

#include "graph/passes/FuseEpilogue.h"
#include "graph/KernelLaunch.h"
#include "graph/ir/StorageTypes.h"
#include "graph/passes/GraphRewriter.h"

using namespace mgp::graph;

namespace {
struct FusionGroup {
  int conv = -1, add = -1, relu = -1, pool = -1;
  int residual = -1; ///< Value index of the add's other operand.
  int last() const {
    return pool >= 0 ? pool : relu >= 0 ? relu : add >= 0 ? add : conv;
  }
};
} // namespace

Graph mgp::graph::fuseEpilogues(const Graph &graph,
                                const FuseOptions &options) {
  std::vector<int> uses = graph.useCounts();
  // The single node using value `v`, or -1.
  std::vector<int> onlyUser(graph.values.size(), -1);
  for (size_t i = 0; i < graph.nodes.size(); ++i)
    for (int operand : graph.nodes[i].operands)
      if (uses[operand] == 1)
        onlyUser[operand] = static_cast<int>(i);

  std::vector<int> groupOf(graph.nodes.size(), -1);
  std::vector<FusionGroup> groups;
  for (size_t i = 0; i < graph.nodes.size(); ++i) {
    const Node &conv = graph.nodes[i];
    if (conv.op != OpKind::Conv2d || conv.operands.size() != 3)
      continue;
    FusionGroup group;
    group.conv = static_cast<int>(i);
    int tail = conv.result;
    int user = onlyUser[tail];
    if (user >= 0 && groupOf[user] < 0 && graph.nodes[user].op == OpKind::Add) {
      const Node &add = graph.nodes[user];
      int other = add.operands[0] == tail ? add.operands[1] : add.operands[0];
      if (other != tail) {
        group.add = user;
        group.residual = other;
        tail = add.result;
        user = onlyUser[tail];
      }
    }
    if (user >= 0 && groupOf[user] < 0 &&
        graph.nodes[user].op == OpKind::Relu) {
      group.relu = user;
      tail = graph.nodes[user].result;
      user = onlyUser[tail];
      if (options.maxPoolIntoStem && group.add < 0 && user >= 0 &&
          graph.nodes[user].op == OpKind::MaxPool2d) {
        const Node &pool = graph.nodes[user];
        if (convTakesMaxPool(graph.values[conv.operands[0]].shape,
                             graph.values[conv.operands[1]].shape,
                             graph.values[conv.result].shape,
                             pool.intAttr("kernel"), pool.intAttr("stride"),
                             pool.intAttr("padding")))
          group.pool = user;
      }
    }
    int index = static_cast<int>(groups.size());
    for (int member : {group.conv, group.add, group.relu, group.pool})
      if (member >= 0)
        groupOf[member] = index;
    groups.push_back(group);
  }

  GraphRewriter rewriter(graph);
  for (size_t i = 0; i < graph.nodes.size(); ++i) {
    if (groupOf[i] < 0) {
      rewriter.copyNode(graph.nodes[i]);
      continue;
    }
    const FusionGroup &group = groups[groupOf[i]];
    if (static_cast<int>(i) != group.last())
      continue;
    const Node &conv = graph.nodes[group.conv];
    std::vector<int> operands;
    for (int operand : conv.operands)
      operands.push_back(rewriter.map(operand));
    if (group.residual >= 0)
      operands.push_back(rewriter.map(group.residual));
    std::vector<Attribute> attrs = {{"stride", conv.attr("stride")},
                                    {"padding", conv.attr("padding")},
                                    {"relu", group.relu >= 0 ? 1.0 : 0.0}};
    if (group.pool >= 0) {
      const Node &pool = graph.nodes[group.pool];
      attrs.push_back({"pool_kernel", pool.attr("kernel")});
      attrs.push_back({"pool_stride", pool.attr("stride")});
      attrs.push_back({"pool_padding", pool.attr("padding")});
    }
    rewriter.emitNode(OpKind::FusedConv2d, graph.nodes[i].result,
                      std::move(operands), std::move(attrs), conv.loc);
  }
  return rewriter.finish();
}

FuseOptions mgp::graph::kernelFuseOptions(Precision precision) {
  FuseOptions options;
  options.maxPoolIntoStem = activationType(precision) == DType::F32;
  return options;
}
