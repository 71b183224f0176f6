//===- SemaValue.h - the values a kernel computes with ----------*- C++ -*-===//
//
// This file implements the value model of Sema/MLIRGen: every expression of a
// kernel evaluates to a SemaValue, which is either a compile-time constant
// (int, float, bool, None, string, dtype, tuple of values), a runtime value
// (an mlir::Value: a scalar, a pointer, or a block tensor of static shape), or
// a reference the language can call or look into (a module such as
// `triton.language`, a builtin, a helper function, a bound method `x.to`).
//
//===----------------------------------------------------------------------===//
#ifndef MGP_COMPILER_FRONTEND_SEMAVALUE_H
#define MGP_COMPILER_FRONTEND_SEMAVALUE_H

#include "compiler/frontend/AST.h"

#include "mlir/IR/Types.h"
#include "mlir/IR/Value.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mgp {

/// The tags of compound values.
inline constexpr llvm::StringLiteral kBlockPtrTag = "block_ptr";
inline constexpr llvm::StringLiteral kTensorDescTag = "tensor_descriptor";
/// Whether field \p index of a compound value of kind \p tag is a constexpr
/// of Triton's (a block pointer's block_shape and order, a descriptor's
/// block_shape and padding): it never changes, not even inside a loop.
inline bool isConstexprField(llvm::StringRef tag, size_t index) {
  if (tag == kBlockPtrTag)
    return index == 4 || index == 5;
  if (tag == kTensorDescTag)
    return index == 3 || index == 4;
  return false;
}

/// One value of the kernel language, compile-time or runtime.
class SemaValue {
public:
  enum class Kind {
    Int,      ///< compile-time int (Python int: int64, or up to 2**64 - 1
              ///< as Triton's uint64 literals, then isUnsigned())
    Float,    ///< compile-time float (double)
    Bool,     ///< compile-time bool
    None,     ///< `None`
    String,   ///< compile-time string
    DType,    ///< a dtype object such as `tl.float16` (getType())
    Tuple,    ///< a tuple (of any values); with a tag, a compound value
              ///< such as a block pointer (getTag() says which)
    Runtime,  ///< an mlir::Value: scalar, pointer or block tensor
    Module,   ///< `triton`, `triton.language`, `mgp` (getName() = path)
    Builtin,  ///< a builtin function (getName() = its name)
    Function, ///< a helper or kernel function of the file
    Method,   ///< `receiver.name` (getName()), receiver = getElements()[0]
  };

  SemaValue() = default;
  static SemaValue getInt(int64_t v);
  /// A compile-time int from -2**63 to 2**64 - 1 (Triton types the part
  /// past int64 as uint64: its bits are kept with isUnsigned()); nullopt
  /// outside that range.
  static std::optional<SemaValue> getWideInt(__int128 v);
  /// The int \p v read as uint64 (a literal or constexpr of 2**63 or more
  /// keeps its bits in int64 storage until here).
  static SemaValue getUInt64(uint64_t v) { return *getWideInt(v); }
  static SemaValue getFloat(double v);
  static SemaValue getBool(bool v);
  static SemaValue getNone();
  static SemaValue getString(llvm::StringRef s);
  static SemaValue getDType(mlir::Type t, bool isUnsigned = false);
  static SemaValue getTuple(std::vector<SemaValue> elts);
  /// A compound value made of `elts`, of kind `tag` (kBlockPtrTag,
  /// kTensorDescTag): stored like a tuple, but not a tuple to the program.
  static SemaValue getCompound(llvm::StringRef tag,
                               std::vector<SemaValue> elts);
  static SemaValue getRuntime(mlir::Value v);
  /// A number held as Triton holds a Python number assigned to a local
  /// (`s = 0.5`): a 0-d tensor of type \p type (signless; \p isUnsigned for
  /// uint32/uint64). It stays a compile-time number to mgp, but promotes
  /// and computes as a value of its type, not as a literal.
  static SemaValue getHeld(const SemaValue &number, mlir::Type type,
                           bool isUnsigned = false);
  /// A runtime block whose logical shape `logicalShape` differs from its
  /// padded MLIR shape (see MLIRGenPadding.cpp).
  static SemaValue getRuntime(mlir::Value v,
                              llvm::ArrayRef<int64_t> logicalShape);
  static SemaValue getModule(llvm::StringRef path);
  static SemaValue getBuiltin(llvm::StringRef name);
  static SemaValue getFunction(const ast::FunctionDef *fn);
  static SemaValue getMethod(SemaValue receiver, llvm::StringRef name);

  Kind getKind() const { return kind; }
  bool isInt() const { return kind == Kind::Int; }
  bool isFloat() const { return kind == Kind::Float; }
  bool isBool() const { return kind == Kind::Bool; }
  bool isNone() const { return kind == Kind::None; }
  bool isString() const { return kind == Kind::String; }
  bool isDType() const { return kind == Kind::DType; }
  bool isTuple() const { return kind == Kind::Tuple && text.empty(); }
  /// A tuple or a tagged compound value (both hold getElements()).
  bool isCompound() const { return kind == Kind::Tuple; }
  /// The tag of a compound value ("" for a plain tuple).
  llvm::StringRef getTag() const {
    return kind == Kind::Tuple ? llvm::StringRef(text) : llvm::StringRef();
  }
  bool isRuntime() const { return kind == Kind::Runtime; }
  /// Int, Float or Bool: a compile-time number.
  bool isConstNumber() const { return isInt() || isFloat() || isBool(); }
  /// A compile-time number with a type (getHeld); a literal has none.
  bool isHeld() const { return isConstNumber() && type; }
  /// The same number as a literal (no type).
  SemaValue asLiteral() const {
    SemaValue r = *this;
    if (isConstNumber()) {
      r.type = {};
      // A literal is unsigned only past int64 (a uint64 literal).
      r.unsignedInt = isInt() && unsignedInt && intValue < 0;
    }
    return r;
  }
  /// True if the whole value is known at compile time (tuples: every element).
  bool isConstexpr() const;
  /// True for a runtime value whose type is a ranked tensor.
  bool isTensor() const;

  /// An int's value as int64 (bits of an unsigned one past int64; see
  /// getWideInt for the value).
  int64_t getInt() const { return intValue; }
  /// An int's or bool's value as Python sees it.
  __int128 getWideInt() const {
    return unsignedInt ? __int128(uint64_t(intValue)) : __int128(intValue);
  }
  double getFloat() const { return floatValue; }
  bool getBool() const { return intValue != 0; }
  /// The number as a double (Int, Float, Bool).
  double getAsDouble() const;
  /// Python truthiness of a compile-time value.
  bool isTruthy() const;
  llvm::StringRef getName() const { return text; }
  llvm::StringRef getString() const { return text; }
  /// The MLIR type (of a runtime value: padded to powers of two; of a held
  /// number: its type; null for a literal).
  mlir::Type getType() const { return type; }
  /// The type the program sees: getType() with the logical shape of a
  /// padded block (used for `.shape`, `len` and messages).
  mlir::Type getLogicalType() const { return logicalType ? logicalType : type; }
  mlir::Value getValue() const { return value; }
  const std::vector<SemaValue> &getElements() const { return elements; }
  const ast::FunctionDef *getFunction() const { return function; }

  /// Signedness, which MLIR's signless integers do not carry: a runtime
  /// value whose integer elements (a pointer's pointee) are unsigned, or an
  /// unsigned dtype (`tl.uint32`), as Triton's dtypes say. The MLIR type
  /// stays signless; the operations chosen for the value (division, right
  /// shift, comparison, extension, conversion to float) follow this.
  bool isUnsigned() const { return unsignedInt; }
  /// This value with its signedness set to \p isUnsigned.
  SemaValue withUnsigned(bool isUnsigned) const {
    SemaValue r = *this;
    r.unsignedInt = isUnsigned;
    return r;
  }

  /// Compile-time equality (numbers by value, None, strings, dtypes, tuples).
  bool constEquals(const SemaValue &other) const;
  /// A short description for messages: `constexpr int 3`, `tensor<128xf32>`.
  std::string describe() const;

private:
  Kind kind = Kind::None;
  int64_t intValue = 0;
  double floatValue = 0.0;
  bool unsignedInt = false;
  std::string text;
  mlir::Type type;
  mlir::Type logicalType; ///< null unless a padded block
  mlir::Value value;
  std::vector<SemaValue> elements;
  const ast::FunctionDef *function = nullptr;
};

/// `d` toward zero as an integer of `width` bits (held in an int64; C++'s
/// conversion where it is defined): a NaN is 0 and a value outside int64
/// saturates to the signed range of `width` bits (of 64 for a bool), as
/// PTX's cvt.rzi does at run time.
int64_t convertFloatToInt(double d, unsigned width);

} // namespace mgp

#endif // MGP_COMPILER_FRONTEND_SEMAVALUE_H
