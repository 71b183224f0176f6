//===- MLIRGen.h - from the AST to the mgp dialect --------------*- C++ -*-===//
//
// This file implements the public entry points of the semantic half of the
// front end: given a parsed ast::Module, a kernel name, its signature (Triton's
// AOT syntax, compiler/api/Signature.h) and `-D` defines, it checks the
// kernel (types, shapes, constexpr folding, helper inlining) and emits one
// MLIR module holding a `func.func` in the mgp dialect. Errors are
// llvm::StringErrors already formatted `file:line:col: error: message` with
// the source line and a caret (see Diagnostics.h).
//
//===----------------------------------------------------------------------===//
#ifndef MGP_COMPILER_FRONTEND_MLIRGEN_H
#define MGP_COMPILER_FRONTEND_MLIRGEN_H

#include "compiler/api/Signature.h"
#include "compiler/frontend/AST.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace llvm {
class SourceMgr;
} // namespace llvm

namespace mlir {
class MLIRContext;
} // namespace mlir

namespace mgp {

/// A compile-time value given from outside the source (`mgpc -D NAME=VALUE`).
struct ConstValue {
  enum class Kind { Int, Float, Bool, String, DType, None };
  Kind kind = Kind::Int;
  int64_t intValue = 0;
  double floatValue = 0.0;
  /// A String's text, or a DType's name (`bf16`, `float32`, `fp8e4nv`).
  std::string text;
  bool isUInt64 = false; ///< an Int past int64 (getUInt64)

  static ConstValue getInt(int64_t v) { return {Kind::Int, v, 0.0, {}}; }
  /// 2**63 .. 2**64 - 1 (Triton's uint64 integers): intValue holds the bits.
  static ConstValue getUInt64(uint64_t v) {
    ConstValue c = getInt(static_cast<int64_t>(v));
    c.isUInt64 = true;
    return c;
  }
  static ConstValue getFloat(double v) { return {Kind::Float, 0, v, {}}; }
  static ConstValue getBool(bool v) { return {Kind::Bool, v ? 1 : 0, 0.0, {}}; }
  static ConstValue getString(llvm::StringRef s) {
    return {Kind::String, 0, 0.0, s.str()};
  }
  static ConstValue getNone() { return {Kind::None, 0, 0.0, {}}; }
  static ConstValue getDType(llvm::StringRef name) {
    return {Kind::DType, 0, 0.0, name.str()};
  }
};

/// Parses `text` as a -D value: an integer, a float, `True` or `False`, a
/// dtype name (`bf16`, `fp16`, `float32`, `tl.float16`, `fp8e4nv`, ...), a
/// quoted string (`'gelu'`, `"gelu"`), or any other word as a string.
llvm::Expected<ConstValue> parseConstValue(llvm::StringRef text);

/// Options of generateKernelModule beyond the kernel and its signature.
struct KernelGenOptions {
  /// Folders searched for the modules a kernel file imports helpers from
  /// (`from pkg.ops.utils import f`), before the file's own folder and its
  /// ancestors (mgpc -I; compiler/frontend/ModuleLoader.h).
  std::vector<std::string> importPaths;
  /// The warps per program the kernel will run with: a block that needs more
  /// than the per-thread register budget at this many warps is an error.
  int numWarps = 4;
  /// Compile tl.device_assert checks (Triton's debug mode: `@jit(debug=True)`
  /// also turns them on for its kernel).
  bool debug = false;
  /// The compute capability the kernel is compiled for (90 for sm_90 and
  /// sm_90a), 0 for the CPU interpreter: what `tl.target_info.is_cuda()` and
  /// `cuda_capability_geq(major, minor)` answer.
  int computeCapability = 90;
};

/// The names of the @jit kernels of `module`, in source order.
std::vector<std::string> listKernels(const ast::Module &module);

/// Checks kernel `kernelName` of `module` and emits it as a module holding one
/// `func.func @kernelName` with the `mgp.kernel` unit attribute.
///
/// Parameters and `signature`: the signature has one entry per kernel
/// parameter, or one per parameter that `defines` does not name. Constexpr
/// parameters (annotated `tl.constexpr`, or given a bare literal in the
/// signature, or named by `defines`) are folded in and are NOT parameters of
/// the generated function; every other parameter is one, in order: pointers
/// as `!mgp.ptr<T>`, integers and floats as their type. `:16` puts
/// `mgp.divisibility = 16 : i32` on the argument; an integer with `:1` stays
/// a parameter but every use reads the constant 1.
///
/// `sourceMgr` must hold the buffer `module` was parsed from (error messages
/// quote it); the modules the kernel imports helpers from are added to it.
/// The returned module verifies.
llvm::Expected<mlir::OwningOpRef<mlir::ModuleOp>>
generateKernelModule(mlir::MLIRContext &context, llvm::SourceMgr &sourceMgr,
                     const ast::Module &module, llvm::StringRef kernelName,
                     const Signature &signature,
                     const llvm::StringMap<ConstValue> &defines,
                     const KernelGenOptions &options = {});

} // namespace mgp

#endif // MGP_COMPILER_FRONTEND_MLIRGEN_H
