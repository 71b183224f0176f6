//===- BenchReport.cpp - mgp-run's --bench and --profile ------------------===//
//
// This file implements the benchmark loop (wall time of whole runs, input
// upload and output download included, and the backend's own kernel time
// when it reports one) and the printing of benchmark and profile results.
//
//===----------------------------------------------------------------------===//

#include "tools/mgp-run/BenchReport.h"

#include "llvm/Support/Format.h"

#include <algorithm>
#include <chrono>

using namespace mgp;
using namespace mgp::run;

double run::median(std::vector<double> values) {
  if (values.empty())
    return 0;
  std::sort(values.begin(), values.end());
  size_t mid = values.size() / 2;
  return values.size() % 2 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
}

llvm::Expected<BenchResult> run::bench(graph::Backend &backend,
                                       const graph::Tensor &x, int warmup,
                                       int runs,
                                       std::function<double()> kernelMs) {
  for (int i = 0; i < warmup; ++i) {
    auto outputs = backend.run(x);
    if (!outputs)
      return outputs.takeError();
  }
  std::vector<double> wall, kernels;
  std::vector<graph::Tensor> last;
  for (int i = 0; i < runs; ++i) {
    auto start = std::chrono::steady_clock::now();
    auto outputs = backend.run(x);
    if (!outputs)
      return outputs.takeError();
    wall.push_back(std::chrono::duration<double, std::milli>(
                       std::chrono::steady_clock::now() - start)
                       .count());
    if (kernelMs)
      kernels.push_back(kernelMs());
    if (i + 1 == runs)
      last = std::move(*outputs);
  }
  BenchResult result;
  result.lastOutputs = std::move(last);
  result.medianMs = median(wall);
  result.minMs = wall.empty() ? 0 : *std::min_element(wall.begin(), wall.end());
  result.maxMs = wall.empty() ? 0 : *std::max_element(wall.begin(), wall.end());
  result.medianKernelMs = median(kernels);
  return result;
}

void run::printBench(const BenchResult &result, int runs, int64_t batch,
                     llvm::StringRef device, llvm::raw_ostream &os) {
  os << llvm::format("bench (%s): median %.3f ms per batch of %lld (min "
                     "%.3f, max %.3f) over %d runs, %.1f images/s\n",
                     device.str().c_str(), result.medianMs, (long long)batch,
                     result.minMs, result.maxMs, runs,
                     double(batch) * 1000.0 / result.medianMs);
  if (result.medianKernelMs > 0)
    os << llvm::format("bench (%s): kernels alone: median %.3f ms per batch, "
                       "%.1f images/s\n",
                       device.str().c_str(), result.medianKernelMs,
                       double(batch) * 1000.0 / result.medianKernelMs);
}

void run::printLayerProfile(llvm::ArrayRef<graph::KernelProfileEntry> layers,
                            int runs, llvm::raw_ostream &os) {
  os << llvm::format("profile: per layer over %d run(s)\n", runs);
  os << llvm::format("  %5s %10s %9s %10s %9s  %s\n", "", "ms/run", "launches",
                     "GFLOP/run", "TFLOP/s", "layer (kernel)");
  for (const graph::KernelProfileEntry &layer : layers)
    os << llvm::format("  layer %10.3f %9u %10.3f %9.2f  %s\n",
                       runs ? layer.ms / runs : 0.0,
                       runs ? layer.launches / unsigned(runs) : 0u,
                       runs ? layer.flops / runs / 1e9 : 0.0,
                       layer.ms > 0 ? layer.flops / layer.ms / 1e9 : 0.0,
                       layer.kernel.c_str());
}

void run::printProfile(llvm::ArrayRef<graph::KernelProfileEntry> entries,
                       int runs, llvm::raw_ostream &os) {
  double total = 0, flops = 0;
  for (const graph::KernelProfileEntry &entry : entries) {
    total += entry.ms;
    flops += entry.flops;
  }
  // FLOP per ms / 1e9 = TFLOP/s.
  auto tflops = [](double f, double ms) { return ms > 0 ? f / ms / 1e9 : 0.0; };
  os << llvm::format("profile: GPU time per kernel over %d run(s), %.3f ms "
                     "per run, %.2f TFLOP/s overall\n",
                     runs, runs ? total / runs : 0.0, tflops(flops, total));
  os << llvm::format("  %10s %7s %9s %10s %9s  %s\n", "ms/run", "%", "launches",
                     "GFLOP/run", "TFLOP/s", "kernel");
  for (const graph::KernelProfileEntry &entry : entries)
    os << llvm::format("  %10.3f %6.1f%% %9u %10.3f %9.2f  %s\n",
                       runs ? entry.ms / runs : 0.0,
                       total > 0 ? 100.0 * entry.ms / total : 0.0,
                       runs ? entry.launches / unsigned(runs) : 0u,
                       runs ? entry.flops / runs / 1e9 : 0.0,
                       tflops(entry.flops, entry.ms), entry.kernel.c_str());
}
