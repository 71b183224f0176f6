//===- LaunchRequest.h - the compile request of a launch --------*- C++ -*-===//
//
// This file implements how the kernel backends ask for a launch's kernel:
// the KernelRequest (compiler/api/KernelRequest.h) of a KernelLaunch - its
// embedded kernels_dsl source, kernel, signature and options - which
// getCompiledKernel (runtime/jit/KernelCompiler.h) answers from the kernel
// cache or the compiler, as it does for every other caller.
//
//===----------------------------------------------------------------------===//

#ifndef MGP_GRAPH_LAUNCHREQUEST_H
#define MGP_GRAPH_LAUNCHREQUEST_H

#include "graph/KernelLaunch.h"

#include "compiler/api/KernelRequest.h"

namespace mgp::graph {

/// The request for `launch`'s kernel with its options, compiled for
/// `target` (Target::cpu(): the interpreter). Errors: an unknown kernel file
/// (the message lists the known ones) or a signature that does not parse.
llvm::Expected<KernelRequest> getLaunchRequest(const KernelLaunch &launch,
                                               const Target &target);

} // namespace mgp::graph

#endif // MGP_GRAPH_LAUNCHREQUEST_H
