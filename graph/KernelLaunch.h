//===- KernelLaunch.h - Which mgp kernel runs each graph node ---*- C++ -*-===//
//
// This file implements the launch rules shared by the kernel backends (`cpu`
// on the interpreter, `gpu` through the JIT): for every node of a
// shape-inferred graph, the kernels_dsl file and kernel that compute it, every
// kernel parameter's value (a graph value's buffer, a runtime integer or float,
// or a constexpr), the grid, and from those the Triton AOT-style signature
// (compiler/api/Signature.h) that names the specialization. A backend only
// has to compile each distinct (file, kernel, signature) once and launch.
//
//===----------------------------------------------------------------------===//

#ifndef MGP_GRAPH_KERNELLAUNCH_H
#define MGP_GRAPH_KERNELLAUNCH_H

#include "graph/ir/Graph.h"
#include "graph/ir/StorageTypes.h"

#include "compiler/api/KernelOptions.h"

#include <array>
#include <cstdint>
#include <map>
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
    Workspace, ///< a pointer to the launch's fp32 scratch (`workspace`)
  };
  std::string name; ///< The kernel's parameter name (`x_ptr`, `BLOCK_M`).
  Kind kind = Kind::Int;
  /// Kind::Buffer: graph value index. Kind::Workspace: the value whose
  /// storage type the scratch takes (the stem's packed copy of its input is
  /// 16-bit under fp16/bf16), or -1 for fp32.
  int value = -1;
  int64_t intValue = 0; ///< Kind::Int and Kind::Constexpr.
  double floatValue = 0;
  /// Kind::Buffer and Kind::Workspace: the element type of the buffer
  /// (fp16/bf16 activations under --precision fp16|bf16;
  /// graph/ir/StorageTypes.h).
  DType type = DType::F32;
  /// Kind::Int: the signature says `i32:16` / `i32:1` when the value is
  /// divisible by 16 / is 1 (the compiler may use it); false keeps it a
  /// plain `i32` (Triton's do_not_specialize), for values such as division
  /// constants whose divisibility helps no code and would only split
  /// specializations.
  bool specialize = true;
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
  /// How the kernel is compiled: warps (a block is 32 * numWarps threads),
  /// pipelining stages, and the dots' precision (IEEE unless
  /// LaunchOptions::tf32 or tf32x3) - forwarded whole into its KernelRequest.
  KernelOptions options;
  /// fp32 elements of scratch the Workspace parameters point to (split-K
  /// partial sums); the backends give every launch of a node the same one.
  int64_t workspace = 0;
  /// False when another launch of the same node follows (a split-K
  /// convolution is its partial-sum launch and then its epilogue launch).
  bool lastOfNode = true;
  /// A layout launch before the node's GEMM (the stem's input/weight
  /// packing): the profile gives the node's FLOPs to its GEMM's launches
  /// (by their share of programs: the fused stem pooling's two), and
  /// the conv tune key names the GEMM kernel.
  bool auxiliary = false;

  /// The AOT signature: `*fp32:16` (`*fp16:16`, `*bf16:16` as the buffer's
  /// type says) per buffer and workspace (the backends
  /// allocate buffers 16-byte aligned), `i32` with `:16`/`:1` hints per
  /// integer, `fp32` per float, the value per constexpr.
  std::string signature() const;
  /// The constexprs as `NAME=value` joined with spaces (for --info).
  std::string specialization() const;
  /// `file:kernel[signature]/wN/sS` (and `/rR` with a register limit):
  /// equal keys share one compiled kernel.
  std::string key() const {
    return file + ":" + kernel + "[" + signature() + "]/w" +
           std::to_string(options.numWarps) + "/s" +
           std::to_string(options.numStages) +
           (options.maxNumRegs ? "/r" + std::to_string(options.maxNumRegs)
                               : "");
  }
};

/// The largest tiles and the warps of a convolution kernel; the planner
/// shrinks a block below its maximum when the problem is smaller.
struct ConvConfig {
  int64_t blockM = 64; ///< output pixels (N*P*Q) per program, at most
  int64_t blockN = 64; ///< output channels per program, at most
  int64_t blockK = 32; ///< reduction step, at most
  int numWarps = 4;
  int numStages = 3;
  /// Split-K: 0 chooses (split when the output tiles are fewer than
  /// LaunchOptions::numSMs), 1 never splits, n > 1 splits the reduction n
  /// ways (fewer when it has fewer steps).
  int splitK = 0;
  /// conv2d_nhwc_kernel's A_L1: 1 reads its A tile (the input pixels of a
  /// tap) through L1 too (`cp.async.ca`), where the default copy is
  /// L2-only: the taps of a row read overlapping pixels, and its loop then
  /// runs a channel chunk's taps as consecutive steps; 2 runs that order
  /// with the L2-only copies; 0 (the default) steps through a tap's channel
  /// chunks before the next tap. The stem kernel always reads A through L1.
  int aL1 = 0;
  /// conv2d_nhwc_cols_kernel instead of conv2d_nhwc_kernel: the same
  /// arguments with the GEMM transposed (BLOCK_N channels x BLOCK_M pixels:
  /// few channels make the tensor cores' M, many pixels their N). The stem
  /// (gather kernel) ignores it.
  bool transposed = false;
};

/// Parses `BM,BN,BK,warps[,stages[,l1[,transposed]]]` (the MGP_CONV_CONFIG
/// tuning knob): block sizes powers of two in [16, 256] (BK in [8, 128]),
/// warps 1, 2, 4, 8 or 16, stages 1 to 8, l1 0, 1 or 2, transposed 0 or 1
/// (ConvConfig::aL1, ConvConfig::transposed).
llvm::Expected<ConvConfig> parseConvConfig(llvm::StringRef text);

/// MGP_CONV_CONFIG parsed when it is set (an error naming the variable when
/// it does not parse), else nullopt.
llvm::Expected<std::optional<ConvConfig>> convConfigFromEnvironment();

/// Options that change which kernels or constexprs are chosen.
struct LaunchOptions {
  /// Dots round their inputs to tf32 (TF32=1, and each launch's
  /// KernelOptions::precision is TF32; else IEEE).
  bool tf32 = false;
  /// fp32 dots as three tf32 products on the tensor cores (3xTF32, Triton's
  /// input_precision "tf32x3": fp32 accuracy at tensor-core speed; `tf32`
  /// stays false). The gpu backend's fp32 mode.
  bool tf32x3 = false;
  /// Convolutions, the stem's packing and the global average pool store
  /// their fp32 outputs rounded to tf32 (ROUND_TF32=1): the graph's tf32
  /// mode, whose next dot reads them from memory with wgmma, which truncates
  /// (the weights are rounded once, roundWeightsToTF32).
  bool roundTF32 = false;
  /// Activations and weights stored 16-bit (fp16/bf16): the convolutions'
  /// dots are 16-bit whatever `tf32` says (it applies to fp32 dots only).
  bool halfActivations = false;
  /// Replaces the tuned per-kernel configurations of every convolution;
  /// when unset, planLaunches takes it from the MGP_CONV_CONFIG environment
  /// variable if that is set.
  std::optional<ConvConfig> conv;
  /// Per-node configurations (the GPU backend's tuner), by node index;
  /// `conv` (or MGP_CONV_CONFIG) wins over them.
  std::map<int, ConvConfig> nodeConv;
  /// The device's streaming multiprocessors: a convolution with fewer output
  /// tiles splits its reduction (split-K). 0: never split.
  int numSMs = 0;
};

/// The kernels' TF32 constexpr: 0 ("ieee", fp32 FMA), 1 ("tf32") or 3
/// ("tf32x3", three tf32 products).
int64_t dotTF32Code(const LaunchOptions &options);

/// The launches' KernelOptions::precision: TF32 when the kernels choose
/// tensor cores (tf32 or tf32x3), else IEEE (every dot an fp32 FMA dot).
DotPrecision dotPrecision(const LaunchOptions &options);

/// The launches of every node of `graph` (shapes inferred), in node order:
/// one per node, two for a split-K convolution. Activations are stored as
/// graph/passes/NhwcLayout.h says. An error when a size does not fit the kernels'
/// 32-bit indexing.
llvm::Expected<std::vector<KernelLaunch>>
planLaunches(const Graph &graph, const LaunchOptions &options);

/// The launches of convolution node `node` of `graph` with `config` (what
/// planLaunches gives it when that is its configuration).
std::vector<KernelLaunch> planConvLaunches(const Graph &graph, int node,
                                           const ConvConfig &config,
                                           const LaunchOptions &options);

/// The configuration planLaunches uses for convolution `node` when neither
/// an override nor a tuned one is given.
ConvConfig defaultConvConfig(const Graph &graph, int node);

/// The constants that divide by `d` (1 <= d < 2^31) with a multiply and a
/// shift (the convolution kernels' `_udiv`, kernels_dsl/conv2d_nhwc.mgp):
/// x / d == (x * magic) >> shift for every 0 <= x < 2^31, magic < 2^32.
struct DivisionConstants {
  uint32_t magic = 0;
  int shift = 0;
};
DivisionConstants divisionConstants(int64_t d);

/// Whether `node` of `graph` is a convolution (conv2d or fused_conv2d).
bool isConvNode(const Graph &graph, int node);

/// The shape of convolution `node`'s convolution before a fused max pooling
/// (its result's shape when there is none).
Shape convOutputShape(const Graph &graph, int node);

/// Whether a fused_conv2d with input shape `x`, weights `w`, ReLU, no
/// residual and result `y` (before pooling) may take the max pooling after
/// it into its kernel (conv2d_stem_maxpool_kernel): the stem kernel's
/// shapes, a 3x3 window at stride 2 and padding 1, and at most 128 pooled
/// columns (one program per output row).
bool convTakesMaxPool(const Shape &x, const Shape &w, const Shape &y,
                      int64_t kernel, int64_t stride, int64_t padding);

} // namespace mgp::graph

#endif // MGP_GRAPH_KERNELLAUNCH_H
