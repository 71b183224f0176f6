//===- Tf32Rounding.cpp - every tf32 dot reads rounded operands -----------===//
//
// This file implements checkTF32Rounding (Tf32Rounding.h): one pass over the
// launches in order, tracking which values are stored rounded to tf32.
//
//===----------------------------------------------------------------------===//
#include "graph/passes/Tf32Rounding.h"

#include "graph/ir/Ops.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FormatVariadic.h"

#include <vector>

using namespace mgp::graph;

namespace {

/// The kernels that run tf32 dots (constexpr TF32=1) and the parameters
/// their dots read.
const llvm::StringMap<std::vector<llvm::StringRef>> &dotOperands() {
  static const llvm::StringMap<std::vector<llvm::StringRef>> table = {
      {"conv2d_kernel", {"x_ptr", "w_ptr"}},
      {"conv2d_3x3_kernel", {"x_ptr", "w_ptr"}},
      {"conv2d_1x1_kernel", {"x_ptr", "w_ptr"}},
      {"conv2d_nhwc_kernel", {"x_ptr", "w_ptr"}},
      {"conv2d_nhwc_cols_kernel", {"x_ptr", "w_ptr"}},
      {"conv2d_nhwc_gather_kernel", {"x_ptr", "w_ptr"}},
      {"conv2d_stem_kernel", {"ws_ptr"}},
      {"conv2d_stem_maxpool_kernel", {"ws_ptr"}},
      {"linear_kernel", {"x_ptr", "w_ptr"}},
  };
  return table;
}

const LaunchParam *findParam(const KernelLaunch &launch,
                             llvm::StringRef name) {
  for (const LaunchParam &param : launch.params)
    if (param.name == name)
      return &param;
  return nullptr;
}

bool constexprIs(const KernelLaunch &launch, llvm::StringRef name,
                 int64_t value) {
  const LaunchParam *param = findParam(launch, name);
  return param && param->kind == LaunchParam::Kind::Constexpr &&
         param->intValue == value;
}

} // namespace

llvm::Error mgp::graph::checkTF32Rounding(
    const Graph &graph, llvm::ArrayRef<KernelLaunch> launches) {
  std::vector<bool> rounded(graph.values.size(), false);
  for (int param : graph.params)
    rounded[param] = true; // weights: roundWeightsToTF32 at upload
  // The node whose launch last wrote a value, for the message.
  auto producerName = [&](int value) -> std::string {
    for (const Node &node : graph.nodes)
      if (node.result == value)
        return llvm::formatv("'{0}' ({1})", graph.values[value].name,
                             getOpSchema(node.op).name)
            .str();
    return llvm::formatv("'{0}' (a graph input)", graph.values[value].name)
        .str();
  };
  // Whether the node's auxiliary launch (the stem's packing) rounded the
  // workspace it filled.
  std::vector<bool> workspaceRounded(graph.nodes.size(), false);

  for (const KernelLaunch &launch : launches) {
    const Node &node = graph.nodes[launch.node];
    if (launch.aliasOf >= 0) {
      rounded[node.result] = rounded[launch.aliasOf];
      continue;
    }
    bool roundsOutput = constexprIs(launch, "ROUND_TF32", 1);
    if (launch.auxiliary) {
      workspaceRounded[launch.node] = roundsOutput;
      continue;
    }
    if (constexprIs(launch, "TF32", 1)) {
      auto operands = dotOperands().find(launch.kernel);
      if (operands == dotOperands().end())
        return llvm::createStringError(
            llvm::formatv("tf32: kernel {0} of node '{1}' runs a tf32 dot "
                          "whose operands the rounding check does not know",
                          launch.kernel, graph.values[node.result].name)
                .str());
      for (llvm::StringRef name : operands->second) {
        const LaunchParam *param = findParam(launch, name);
        if (!param)
          continue;
        if (param->kind == LaunchParam::Kind::Workspace) {
          if (!workspaceRounded[launch.node])
            return llvm::createStringError(
                llvm::formatv("tf32: node '{0}' ({1}) reads its packed input "
                              "unrounded: its packing launch stores it "
                              "without ROUND_TF32",
                              graph.values[node.result].name, launch.kernel)
                    .str());
          continue;
        }
        if (param->kind == LaunchParam::Kind::Buffer && !rounded[param->value])
          return llvm::createStringError(
              llvm::formatv(
                  "tf32 on the gpu device needs every dot operand rounded to "
                  "tf32 by the kernel that stores it (wgmma truncates): node "
                  "'{0}' ({1}) reads {2} = {3}, which is stored unrounded; "
                  "run this graph with --precision fp32, fp16 or bf16",
                  graph.values[node.result].name, getOpSchema(node.op).name, name,
                  producerName(param->value))
                  .str());
      }
    }
    if (!launch.lastOfNode)
      continue;
    bool passesThrough = node.op == OpKind::MaxPool2d ||
                         node.op == OpKind::Relu ||
                         node.op == OpKind::Flatten;
    rounded[node.result] =
        roundsOutput || (passesThrough && rounded[node.operands[0]]);
  }
  return llvm::Error::success();
}
