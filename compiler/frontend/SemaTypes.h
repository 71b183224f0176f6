//===- SemaTypes.h - type promotion and broadcasting ------------*- C++ -*-===//
//
// This file implements the typing rules of the kernel language, as pure
// functions over MLIR types: Triton's implicit promotion of binary operands
// (python/triton/language/semantic.py, computation_type_impl), integer
// promotion, numpy broadcasting of static shapes, the types of literals, and
// the Triton spelling of types used in error messages.
//
//===----------------------------------------------------------------------===//
#ifndef MGP_COMPILER_FRONTEND_SEMATYPES_H
#define MGP_COMPILER_FRONTEND_SEMATYPES_H

#include "mlir/IR/Types.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <string>

namespace mlir {
class MLIRContext;
} // namespace mlir

namespace mgp {

/// The kind order Triton uses when a Python literal meets a block:
/// bool < int < float.
enum class TypeKind { Bool = 0, Int = 1, Float = 2 };

/// The kind of a number type (i1 is Bool; signed and unsigned integers are
/// Int).
TypeKind getTypeKind(mlir::Type elementType);

// Signedness. The IR's integers are signless; the typing rules below see an
// unsigned integer as MLIR's unsigned type (`ui32`), which SemaValue's
// isUnsigned() stands for. These convert between the two views (shapes are
// kept; i1 and non-integers are unchanged).
/// \p type with unsigned integer elements when \p isUnsigned.
mlir::Type withSignedness(mlir::Type type, bool isUnsigned);
/// \p type with signless integer elements.
mlir::Type toSignless(mlir::Type type);
/// True if the elements of \p type are unsigned integers (ui8 ... ui64).
bool isUnsignedType(mlir::Type type);

/// The type a Python int literal takes: i32 if it fits, else i64. With
/// \p allowUnsigned (the typing of a binary operation), as Triton's
/// to_tensor: i32, else ui32 (below 2^32), else i64, else ui64 (2^63 and
/// above; i64 without \p allowUnsigned, the same bits).
mlir::Type getIntLiteralType(mlir::MLIRContext *ctx, __int128 value,
                             bool allowUnsigned = false);
/// The type a Python float literal takes: f32 (Triton's choice), f64 when the
/// value is finite, non-zero and outside f32's range.
mlir::Type getFloatLiteralType(mlir::MLIRContext *ctx, double value);

/// Triton's integer promotion of two integer types (C's usual arithmetic
/// conversions): the wider one; at equal width the unsigned one; an unsigned
/// type narrower than a signed one gives the signed one (i1 with i1 stays
/// i1).
mlir::Type promoteIntegers(mlir::Type a, mlir::Type b);

/// The type in which an arithmetic binary operation is computed
/// (Triton's computation_type_impl): `aIsLiteral`/`bIsLiteral` mark Python
/// literals (constexprs), which do not take part in promotion when their
/// kind is not above the other operand's; `divOrMod` makes fp16/bf16
/// compute in f32 (PTX lacks those operations) and rejects integers of
/// different signedness (ui32 with i64), as Triton does. Element types only.
/// Returns null if the combination is not allowed (then `why` says why).
mlir::Type computeArithmeticType(mlir::Type a, bool aIsLiteral, mlir::Type b,
                                 bool bIsLiteral, bool divOrMod,
                                 std::string &why);

/// Numpy broadcasting of two static shapes (trailing dimensions aligned, size
/// 1 stretches); std::nullopt if they are incompatible.
std::optional<llvm::SmallVector<int64_t>>
broadcastShapes(llvm::ArrayRef<int64_t> a, llvm::ArrayRef<int64_t> b);

/// The shape of a type: a ranked tensor's shape, empty for a scalar.
llvm::ArrayRef<int64_t> getShapeOf(mlir::Type type);
/// The element type of a tensor, or the type itself.
mlir::Type getElementType(mlir::Type type);
/// `elementType` with `shape` (a scalar when the shape is empty).
mlir::Type withShape(mlir::Type elementType, llvm::ArrayRef<int64_t> shape);

/// Triton's name of an element type: `int32`, `uint8`, `fp32`, `bf16`,
/// `pointer<fp32>`.
std::string getTypeName(mlir::Type elementType);
/// A type for messages: `fp32` for a scalar, `<64x32xfp32>` for a block.
std::string describeType(mlir::Type type);
/// A shape for messages: `[64, 32]`.
std::string describeShape(llvm::ArrayRef<int64_t> shape);

/// The element type a dtype name of `triton.language` stands for
/// (`float32`, `int1`, `bfloat16`, `uint8`, ...), or null. Signless: see
/// isUnsignedDTypeName.
mlir::Type lookupDTypeName(mlir::MLIRContext *ctx, llvm::StringRef name);

/// The type that stands for Triton's float8e4b15 (e4m3, exponent bias 15, no
/// infinities or NaN) while a kernel is generated: MLIR has no such float,
/// so MLIR's f8E4M3B11FNUZ (the same field widths) carries it. Only loads,
/// stores, moves and bitcasts see it; every conversion is integer
/// arithmetic on its bits (Generator::castTo), and the finished module
/// holds i8 in its place (eraseFp8E4B15).
mlir::Type getFp8E4B15Type(mlir::MLIRContext *ctx);
bool isFp8E4B15(mlir::Type type);
/// float8e4nv, float8e5 and float8e4b15.
bool isFp8Type(mlir::Type type);
/// Puts i8 in place of float8e4b15 everywhere under `root` (types, constants
/// with their bits) and drops the bitcasts that become i8 to i8.
void eraseFp8E4B15(mlir::Operation *root);
/// True for the unsigned integer dtype names (`uint8` ... `uint64`).
bool isUnsignedDTypeName(llvm::StringRef name);

/// True if lookupDTypeName knows `name`.
bool isDTypeName(llvm::StringRef name);

/// True if `v` is a power of two (and positive).
inline bool isPowerOf2(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

} // namespace mgp

#endif // MGP_COMPILER_FRONTEND_SEMATYPES_H
