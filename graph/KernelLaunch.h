//===- KernelLaunch.h - Which mgp kernel runs each graph node ---*- C++ -*-===//
//
// This file implements the launch rules shared by the kernel backends (`cpu`
// on the interpreter, `gpu` through the JIT): for every node of a
// shape-inferred graph, the kernels_dsl file and kernel that compute it, every
// kernel parameter's value (a graph value's buffer, a runtime integer or float,
// or a constexpr), the grid, and from those the Triton AOT-style signature
// (compiler/pipeline/Signature.h) that names the specialization. A backend only
// has to compile each distinct (file, kernel, signature) once and launch.
//
//===----------------------------------------------------------------------===//

#ifndef MGP_GRAPH_KERNELLAUNCH_H
#define MGP_GRAPH_KERNELLAUNCH_H

#include "graph/Graph.h"
#include "graph/StorageTypes.h"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace mgp::graph {

/// The value given to one kernel parameter.
struct LaunchParam {
  enum class Kind {
    Buffer,    ///< a pointer to the buffer of graph value `value`
    Int,       ///< a runtime i32
    Float,     ///< a runtime fp32
    Constexpr, ///< a compile-time integer (part of the specialization)
  };
  std::string name; ///< The kernel's parameter name (`x_ptr`, `BLOCK_M`).
  Kind kind = Kind::Int;
  int value = -1;       ///< Graph value index (Kind::Buffer).
  int64_t intValue = 0; ///< Kind::Int and Kind::Constexpr.
  double floatValue = 0;
  /// Kind::Buffer: the element type of the value's buffer (fp16/bf16
  /// activations under --precision fp16|bf16; graph/StorageTypes.h).
  StorageType type = StorageType::F32;
};

/// How one node runs.
struct KernelLaunch {
  int node = -1; ///< Index into Graph::nodes.
  /// When >= 0 no kernel runs: the node's result is this value's buffer
  /// seen with the result's shape (flatten).
  int aliasOf = -1;
  std::string file;                ///< kernels_dsl file (`conv2d.mgp`).
  std::string kernel;              ///< @jit kernel name (`conv2d_3x3_kernel`).
  std::vector<LaunchParam> params; ///< Every kernel parameter, in order.
  std::array<int64_t, 3> grid = {1, 1, 1};
  int numWarps = 4; ///< block = 32 * numWarps threads

  /// The AOT signature: `*fp32:16` (`*fp16:16`, `*bf16:16` as the buffer's
  /// type says) per buffer (the backends allocate buffers 16-byte aligned),
  /// `i32` with `:16`/`:1` hints per integer, `fp32` per float, the value
  /// per constexpr.
  std::string signature() const;
  /// The constexprs as `NAME=value` joined with spaces (for --info).
  std::string specialization() const;
  /// `file:kernel[signature]/wN`: equal keys share one compiled kernel.
  std::string key() const {
    return file + ":" + kernel + "[" + signature() + "]/w" +
           std::to_string(numWarps);
  }
};

/// The largest tiles and the warps of a convolution kernel; the planner
/// shrinks a block below its maximum when the problem is smaller.
struct ConvConfig {
  int64_t blockM = 64; ///< output pixels (N*P*Q) per program, at most
  int64_t blockN = 64; ///< output channels per program, at most
  int64_t blockK = 32; ///< reduction step, at most
  int numWarps = 4;
};

/// Parses `BM,BN,BK,warps` (the MGP_CONV_CONFIG tuning knob): block sizes
/// powers of two in [16, 256] (BK in [8, 128]), warps 1, 2, 4, 8 or 16.
llvm::Expected<ConvConfig> parseConvConfig(llvm::StringRef text);

/// Options that change which kernels or constexprs are chosen.
struct LaunchOptions {
  bool tf32 = false; ///< dots round their inputs to tf32 (TF32=1)
  /// Replaces the tuned per-kernel configurations of every convolution;
  /// when unset, planLaunches takes it from the MGP_CONV_CONFIG environment
  /// variable if that is set.
  std::optional<ConvConfig> conv;
};

/// The launches of every node of `graph` (shapes inferred), in node order.
/// An error when a size does not fit the kernels' 32-bit indexing.
llvm::Expected<std::vector<KernelLaunch>>
planLaunches(const Graph &graph, const LaunchOptions &options);

} // namespace mgp::graph

#endif // MGP_GRAPH_KERNELLAUNCH_H
