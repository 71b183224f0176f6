//===- LaunchRequest.cpp - the compile request of a launch ----------------===//
//
// This file implements getLaunchRequest.
//
//===----------------------------------------------------------------------===//

#include "graph/LaunchRequest.h"

#include "graph/KernelSources.h"

#include "llvm/ADT/StringExtras.h"

using namespace mgp;
using namespace mgp::graph;

llvm::Expected<KernelRequest>
mgp::graph::getLaunchRequest(const KernelLaunch &launch, const Target &target) {
  std::optional<llvm::StringRef> text = findKernelSource(launch.file);
  if (!text) {
    std::vector<std::string> known;
    for (const KernelSource &source : getKernelSources())
      known.push_back(source.file);
    return llvm::createStringError("no kernel file kernels_dsl/" + launch.file +
                                   " (have: " + llvm::join(known, ", ") + ")");
  }
  auto signature = parseSignature(launch.signature());
  if (!signature)
    return signature.takeError();
  KernelRequest request;
  request.source = *text;
  request.fileName = "kernels_dsl/" + launch.file;
  request.kernelName = launch.kernel;
  request.signature = std::move(*signature);
  request.options = launch.options;
  request.target = target;
  return std::move(request);
}
