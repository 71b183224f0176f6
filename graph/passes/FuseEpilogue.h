//===- FuseEpilogue.h - conv + bias + residual + relu as one node -*- C++
//-*-===//
//
// This file implements the epilogue fusion pass: a `conv2d` with a bias, the
// `add` of a residual that is the only use of its result, and the `relu` that
// is the only use of that, become one `fused_conv2d(x, w, b[, residual],
// relu=0|1)` node: one kernel whose epilogue the constexpr flags select.
//
//===----------------------------------------------------------------------===//

#ifndef MGP_GRAPH_FUSEEPILOGUE_H
#define MGP_GRAPH_FUSEEPILOGUE_H

#include "graph/ir/Graph.h"

namespace mgp::graph {

/// Returns a copy of shape-inferred `graph` with every biased `conv2d` (and
/// the add/relu that follow it alone) turned into a `fused_conv2d`. The
/// parameters are unchanged. Convolutions without a bias stay as they are:
/// run the pass after foldBatchNorm.
Graph fuseEpilogues(const Graph &graph);

} // namespace mgp::graph

#endif // MGP_GRAPH_FUSEEPILOGUE_H
