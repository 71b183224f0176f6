//===- ModelReport.h - What mgp-run prints ----------------------*- C++ -*-===//
//
// This file implements mgp-run's reports: the `--info` layer table with the
// parameter, MAC and activation-memory totals; the top-5 classes per image;
// top-1 accuracy against labels; and the class-name file.
//
//===----------------------------------------------------------------------===//

#ifndef MGP_TOOLS_MGPRUN_MODELREPORT_H
#define MGP_TOOLS_MGPRUN_MODELREPORT_H

#include "graph/ir/Graph.h"
#include "graph/passes/MemoryPlan.h"

namespace mgp::run {

/// `1234567` -> `1,234,567`.
std::string withThousands(int64_t value);

/// Prints the layer table and totals of shape-inferred `graph`;
/// `optimized` is the same model after BatchNorm folding and fusion.
void printInfo(const graph::Graph &graph, const graph::Graph &optimized,
               llvm::raw_ostream &os);

/// Reads one class name per line.
llvm::Expected<std::vector<std::string>> readClassNames(llvm::StringRef path);

/// Prints the top-`k` classes of each row of `logits` [N, classes].
void printTopK(const graph::Tensor &logits,
               const std::vector<std::string> &names, unsigned k,
               llvm::raw_ostream &os);

/// The number of rows whose arg-max equals the label.
int64_t countCorrect(const graph::Tensor &logits,
                     const std::vector<int64_t> &labels);

} // namespace mgp::run

#endif // MGP_TOOLS_MGPRUN_MODELREPORT_H
