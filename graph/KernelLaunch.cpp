//===- KernelLaunch.cpp - Which mgp kernel runs each graph node -----------===//
//
// This file implements the launch rules: kernel choice (the 3x3, 1x1 or
// general convolution), block sizes (powers of two, clamped to the problem so
// small layers do not waste whole tiles), grids and parameter values for every
// op of the graph language, and the signature strings built from them.
//
//===----------------------------------------------------------------------===//

#include "graph/KernelLaunch.h"

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
      entries.push_back(("*" + storageTypeName(p.type) + ":16").str());
      break;
    case LaunchParam::Kind::Int:
      entries.push_back(p.intValue == 1        ? "i32:1"
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

namespace {
/// Builds one launch parameter by parameter.
struct LaunchBuilder {
  KernelLaunch launch;

  LaunchBuilder(int node, const char *file, const char *kernel) {
    launch.node = node;
    launch.file = file;
    launch.kernel = kernel;
  }
  LaunchBuilder &buffer(const char *name, int value) {
    launch.params.push_back({name, LaunchParam::Kind::Buffer, value, 0, 0});
    return *this;
  }
  LaunchBuilder &integer(const char *name, int64_t v) {
    launch.params.push_back({name, LaunchParam::Kind::Int, -1, v, 0});
    return *this;
  }
  LaunchBuilder &floating(const char *name, double v) {
    launch.params.push_back({name, LaunchParam::Kind::Float, -1, 0, v});
    return *this;
  }
  LaunchBuilder &constexpr_(const char *name, int64_t v) {
    launch.params.push_back({name, LaunchParam::Kind::Constexpr, -1, v, 0});
    return *this;
  }
  KernelLaunch grid(int64_t x, int64_t y = 1, int64_t z = 1) {
    launch.grid = {x, y, z};
    return std::move(launch);
  }
};
} // namespace

static int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

/// The power of two >= `n`, clamped to [lo, hi].
static int64_t blockFor(int64_t n, int64_t lo, int64_t hi) {
  return std::clamp<int64_t>(int64_t(llvm::PowerOf2Ceil(uint64_t(n))), lo, hi);
}

/// Elementwise kernels: one block of this many elements per program.
static constexpr int64_t kElementBlock = 1024;

llvm::Expected<ConvConfig> mgp::graph::parseConvConfig(llvm::StringRef text) {
  llvm::SmallVector<llvm::StringRef, 4> fields;
  text.split(fields, ',');
  auto bad = [&](const llvm::Twine &why) {
    return llvm::createStringError("bad conv config '" + text +
                                   "' (expected BM,BN,BK,warps): " + why);
  };
  if (fields.size() != 4)
    return bad("four comma-separated integers");
  int64_t values[4];
  for (int i = 0; i < 4; ++i)
    if (fields[i].trim().getAsInteger(10, values[i]))
      return bad("'" + fields[i] + "' is not an integer");
  auto isPow2In = [](int64_t v, int64_t lo, int64_t hi) {
    return v >= lo && v <= hi && llvm::isPowerOf2_64(uint64_t(v));
  };
  if (!isPow2In(values[0], 16, 256) || !isPow2In(values[1], 16, 256))
    return bad("BM and BN must be powers of two in [16, 256]");
  if (!isPow2In(values[2], 8, 128))
    return bad("BK must be a power of two in [8, 128]");
  if (!isPow2In(values[3], 1, 16))
    return bad("warps must be 1, 2, 4, 8 or 16");
  return ConvConfig{values[0], values[1], values[2], int(values[3])};
}

/// The tuned configuration of each convolution kernel, measured on an H200
/// with ResNet18 at batch 128 in tf32 (docs/kernels.md has the table): the
/// 3x3 kernel runs best with 128x64 tiles over 8 warps, the 1x1 and the
/// general (7x7 stem) kernels with 64x64 tiles over 4 warps; BLOCK_K=16
/// beat 32 for every tile shape measured.
static ConvConfig defaultConvConfig(bool is3x3) {
  if (is3x3)
    return ConvConfig{128, 64, 16, 8};
  return ConvConfig{64, 64, 16, 4};
}

static KernelLaunch planConv(const Graph &graph, int index, bool fused,
                             const LaunchOptions &options) {
  const Node &node = graph.nodes[index];
  const Shape &x = graph.values[node.operands[0]].shape;
  const Shape &w = graph.values[node.operands[1]].shape;
  const Shape &y = graph.values[node.result].shape;
  int out = node.result;
  bool hasBias = node.operands.size() > 2;
  bool hasResidual = fused && node.operands.size() > 3;
  bool relu = fused && node.intAttr("relu") != 0;
  int64_t r = w[2], s = w[3], c = x[1];
  int64_t m = y[0] * y[2] * y[3], k = y[1];
  bool is3x3 = r == 3 && s == 3, is1x1 = r == 1 && s == 1;
  const char *kernel = is3x3   ? "conv2d_3x3_kernel"
                       : is1x1 ? "conv2d_1x1_kernel"
                               : "conv2d_kernel";
  int64_t reduction = is3x3 || is1x1 ? c : c * r * s;
  LaunchBuilder b(index, "conv2d.mgp", kernel);
  b.buffer("x_ptr", node.operands[0])
      .buffer("w_ptr", node.operands[1])
      .buffer("b_ptr", hasBias ? node.operands[2] : out)
      .buffer("r_ptr", hasResidual ? node.operands[3] : out)
      .buffer("y_ptr", out)
      .integer("M", m)
      .integer("C", c)
      .integer("H", x[2])
      .integer("W", x[3])
      .integer("K", k)
      .integer("P", y[2])
      .integer("Q", y[3]);
  if (!is3x3 && !is1x1)
    b.constexpr_("R", r).constexpr_("S", s);
  ConvConfig config = options.conv ? *options.conv : defaultConvConfig(is3x3);
  int64_t blockM = blockFor(m, 16, config.blockM),
          blockN = blockFor(k, 16, config.blockN);
  int64_t blockK =
      blockFor(reduction, std::min<int64_t>(16, config.blockK), config.blockK);
  b.constexpr_("STRIDE", node.intAttr("stride"))
      .constexpr_("PAD", node.intAttr("padding"))
      .constexpr_("HAS_BIAS", hasBias)
      .constexpr_("HAS_RESIDUAL", hasResidual)
      .constexpr_("RELU", relu)
      .constexpr_("TF32", options.tf32)
      .constexpr_("BLOCK_M", blockM)
      .constexpr_("BLOCK_N", blockN)
      .constexpr_("BLOCK_K", blockK);
  KernelLaunch launch = b.grid(cdiv(m, blockM), cdiv(k, blockN));
  launch.numWarps = config.numWarps;
  return launch;
}

static KernelLaunch planPool(const Graph &graph, int index, bool isMax) {
  const Node &node = graph.nodes[index];
  const Shape &x = graph.values[node.operands[0]].shape;
  const Shape &y = graph.values[node.result].shape;
  int64_t total = numElements(y), block = 256;
  LaunchBuilder b(index, "pool2d.mgp", "pool2d_kernel");
  b.buffer("x_ptr", node.operands[0])
      .buffer("y_ptr", node.result)
      .integer("total", total)
      .integer("H", x[2])
      .integer("W", x[3])
      .integer("P", y[2])
      .integer("Q", y[3])
      .constexpr_("KSIZE", node.intAttr("kernel"))
      .constexpr_("STRIDE", node.intAttr("stride"))
      .constexpr_("PAD", node.intAttr("padding"))
      .constexpr_("IS_MAX", isMax)
      .constexpr_("BLOCK", block);
  return b.grid(cdiv(total, block));
}

static KernelLaunch planNode(const Graph &graph, int index,
                             const LaunchOptions &options) {
  const Node &node = graph.nodes[index];
  const Shape &y = graph.values[node.result].shape;
  int64_t total = numElements(y);
  switch (node.op) {
  case OpKind::Conv2d:
    return planConv(graph, index, /*fused=*/false, options);
  case OpKind::FusedConv2d:
    return planConv(graph, index, /*fused=*/true, options);
  case OpKind::MaxPool2d:
    return planPool(graph, index, /*isMax=*/true);
  case OpKind::AvgPool2d:
    return planPool(graph, index, /*isMax=*/false);
  case OpKind::BatchNorm: {
    const Shape &x = graph.values[node.operands[0]].shape;
    int64_t hw = total / (x[0] * x[1]);
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
    LaunchBuilder b(index, "global_avgpool.mgp", "global_avgpool_kernel");
    b.buffer("x_ptr", node.operands[0])
        .buffer("y_ptr", node.result)
        .integer("NC", rows)
        .integer("HW", hw)
        .constexpr_("BLOCK_R", blockR);
    return b.grid(cdiv(rows, blockR));
  }
  case OpKind::Flatten: {
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
        .constexpr_("TF32", options.tf32)
        .constexpr_("BLOCK_M", blockM)
        .constexpr_("BLOCK_N", blockN)
        .constexpr_("BLOCK_K", blockFor(f, 16, 32));
    return b.grid(cdiv(m, blockM), cdiv(n, blockN));
  }
  }
  llvm_unreachable("unknown op");
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
  if (!resolved.conv)
    if (const char *env = std::getenv("MGP_CONV_CONFIG")) {
      auto config = parseConvConfig(env);
      if (!config)
        return llvm::createStringError("MGP_CONV_CONFIG: " +
                                       llvm::toString(config.takeError()));
      resolved.conv = *config;
    }
  std::vector<KernelLaunch> launches;
  for (int i = 0, e = int(graph.nodes.size()); i < e; ++i)
    launches.push_back(planNode(graph, i, resolved));
  return std::move(launches);
}
