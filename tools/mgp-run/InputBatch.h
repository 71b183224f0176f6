//===- InputBatch.h - The batch mgp-run feeds the model ---------*- C++ -*-===//
//
// This file implements how mgp-run gets its input batch: a `.npy` file of
// float32 NCHW, one or more PNG/JPEG images (ImageNet preprocessing), or a
// seeded random batch; and how the input binds the graph's batch and spatial
// dimensions.
//
//===----------------------------------------------------------------------===//

#ifndef MGP_TOOLS_MGPRUN_INPUTBATCH_H
#define MGP_TOOLS_MGPRUN_INPUTBATCH_H

#include "graph/ir/Graph.h"
#include "graph/passes/ShapeInference.h"

#include <optional>

namespace mgp::run {

/// What the command line asked for.
struct InputRequest {
  std::vector<std::string> files; ///< .npy or images; empty = random.
  std::optional<int64_t> batch;   ///< --batch
  std::optional<std::pair<int64_t, int64_t>> size; ///< --size HxW
};

/// Parses `--size`: `H` or `HxW`, each at least 1.
llvm::Expected<std::pair<int64_t, int64_t>> parseSize(llvm::StringRef text);

/// Loads the files of `request` (nothing for a random batch), checks them
/// against the graph's single input and binds its symbolic dimensions
/// (N, H, W) from the files or from --batch/--size. Returns the loaded batch,
/// or std::nullopt for a random one.
llvm::Expected<std::optional<graph::Tensor>>
loadInputs(const graph::Graph &graph, const InputRequest &request,
           graph::DimBindings &bindings);

} // namespace mgp::run

#endif // MGP_TOOLS_MGPRUN_INPUTBATCH_H
