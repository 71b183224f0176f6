//===- BenchReport.h - mgp-run's --bench and --profile ----------*- C++ -*-===//
//
// This file implements the timing modes of mgp-run: --bench runs a prepared
// backend repeatedly after warm-up runs and prints the median time per batch
// and images/s (with the GPU's kernel time when the backend is the GPU), and
// --profile prints each GPU kernel's total time and share, largest first.
//
//===----------------------------------------------------------------------===//

#ifndef MGP_TOOLS_MGPRUN_BENCHREPORT_H
#define MGP_TOOLS_MGPRUN_BENCHREPORT_H

#include "graph/Backend.h"
#include "graph/backends/gpu/GpuBackendProfile.h"

#include "llvm/Support/raw_ostream.h"

#include <functional>
#include <vector>

namespace mgp::run {

/// Times of a benchmark, in milliseconds per batch.
struct BenchResult {
  double medianMs = 0, minMs = 0, maxMs = 0;
  double medianKernelMs = 0; ///< GPU time of the kernels; 0 when unknown
  /// The outputs of the last timed run (on the gpu, a CUDA graph replay):
  /// what --dump-logits writes after --bench, so that an accuracy computed
  /// from them is the accuracy of what was timed.
  std::vector<graph::Tensor> lastOutputs;
};

/// The median of \p values (the mean of the middle two for an even count);
/// 0 when empty.
double median(std::vector<double> values);

/// Runs \p backend on \p x `warmup` times untimed, then `runs` times timed.
/// \p kernelMs, when set, gives the GPU kernel time of the last run.
llvm::Expected<BenchResult> bench(graph::Backend &backend,
                                  const graph::Tensor &x, int warmup, int runs,
                                  std::function<double()> kernelMs = nullptr);

/// Prints `bench: median M ms per batch (min, max) over N runs, I images/s`.
void printBench(const BenchResult &result, int runs, int64_t batch,
                llvm::StringRef device, llvm::raw_ostream &os);

/// Prints the per-kernel table of --profile over `runs` profiled runs.
void printProfile(llvm::ArrayRef<graph::KernelProfileEntry> entries, int runs,
                  llvm::raw_ostream &os);

/// Prints --profile's per-layer table (rows start with `layer`): ms, launches
/// and GFLOP per run and the achieved TFLOP/s of each node, in order.
void printLayerProfile(llvm::ArrayRef<graph::KernelProfileEntry> layers,
                       int runs, llvm::raw_ostream &os);

} // namespace mgp::run

#endif // MGP_TOOLS_MGPRUN_BENCHREPORT_H
