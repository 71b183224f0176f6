//===- Passes.h - target-independent mgp passes -----------------*- C++ -*-===//
//
// This file declares the target-independent mgp passes (compiler/transforms)
// and their registration with the pass registry (for mgp-opt).
//
//===----------------------------------------------------------------------===//
#ifndef MGP_TRANSFORMS_PASSES_H
#define MGP_TRANSFORMS_PASSES_H

#include "compiler/ir/MgpDialect.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/Pass.h"

#include <memory>

namespace mgp {

#define GEN_PASS_DECL
#include "compiler/transforms/Passes.h.inc"

/// Adds the mgp-combine rewrite patterns to `patterns`.
void populateCombinePatterns(mlir::RewritePatternSet &patterns);

#define GEN_PASS_REGISTRATION
#include "compiler/transforms/Passes.h.inc"

} // namespace mgp

#endif // MGP_TRANSFORMS_PASSES_H
