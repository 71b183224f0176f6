//===- LaunchRequest.h - the compile request of a launch --------*- C++ -*-===//
//
// This file implements how the kernel backends ask for a launch's kernel:
// the KernelRequest (runtime/CacheKey.h) of a KernelLaunch - its embedded
// kernels_dsl source, kernel, signature, warps and stages - which
// getCompiledKernel (runtime/jit/KernelCompiler.h) answers from the kernel
// cache or the compiler, as it does for every other caller.
//
//===----------------------------------------------------------------------===//

#ifndef MGP_GRAPH_LAUNCHREQUEST_H
#define MGP_GRAPH_LAUNCHREQUEST_H

#include "graph/KernelLaunch.h"

#include "runtime/CacheKey.h"

namespace mgp::graph {

/// The request for `launch`'s kernel compiled for `arch` ("cpu": the
/// interpreter) with `precision` ("tf32" keeps each dot's own precision,
/// "ieee" makes every f32 dot exact). Errors: an unknown kernel file (the
/// message lists the known ones) or a signature that does not parse.
llvm::Expected<KernelRequest> getLaunchRequest(const KernelLaunch &launch,
                                               llvm::StringRef arch,
                                               llvm::StringRef precision);

} // namespace mgp::graph

#endif // MGP_GRAPH_LAUNCHREQUEST_H
