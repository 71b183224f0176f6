//===- Interpreter.h - the CPU interpreter of block-level mgp IR -*- C++ -*-===//
//
// This file implements the public face of the CPU interpreter: it runs a
// kernel of block-level mgp IR (the module MLIRGen produces, after the
// target-independent passes) on the host over a 1-3D grid, with the GPU's
// semantics (C integer division, masks, fp32 accumulation in dot, optional
// tf32 rounding of dot inputs). The function is compiled once into a list of
// block-level instructions; every program then runs that list in its own
// value environment, and programs are spread over the host's cores. Memory
// accesses are checked against the buffers the caller passes; an access
// outside them is an llvm::Error naming the op, the program and the address.
// See docs/interpreter.md.
//
//===----------------------------------------------------------------------===//
#ifndef MGP_RUNTIME_INTERP_INTERPRETER_H
#define MGP_RUNTIME_INTERP_INTERPRETER_H

#include "runtime/KernelSignature.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

namespace mgp {

/// A valid range of host memory, [base, base + bytes).
struct MemRange {
  uint64_t base = 0;
  uint64_t bytes = 0;
};

/// One launch argument for the interpreter: a KernelArg (the same value the
/// GPU launch takes; pointers must be KernelArg::hostPointer) plus, for a
/// pointer, the size of the buffer it points to, which becomes a valid range.
struct InterpArg {
  KernelArg value;
  uint64_t bytes = 0;

  /// A host buffer of \p bytes bytes holding \p type elements.
  static InterpArg buffer(void *address, uint64_t bytes, DType type) {
    return {KernelArg::hostPointer(address, type), bytes};
  }
  /// A host buffer of \p count elements of type T (float, int32_t, ...),
  /// with \p type as its dtype.
  template <typename T>
  static InterpArg buffer(T *address, uint64_t count, DType type) {
    return buffer(static_cast<void *>(address), count * sizeof(T), type);
  }
  static InterpArg integer(int64_t value) {
    return {KernelArg::integer(value), 0};
  }
  static InterpArg floating(double value) {
    return {KernelArg::floating(value), 0};
  }
};

/// Options of one interpreter launch.
struct InterpOptions {
  /// Round f32 dot inputs to tf32 (cvt.rna.tf32.f32) when the dot says
  /// `inputPrecision = tf32`, as the tensor cores do. Off: IEEE fp32 products.
  bool emulateTF32 = false;
  /// Worker threads; 0 = one per hardware thread.
  unsigned numThreads = 0;
  /// Memory besides the pointer arguments' buffers that kernels may touch.
  std::vector<MemRange> extraRanges;
};

class InterpProgram;

/// A kernel compiled for the interpreter: compile once, run many launches.
class InterpKernel {
public:
  /// Compiles \p kernel (a func.func of block-level mgp IR). Errors name the
  /// first unsupported op (or type) at its location.
  static llvm::Expected<InterpKernel> compile(mlir::func::FuncOp kernel);

  /// Runs every program of \p grid (each entry >= 1). \p args must match the
  /// kernel's parameters: count, pointer (with its element type) or scalar.
  llvm::Error run(std::array<int, 3> grid, llvm::ArrayRef<InterpArg> args,
                  const InterpOptions &options) const;

  InterpKernel(InterpKernel &&);
  InterpKernel &operator=(InterpKernel &&);
  ~InterpKernel();

private:
  explicit InterpKernel(std::unique_ptr<InterpProgram> program);
  std::unique_ptr<InterpProgram> program;
};

/// Compiles and runs \p kernel once: InterpKernel::compile + run.
llvm::Error runKernel(mlir::func::FuncOp kernel, std::array<int, 3> grid,
                      llvm::ArrayRef<InterpArg> args,
                      const InterpOptions &options);

} // namespace mgp

#endif // MGP_RUNTIME_INTERP_INTERPRETER_H
