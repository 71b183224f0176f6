//===- ShapeInference.cpp - Concrete shapes for every value ---------------===//
//
// This file implements the shape rules of every op (PyTorch's conventions:
// floor division for output sizes, pooling padding at most half the kernel).
//
//===----------------------------------------------------------------------===//

#include "graph/passes/ShapeInference.h"

using namespace mgp::graph;
using llvm::Error;

Shape mgp::graph::resolveDeclShape(const Graph &graph, const Value &value,
                                   const DimBindings &bindings) {
  Shape shape;
  for (const DimRef &dim : value.declShape) {
    if (dim.symbol.empty()) {
      shape.push_back(dim.value);
      continue;
    }
    auto it = bindings.find(dim.symbol);
    if (it != bindings.end()) {
      shape.push_back(it->second);
      continue;
    }
    int64_t size = 0;
    for (const DimDecl &decl : graph.dims)
      if (decl.name == dim.symbol)
        size = decl.defaultValue;
    assert(size > 0 && "the parser checks that every dimension is declared");
    shape.push_back(size);
  }
  return shape;
}

namespace {
/// Computes one node's result shape, reporting errors at the node.
class NodeShapes {
public:
  NodeShapes(const Graph &graph, const Node &node)
      : graph(graph), node(node), schema(getOpSchema(node.op)) {}

  llvm::Expected<Shape> infer();

private:
  const Shape &operandShape(unsigned i) const {
    return graph.values[node.operands[i]].shape;
  }
  const std::string &operandName(unsigned i) const {
    return graph.values[node.operands[i]].name;
  }
  Error fail(const llvm::Twine &msg) const {
    return graph.errorAt(node.loc, "shape mismatch in '" +
                                       llvm::Twine(schema.name) + "' node '" +
                                       graph.values[node.result].name +
                                       "': " + msg);
  }
  Error expectRank(unsigned i, size_t rank) const {
    if (operandShape(i).size() == rank)
      return Error::success();
    return fail("operand '" + operandName(i) + "' has shape " +
                formatShape(operandShape(i)) + " but must have rank " +
                llvm::Twine(rank));
  }
  Error expectVector(unsigned i, int64_t size, const char *what) const {
    if (operandShape(i) == Shape{size})
      return Error::success();
    return fail(llvm::Twine(what) + " '" + operandName(i) + "' has shape " +
                formatShape(operandShape(i)) + " but must be [" +
                llvm::Twine(size) + "]");
  }
  llvm::Expected<int64_t> outSize(int64_t in, int64_t kernel, int64_t stride,
                                  int64_t pad, const char *axis) const {
    int64_t out = (in + 2 * pad - kernel) / stride + 1;
    if (in + 2 * pad < kernel || out < 1)
      return fail(llvm::Twine("the input ") + axis + " " + llvm::Twine(in) +
                  " (padding " + llvm::Twine(pad) + ") is smaller than the " +
                  "kernel " + llvm::Twine(kernel) + "; the input is too small");
    return out;
  }
  /// `x` [N, C, H, W] pooled by a square `kernel` window (both axes).
  llvm::Expected<Shape> pooled(const Shape &x, int64_t kernel, int64_t stride,
                               int64_t pad) const {
    auto oh = outSize(x[2], kernel, stride, pad, "height");
    if (!oh)
      return oh.takeError();
    auto ow = outSize(x[3], kernel, stride, pad, "width");
    if (!ow)
      return ow.takeError();
    return Shape{x[0], x[1], *oh, *ow};
  }
  llvm::Expected<Shape> conv();
  llvm::Expected<Shape> pool();

  const Graph &graph;
  const Node &node;
  const OpSchema &schema;
};
} // namespace

llvm::Expected<Shape> NodeShapes::conv() {
  if (Error e = expectRank(0, 4))
    return std::move(e);
  if (Error e = expectRank(1, 4))
    return std::move(e);
  const Shape &x = operandShape(0), &w = operandShape(1);
  if (x[1] != w[1])
    return fail("input '" + operandName(0) + "' has " + llvm::Twine(x[1]) +
                " channels but weight '" + operandName(1) + "' " +
                formatShape(w) + " expects " + llvm::Twine(w[1]));
  if (node.operands.size() > 2)
    if (Error e = expectVector(2, w[0], "bias"))
      return std::move(e);
  int64_t stride = node.intAttr("stride"), pad = node.intAttr("padding");
  auto oh = outSize(x[2], w[2], stride, pad, "height");
  if (!oh)
    return oh.takeError();
  auto ow = outSize(x[3], w[3], stride, pad, "width");
  if (!ow)
    return ow.takeError();
  Shape out{x[0], w[0], *oh, *ow};
  if (node.operands.size() > 3 && operandShape(3) != out)
    return fail("residual '" + operandName(3) + "' has shape " +
                formatShape(operandShape(3)) + " but the convolution gives " +
                formatShape(out));
  if (node.op != OpKind::FusedConv2d || node.intAttr("pool_kernel") == 0)
    return out;
  // A fused max pooling of the result.
  int64_t kernel = node.intAttr("pool_kernel"),
          poolStride = node.intAttr("pool_stride"),
          poolPad = node.intAttr("pool_padding");
  if (poolStride < 1 || 2 * poolPad > kernel)
    return fail("pooling stride " + llvm::Twine(poolStride) + " and padding " +
                llvm::Twine(poolPad) + " do not fit the kernel " +
                llvm::Twine(kernel));
  return pooled(out, kernel, poolStride, poolPad);
}

llvm::Expected<Shape> NodeShapes::pool() {
  if (Error e = expectRank(0, 4))
    return std::move(e);
  const Shape &x = operandShape(0);
  int64_t kernel = node.intAttr("kernel"), stride = node.intAttr("stride"),
          pad = node.intAttr("padding");
  if (2 * pad > kernel)
    return fail("padding " + llvm::Twine(pad) +
                " is more than half the kernel " + llvm::Twine(kernel));
  return pooled(x, kernel, stride, pad);
}

llvm::Expected<Shape> NodeShapes::infer() {
  switch (node.op) {
  case OpKind::Conv2d:
  case OpKind::FusedConv2d:
    return conv();
  case OpKind::BatchNorm: {
    const Shape &x = operandShape(0);
    if (x.size() < 2)
      return fail("input '" + operandName(0) + "' has shape " + formatShape(x) +
                  " but needs a channel dimension");
    static const char *roles[] = {"", "weight", "bias", "running_mean",
                                  "running_var"};
    for (unsigned i = 1; i < 5; ++i)
      if (Error e = expectVector(i, x[1], roles[i]))
        return std::move(e);
    return x;
  }
  case OpKind::Relu:
    return operandShape(0);
  case OpKind::Add:
    if (operandShape(0) != operandShape(1))
      return fail("operands '" + operandName(0) + "' " +
                  formatShape(operandShape(0)) + " and '" + operandName(1) +
                  "' " + formatShape(operandShape(1)) + " differ");
    return operandShape(0);
  case OpKind::MaxPool2d:
  case OpKind::AvgPool2d:
    return pool();
  case OpKind::GlobalAvgPool:
    if (Error e = expectRank(0, 4))
      return std::move(e);
    return Shape{operandShape(0)[0], operandShape(0)[1], 1, 1};
  case OpKind::Flatten: {
    const Shape &x = operandShape(0);
    if (x.empty())
      return fail("cannot flatten a scalar");
    return Shape{x[0], numElements(x) / x[0]};
  }
  case OpKind::Linear: {
    if (Error e = expectRank(0, 2))
      return std::move(e);
    if (Error e = expectRank(1, 2))
      return std::move(e);
    const Shape &x = operandShape(0), &w = operandShape(1);
    if (x[1] != w[1])
      return fail("input '" + operandName(0) + "' has " + llvm::Twine(x[1]) +
                  " features but weight '" + operandName(1) + "' " +
                  formatShape(w) + " expects " + llvm::Twine(w[1]));
    if (node.operands.size() > 2)
      if (Error e = expectVector(2, w[0], "bias"))
        return std::move(e);
    return Shape{x[0], w[0]};
  }
  }
  llvm_unreachable("unhandled op");
}

Error mgp::graph::inferShapes(Graph &graph, const DimBindings &bindings) {
  for (auto &binding : bindings)
    if (binding.second < 1)
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "dimension '%s' must be positive",
                                     binding.first().str().c_str());
  for (Value &value : graph.values) {
    if (value.kind == ValueKind::Node)
      continue;
    value.shape = resolveDeclShape(graph, value, bindings);
    if (checkedByteSize(value.shape, sizeof(float)) < 0)
      return graph.errorAt(value.loc, "'" + value.name + "' of shape " +
                                          formatShape(value.shape) +
                                          " is too large");
  }
  for (const Node &node : graph.nodes) {
    auto shape = NodeShapes(graph, node).infer();
    if (!shape)
      return shape.takeError();
    if (checkedByteSize(*shape, sizeof(float)) < 0)
      return graph.errorAt(node.loc, "the result of node '" +
                                         graph.values[node.result].name + "' " +
                                         formatShape(*shape) + " is too large");
    graph.values[node.result].shape = std::move(*shape);
  }
  return Error::success();
}
