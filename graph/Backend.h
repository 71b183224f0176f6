//===- Backend.h - The interface every graph executor implements -*- C++
//-*-===//
//
// This file implements the contract between mgp-run and the executors of a
// graph: the reference executor (plain C++), the interpreter of the mgp IR
// (`cpu`) and the GPU runtime (`gpu`). A backend is made by name through a
// registry, prepared once for a shape-inferred graph and its weights (compile
// kernels, upload weights, plan buffers), then run any number of times.
//
//===----------------------------------------------------------------------===//

#ifndef MGP_GRAPH_BACKEND_H
#define MGP_GRAPH_BACKEND_H

#include "graph/ir/Graph.h"

#include <functional>
#include <memory>

namespace mgp::graph {

/// The arithmetic a backend is asked to use.
enum class Precision { FP32, TF32, FP16, BF16 };

/// Parses `fp32|tf32|fp16|bf16`.
std::optional<Precision> parsePrecision(llvm::StringRef text);
llvm::StringRef precisionName(Precision precision);

/// Options common to every backend.
struct BackendOptions {
  Precision precision = Precision::FP32;
  /// Where progress lines go (e.g. "compiling 12/20 kernels"); may be null.
  llvm::raw_ostream *progress = nullptr;
};

struct ModelPlan;

/// An executor of graphs.
class Backend {
public:
  virtual ~Backend();

  /// The plan prepare() made (graph/ModelPlan.h): the kernel backends'
  /// launches; null for the reference executor and before prepare().
  virtual const ModelPlan *plan() const { return nullptr; }

  /// The device name (`reference`, `cpu`, `gpu`).
  virtual llvm::StringRef name() const = 0;

  /// Gets ready to run `graph`, whose shapes are inferred for the batch that
  /// run() will get, with `weights` holding a tensor for every parameter. The
  /// backend may keep references to both until it is destroyed, and may run
  /// graph passes (folding, fusion) on its own copy.
  virtual llvm::Error prepare(const Graph &graph, const WeightMap &weights) = 0;

  /// Runs the prepared graph: one tensor per graph input (in declaration
  /// order, shaped as the graph says); returns one tensor per graph output.
  virtual llvm::Expected<std::vector<Tensor>>
  run(llvm::ArrayRef<Tensor> inputs) = 0;
};

/// The check every backend's run() makes first: one tensor per graph input
/// ("the graph has N inputs, got M" otherwise).
llvm::Error checkInputCount(const Graph &graph, llvm::ArrayRef<Tensor> inputs);

/// Makes a backend from options; an error when it cannot run here.
using BackendFactory = std::function<llvm::Expected<std::unique_ptr<Backend>>(
    const BackendOptions &)>;

/// Registers `factory` for device `name` (replacing any earlier one).
void registerBackend(llvm::StringRef name, BackendFactory factory);

/// Creates the backend for device `name`. `reference` is always registered;
/// the known devices without a registered factory (`cpu`, `gpu`) give a clear
/// "not available yet" error, others an "unknown device" error.
llvm::Expected<std::unique_ptr<Backend>>
createBackend(llvm::StringRef name, const BackendOptions &options);

/// The reference executor (defined in ReferenceBackend.cpp).
std::unique_ptr<Backend> createReferenceBackend(const BackendOptions &options);

} // namespace mgp::graph

#endif // MGP_GRAPH_BACKEND_H
