//===- ModelPlan.h - how a graph runs on the kernel backends ----*- C++ -*-===//
//
// This file implements the model plan, made once here for everyone who needs
// it: for a folded and fused graph, the storage type of every value and the
// launches of every node (kernels_dsl kernel, specialization, grid, warps,
// stages, dot precision; graph/KernelLaunch.h), from the precision, the
// device kind, its SM count and the tuned convolution configurations. The
// `gpu` and `cpu` backends run their plan (Backend::plan()); `mgp-run --info`
// and `--list-kernels` print the same plan (planGpuModelFromCache,
// graph/tune/ConvTuner.h, for the gpu device).
//
//===----------------------------------------------------------------------===//

#ifndef MGP_GRAPH_MODELPLAN_H
#define MGP_GRAPH_MODELPLAN_H

#include "graph/Backend.h"
#include "graph/KernelLaunch.h"

#include <map>
#include <vector>

namespace mgp::graph {

/// What a plan depends on.
struct PlanOptions {
  Precision precision = Precision::FP32;
  /// The gpu backend's plan (tf32 activations stored rounded, because wgmma
  /// truncates the fp32 operands it reads; fp32 dots as tf32x3); else the
  /// cpu backend's.
  bool gpu = false;
  /// The device's streaming multiprocessors: convolutions with fewer output
  /// tiles split their reduction. 0 never splits.
  int numSMs = 0;
  /// Tuned configurations by convolution node (graph/tune/ConvTuner.h).
  std::map<int, ConvConfig> tuned;
};

/// The launch options of a plan - the one place that decides them: dots take
/// tf32 in every precision but fp32 (in fp16/bf16 the only fp32 dot is the
/// stem's, whose packing kernel widens the 16-bit input, and tf32 keeps
/// fp16's 10-bit mantissa on the tensor cores); the gpu stores tf32
/// activations rounded, and runs fp32 dots as three tf32 products (tf32x3).
LaunchOptions getLaunchOptions(const PlanOptions &options);

/// How a graph runs.
struct ModelPlan {
  PlanOptions options;
  std::vector<DType> types;           ///< storage type by value
  std::vector<KernelLaunch> launches; ///< node order, buffer types assigned
};

/// The plan of `graph` (folded, fused, shapes inferred) with `options`.
/// Errors: sizes the kernels cannot index.
llvm::Expected<ModelPlan> planModel(const Graph &graph,
                                    const PlanOptions &options);

} // namespace mgp::graph

#endif // MGP_GRAPH_MODELPLAN_H
