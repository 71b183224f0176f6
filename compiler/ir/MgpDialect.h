//===- MgpDialect.h - the mgp dialect ---------------------------*- C++ -*-===//
//
// This file declares the mgp dialect, its types, its layout attributes and its
// operations, plus the small type helpers the op definitions use.
//
//===----------------------------------------------------------------------===//
#ifndef MGP_IR_MGPDIALECT_H
#define MGP_IR_MGPDIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "compiler/ir/MgpDialect.h.inc"
#include "compiler/ir/MgpEnums.h.inc"

#define GET_TYPEDEF_CLASSES
#include "compiler/ir/MgpTypes.h.inc"

#define GET_ATTRDEF_CLASSES
#include "compiler/ir/MgpAttrs.h.inc"

namespace mgp {

/// For `!mgp.ptr<T>` returns T; for `tensor<S x !mgp.ptr<T>, E>` returns
/// `tensor<S x T, E>`; any other type is returned unchanged.
mlir::Type getPointeeLikeType(mlir::Type ptrLike);

/// For a tensor returns the tensor of i1 with the same shape and encoding; for
/// a scalar returns i1.
mlir::Type getI1LikeType(mlir::Type type);

/// The encoding of a ranked tensor type, or null (no encoding / not a tensor).
mlir::Attribute getEncoding(mlir::Type type);

/// How many elements of type \p element one register of an
/// mgp.inline_asm_elementwise carries at \p pack elements per call
/// (narrow elements share a 32-bit register, as in Triton).
unsigned inlineAsmElementsPerRegister(mlir::Type element, unsigned pack);

/// Whether sm_90 has a vector atom for mgp.atomic_rmw \p kind on \p element
/// (one instruction for consecutive elements of a thread): fp32 `fadd`
/// (`.v2/.v4.f32`) and fp16/bf16 `fmax`/`fmin` (`.v2/.v4/.v8`).
bool hasVectorAtomicForm(AtomicRMWKind kind, mlir::Type element);

/// The outputs (`=...`) and inputs of an LLVM inline-asm constraint string
/// (clobbers `~{...}` are neither).
struct InlineAsmConstraintCount {
  unsigned outputs = 0;
  unsigned inputs = 0;
};
InlineAsmConstraintCount countInlineAsmConstraints(llvm::StringRef text);

/// The unit attribute on kernel functions.
inline constexpr llvm::StringLiteral kKernelAttrName = "mgp.kernel";
/// The unit attribute on scf.for loops to unroll fully (`tl.static_range`).
inline constexpr llvm::StringLiteral kStaticRangeAttrName = "mgp.static_range";
/// Module attributes.
inline constexpr llvm::StringLiteral kNumWarpsAttrName = "mgp.num_warps";
inline constexpr llvm::StringLiteral kThreadsPerWarpAttrName =
    "mgp.threads_per_warp";
inline constexpr llvm::StringLiteral kSharedAttrName = "mgp.shared";
/// The registers per thread a kernel may use (KernelOptions::maxNumRegs);
/// absent: no limit.
inline constexpr llvm::StringLiteral kMaxNumRegsAttrName = "mgp.maxnreg";
/// Argument attribute (the `:16` hint).
inline constexpr llvm::StringLiteral kDivisibilityAttrName = "mgp.divisibility";
/// String attribute on mgp.load and mgp.async_copy_global_to_local: Triton's
/// `cache_modifier` without its dot, "ca", "cg" or "cv" (absent: the
/// default, `ld.global` and 16-byte `cp.async.cg`).
inline constexpr llvm::StringLiteral kCacheModifierAttr = "mgp.cache";

} // namespace mgp

#define GET_OP_CLASSES
#include "compiler/ir/MgpOps.h.inc"

#endif // MGP_IR_MGPDIALECT_H
