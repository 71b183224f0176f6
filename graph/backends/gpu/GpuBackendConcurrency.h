//===- GpuBackendConcurrency.h - Launches beside the one before -*- C++ -*-===//
//
// This file implements the `gpu` backend's choice of launches that run on a
// second stream beside the launch before them: in ResNet18, the 1x1
// downsample convolution of a stage's first block beside that block's first
// 3x3 convolution (both read the block's input; neither reads the other's
// result), so the downsample's blocks fill the multiprocessors the larger
// convolution leaves idle in its last wave. The backend forks the second
// stream before the earlier launch and joins it before the launch after the
// pair, which a CUDA graph capture records as two parallel branches.
//
//===----------------------------------------------------------------------===//

#ifndef MGP_GRAPH_GPUBACKENDCONCURRENCY_H
#define MGP_GRAPH_GPUBACKENDCONCURRENCY_H

#include "graph/KernelLaunch.h"
#include "graph/ModelPlan.h"
#include "graph/backends/gpu/GpuBackendArena.h"

#include <vector>

namespace mgp::graph {

/// Per launch of `launches` (planLaunches' order, arena `arena`, each value
/// `elementBytes[value]` bytes an element; empty: 4): whether it may run
/// beside the kernel launch before it (aliases launch nothing and are
/// skipped). Both must be their node's only launch, use no workspace, and
/// the earlier one must not itself run beside its predecessor; and neither
/// launch's result may share a byte of the arena with any buffer the other
/// reads or writes (the arena reuses the bytes of values that died, which
/// only sequential launches make safe).
std::vector<bool> planSideLaunches(const Graph &graph,
                                   llvm::ArrayRef<KernelLaunch> launches,
                                   const ArenaPlan &arena,
                                   llvm::ArrayRef<unsigned> elementBytes = {});

/// The gpu backend's side launches for `plan` (`graph`'s, with the arena
/// planArena makes for its storage types): planSideLaunches, or none at all
/// with MGP_SIDE_STREAM=off. `mgp-run --info` shows the same.
std::vector<bool> planGpuSideLaunches(const Graph &graph,
                                      const ModelPlan &plan);

} // namespace mgp::graph

#endif // MGP_GRAPH_GPUBACKENDCONCURRENCY_H
