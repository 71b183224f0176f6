//===- ConvLaunch.cpp - Which kernels run a convolution -------------------===//
//
// This file implements the convolution launch rules: the NHWC implicit-GEMM
// kernels of kernels_dsl/conv2d_nhwc.mgp (the tap x channel-chunk kernel, or
// the stem kernels over a padded NHWC copy for C <= 4 such as the 7x7 stem,
// or the gather kernel for other few-channel cases), block sizes
// from a ConvConfig (powers of two, clamped to the problem), the input,
// weight and residual layouts, split-K (a partial-sum launch over grid z into
// a workspace, then the epilogue launch), and the MGP_CONV_CONFIG knob.
//
//===----------------------------------------------------------------------===//

#include "graph/KernelLaunch.h"

#include "graph/LaunchBuilder.h"

#include "compiler/api/Environment.h"
#include "graph/passes/NhwcLayout.h"

#include <algorithm>
#include <cassert>
#include <cstdlib>

using namespace mgp::graph;

/// A split-K slice reduces at least this many loop steps.
static constexpr int64_t kMinSplitSteps = 4;
/// At most this many slices (grid z).
static constexpr int64_t kMaxSplits = 32;

bool mgp::graph::isConvNode(const Graph &graph, int node) {
  OpKind op = graph.nodes[node].op;
  return op == OpKind::Conv2d || op == OpKind::FusedConv2d;
}

llvm::Expected<ConvConfig> mgp::graph::parseConvConfig(llvm::StringRef text) {
  llvm::SmallVector<llvm::StringRef, 6> fields;
  text.split(fields, ',');
  auto bad = [&](const llvm::Twine &why) {
    return llvm::createStringError(
        "bad conv config '" + text +
        "' (expected BM,BN,BK,warps[,stages[,l1[,transposed]]]): " + why);
  };
  if (fields.size() < 4 || fields.size() > 7)
    return bad("four to seven comma-separated integers");
  int64_t values[7] = {0, 0, 0, 0, 3, 0, 0};
  for (size_t i = 0; i < fields.size(); ++i)
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
  if (values[4] < 1 || values[4] > 8)
    return bad("stages must be in [1, 8]");
  if (values[5] < 0 || values[5] > 2)
    return bad("l1 must be 0, 1 or 2");
  if (values[6] != 0 && values[6] != 1)
    return bad("transposed must be 0 or 1");
  ConvConfig config{values[0], values[1], values[2], int(values[3])};
  config.numStages = int(values[4]);
  config.aL1 = int(values[5]);
  config.transposed = values[6] != 0;
  return config;
}

llvm::Expected<std::optional<ConvConfig>>
mgp::graph::convConfigFromEnvironment() {
  std::optional<std::string> env = readEnv(EnvVar::ConvConfig);
  if (!env)
    return std::nullopt;
  auto config = parseConvConfig(*env);
  if (!config)
    return llvm::createStringError("MGP_CONV_CONFIG: " +
                                   llvm::toString(config.takeError()));
  return std::optional<ConvConfig>(*config);
}

/// The untuned configuration: the NCHW kernels' measured best (H200,
/// ResNet18 batch 128, tf32; docs/kernels.md): 128x64 tiles over 8 warps for
/// 3x3 convolutions, 64x64 over 4 warps otherwise, BLOCK_K = 16. The stem
/// kernel (C <= 4, S <= 8; not measured yet) takes 128x64 over 8 warps with
/// BLOCK_K = 32, a whole padded row of 8 taps per step.
ConvConfig mgp::graph::defaultConvConfig(const Graph &graph, int node) {
  const Shape &w = graph.values[graph.nodes[node].operands[1]].shape;
  if (w[2] == 3 && w[3] == 3 && w[1] > 4)
    return ConvConfig{128, 64, 16, 8};
  if (w[1] <= 4 && w[3] <= 8 && w[2] * w[3] > 1)
    return ConvConfig{128, 64, 32, 8};
  return ConvConfig{64, 64, 16, 4};
}

/// With shift = 31 + ceil(log2 d) and magic = ceil(2^shift / d):
/// magic * d - 2^shift < d <= 2^ceil(log2 d), which makes the quotient exact
/// for 31-bit x (Granlund and Montgomery, "Division by invariant integers
/// using multiplication", theorem 4.2), and magic < 2^32.
DivisionConstants mgp::graph::divisionConstants(int64_t d) {
  assert(d >= 1 && d <= INT32_MAX && "a divisor outside [1, 2^31)");
  int shift = 31 + int(llvm::Log2_64_Ceil(uint64_t(d)));
  uint64_t magic = llvm::divideCeil(uint64_t(1) << shift, uint64_t(d));
  assert(magic < (uint64_t(1) << 32) && "a division constant of 33 bits");
  return {uint32_t(magic), shift};
}

/// The kernel parameters of divisionConstants(d): the magic as its 32-bit
/// pattern (an i32), the shift; never specialized (a power-of-two d's magic
/// is 2^31, divisible by 16, which would only split specializations).
static void addDivisionConstants(LaunchBuilder &b, const char *magicName,
                                 const char *shiftName, int64_t d) {
  DivisionConstants constants = divisionConstants(d);
  b.unspecializedInteger(magicName, int32_t(constants.magic));
  b.unspecializedInteger(shiftName, constants.shift);
}

/// The registers per thread at which two blocks of `numWarps` warps fit in a
/// multiprocessor's 64K, for tf32 dots (0, no limit, otherwise or when that
/// is above the 255 a thread can have). Without it the driver's JIT gave the
/// 8-warp tf32 convolutions with a residual more than 128 registers, one
/// block per multiprocessor; the 16-bit ones fit already (and lost 1 % with
/// it), tf32x3's need more (7 % slower with it; docs/kernels.md, "Launch
/// rules").
static int twoBlockRegisterLimit(int numWarps, const LaunchOptions &options) {
  int limit = 65536 / (2 * 32 * numWarps);
  bool tf32Dots = dotTF32Code(options) == 1 && !options.halfActivations;
  return !tf32Dots || limit > 255 ? 0 : limit;
}

/// A convolution GEMM launch's compile options from its configuration: warps,
/// stages and the register limit.
static void setGemmOptions(KernelLaunch &launch, const ConvConfig &config,
                           const LaunchOptions &options) {
  launch.options.numWarps = config.numWarps;
  launch.options.numStages = config.numStages;
  launch.options.maxNumRegs = twoBlockRegisterLimit(config.numWarps, options);
}

/// The padded taps per row of the stem kernel (a power of two >= S, at
/// least 4 so that a row is at least one 16-float chunk), or 0 when the
/// stem kernel does not apply: C <= 4 and S <= 8 with R*S > 1, and the
/// padded input copy plus weights within 32-bit indexing.
static int64_t stemPaddedTaps(const Shape &x, const Shape &w) {
  int64_t c = x[1], r = w[2], s = w[3];
  if (c > 4 || s > 8 || r * s <= 1)
    return 0;
  int64_t sp = std::max<int64_t>(4, int64_t(llvm::PowerOf2Ceil(s)));
  int64_t floats = (w[0] * r * sp + x[0] * x[2] * x[3]) * 4;
  return floats <= INT32_MAX ? sp : 0;
}

Shape mgp::graph::convOutputShape(const Graph &graph, int index) {
  const Node &node = graph.nodes[index];
  const Shape &x = graph.values[node.operands[0]].shape;
  const Shape &w = graph.values[node.operands[1]].shape;
  int64_t stride = node.intAttr("stride"), pad = node.intAttr("padding");
  return {x[0], w[0], (x[2] + 2 * pad - w[2]) / stride + 1,
          (x[3] + 2 * pad - w[3]) / stride + 1};
}

bool mgp::graph::convTakesMaxPool(const Shape &x, const Shape &w,
                                  const Shape &y, int64_t kernel,
                                  int64_t stride, int64_t padding) {
  if (kernel != 3 || stride != 2 || padding != 1 || !stemPaddedTaps(x, w))
    return false;
  int64_t pooledColumns = (y[3] + 2 * padding - kernel) / stride + 1;
  return pooledColumns <= 128;
}

/// The stem: conv_stem_pack_kernel writes the padded weights and the NHWC4
/// input copy, zero-padded spatially, into the workspace, conv2d_stem_kernel
/// reduces over it without bounds tests.
static std::vector<KernelLaunch> planStemLaunches(const Graph &graph, int index,
                                                  const ConvConfig &config,
                                                  const LaunchOptions &options,
                                                  int64_t sp) {
  const Node &node = graph.nodes[index];
  std::vector<bool> nhwc = planNhwcValues(graph);
  std::vector<bool> repacked = planRepackedWeights(graph);
  const Shape &x = graph.values[node.operands[0]].shape;
  const Shape &w = graph.values[node.operands[1]].shape;
  const Shape y = convOutputShape(graph, index);
  bool fused = node.op == OpKind::FusedConv2d;
  int out = node.result;
  bool hasBias = node.operands.size() > 2;
  // ReLU and a max pooling fused in (FuseEpilogue.h).
  bool pooled = fused && node.intAttr("pool_kernel") > 0;
  bool hasResidual = fused && node.operands.size() > 3;
  int residual = hasResidual ? node.operands[3] : out;
  int64_t r = w[2], k = y[1], m = y[0] * y[2] * y[3];
  int64_t stride = node.intAttr("stride"), pad = node.intAttr("padding");
  // The padded copy: PAD zero rows/columns before the image and enough
  // after it for the last output pixel's last (padded) tap. WP is a multiple
  // of 16 (the signature says so), so that with an even stride every row of
  // the stem kernel's A tile starts 16-byte aligned also in 16-bit types.
  int64_t hp = std::max(x[2] + 2 * pad, (y[2] - 1) * stride + r);
  int64_t wp = llvm::alignTo(
      std::max(x[3] + 2 * pad, (y[3] - 1) * stride + sp), 16);
  int64_t pixels = x[0] * hp * wp, wrows = k * r * sp;
  int64_t workspace = (wrows + pixels) * 4;
  int64_t packBlock = 256;

  LaunchBuilder p(index, "layout_nhwc.mgp", "conv_stem_pack_kernel");
  p.buffer("x_ptr", node.operands[0])
      .buffer("w_ptr", node.operands[1])
      .workspace("ws_ptr", node.operands[0])
      .integer("NP", pixels)
      .integer("C", x[1])
      .integer("H", x[2])
      .integer("W", x[3])
      .constexpr_("HP", hp)
      .constexpr_("WP", wp)
      .integer("WROWS", wrows)
      .constexpr_("R", r)
      .constexpr_("S", w[3])
      .constexpr_("SP", sp)
      .constexpr_("PAD", pad)
      .constexpr_("X_NCHW", !nhwc[node.operands[0]])
      .constexpr_("W_KCRS", !repacked[node.operands[1]])
      .constexpr_("BLOCK", packBlock)
      .constexpr_("ROUND_TF32", options.roundTF32);
  std::vector<KernelLaunch> launches;
  launches.push_back(p.grid(cdiv(wrows + pixels, packBlock)));
  launches.back().workspace = workspace;
  launches.back().lastOfNode = false;
  launches.back().auxiliary = true;

  // One reduction step: 16 floats (4 taps) or 32 (8 taps) of a padded row.
  int64_t blockK = std::min<int64_t>(config.blockK >= 32 ? 32 : 16, sp * 4);
  int64_t blockM = blockFor(m, 16, config.blockM),
          blockN = blockFor(k, 16, config.blockN);
  // With a max pooling: the even output rows (stores), then the odd ones
  // (atomics on the fp32 bits: FuseOptions::maxPoolIntoStem), a program per
  // output row over its pooled columns (at most 128).
  for (int odd = 0; pooled && odd < 2; ++odd) {
    assert(!options.halfActivations && "a fused max pooling stores fp32");
    const Shape &p = graph.values[out].shape;
    LaunchBuilder b(index, "conv2d_nhwc.mgp", "conv2d_stem_maxpool_kernel");
    b.workspace("ws_ptr", node.operands[0])
        .buffer("b_ptr", hasBias ? node.operands[2] : out)
        .buffer("y_ptr", out)
        .integer("P", y[2])
        .integer("Q", y[3])
        .integer("K", k)
        .integer("HP", hp)
        .integer("WP", wp)
        .integer("PH", p[2])
        .integer("PW", p[3])
        .constexpr_("R", r)
        .constexpr_("SP", sp)
        .constexpr_("STRIDE", stride)
        .constexpr_("X_OFF", wrows * 4)
        .constexpr_("HAS_BIAS", hasBias)
        .constexpr_("TF32", dotTF32Code(options))
        .constexpr_("BLOCK_M",
                    std::max<int64_t>(16, int64_t(llvm::PowerOf2Ceil(p[3]))))
        .constexpr_("BLOCK_N", blockN)
        .constexpr_("BLOCK_K", blockK)
        .constexpr_("ROUND_TF32", options.roundTF32)
        .constexpr_("ODD", odd);
    launches.push_back(b.grid(y[0] * (odd ? y[2] / 2 : p[2]), cdiv(k, blockN)));
    setGemmOptions(launches.back(), config, options);
    launches.back().workspace = workspace;
    launches.back().lastOfNode = odd == 1;
  }
  if (pooled)
    return launches;
  LaunchBuilder b(index, "conv2d_nhwc.mgp", "conv2d_stem_kernel");
  b.workspace("ws_ptr", node.operands[0])
      .buffer("b_ptr", hasBias ? node.operands[2] : out)
      .buffer("r_ptr", residual)
      .buffer("y_ptr", out)
      .integer("M", m)
      .integer("HP", hp)
      .integer("WP", wp)
      .integer("K", k)
      .integer("P", y[2])
      .integer("Q", y[3]);
  addDivisionConstants(b, "PQ_MAGIC", "PQ_SHIFT", y[2] * y[3]);
  addDivisionConstants(b, "Q_MAGIC", "Q_SHIFT", y[3]);
  b.constexpr_("R", r)
      .constexpr_("S", w[3])
      .constexpr_("SP", sp)
      .constexpr_("STRIDE", stride)
      .constexpr_("PAD", pad)
      .constexpr_("X_OFF", wrows * 4)
      .constexpr_("RES_NCHW", hasResidual && !nhwc[residual])
      .constexpr_("HAS_BIAS", hasBias)
      .constexpr_("HAS_RESIDUAL", hasResidual)
      .constexpr_("RELU", fused && node.intAttr("relu") != 0)
      .constexpr_("TF32", dotTF32Code(options))
      .constexpr_("BLOCK_M", blockM)
      .constexpr_("BLOCK_N", blockN)
      .constexpr_("BLOCK_K", blockK)
      .constexpr_("ROUND_TF32", options.roundTF32);
  launches.push_back(b.grid(cdiv(m, blockM), cdiv(k, blockN)));
  setGemmOptions(launches.back(), config, options);
  launches.back().workspace = workspace;
  return launches;
}

/// Whether convolution `index` runs its output tiles last to first
/// (conv2d_nhwc_kernel's REVERSE): opposite to the order in which its input
/// was written, so that its first tiles read the input rows the launch
/// before left in L2. The stem kernels write in tile order, but for their
/// fused max pooling's odd rows, which run images last to first.
static bool convRunsReversed(const Graph &graph, int index) {
  // Per value: its writer ended at its start (ran last to first).
  std::vector<bool> endsAtStart(graph.values.size(), false);
  bool reversed = false;
  for (int i = 0; i <= index; ++i) {
    const Node &node = graph.nodes[i];
    if (!isConvNode(graph, i))
      continue;
    const Shape &x = graph.values[node.operands[0]].shape;
    const Shape &w = graph.values[node.operands[1]].shape;
    if (stemPaddedTaps(x, w)) {
      reversed = false;
      endsAtStart[node.result] =
          node.op == OpKind::FusedConv2d && node.intAttr("pool_kernel") > 0;
    } else {
      reversed =
          !(x[1] < 16 && w[2] * w[3] > 1) && !endsAtStart[node.operands[0]];
      endsAtStart[node.result] = reversed;
    }
  }
  return reversed;
}

/// planConvLaunches before the precision is set.
static std::vector<KernelLaunch> planConv(const Graph &graph, int index,
                                          const ConvConfig &config,
                                          const LaunchOptions &options) {
  const Node &node = graph.nodes[index];
  const Shape &x = graph.values[node.operands[0]].shape;
  const Shape &w = graph.values[node.operands[1]].shape;
  if (int64_t sp = stemPaddedTaps(x, w))
    return planStemLaunches(graph, index, config, options, sp);
  std::vector<bool> nhwc = planNhwcValues(graph);
  std::vector<bool> repacked = planRepackedWeights(graph);
  assert((node.op != OpKind::FusedConv2d || node.intAttr("pool_kernel") == 0) &&
         "only the stem kernel pools");
  const Shape &y = graph.values[node.result].shape;
  bool fused = node.op == OpKind::FusedConv2d;
  int out = node.result;
  bool hasBias = node.operands.size() > 2;
  bool hasResidual = fused && node.operands.size() > 3;
  bool relu = fused && node.intAttr("relu") != 0;
  int64_t r = w[2], s = w[3], c = x[1];
  int64_t m = y[0] * y[2] * y[3], k = y[1];
  // Few input channels (the stem's 3): chunks of the whole R*S*C reduction.
  bool gather = c < 16 && r * s > 1;
  int64_t reduction = gather ? c * r * s : c;
  int64_t blockM = blockFor(m, 16, config.blockM),
          blockN = blockFor(k, 16, config.blockN);
  int64_t blockK =
      blockFor(reduction, std::min<int64_t>(16, config.blockK), config.blockK);
  int64_t chunks = cdiv(c, blockK);
  int64_t steps = gather ? cdiv(c * r * s, blockK) : r * s * chunks;
  int64_t tiles = cdiv(m, blockM) * cdiv(k, blockN);
  int64_t split = 1;
  if (config.splitK > 1)
    split = config.splitK;
  else if (config.splitK == 0 && options.numSMs > 0 && tiles < options.numSMs)
    split = std::min(cdiv(options.numSMs, tiles), steps / kMinSplitSteps);
  split = std::clamp<int64_t>(split, 1, std::min(steps, kMaxSplits));
  int64_t stepsPerSplit = cdiv(steps, split);
  split = cdiv(steps, stepsPerSplit);
  bool splitK = split > 1;
  int residual = hasResidual ? node.operands[3] : out;

  LaunchBuilder b(index, "conv2d_nhwc.mgp",
                  gather              ? "conv2d_nhwc_gather_kernel"
                  : config.transposed ? "conv2d_nhwc_cols_kernel"
                                      : "conv2d_nhwc_kernel");
  b.buffer("x_ptr", node.operands[0])
      .buffer("w_ptr", node.operands[1])
      .buffer("b_ptr", hasBias ? node.operands[2] : out)
      .buffer("r_ptr", residual)
      .buffer("y_ptr", out);
  if (splitK)
    b.workspace("ws_ptr");
  else
    b.buffer("ws_ptr", out);
  b.integer("M", m)
      .integer("C", c)
      .integer("H", x[2])
      .integer("W", x[3])
      .integer("K", k)
      .integer("P", y[2])
      .integer("Q", y[3]);
  if (!gather) {
    addDivisionConstants(b, "PQ_MAGIC", "PQ_SHIFT", y[2] * y[3]);
    addDivisionConstants(b, "Q_MAGIC", "Q_SHIFT", y[3]);
    b.integer("CB", chunks);
  }
  // T_SPLIT is unused without split-K: 1 keeps one specialization.
  b.integer("T_SPLIT", splitK ? stepsPerSplit : 1)
      .constexpr_("R", r)
      .constexpr_("S", s)
      .constexpr_("STRIDE", node.intAttr("stride"))
      .constexpr_("PAD", node.intAttr("padding"))
      .constexpr_("X_NCHW", !nhwc[node.operands[0]])
      .constexpr_("W_KCRS", !repacked[node.operands[1]])
      .constexpr_("RES_NCHW", hasResidual && !nhwc[residual])
      .constexpr_("HAS_BIAS", hasBias)
      .constexpr_("HAS_RESIDUAL", hasResidual)
      .constexpr_("RELU", relu)
      .constexpr_("TF32", dotTF32Code(options))
      .constexpr_("SPLIT_K", splitK)
      .constexpr_("BLOCK_M", blockM)
      .constexpr_("BLOCK_N", blockN)
      .constexpr_("BLOCK_K", blockK)
      .constexpr_("ROUND_TF32", options.roundTF32);
  if (!gather)
    b.constexpr_("A_L1", config.aL1);
  if (!gather && convRunsReversed(graph, index))
    b.constexpr_("REVERSE", 1);
  std::vector<KernelLaunch> launches;
  launches.push_back(b.grid(cdiv(m, blockM), cdiv(k, blockN), split));
  setGemmOptions(launches.back(), config, options);
  if (!splitK)
    return launches;

  // The slices' sum and the epilogue, over the same output tiles.
  int64_t workspace = split * m * k;
  launches.back().workspace = workspace;
  launches.back().lastOfNode = false;
  int64_t epilogueM = blockFor(m, 16, 64), epilogueN = blockFor(k, 16, 64);
  LaunchBuilder e(index, "conv2d_nhwc.mgp", "conv2d_splitk_epilogue_kernel");
  e.workspace("ws_ptr")
      .buffer("b_ptr", hasBias ? node.operands[2] : out)
      .buffer("r_ptr", residual)
      .buffer("y_ptr", out)
      .integer("M", m)
      .integer("K", k)
      .integer("PQ", y[2] * y[3])
      .integer("SPLITS", split)
      .constexpr_("HAS_BIAS", hasBias)
      .constexpr_("HAS_RESIDUAL", hasResidual)
      .constexpr_("RES_NCHW", hasResidual && !nhwc[residual])
      .constexpr_("RELU", relu)
      .constexpr_("BLOCK_M", epilogueM)
      .constexpr_("BLOCK_N", epilogueN)
      .constexpr_("ROUND_TF32", options.roundTF32);
  launches.push_back(e.grid(cdiv(m, epilogueM), cdiv(k, epilogueN)));
  launches.back().workspace = workspace;
  return launches;
}

std::vector<KernelLaunch>
mgp::graph::planConvLaunches(const Graph &graph, int index,
                             const ConvConfig &config,
                             const LaunchOptions &options) {
  std::vector<KernelLaunch> launches = planConv(graph, index, config, options);
  for (KernelLaunch &launch : launches)
    launch.options.precision = dotPrecision(options);
  return launches;
}
