//===- GraphParser.h - Reading .graph files ---------------------*- C++ -*-===//
//
// This file implements the entry points that turn `.graph` text into a
// Graph, checking it on the way: unknown ops, undefined names, redefinitions,
// bad attributes, wrong operand counts, uses before the definition (the only
// way a cycle can be written) and a missing `output`. Errors are located
// diagnostics (`file:line:col: error: ...`, the line and a caret).
//
//===----------------------------------------------------------------------===//

#ifndef MGP_GRAPH_GRAPHPARSER_H
#define MGP_GRAPH_GRAPHPARSER_H

#include "graph/ir/Graph.h"

namespace mgp::graph {

/// Parses the `.graph` file at `path`.
llvm::Expected<Graph> parseGraphFile(llvm::StringRef path);

/// Parses `text`, naming the buffer `bufferName` in diagnostics.
llvm::Expected<Graph> parseGraphString(llvm::StringRef text,
                                       llvm::StringRef bufferName = "<graph>");

} // namespace mgp::graph

#endif // MGP_GRAPH_GRAPHPARSER_H
