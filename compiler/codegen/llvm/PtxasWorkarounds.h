//===- PtxasWorkarounds.h - PTX shapes that ptxas miscompiles ---*- C++ -*-===//
//
// This file declares the rewrites emitPTX applies to optimised LLVM IR so that
// the PTX it prints avoids known ptxas miscompilations.
//
//===----------------------------------------------------------------------===//
#ifndef MGP_CODEGEN_LLVM_PTXASWORKAROUNDS_H
#define MGP_CODEGEN_LLVM_PTXASWORKAROUNDS_H

namespace llvm {
class Module;
} // namespace llvm

namespace mgp {

/// ptxas of CUDA 13.0 (and the driver's PTX JIT of the same release) for
/// sm_90 and sm_100 drops the negation of an integer operand when it merges
/// `min/max.s32(a, neg(b))` with a second min/max into one three-input
/// VIMNMX3: `min(min(a, -b), c)` runs as `min(a, b, c)`. Every integer
/// negation (`sub 0, x`) that reaches an smin/smax/umin/umax (directly or
/// through selects and phis) is replaced by inline PTX `not` + `add 1`, which
/// ptxas keeps apart (LOP3 + VIADDMNMX). Returns the number replaced.
unsigned avoidPtxasNegatedMinMax(llvm::Module &module);

} // namespace mgp

#endif // MGP_CODEGEN_LLVM_PTXASWORKAROUNDS_H
