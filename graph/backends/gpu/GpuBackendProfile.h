//===- GpuBackendProfile.h - Per-kernel GPU time ----------------*- C++ -*-===//
//
// This file implements the record the `gpu` backend's profiling mode keeps
// per kernel specialization (launches and total GPU time from CUDA events),
// in a header of its own so reports can print it without the backend.
//
//===----------------------------------------------------------------------===//

#ifndef MGP_GRAPH_GPUBACKENDPROFILE_H
#define MGP_GRAPH_GPUBACKENDPROFILE_H

#include <string>

namespace mgp::graph {

/// The GPU time of one kernel specialization over the profiled runs.
struct KernelProfileEntry {
  std::string kernel; ///< `conv2d_3x3_kernel BLOCK_M=64 ...`
  unsigned launches = 0;
  double ms = 0; ///< total over all its launches
  /// Floating-point operations over all its launches (2 x multiply-adds of
  /// convolutions and linear layers; 0 for the other kernels).
  double flops = 0;
};

} // namespace mgp::graph

#endif // MGP_GRAPH_GPUBACKENDPROFILE_H
