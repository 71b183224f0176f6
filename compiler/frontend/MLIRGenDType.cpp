//===- MLIRGenDType.cpp - dtype objects -----------------------------------===//
//
// This file implements what a kernel can do with a dtype object (Triton's
// `tl.dtype`): its attributes (`element_ty` of a pointer type, `scalar`,
// `primitive_bitwidth`, `int_bitwidth`, `fp_mantissa_width`, `name`), its
// predicates (`x.dtype.is_fp16()`, `is_floating()`, `is_ptr()`, ...), calling
// it to convert a value (`tl.float32(x)`), `tl.pointer_type(dtype)`, and
// `x.type` of a value.
//
//===----------------------------------------------------------------------===//
#include "compiler/frontend/MLIRGenImpl.h"

#include "compiler/frontend/SemaTypes.h"
#include "compiler/ir/MgpDialect.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mgp;
using namespace mgp::detail;
using llvm::Expected;

/// The mantissa bits of a float type (Triton's fp_mantissa_width).
static int64_t getMantissaWidth(mlir::Type t) {
  if (auto ft = llvm::dyn_cast<mlir::FloatType>(t))
    return ft.getFPMantissaWidth() - 1;
  return 0;
}

bool Generator::isDTypeMethod(llvm::StringRef name) {
  return name.starts_with("is_");
}

Expected<SemaValue> Generator::getDTypeAttribute(const SemaValue &base,
                                                 const ast::AttributeExpr &e) {
  llvm::StringRef attr = e.getAttr();
  mlir::Type t = base.getType();
  auto ptr = llvm::dyn_cast<PointerType>(t);
  if (attr == "element_ty")
    return ptr ? SemaValue::getDType(ptr.getPointeeType(), base.isUnsigned())
               : base;
  if (attr == "scalar")
    return base;
  if (attr == "name")
    return SemaValue::getString(
        getTypeName(withSignedness(t, base.isUnsigned() && !ptr)));
  if (attr == "primitive_bitwidth" || attr == "int_bitwidth") {
    if (ptr)
      return SemaValue::getInt(64);
    if (attr == "int_bitwidth" && !t.isInteger())
      return error(e, getTypeName(t) + " is not an integer type");
    return SemaValue::getInt(t.getIntOrFloatBitWidth());
  }
  if (attr == "fp_mantissa_width") {
    if (!llvm::isa<mlir::FloatType>(t))
      return error(e, getTypeName(t) + " is not a floating-point type");
    return SemaValue::getInt(getMantissaWidth(t));
  }
  if (isDTypeMethod(attr))
    return SemaValue::getMethod(base, attr);
  const ast::SourceLocation &al = e.getAttrLocation();
  return error(al.getLoc(),
               "dtype " + getTypeName(t) + " has no attribute '" + attr + "'",
               al.getRange());
}

Expected<SemaValue> Generator::callDTypeMethod(const SemaValue &dtype,
                                               llvm::StringRef name,
                                               CallArgs &args,
                                               const ast::CallExpr &call) {
  if (args.args.size() != 1 || !args.keywords.empty())
    return error(call, "'" + name + "' takes no arguments");
  mlir::Type t = dtype.getType();
  bool isPtr = llvm::isa<PointerType>(t);
  bool isFloat = llvm::isa<mlir::FloatType>(t);
  bool isInt = !isPtr && t.isInteger();
  // Triton: int1 and uint8..uint64 are the unsigned integers.
  bool isUnsigned = isInt && (dtype.isUnsigned() || t.isInteger(1));
  bool isSigned = isInt && !isUnsigned;
  unsigned width = isPtr ? 64 : t.getIntOrFloatBitWidth();
  bool isFp8 = isFloat && width == 8;
  std::optional<bool> r =
      llvm::StringSwitch<std::optional<bool>>(name)
          .Case("is_ptr", isPtr)
          .Case("is_floating", isFloat)
          .Case("is_standard_floating", isFloat && !isFp8)
          .Case("is_fp8", isFp8)
          .Case("is_fp8e4nv", llvm::isa<mlir::Float8E4M3FNType>(t))
          .Case("is_fp8e5", llvm::isa<mlir::Float8E5M2Type>(t))
          .Case("is_fp8e4b15", isFp8E4B15(t))
          .Case("is_fp16", t.isF16())
          .Case("is_bf16", t.isBF16())
          .Case("is_fp32", t.isF32())
          .Case("is_fp64", t.isF64())
          .Case("is_int", isInt)
          .Case("is_bool", isInt && width == 1)
          .Case("is_int1", isInt && width == 1)
          .Case("is_int8", isSigned && width == 8)
          .Case("is_int16", isSigned && width == 16)
          .Case("is_int32", isSigned && width == 32)
          .Case("is_int64", isSigned && width == 64)
          .Case("is_int_signed", isSigned)
          .Case("is_int_unsigned", isUnsigned)
          .Case("is_uint8", isUnsigned && width == 8)
          .Case("is_uint16", isUnsigned && width == 16)
          .Case("is_uint32", isUnsigned && width == 32)
          .Case("is_uint64", isUnsigned && width == 64)
          .Case("is_block", false)
          .Case("is_void", false)
          .Default(std::nullopt);
  if (!r)
    return error(call.getCallee(),
                 "dtype " + getTypeName(t) + " has no method '" + name + "'");
  return SemaValue::getBool(*r);
}

Expected<SemaValue> Generator::callDType(const SemaValue &dtype, CallArgs &args,
                                         const ast::CallExpr &call) {
  // `tl.float32(x)`: Triton's dtype.__call__ converts x.
  if (args.args.size() != 1 || !args.keywords.empty())
    return error(call, "calling dtype " + getTypeName(dtype.getType()) +
                           " takes one value to convert");
  if (llvm::isa<PointerType>(dtype.getType()))
    return error(call, "cannot convert a value to a pointer type");
  Expected<mlir::Value> v = toRuntimeAs(
      args.args[0], withSignedness(dtype.getType(), dtype.isUnsigned()),
      *args.argExprs[0]);
  if (!v)
    return v.takeError();
  return runtime(*v, dtype.isUnsigned());
}

Expected<SemaValue> Generator::genPointerType(CallArgs &args,
                                              const ast::CallExpr &call) {
  Expected<BoundArgs> b = bindArgs("pointer_type", args, call,
                                   {"element_ty", "address_space", "const"}, 1);
  if (!b)
    return b.takeError();
  Expected<mlir::Type> t = getDTypeArg(*b, 0);
  if (!t)
    return t.takeError();
  if (b->has(1) && !(b->get(1).isInt() && b->get(1).getInt() == 1))
    return error(b->expr(1), "only address space 1 (global) is supported");
  if (llvm::isa<PointerType>(*t))
    return error(b->expr(0), "pointers to pointers are not supported");
  return SemaValue::getDType(PointerType::get(*t), b->get(0).isUnsigned());
}
