//===- KernelOptions.h - how a kernel is compiled ---------------*- C++ -*-===//
//
// This file implements KernelOptions, the one set of options a kernel is
// compiled with besides its specialization and target: warps, pipelining
// stages, the dot input precision and whether libdevice flushes f32
// denormals. mgpc's flags, mgp::jit's JitOptions
// (which extends it), mgp-run's one-kernel flags and the graph's launches
// (KernelLaunch::options) all hold one and forward it whole; every field is
// part of the cache key.
//
//===----------------------------------------------------------------------===//
#ifndef MGP_COMPILER_API_KERNELOPTIONS_H
#define MGP_COMPILER_API_KERNELOPTIONS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace mgp {

/// The input precision of f32 dots: TF32 keeps what each dot says (its
/// input_precision, Triton's default tf32); IEEE makes every f32 dot exact.
enum class DotPrecision { TF32, IEEE };

/// Parses "tf32" or "ieee" (also "fp32"). Errors: `unknown precision 'X':
/// expected tf32 or ieee`.
llvm::Expected<DotPrecision> parseDotPrecision(llvm::StringRef text);
/// "tf32" or "ieee".
llvm::StringRef dotPrecisionName(DotPrecision precision);

/// How a kernel is compiled.
struct KernelOptions {
  int numWarps = 4;  ///< a block is 32 * numWarps threads; power of two, 1-32
  int numStages = 3; ///< software pipelining depth of loops; at least 1
  DotPrecision precision = DotPrecision::TF32;
  /// libdevice's f32 functions (tl.math.exp2, sqrt, rsqrt, log2, ... on the
  /// GPU) flush denormal inputs and results to zero, as Triton's default
  /// `enable_reflect_ftz=True` (LLVM's `nvvm-reflect-ftz` module flag): the
  /// same instructions and bits as Triton's kernel. false keeps denormals.
  bool reflectFtz = true;
  /// The most registers a thread of the kernel may use (Triton's `maxnreg`:
  /// PTX `.maxnreg`, so ptxas spills rather than exceed it and more blocks
  /// fit on a multiprocessor); 0: no limit.
  int maxNumRegs = 0;

  /// Checks the ranges. Errors: `num_warps must be a power of two in 1..32,
  /// got N`, `num_stages must be at least 1, got N`, `maxnreg must be 0 (no
  /// limit) or in 16..255, got N`.
  llvm::Error verify() const;
};

} // namespace mgp

#endif // MGP_COMPILER_API_KERNELOPTIONS_H
