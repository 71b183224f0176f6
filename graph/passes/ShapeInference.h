//===- ShapeInference.h - Concrete shapes for every value -------*- C++ -*-===//
//
// This file implements shape inference: the symbolic dimensions of a graph
// (`N`, `H`, `W`, `classes`) are bound to numbers, the declared shapes of the
// inputs and parameters become concrete, and every node's result shape is
// computed from its operands. Any mismatch (channels, ranks, a spatial size
// that shrinks below one) is an error naming the node at its line.
//
//===----------------------------------------------------------------------===//

#ifndef MGP_GRAPH_SHAPEINFERENCE_H
#define MGP_GRAPH_SHAPEINFERENCE_H

#include "graph/ir/Graph.h"

namespace mgp::graph {

/// Values for symbolic dimensions; unbound ones take their `dim` default.
using DimBindings = llvm::StringMap<int64_t>;

/// Fills `Value::shape` for every value of `graph`.
llvm::Error inferShapes(Graph &graph, const DimBindings &bindings = {});

/// The shape `value` was declared with under `bindings` (defaults otherwise).
Shape resolveDeclShape(const Graph &graph, const Value &value,
                       const DimBindings &bindings);

} // namespace mgp::graph

#endif // MGP_GRAPH_SHAPEINFERENCE_H
