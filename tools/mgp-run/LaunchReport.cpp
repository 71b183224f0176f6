//===- LaunchReport.cpp - mgp-run's kernel table and --check --------------===//
//
// This file implements the kernel table of `--info` and the logit comparison
// of `--check`.
//
//===----------------------------------------------------------------------===//

#include "tools/mgp-run/LaunchReport.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Format.h"

#include <algorithm>
#include <cmath>
#include <limits>

using namespace mgp;
using namespace mgp::graph;

void run::printLaunches(const Graph &graph,
                        llvm::ArrayRef<KernelLaunch> launches,
                        llvm::StringRef precision,
                        const std::vector<bool> &side, llvm::raw_ostream &os) {
  os << "\nkernels (BatchNorm folded, epilogues fused, " << precision << "):\n";
  os << llvm::format("%-4s %-26s %-22s %-12s %s\n", "#", "node", "kernel",
                     "grid", "specialization");
  llvm::StringSet<> keys;
  for (size_t i = 0; i < launches.size(); ++i) {
    const KernelLaunch &launch = launches[i];
    const std::string &name =
        graph.values[graph.nodes[launch.node].result].name;
    if (launch.aliasOf >= 0) {
      os << llvm::format(
          "%-4d %-26s %-22s %-12s %s\n", launch.node, name.c_str(), "(alias)",
          "-", ("view of " + graph.values[launch.aliasOf].name).c_str());
      continue;
    }
    keys.insert(launch.key());
    std::string grid = std::to_string(launch.grid[0]) + "x" +
                       std::to_string(launch.grid[1]) + "x" +
                       std::to_string(launch.grid[2]);
    std::string spec = launch.specialization() +
                       " warps=" + std::to_string(launch.options.numWarps) +
                       " stages=" + std::to_string(launch.options.numStages);
    if (launch.options.maxNumRegs)
      spec += " maxnreg=" + std::to_string(launch.options.maxNumRegs);
    if (i < side.size() && side[i])
      spec += " (second stream)";
    os << llvm::format("%-4d %-26s %-22s %-12s %s\n", launch.node, name.c_str(),
                       launch.kernel.c_str(), grid.c_str(), spec.c_str());
  }
  os << "distinct kernel specializations: " << keys.size() << "\n";
}

void run::printKernelList(llvm::ArrayRef<KernelLaunch> launches,
                          llvm::raw_ostream &os) {
  llvm::StringSet<> keys;
  for (const KernelLaunch &launch : launches)
    if (launch.aliasOf < 0 && keys.insert(launch.key()).second)
      os << launch.file << " " << launch.kernel << " " << launch.signature()
         << " " << launch.options.numWarps << "\n";
}

/// The arg-max of a row, or -1 when the row holds a NaN (a NaN compares
/// false with everything, so std::max_element would return any index).
static int64_t argmax(const float *row, int64_t n) {
  int64_t best = 0;
  for (int64_t i = 0; i < n; ++i) {
    if (std::isnan(row[i]))
      return -1;
    if (row[i] > row[best])
      best = i;
  }
  return n ? best : -1;
}

run::LogitComparison run::compareLogits(const Tensor &got, const Tensor &want) {
  assert(got.shape == want.shape && "compare logits of one shape");
  LogitComparison result;
  result.rows = want.shape.empty() ? 0 : want.shape[0];
  int64_t classes = result.rows ? want.size() / result.rows : 0;
  result.values = compareValues(got.data, want.data);
  for (int64_t row = 0; row < result.rows; ++row) {
    const float *wantRow = want.data.data() + row * classes;
    int64_t g = argmax(got.data.data() + row * classes, classes);
    int64_t w = argmax(wantRow, classes);
    if (g >= 0 && g == w) {
      ++result.top1Agree;
      continue;
    }
    double margin = g < 0 || w < 0 || result.values.maxAbsWant == 0
                        ? std::numeric_limits<double>::infinity()
                        : (double(wantRow[w]) - double(wantRow[g])) /
                              result.values.maxAbsWant;
    result.maxFlipMargin = std::max(result.maxFlipMargin, margin);
  }
  return result;
}

void run::printComparison(const LogitComparison &c, llvm::StringRef device,
                          llvm::raw_ostream &os) {
  const ValueComparison &v = c.values;
  os << "check " << device << " against reference: top-1 agreement "
     << c.top1Agree << "/" << c.rows
     << llvm::format(" (%.2f %%), ", c.rows ? 100.0 * double(c.top1Agree) /
                                                  double(c.rows)
                                            : 0.0);
  if (v.nonFiniteMismatches || v.nonFiniteMatches || !v.sizeMatch) {
    os << "NaN/Inf in the logits: " << v.describe() << "\n";
    return;
  }
  os << llvm::format("max relative error %.3e (max abs error %.3e over max "
                     "|logit| %.3e)",
                     v.maxRelError(), v.maxAbsError, v.maxAbsWant);
  if (c.top1Agree != c.rows)
    os << llvm::format("; top-1 differs where the reference's own margin "
                       "between the two classes is at most %.3e of max |logit|",
                       c.maxFlipMargin);
  os << "\n";
}
