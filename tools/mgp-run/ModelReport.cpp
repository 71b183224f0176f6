//===- ModelReport.cpp - What mgp-run prints ------------------------------===//
//
// This file implements the info table, top-k and accuracy reports.
//
//===----------------------------------------------------------------------===//

#include "tools/mgp-run/ModelReport.h"

#include "graph/ModelStats.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"

#include <algorithm>
#include <cmath>
#include <numeric>

using namespace mgp;
using namespace mgp::graph;

std::string run::withThousands(int64_t value) {
  std::string digits = std::to_string(value < 0 ? -value : value);
  std::string out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i && (digits.size() - i) % 3 == 0)
      out += ',';
    out += digits[i];
  }
  return value < 0 ? "-" + out : out;
}

static std::string mib(int64_t bytes) {
  std::string text;
  llvm::raw_string_ostream(text)
      << llvm::format("%.2f MiB", double(bytes) / (1024.0 * 1024.0));
  return text;
}

static void printMemory(const Graph &graph, llvm::StringRef what,
                        llvm::raw_ostream &os) {
  MemoryPlan plan = planMemory(graph);
  os << "  " << what << ": peak live " << mib(plan.peakLiveBytes)
     << "; with buffer reuse " << mib(plan.pooledBytes) << " in "
     << plan.bufferBytes.size() << " buffers (without reuse "
     << mib(plan.unpooledBytes) << ")\n";
}

void run::printInfo(const Graph &graph, const Graph &optimized,
                    llvm::raw_ostream &os) {
  ModelStats stats = computeStats(graph);
  const Value &input = graph.values[graph.inputs.front()];
  int64_t batch = input.shape.empty() ? 1 : input.shape[0];
  os << "input " << input.name << ": " << formatShape(input.shape) << "\n\n";
  os << llvm::format("%-4s %-26s %-15s %-18s %-18s %12s %15s\n", "#", "node",
                     "op", "input", "output", "params", "MACs");
  for (const LayerStats &layer : stats.layers) {
    const Node &node = graph.nodes[layer.node];
    std::string in = formatShape(graph.values[node.operands[0]].shape);
    std::string out = formatShape(graph.values[node.result].shape);
    std::string params = layer.params ? withThousands(layer.params) : "-";
    std::string macs = layer.macs ? withThousands(layer.macs) : "-";
    os << llvm::format("%-4d %-26s %-15s %-18s %-18s %12s %15s\n", layer.node,
                       graph.values[node.result].name.c_str(),
                       getOpSchema(node.op).name, in.c_str(), out.c_str(),
                       params.c_str(), macs.c_str());
  }
  os << "\nparameters: " << withThousands(stats.params)
     << llvm::format(" (%.2f M)", double(stats.params) / 1e6) << " + "
     << withThousands(stats.buffers) << " BatchNorm statistics\n";
  int64_t perImage = stats.macs / std::max<int64_t>(batch, 1);
  os << "MACs: " << withThousands(perImage)
     << llvm::format(" per image (%.2f GMAC)", double(perImage) / 1e9) << ", "
     << withThousands(stats.macs) << " for the batch of " << batch << "\n";
  int fused = 0;
  for (const Node &node : optimized.nodes)
    fused += node.op == OpKind::FusedConv2d;
  os << "activation memory (fp32, batch " << batch << "):\n";
  printMemory(graph,
              "as written (" + std::to_string(graph.nodes.size()) + " nodes)",
              os);
  printMemory(optimized,
              "BatchNorm folded, epilogues fused (" +
                  std::to_string(optimized.nodes.size()) + " nodes, " +
                  std::to_string(fused) + " fused_conv2d)",
              os);
}

llvm::Expected<std::vector<std::string>>
run::readClassNames(llvm::StringRef path) {
  auto bufferOrErr = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!bufferOrErr)
    return llvm::createStringError(
        bufferOrErr.getError(), "%s: cannot read class names: %s",
        path.str().c_str(), bufferOrErr.getError().message().c_str());
  std::vector<std::string> names;
  llvm::SmallVector<llvm::StringRef> lines;
  (*bufferOrErr)->getBuffer().split(lines, '\n');
  for (llvm::StringRef line : lines)
    names.push_back(line.trim().str());
  while (!names.empty() && names.back().empty())
    names.pop_back();
  return names;
}

void run::printTopK(const Tensor &logits, const std::vector<std::string> &names,
                    unsigned k, llvm::raw_ostream &os) {
  int64_t rows = logits.shape[0], classes = logits.size() / rows;
  for (int64_t row = 0; row < rows; ++row) {
    const float *x = logits.data.data() + row * classes;
    double maxLogit = *std::max_element(x, x + classes), sum = 0;
    for (int64_t c = 0; c < classes; ++c)
      sum += std::exp(double(x[c]) - maxLogit);
    std::vector<int64_t> order(classes);
    std::iota(order.begin(), order.end(), 0);
    unsigned top = std::min<int64_t>(k, classes);
    std::partial_sort(order.begin(), order.begin() + top, order.end(),
                      [&](int64_t a, int64_t b) {
                        return x[a] > x[b] || (x[a] == x[b] && a < b);
                      });
    os << "image " << row << ":\n";
    for (unsigned i = 0; i < top; ++i) {
      int64_t c = order[i];
      os << llvm::format("  %u. class %4lld  logit %10.4f  p %.4f", i + 1,
                         (long long)c, x[c],
                         std::exp(double(x[c]) - maxLogit) / sum);
      if (!names.empty())
        os << "  " << names[c];
      os << "\n";
    }
  }
}

int64_t run::countCorrect(const Tensor &logits,
                          const std::vector<int64_t> &labels) {
  int64_t rows = logits.shape[0], classes = logits.size() / rows, correct = 0;
  for (int64_t row = 0; row < rows; ++row) {
    const float *x = logits.data.data() + row * classes;
    correct += std::max_element(x, x + classes) - x == labels[row];
  }
  return correct;
}
