//===- FuseEpilogue.h - conv + bias + residual + relu as one node -*- C++
//-*-===//
//
// This file implements the epilogue fusion pass: a `conv2d` with a bias, the
// `add` of a residual that is the only use of its result, and the `relu` that
// is the only use of that, become one `fused_conv2d(x, w, b[, residual],
// relu=0|1)` node: one kernel whose epilogue the constexpr flags select. For
// the kernel backends the stem's max pooling joins too (`pool_kernel`,
// `pool_stride`, `pool_padding`).
//
//===----------------------------------------------------------------------===//

#ifndef MGP_GRAPH_FUSEEPILOGUE_H
#define MGP_GRAPH_FUSEEPILOGUE_H

#include "graph/Backend.h"
#include "graph/ir/Graph.h"

namespace mgp::graph {

struct FuseOptions {
  /// A `maxpool2d` that alone uses a convolution's ReLU also joins the
  /// group when the kernel backends' stem kernel can pool (KernelLaunch.h
  /// convTakesMaxPool: the 7x7 stem's shapes, a 3x3 window at stride 2,
  /// padding 1): the fused node's result is the pooled tensor. Its kernel
  /// max-reduces with integer atomics on fp32 bits, so only where
  /// activations are stored fp32.
  bool maxPoolIntoStem = false;
};

/// Returns a copy of shape-inferred `graph` with every biased `conv2d` (and
/// the add/relu that follow it alone, and with `options` the max pooling
/// after that) turned into a `fused_conv2d`. The parameters are unchanged.
/// Convolutions without a bias stay as they are: run the pass after
/// foldBatchNorm.
Graph fuseEpilogues(const Graph &graph, const FuseOptions &options = {});

/// The kernel backends' options at `precision`: the stem's max pooling fused
/// where activations are stored fp32 (fp32 and tf32).
FuseOptions kernelFuseOptions(Precision precision);

} // namespace mgp::graph

#endif // MGP_GRAPH_FUSEEPILOGUE_H
