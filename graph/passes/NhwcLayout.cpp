//===- NhwcLayout.cpp - How the kernel backends store tensors -------------===//
//
// This file implements the layout plan (one forward walk over the nodes), the
// one-time repacking of convolution weights and the host-side NHWC -> NCHW
// transpose of graph outputs.
//
//===----------------------------------------------------------------------===//

#include "graph/passes/NhwcLayout.h"

#include "graph/ir/Ops.h"

#include "llvm/Support/Parallel.h"

using namespace mgp::graph;

/// Whether a 4-D shape has more than one pixel per channel.
static bool hasPixels(const Shape &shape) {
  return shape.size() == 4 && shape[2] * shape[3] > 1;
}

std::vector<bool> mgp::graph::planNhwcValues(const Graph &graph) {
  std::vector<bool> nhwc(graph.values.size(), false);
  for (const Node &node : graph.nodes) {
    const Shape &shape = graph.values[node.result].shape;
    bool result = false;
    switch (node.op) {
    case OpKind::Conv2d:
    case OpKind::FusedConv2d:
    case OpKind::MaxPool2d:
    case OpKind::AvgPool2d:
      result = true;
      break;
    case OpKind::BatchNorm:
    case OpKind::Relu:
      result = nhwc[node.operands[0]];
      break;
    case OpKind::Add:
      // A mixed add reads its NCHW operand transposed and stores NHWC.
      result = nhwc[node.operands[0]] || nhwc[node.operands[1]];
      break;
    case OpKind::GlobalAvgPool:
    case OpKind::Flatten:
    case OpKind::Linear:
      result = false;
      break;
    }
    nhwc[node.result] = result && hasPixels(shape);
  }
  return nhwc;
}

static bool isConvOp(OpKind op) {
  return op == OpKind::Conv2d || op == OpKind::FusedConv2d;
}

std::vector<bool> mgp::graph::planRepackedWeights(const Graph &graph) {
  std::vector<bool> repacked(graph.values.size(), false);
  for (const Node &node : graph.nodes)
    if (isConvOp(node.op) &&
        graph.values[node.operands[1]].kind == ValueKind::Param)
      repacked[node.operands[1]] = true;
  for (const Node &node : graph.nodes)
    for (auto [i, operand] : llvm::enumerate(node.operands))
      if (!(isConvOp(node.op) && i == 1))
        repacked[operand] = false;
  for (int output : graph.outputs)
    repacked[output] = false;
  return repacked;
}

void mgp::graph::repackConvWeights(Model &model) {
  const Graph &graph = model.graph;
  std::vector<bool> repacked = planRepackedWeights(graph);
  // One task per output channel of every repacked weight, on all cores.
  std::vector<std::pair<Tensor *, std::vector<float>>> jobs;
  std::vector<std::pair<size_t, int64_t>> tasks; ///< (job, output channel)
  for (size_t v = 0; v < graph.values.size(); ++v) {
    if (!repacked[v])
      continue;
    Tensor &weight = model.weights.find(graph.values[v].name)->second;
    for (int64_t ki = 0; ki < weight.shape[0]; ++ki)
      tasks.push_back({jobs.size(), ki});
    jobs.push_back({&weight, std::vector<float>(weight.data.size())});
  }
  llvm::parallelFor(0, tasks.size(), [&](size_t i) {
    auto [job, ki] = tasks[i];
    const Tensor &weight = *jobs[job].first;
    std::vector<float> &packed = jobs[job].second;
    const Shape &s = weight.shape;
    int64_t c = s[1], rs = s[2] * s[3];
    for (int64_t ci = 0; ci < c; ++ci)
      for (int64_t t = 0; t < rs; ++t)
        packed[(ki * rs + t) * c + ci] = weight.data[(ki * c + ci) * rs + t];
  });
  for (auto &[weight, packed] : jobs)
    weight->data = std::move(packed);
}

void mgp::graph::nhwcToNchw(Tensor &tensor) {
  const Shape &s = tensor.shape;
  int64_t n = s[0], c = s[1], hw = s[2] * s[3];
  std::vector<float> nchw(tensor.data.size());
  for (int64_t ni = 0; ni < n; ++ni)
    for (int64_t ci = 0; ci < c; ++ci)
      for (int64_t p = 0; p < hw; ++p)
        nchw[(ni * c + ci) * hw + p] = tensor.data[(ni * hw + p) * c + ci];
  tensor.data = std::move(nchw);
}
