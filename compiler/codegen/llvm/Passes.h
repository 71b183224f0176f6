//===- Passes.h - mgp lowering passes ---------------------------*- C++ -*-===//
//
// This file declares the mgp-to-LLVM conversion pass and its registration.
//
//===----------------------------------------------------------------------===//
#ifndef MGP_CODEGEN_LLVM_PASSES_H
#define MGP_CODEGEN_LLVM_PASSES_H

#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mgp {

#define GEN_PASS_DECL
#include "compiler/codegen/llvm/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "compiler/codegen/llvm/Passes.h.inc"

} // namespace mgp

#endif // MGP_CODEGEN_LLVM_PASSES_H
