//===- Passes.h - the GPU passes of mgp -------------------------*- C++ -*-===//
//
// This file declares the constructors and the registration of the GPU passes
// (Passes.td): assign layouts, coalesce, remove layout conversions, allocate
// shared memory and insert barriers.
//
//===----------------------------------------------------------------------===//
#ifndef MGP_CODEGEN_GPU_PASSES_H
#define MGP_CODEGEN_GPU_PASSES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mgp {

#define GEN_PASS_DECL
#include "compiler/codegen/gpu/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "compiler/codegen/gpu/Passes.h.inc"

} // namespace mgp

#endif // MGP_CODEGEN_GPU_PASSES_H
