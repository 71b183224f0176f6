//===- ReferenceBackend.cpp - The plain C++ graph executor ----------------===//
//
// This file implements the reference backend: it walks the nodes in order,
// calls the reference operator of each, and drops every activation after its
// last use. It runs any graph the passes produce (with or without BatchNorm
// folded, with or without fused nodes) in fp32 with double accumulation.
//
//===----------------------------------------------------------------------===//

#include "graph/Backend.h"
#include "graph/backends/reference/ReferenceKernels.h"

using namespace mgp::graph;

namespace {
class ReferenceBackend : public Backend {
public:
  explicit ReferenceBackend(const BackendOptions &options) : options(options) {}

  llvm::StringRef name() const override { return "reference"; }

  llvm::Error prepare(const Graph &g, const WeightMap &w) override {
    if (options.precision != Precision::FP32)
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          "the reference device computes in fp32 only (got --precision %s)",
          precisionName(options.precision).str().c_str());
    for (int param : g.params)
      if (!w.count(g.values[param].name))
        return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                       "no weights for parameter '%s'",
                                       g.values[param].name.c_str());
    graph = &g;
    weights = &w;
    return llvm::Error::success();
  }

  llvm::Expected<std::vector<Tensor>>
  run(llvm::ArrayRef<Tensor> inputs) override;

private:
  BackendOptions options;
  const Graph *graph = nullptr;
  const WeightMap *weights = nullptr;
};
} // namespace

llvm::Expected<std::vector<Tensor>>
ReferenceBackend::run(llvm::ArrayRef<Tensor> inputs) {
  assert(graph && "prepare() first");
  if (llvm::Error e = checkInputCount(*graph, inputs))
    return std::move(e);
  std::vector<Tensor> values(graph->values.size());
  std::vector<const Tensor *> bound(graph->values.size(), nullptr);
  for (size_t i = 0; i < inputs.size(); ++i) {
    const Value &input = graph->values[graph->inputs[i]];
    if (inputs[i].shape != input.shape)
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "input '%s' has shape %s, expected %s",
                                     input.name.c_str(),
                                     formatShape(inputs[i].shape).c_str(),
                                     formatShape(input.shape).c_str());
    bound[graph->inputs[i]] = &inputs[i];
  }
  for (int param : graph->params)
    bound[param] = &weights->find(graph->values[param].name)->second;

  std::vector<int> remaining = graph->useCounts();
  for (const Node &node : graph->nodes) {
    auto in = [&](size_t i) -> const Tensor & {
      return *bound[node.operands[i]];
    };
    auto opt = [&](size_t i) -> const Tensor * {
      return i < node.operands.size() ? bound[node.operands[i]] : nullptr;
    };
    Tensor result;
    switch (node.op) {
    case OpKind::Conv2d:
      result = ref::conv2d(in(0), in(1), opt(2), node.intAttr("stride"),
                           node.intAttr("padding"));
      break;
    case OpKind::FusedConv2d:
      result = ref::conv2d(in(0), in(1), &in(2), node.intAttr("stride"),
                           node.intAttr("padding"), opt(3),
                           node.intAttr("relu") != 0);
      if (node.intAttr("pool_kernel") > 0)
        result = ref::maxpool2d(result, node.intAttr("pool_kernel"),
                                node.intAttr("pool_stride"),
                                node.intAttr("pool_padding"));
      break;
    case OpKind::BatchNorm:
      result =
          ref::batchnorm(in(0), in(1), in(2), in(3), in(4), node.attr("eps"));
      break;
    case OpKind::Relu:
      result = ref::relu(in(0));
      break;
    case OpKind::Add:
      result = ref::add(in(0), in(1));
      break;
    case OpKind::MaxPool2d:
      result = ref::maxpool2d(in(0), node.intAttr("kernel"),
                              node.intAttr("stride"), node.intAttr("padding"));
      break;
    case OpKind::AvgPool2d:
      result = ref::avgpool2d(in(0), node.intAttr("kernel"),
                              node.intAttr("stride"), node.intAttr("padding"));
      break;
    case OpKind::GlobalAvgPool:
      result = ref::globalAvgPool(in(0));
      break;
    case OpKind::Flatten:
      result = ref::flatten(in(0));
      break;
    case OpKind::Linear:
      result = ref::linear(in(0), in(1), opt(2));
      break;
    }
    assert(result.shape == graph->values[node.result].shape &&
           "reference result disagrees with shape inference");
    values[node.result] = std::move(result);
    bound[node.result] = &values[node.result];
    for (int operand : node.operands)
      if (--remaining[operand] == 0 &&
          graph->values[operand].kind == ValueKind::Node)
        values[operand] = Tensor(); // free the activation
  }
  std::vector<Tensor> outputs;
  for (int output : graph->outputs)
    outputs.push_back(*bound[output]);
  return std::move(outputs);
}

std::unique_ptr<Backend>
mgp::graph::createReferenceBackend(const BackendOptions &options) {
  return std::make_unique<ReferenceBackend>(options);
}
