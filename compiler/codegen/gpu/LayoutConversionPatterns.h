//===- LayoutConversionPatterns.h - canonical forms of converts -*- C++ -*-===//
//
// The rewrite patterns mgp-remove-layout-conversions applies to a fixed point
// between its rematerialization steps: folds of converts into their sources,
// reductions and transposes before converts, gathers in their indices'
// layout.
//
//===----------------------------------------------------------------------===//
#ifndef MGP_COMPILER_CODEGEN_GPU_LAYOUTCONVERSIONPATTERNS_H
#define MGP_COMPILER_CODEGEN_GPU_LAYOUTCONVERSIONPATTERNS_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/PatternMatch.h"

namespace mgp {

/// A splat constant of `type`, or null when `constant` is not a splat.
mlir::TypedAttr getSplatIn(mlir::arith::ConstantOp constant,
                           mlir::RankedTensorType type);

/// Adds FoldConvert, SinkConvertBelowReduce, GatherInAnyLayout and
/// TransposeBeforeConvert.
void populateLayoutConversionPatterns(mlir::RewritePatternSet &patterns);

} // namespace mgp

#endif // MGP_COMPILER_CODEGEN_GPU_LAYOUTCONVERSIONPATTERNS_H
