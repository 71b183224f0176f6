//===- GraphFuzzer.cpp - libFuzzer target: .graph parser and shapes -------===//
//
// This file implements the fuzz target of the model description language:
// any byte string is parsed as a `.graph` file and, if it parses, shape
// inference runs on it and the graph is printed. Rejections must be
// diagnostics; crashes, hangs and sanitizer reports are findings.
//
//===----------------------------------------------------------------------===//

#include "fuzz/FuzzSupport.h"
#include "graph/ir/GraphParser.h"
#include "graph/passes/ShapeInference.h"

#include "llvm/Support/raw_ostream.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  auto graph = mgp::graph::parseGraphString(
      llvm::StringRef(reinterpret_cast<const char *>(data), size), "fuzz.graph");
  if (!graph) {
    mgp::fuzz::consumeChecked(graph.takeError());
    return 0;
  }
  if (llvm::Error error = mgp::graph::inferShapes(*graph)) {
    mgp::fuzz::consumeChecked(std::move(error));
    return 0;
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  mgp::graph::printGraph(*graph, os);
  return 0;
}
