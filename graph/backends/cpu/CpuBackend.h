//===- CpuBackend.h - mgp kernels on the interpreter -----------*- C++ -*-===//
//
// This file implements the entry points of the interpreter backend: every
// node of the graph runs as its kernels_dsl kernel (graph/KernelLaunch.h),
// compiled to block-level mgp IR and executed by the CPU interpreter
// (runtime/interp/Interpreter.h) on host buffers.
//
//===----------------------------------------------------------------------===//

#ifndef MGP_GRAPH_CPUBACKEND_H
#define MGP_GRAPH_CPUBACKEND_H

#include "graph/Backend.h"

namespace mgp::graph {

/// The interpreter backend. With `optimizeGraph` (the `cpu` device) prepare()
/// folds BatchNorm and fuses epilogues first; without it every node runs
/// as written (batchnorm, relu and add kernels included). Precisions: fp32
/// (dots in "ieee"), tf32 (dot inputs rounded to tf32, as on tensor cores),
/// fp16 and bf16 (activations and conv/linear weights stored 16-bit, the
/// weights converted once in prepare(), the input at the start of run(),
/// biases and logits fp32; graph/ir/StorageTypes.h). `numSMs` > 0 plans the
/// launches as for a GPU with that many multiprocessors (split-K for
/// convolutions with fewer output tiles), so the interpreter runs what the gpu
/// device would.
std::unique_ptr<Backend> createCpuBackend(const BackendOptions &options,
                                          bool optimizeGraph = true,
                                          int numSMs = 0);

/// Registers createCpuBackend as device `cpu`.
void registerCpuBackend();

} // namespace mgp::graph

#endif // MGP_GRAPH_CPUBACKEND_H
