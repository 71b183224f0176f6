//===- InterpProgram.h - the interpreter's compiled form ---------*- C++ -*-===//
//
// This file implements the data structures shared by the interpreter's parts:
// a value buffer (Buf: a flat array of doubles for floats, of int64 for
// integers and pointers), the per-program environment (Frame), a compiled
// instruction (a closure over value slots), compiled regions, and the
// compiler that maps every SSA value to a slot and every op to instructions.
// The op families (elementwise, shape, memory, dot/reduce) each add their
// ops through one tryCompile... function.
//
//===----------------------------------------------------------------------===//
#ifndef MGP_RUNTIME_INTERP_INTERPPROGRAM_H
#define MGP_RUNTIME_INTERP_INTERPPROGRAM_H

#include "runtime/interp/Interpreter.h"
#include "runtime/interp/Numerics.h"

#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseMap.h"

#include <functional>
#include <string>
#include <vector>

namespace mgp::interp {

/// The value of one SSA value in one program: a flat row-major array. Float
/// elements (f16, bf16, f32, f64) live in `f`, already rounded to their type;
/// integers (sign-extended from their width; i1 true is -1) and pointers
/// (host addresses) live in `i`. A scalar has one element. The shape is
/// static and known to the instruction that reads the buffer.
struct Buf {
  std::vector<double> f;
  std::vector<int64_t> i;
};

/// The valid memory ranges of one launch, sorted by base.
struct MemoryMap {
  std::vector<MemRange> ranges;
};

/// The environment of one program.
struct Frame {
  std::vector<Buf> slots;
  std::array<int64_t, 3> programId{0, 0, 0};
  std::array<int64_t, 3> numPrograms{1, 1, 1};
  const MemoryMap *memory = nullptr;
  bool emulateTF32 = false;
  std::string error; ///< set by an instruction that returns false
};

/// One compiled op: reads and writes slots of the frame; false on an error
/// (then Frame::error says what happened).
using Instr = std::function<bool(Frame &)>;

/// Records \p message, prefixed with \p where and the program id, in \p frame.
bool fail(Frame &frame, const std::string &where, const std::string &message);

/// A compiled region: its body, the slots of its block arguments and of the
/// terminator's operands.
struct CompiledRegion {
  std::vector<Instr> body;
  std::vector<int> args;
  std::vector<int> yields;
};

/// Runs a region body; false on an error.
inline bool runBody(const CompiledRegion &region, Frame &frame) {
  for (const Instr &instr : region.body)
    if (!instr(frame))
      return false;
  return true;
}

/// Copies slots \p from into slots \p to (parallel assignment: safe when the
/// two lists overlap).
void assignSlots(Frame &frame, llvm::ArrayRef<int> from, llvm::ArrayRef<int> to);

/// Maps values to slots and ops to instructions.
class Compiler {
public:
  /// The slot of \p value, allocating one on first use.
  int slot(mlir::Value value);
  int numSlots() const { return nextSlot; }

  /// Values known at compile time (constants, ranges): written into each
  /// frame once, before its first program. Their slots are never written by
  /// an instruction (SSA), so they stay valid for every program.
  std::vector<std::pair<int, Buf>> constants;

  /// Compiles every op of \p region's single block; the terminator's
  /// operands become the region's yields.
  llvm::Error compileRegion(mlir::Region &region, CompiledRegion &out);
  /// Compiles one (non-terminator) op into \p out.
  llvm::Error compileOp(mlir::Operation *op, std::vector<Instr> &out);

private:
  llvm::DenseMap<mlir::Value, int> slots;
  int nextSlot = 0;
};

/// "file:line:col: 'op.name'" for error messages.
std::string describeOp(mlir::Operation *op);
/// An llvm::Error "<loc>: <message>" for compile-time problems.
llvm::Error opError(mlir::Operation *op, const llvm::Twine &message);
/// The element kind of a scalar or tensor type; an error for other types.
llvm::Expected<DType> elemKindOf(mlir::Operation *op, mlir::Type type);
/// The static shape of a tensor type ({} for a scalar).
std::vector<int64_t> shapeOf(mlir::Type type);
/// Element count of \p shape.
int64_t numElements(llvm::ArrayRef<int64_t> shape);

/// Each returns true when it handled \p op (appending to \p out), false when
/// the op is not of its family; an error when the op is of its family but not
/// supported in this form.
llvm::Expected<bool> tryCompileElementwise(Compiler &c, mlir::Operation *op,
                                           std::vector<Instr> &out);
llvm::Expected<bool> tryCompileShapeOp(Compiler &c, mlir::Operation *op,
                                       std::vector<Instr> &out);
llvm::Expected<bool> tryCompileMemoryOp(Compiler &c, mlir::Operation *op,
                                        std::vector<Instr> &out);
llvm::Expected<bool> tryCompileDotReduce(Compiler &c, mlir::Operation *op,
                                         std::vector<Instr> &out);
llvm::Expected<bool> tryCompileLanguageOp(Compiler &c, mlir::Operation *op,
                                          std::vector<Instr> &out);
llvm::Expected<bool> tryCompileAtomicOrDebugOp(Compiler &c, mlir::Operation *op,
                                               std::vector<Instr> &out);

} // namespace mgp::interp

namespace mgp {

/// A compiled kernel: the instructions of its body and its parameters.
class InterpProgram {
public:
  std::string name;
  std::vector<int> paramSlots;
  std::vector<DType> paramKinds;
  std::vector<DType> pointeeKinds; ///< for pointer parameters
  interp::CompiledRegion body;
  std::vector<std::pair<int, interp::Buf>> constants;
  int numSlots = 0;
};

} // namespace mgp

#endif // MGP_RUNTIME_INTERP_INTERPPROGRAM_H
