//===- BackendRegistry.cpp - Backends by device name ----------------------===//
//
// This file implements the registry that maps device names to backend
// factories, and the precision names.
//
//===----------------------------------------------------------------------===//

#include "graph/Backend.h"

#include "llvm/ADT/StringSwitch.h"

#include <mutex>

using namespace mgp::graph;

Backend::~Backend() = default;

llvm::Error mgp::graph::checkInputCount(const Graph &graph,
                                        llvm::ArrayRef<Tensor> inputs) {
  if (inputs.size() == graph.inputs.size())
    return llvm::Error::success();
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "the graph has %zu inputs, got %zu",
                                 graph.inputs.size(), inputs.size());
}

std::optional<Precision> mgp::graph::parsePrecision(llvm::StringRef text) {
  return llvm::StringSwitch<std::optional<Precision>>(text)
      .Case("fp32", Precision::FP32)
      .Case("tf32", Precision::TF32)
      .Case("fp16", Precision::FP16)
      .Case("bf16", Precision::BF16)
      .Default(std::nullopt);
}

llvm::StringRef mgp::graph::precisionName(Precision precision) {
  switch (precision) {
  case Precision::FP32:
    return "fp32";
  case Precision::TF32:
    return "tf32";
  case Precision::FP16:
    return "fp16";
  case Precision::BF16:
    return "bf16";
  }
  llvm_unreachable("unknown precision");
}

namespace {
struct Registry {
  std::mutex mutex;
  llvm::StringMap<BackendFactory> factories;
  Registry() {
    factories["reference"] = [](const BackendOptions &options)
        -> llvm::Expected<std::unique_ptr<Backend>> {
      return createReferenceBackend(options);
    };
  }
};
Registry &getRegistry() {
  static Registry registry;
  return registry;
}
} // namespace

void mgp::graph::registerBackend(llvm::StringRef name, BackendFactory factory) {
  Registry &registry = getRegistry();
  std::lock_guard<std::mutex> lock(registry.mutex);
  registry.factories[name] = std::move(factory);
}

llvm::Expected<std::unique_ptr<Backend>>
mgp::graph::createBackend(llvm::StringRef name, const BackendOptions &options) {
  BackendFactory factory;
  {
    Registry &registry = getRegistry();
    std::lock_guard<std::mutex> lock(registry.mutex);
    auto it = registry.factories.find(name);
    if (it != registry.factories.end())
      factory = it->second;
  }
  if (factory)
    return factory(options);
  if (name == "cpu" || name == "gpu")
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "device '%s' is not available yet: the %s backend is not built into "
        "this mgp-run (use --device reference)",
        name.str().c_str(), name == "cpu" ? "interpreter" : "GPU");
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "unknown device '%s' (expected reference, "
                                 "cpu or gpu)",
                                 name.str().c_str());
}
