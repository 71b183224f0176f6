//===- ModelTestSupport.h - shared helpers of the model tests ---*- C++ -*-===//
//
// This file implements what the tests of mgp-kernels-tests share: a graph
// from text and ResNet18 (models/resnet18.graph), with their shapes inferred;
// running a backend with every error failing the test; and the relative
// error max |got - want| / max |want| of a backend's outputs against the
// reference's.
//
//===----------------------------------------------------------------------===//
#ifndef MGP_TESTS_MODELS_MODELTESTSUPPORT_H
#define MGP_TESTS_MODELS_MODELTESTSUPPORT_H

#include "graph/Backend.h"
#include "graph/ir/GraphParser.h"
#include "graph/passes/ShapeInference.h"
#include "tests/unit/support/TensorCompare.h"

#include "llvm/ADT/ArrayRef.h"
#include "gtest/gtest.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <vector>

namespace mgp::graph::modeltest {

/// The graph of `text` with its shapes inferred.
inline Graph parse(llvm::StringRef text) {
  auto graph = parseGraphString(text);
  EXPECT_TRUE(bool(graph)) << llvm::toString(graph.takeError());
  llvm::Error e = inferShapes(*graph);
  EXPECT_FALSE(bool(e)) << llvm::toString(std::move(e));
  return std::move(*graph);
}

/// ResNet18 with its shapes inferred for `batch` images of `size` x `size`.
inline Graph resnet18(int64_t batch, int64_t size) {
  auto graph = parseGraphFile(MGP_SOURCE_DIR "/models/resnet18.graph");
  EXPECT_TRUE(bool(graph)) << llvm::toString(graph.takeError());
  DimBindings bindings;
  bindings["N"] = batch;
  bindings["H"] = size;
  bindings["W"] = size;
  EXPECT_FALSE(bool(inferShapes(*graph, bindings)));
  return std::move(*graph);
}

/// Prepares `backend` for `graph` with `weights` and runs it on `inputs`; an
/// error fails the test and gives no outputs.
inline std::optional<std::vector<Tensor>>
prepareAndRun(Backend &backend, const Graph &graph, const WeightMap &weights,
              llvm::ArrayRef<Tensor> inputs) {
  if (llvm::Error e = backend.prepare(graph, weights)) {
    ADD_FAILURE() << llvm::toString(std::move(e));
    return std::nullopt;
  }
  auto got = backend.run(inputs);
  if (!got) {
    ADD_FAILURE() << llvm::toString(got.takeError());
    return std::nullopt;
  }
  return std::move(*got);
}

/// The relative error of outputs against the reference's (NaN/Inf fail).
using mgp::test::relativeError;

} // namespace mgp::graph::modeltest

#endif // MGP_TESTS_MODELS_MODELTESTSUPPORT_H
