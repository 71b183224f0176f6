//===- LaunchReport.h - mgp-run's kernel table and --check ------*- C++ -*-===//
//
// This file implements the parts of mgp-run's output that concern kernels:
// the `--info` table of the kernel, grid and specialization of every node of
// the folded and fused graph, and the `--check` comparison of a backend's
// logits with the reference executor's (top-1 agreement, maximum relative
// error).
//
//===----------------------------------------------------------------------===//

#ifndef MGP_TOOLS_MGPRUN_LAUNCHREPORT_H
#define MGP_TOOLS_MGPRUN_LAUNCHREPORT_H

#include "graph/KernelLaunch.h"
#include "runtime/Compare.h"

#include <vector>

namespace mgp::run {

/// The kernel table of `--info`: one line per launch, its node, kernel (or
/// `(alias)`), grid and constexpr specialization, ` (second stream)` where
/// \p side says it runs on the gpu device's second stream beside the launch
/// before it (empty: none does); then the number of distinct
/// specializations.
void printLaunches(const graph::Graph &graph,
                   llvm::ArrayRef<graph::KernelLaunch> launches,
                   llvm::StringRef precision, const std::vector<bool> &side,
                   llvm::raw_ostream &os);

/// Prints each distinct specialization once, in first-use order, as
/// `file kernel signature` (what `mgpc kernels_dsl/FILE -k KERNEL
/// --signature SIGNATURE` compiles ahead of time).
void printKernelList(llvm::ArrayRef<graph::KernelLaunch> launches,
                     llvm::raw_ostream &os);

/// How two sets of logits [N, classes] compare.
struct LogitComparison {
  int64_t rows = 0;
  int64_t top1Agree = 0; ///< rows whose arg-max is the same (none with NaN)
  /// Over the rows whose arg-max differs, the largest reference margin
  /// want[want's top-1] - want[got's top-1], as a fraction of max |want|
  /// (a near-tie flips within rounding; a real disagreement has a margin).
  /// Infinite when an arg-max is missing (NaN).
  double maxFlipMargin = 0;
  ValueComparison values; ///< element by element (runtime/Compare.h)
  /// True when the relative error is within \p tolerance, with no NaN or Inf
  /// on either side, and every top-1 disagreement is a near-tie: the
  /// reference's own margin between the two classes is within \p tolerance.
  bool passes(double tolerance) const {
    return values.within(tolerance) &&
           (top1Agree == rows || maxFlipMargin <= tolerance);
  }
};

/// Compares `got` with `want` (same shape).
LogitComparison compareLogits(const graph::Tensor &got,
                              const graph::Tensor &want);

/// Prints `comparison` as mgp-run --check does.
void printComparison(const LogitComparison &comparison, llvm::StringRef device,
                     llvm::raw_ostream &os);

} // namespace mgp::run

#endif // MGP_TOOLS_MGPRUN_LAUNCHREPORT_H
