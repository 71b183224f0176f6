//===- AxisInfoRules.h - transfer functions of the axis analysis -*- C++
//-*-===//
//
// This file declares the transfer function of the axis analysis, kept apart
// from the dataflow driver in AxisInfo.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef MGP_CODEGEN_GPU_AXISINFORULES_H
#define MGP_CODEGEN_GPU_AXISINFORULES_H

#include "compiler/codegen/gpu/AxisInfo.h"

namespace mgp {

/// The facts of the single result of `op` given the facts of its operands
/// `in` (in operand order); nullopt when `op` has no rule (the caller then
/// takes the pessimistic facts).
std::optional<AxisInfo> computeAxisInfo(mlir::Operation *op,
                                        llvm::ArrayRef<AxisInfo> in);

} // namespace mgp

#endif // MGP_CODEGEN_GPU_AXISINFORULES_H
