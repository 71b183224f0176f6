//===- KernelLaunch.cpp - Which mgp kernel runs each graph node -----------===//
//
// This file implements the launch rules of every op but the convolutions
// (ConvLaunch.cpp): kernel choice by storage layout (graph/passes/NhwcLayout.h),
// block sizes, grids and parameter values, and the signature strings built
// from them.
//
//===----------------------------------------------------------------------===//

#include "graph/KernelLaunch.h"

#include "graph/LaunchBuilder.h"
#include "graph/passes/NhwcLayout.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <climits>
#include <cstdlib>

using namespace mgp::graph;

std::string KernelLaunch::signature() const {
  std::vector<std::string> entries;
  for (const LaunchParam &p : params) {
    switch (p.kind) {
    case LaunchParam::Kind::Buffer:
    case LaunchParam::Kind::Workspace:
      entries.push_back(("*" + dtypeName(p.type) + ":16").str());
      break;
    case LaunchParam::Kind::Int:
      entries.push_back(!p.specialize          ? "i32"
                        : p.intValue == 1      ? "i32:1"
                        : p.intValue % 16 == 0 ? "i32:16"
                                               : "i32");
      break;
    case LaunchParam::Kind::Float:
      entries.push_back("fp32");
      break;
    case LaunchParam::Kind::Constexpr:
      entries.push_back(std::to_string(p.intValue));
      break;
    }
  }
  return llvm::join(entries, ",");
}

std::string KernelLaunch::specialization() const {
  std::vector<std::string> entries;
  for (const LaunchParam &p : params)
    if (p.kind == LaunchParam::Kind::Constexpr)
      entries.push_back(p.name + "=" + std::to_string(p.intValue));
  return llvm::join(entries, " ");
}

/// Elementwise kernels: one block of this many elements per program.
static constexpr int64_t kElementBlock = 1024;

static KernelLaunch planPool(const Graph &graph, int index, bool isMax,
                             const std::vector<bool> &nhwc) {
  const Node &node = graph.nodes[index];
  const Shape &x = graph.values[node.operands[0]].shape;
  const Shape &y = graph.values[node.result].shape;
  // 512 outputs per program over 4 warps: 4 consecutive channels per lane
  // (16-byte vectors when C is a power of two; pool2d_nhwc.mgp).
  int64_t total = numElements(y), block = 512;
  LaunchBuilder b(index, "pool2d_nhwc.mgp", "pool2d_nhwc_kernel");
  b.buffer("x_ptr", node.operands[0])
      .buffer("y_ptr", node.result)
      .integer("total", total)
      .integer("H", x[2])
      .integer("W", x[3])
      .integer("P", y[2])
      .integer("Q", y[3])
      .constexpr_("C", x[1])
      .constexpr_("KSIZE", node.intAttr("kernel"))
      .constexpr_("STRIDE", node.intAttr("stride"))
      .constexpr_("PAD", node.intAttr("padding"))
      .constexpr_("IS_MAX", isMax)
      .constexpr_("X_NCHW", !nhwc[node.operands[0]])
      .constexpr_("BLOCK", block);
  return b.grid(cdiv(total, block));
}

static KernelLaunch planNode(const Graph &graph, int index,
                             const LaunchOptions &options,
                             const std::vector<bool> &nhwc) {
  const Node &node = graph.nodes[index];
  const Shape &y = graph.values[node.result].shape;
  int64_t total = numElements(y);
  switch (node.op) {
  case OpKind::Conv2d:
  case OpKind::FusedConv2d:
    llvm_unreachable("planLaunches plans convolutions with planConvLaunches");
  case OpKind::MaxPool2d:
    return planPool(graph, index, /*isMax=*/true, nhwc);
  case OpKind::AvgPool2d:
    return planPool(graph, index, /*isMax=*/false, nhwc);
  case OpKind::BatchNorm: {
    // The channel of element i is (i / HW) % C: HW = 1 for NHWC storage.
    const Shape &x = graph.values[node.operands[0]].shape;
    int64_t hw = nhwc[node.operands[0]] ? 1 : total / (x[0] * x[1]);
    LaunchBuilder b(index, "batchnorm.mgp", "batchnorm_kernel");
    b.buffer("x_ptr", node.operands[0])
        .buffer("gamma_ptr", node.operands[1])
        .buffer("beta_ptr", node.operands[2])
        .buffer("mean_ptr", node.operands[3])
        .buffer("var_ptr", node.operands[4])
        .buffer("y_ptr", node.result)
        .integer("total", total)
        .integer("C", x[1])
        .integer("HW", hw)
        .floating("eps", node.attr("eps"))
        .constexpr_("BLOCK", kElementBlock);
    return b.grid(cdiv(total, kElementBlock));
  }
  case OpKind::Relu: {
    LaunchBuilder b(index, "relu.mgp", "relu_kernel");
    b.buffer("in_ptr", node.operands[0])
        .buffer("out_ptr", node.result)
        .integer("n_elements", total)
        .constexpr_("BLOCK_SIZE", kElementBlock);
    return b.grid(cdiv(total, kElementBlock));
  }
  case OpKind::Add: {
    int lhs = node.operands[0], rhs = node.operands[1];
    if (nhwc[lhs] != nhwc[rhs]) {
      // One operand NHWC, the other NCHW: the result is NHWC.
      const Shape &x = graph.values[lhs].shape;
      LaunchBuilder b(index, "layout_nhwc.mgp", "add_nhwc_nchw_kernel");
      b.buffer("a_ptr", nhwc[lhs] ? lhs : rhs)
          .buffer("b_ptr", nhwc[lhs] ? rhs : lhs)
          .buffer("out_ptr", node.result)
          .integer("total", total)
          .integer("C", x[1])
          .integer("HW", x[2] * x[3])
          .constexpr_("BLOCK", kElementBlock);
      return b.grid(cdiv(total, kElementBlock));
    }
    LaunchBuilder b(index, "add.mgp", "add_kernel");
    b.buffer("a_ptr", node.operands[0])
        .buffer("b_ptr", node.operands[1])
        .buffer("out_ptr", node.result)
        .integer("n_elements", total)
        .constexpr_("BLOCK_SIZE", kElementBlock);
    return b.grid(cdiv(total, kElementBlock));
  }
  case OpKind::GlobalAvgPool: {
    const Shape &x = graph.values[node.operands[0]].shape;
    int64_t rows = x[0] * x[1], hw = x[2] * x[3], blockR = 128;
    LaunchBuilder b(index, "layout_nhwc.mgp", "global_avgpool_nhwc_kernel");
    b.buffer("x_ptr", node.operands[0])
        .buffer("y_ptr", node.result)
        .integer("NC", rows)
        .integer("C", x[1])
        .integer("HW", hw)
        .constexpr_("X_NCHW", !nhwc[node.operands[0]])
        .constexpr_("BLOCK_R", blockR)
        .constexpr_("ROUND_TF32", options.roundTF32);
    return b.grid(cdiv(rows, blockR));
  }
  case OpKind::Flatten: {
    const Shape &x = graph.values[node.operands[0]].shape;
    if (nhwc[node.operands[0]]) {
      // Flatten orders elements as NCHW: transpose an NHWC activation.
      LaunchBuilder b(index, "layout_nhwc.mgp", "nhwc_to_nchw_kernel");
      b.buffer("x_ptr", node.operands[0])
          .buffer("y_ptr", node.result)
          .integer("total", total)
          .integer("C", x[1])
          .integer("HW", x[2] * x[3])
          .constexpr_("BLOCK", kElementBlock);
      return b.grid(cdiv(total, kElementBlock));
    }
    KernelLaunch alias;
    alias.node = index;
    alias.aliasOf = node.operands[0];
    return alias;
  }
  case OpKind::Linear: {
    const Shape &x = graph.values[node.operands[0]].shape;
    int64_t m = y[0], n = y[1], f = x[1];
    bool hasBias = node.operands.size() > 2;
    int64_t blockM = blockFor(m, 16, 64), blockN = blockFor(n, 16, 64);
    LaunchBuilder b(index, "linear.mgp", "linear_kernel");
    b.buffer("x_ptr", node.operands[0])
        .buffer("w_ptr", node.operands[1])
        .buffer("b_ptr", hasBias ? node.operands[2] : node.result)
        .buffer("y_ptr", node.result)
        .integer("M", m)
        .integer("N", n)
        .integer("F", f)
        .constexpr_("HAS_BIAS", hasBias)
        .constexpr_("TF32", dotTF32Code(options))
        .constexpr_("BLOCK_M", blockM)
        .constexpr_("BLOCK_N", blockN)
        .constexpr_("BLOCK_K", blockFor(f, 16, 32));
    return b.grid(cdiv(m, blockM), cdiv(n, blockN));
  }
  }
  llvm_unreachable("unknown op");
}

int64_t mgp::graph::dotTF32Code(const LaunchOptions &options) {
  return options.tf32x3 ? 3 : options.tf32 ? 1 : 0;
}

mgp::DotPrecision mgp::graph::dotPrecision(const LaunchOptions &options) {
  return options.tf32 || options.tf32x3 ? DotPrecision::TF32
                                        : DotPrecision::IEEE;
}

llvm::Expected<std::vector<KernelLaunch>>
mgp::graph::planLaunches(const Graph &graph, const LaunchOptions &options) {
  for (const Value &value : graph.values)
    if (numElements(value.shape) > INT_MAX)
      return graph.errorAt(value.loc,
                           "'" + value.name + "' has " +
                               llvm::Twine(numElements(value.shape)) +
                               " elements; the kernels index with "
                               "32-bit integers (at most " +
                               llvm::Twine(INT_MAX) + ")");
  LaunchOptions resolved = options;
  if (!resolved.conv) {
    auto env = convConfigFromEnvironment();
    if (!env)
      return env.takeError();
    resolved.conv = *env;
  }
  std::vector<bool> nhwc = planNhwcValues(graph);
  std::vector<KernelLaunch> launches;
  for (int i = 0, e = int(graph.nodes.size()); i < e; ++i) {
    if (!isConvNode(graph, i)) {
      launches.push_back(planNode(graph, i, resolved, nhwc));
      continue;
    }
    const Node &node = graph.nodes[i];
    if (node.op == OpKind::FusedConv2d && node.intAttr("pool_kernel") > 0 &&
        (options.halfActivations || node.operands.size() > 3 ||
         node.intAttr("relu") == 0 ||
         !convTakesMaxPool(
             graph.values[node.operands[0]].shape,
             graph.values[node.operands[1]].shape, convOutputShape(graph, i),
             node.intAttr("pool_kernel"), node.intAttr("pool_stride"),
             node.intAttr("pool_padding"))))
      return graph.errorAt(
          node.loc, "'" + graph.values[node.result].name +
                        "': the kernels fuse a max pooling into a "
                        "convolution only for a 7x7-style stem (at most 4 "
                        "input channels) with ReLU and no residual, a 3x3 "
                        "window at stride 2 and padding 1, at most 128 "
                        "pooled columns and fp32 activations");
    auto tuned = resolved.nodeConv.find(i);
    ConvConfig config = resolved.conv ? *resolved.conv
                        : tuned != resolved.nodeConv.end()
                            ? tuned->second
                            : defaultConvConfig(graph, i);
    for (KernelLaunch &launch : planConvLaunches(graph, i, config, resolved))
      launches.push_back(std::move(launch));
  }
  for (KernelLaunch &launch : launches)
    launch.options.precision = dotPrecision(options);
  return std::move(launches);
}
