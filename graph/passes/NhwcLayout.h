//===- NhwcLayout.h - How the kernel backends store tensors -----*- C++ -*-===//
//
// This file implements the storage layout rules of the kernel backends (`cpu`
// and `gpu`): the graph keeps its logical NCHW shapes, but every 4-D result
// of a convolution or a pool is stored NHWC (channels innermost, so implicit
// GEMM tiles read contiguous channels); elementwise ops keep their operand's
// layout; graph inputs and parameters stay as given (NCHW). Convolution
// weights [K,C,R,S] are repacked once to [K][R][S][C], and 4-D graph outputs
// stored NHWC are turned back into NCHW when they are read out.
//
//===----------------------------------------------------------------------===//

#ifndef MGP_GRAPH_NHWCLAYOUT_H
#define MGP_GRAPH_NHWCLAYOUT_H

#include "graph/passes/FoldBatchNorm.h"
#include "graph/ir/Graph.h"

#include <vector>

namespace mgp::graph {

/// For every value of `graph` (shapes inferred): whether the kernel backends
/// store it NHWC. Only 4-D node results with H*W > 1 can be; a tensor with
/// H = W = 1 has the same bytes in both layouts and counts as NCHW.
std::vector<bool> planNhwcValues(const Graph &graph);

/// For every value of `graph`: whether it is a parameter whose every use is
/// as the weight of a convolution, which the kernel backends repack from
/// [K,C,R,S] to [K][R][S][C] (the shape in the graph is unchanged). Other
/// convolution weights are read as [K,C,R,S] (W_KCRS=1).
std::vector<bool> planRepackedWeights(const Graph &graph);

/// Repacks the weights planRepackedWeights names in `model.weights`.
void repackConvWeights(Model &model);

/// `tensor`'s data, NHWC for its logical NCHW shape, rewritten as NCHW.
void nhwcToNchw(Tensor &tensor);

} // namespace mgp::graph

#endif // MGP_GRAPH_NHWCLAYOUT_H
