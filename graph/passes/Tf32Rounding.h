//===- Tf32Rounding.h - every tf32 dot reads rounded operands ---*- C++ -*-===//
//
// This file declares the check behind the gpu backend's tf32 mode on any
// graph. Hopper's wgmma reads fp32 operands from shared memory and truncates
// them to tf32, where mma.sync rounds; so in tf32 mode the weights are
// rounded at upload and the kernels that produce activations store them
// rounded (ROUND_TF32=1). That holds only when every activation a tf32 dot
// reads comes from such a kernel, directly or through operations that pass
// values through unchanged (max pooling, ReLU, flatten). The check follows
// every launch of a plan and refuses a graph where a dot would read a value
// that nothing rounded (the graph's input read directly, the sum of a
// separate add, a batch normalization that was not folded), naming both
// nodes, instead of running it with a different rounding than the one tested.
//
//===----------------------------------------------------------------------===//
#ifndef MGP_GRAPH_TF32ROUNDING_H
#define MGP_GRAPH_TF32ROUNDING_H

#include "graph/ir/Graph.h"
#include "graph/KernelLaunch.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

namespace mgp::graph {

/// Succeeds when every operand of every tf32 dot in \p launches (the plan of
/// \p graph with LaunchOptions::roundTF32) is a weight (rounded at upload) or
/// an activation stored rounded; otherwise an error naming the consuming node,
/// the operand and the node that produced it unrounded.
llvm::Error checkTF32Rounding(const Graph &graph,
                              llvm::ArrayRef<KernelLaunch> launches);

} // namespace mgp::graph

#endif // MGP_GRAPH_TF32ROUNDING_H
