//===- ModelPlan.cpp - how a graph runs on the kernel backends ------------===//
//
// This file implements getLaunchOptions and planModel.
//
//===----------------------------------------------------------------------===//

#include "graph/ModelPlan.h"

#include "graph/ir/StorageTypes.h"

using namespace mgp;
using namespace mgp::graph;

LaunchOptions mgp::graph::getLaunchOptions(const PlanOptions &options) {
  LaunchOptions launch;
  launch.tf32 = options.precision != Precision::FP32;
  launch.roundTF32 = options.gpu && options.precision == Precision::TF32;
  launch.halfActivations = options.precision == Precision::FP16 ||
                           options.precision == Precision::BF16;
  // fp32: three tf32 products per dot (fp32 accuracy on the tensor cores);
  // the cpu backend runs the gpu's kernels on the interpreter.
  launch.tf32x3 = options.precision == Precision::FP32;
  launch.numSMs = options.numSMs;
  launch.nodeConv = options.tuned;
  return launch;
}

llvm::Expected<ModelPlan> mgp::graph::planModel(const Graph &graph,
                                                const PlanOptions &options) {
  ModelPlan plan;
  plan.options = options;
  auto launches = planLaunches(graph, getLaunchOptions(options));
  if (!launches)
    return launches.takeError();
  plan.launches = std::move(*launches);
  // fp16/bf16: activations and conv/linear weights 16-bit (StorageTypes.h).
  plan.types = planStorageTypes(graph, activationType(options.precision));
  assignBufferTypes(plan.launches, plan.types);
  return std::move(plan);
}
