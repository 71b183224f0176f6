//===- SemaValue.cpp - the values a kernel computes with -----------------===//
//
// This file implements SemaValue (SemaValue.h): its constructors, the
// compile-time predicates (constexpr-ness, truthiness, equality), the
// short descriptions used in error messages, and compound values (tuples,
// block pointers) seen as trees of leaves (for loops and ifs that carry
// them).
//
//===----------------------------------------------------------------------===//
#include "compiler/frontend/SemaValue.h"

#include "compiler/frontend/MLIRGenImpl.h"

#include "compiler/frontend/SemaTypes.h"

#include "mlir/IR/BuiltinTypes.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/APSInt.h"

#include <cmath>
#include <limits>
#include <sstream>

using namespace mgp;

SemaValue SemaValue::getInt(int64_t v) {
  SemaValue r;
  r.kind = Kind::Int;
  r.intValue = v;
  return r;
}

std::optional<SemaValue> SemaValue::getWideInt(__int128 v) {
  if (v < __int128(std::numeric_limits<int64_t>::min()) ||
      v > __int128(std::numeric_limits<uint64_t>::max()))
    return std::nullopt;
  SemaValue r = getInt(int64_t(uint64_t(v)));
  r.unsignedInt = v > __int128(std::numeric_limits<int64_t>::max());
  return r;
}

SemaValue SemaValue::getFloat(double v) {
  SemaValue r;
  r.kind = Kind::Float;
  r.floatValue = v;
  return r;
}

SemaValue SemaValue::getBool(bool v) {
  SemaValue r;
  r.kind = Kind::Bool;
  r.intValue = v ? 1 : 0;
  return r;
}

SemaValue SemaValue::getNone() { return SemaValue(); }

SemaValue SemaValue::getString(llvm::StringRef s) {
  SemaValue r;
  r.kind = Kind::String;
  r.text = s.str();
  return r;
}

SemaValue SemaValue::getDType(mlir::Type t, bool isUnsigned) {
  SemaValue r;
  r.kind = Kind::DType;
  r.type = t;
  r.unsignedInt = isUnsigned;
  return r;
}

SemaValue SemaValue::getTuple(std::vector<SemaValue> elts) {
  SemaValue r;
  r.kind = Kind::Tuple;
  r.elements = std::move(elts);
  return r;
}

SemaValue SemaValue::getCompound(llvm::StringRef tag,
                                 std::vector<SemaValue> elts) {
  SemaValue r = getTuple(std::move(elts));
  r.text = tag.str();
  return r;
}

SemaValue SemaValue::getRuntime(mlir::Value v) {
  SemaValue r;
  r.kind = Kind::Runtime;
  r.value = v;
  r.type = v.getType();
  return r;
}

SemaValue SemaValue::getHeld(const SemaValue &number, mlir::Type type,
                             bool isUnsigned) {
  assert(number.isConstNumber() && type.isIntOrFloat() && "not a number");
  SemaValue r = number;
  r.type = type;
  r.unsignedInt = isUnsigned && !type.isInteger(1);
  if (type.isInteger(1)) {
    r.kind = Kind::Bool;
    r.intValue = number.isTruthy() ? 1 : 0;
  } else if (auto ft = llvm::dyn_cast<mlir::FloatType>(type)) {
    // The value the type holds (round to nearest even).
    llvm::APFloat f(number.getAsDouble());
    bool lost = false;
    f.convert(ft.getFloatSemantics(), llvm::APFloat::rmNearestTiesToEven,
              &lost);
    f.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmNearestTiesToEven,
              &lost);
    r.kind = Kind::Float;
    r.floatValue = f.convertToDouble();
  } else {
    r.kind = Kind::Int;
    r.intValue =
        number.isFloat()
            ? convertFloatToInt(number.getFloat(), type.getIntOrFloatBitWidth())
            : number.getInt();
  }
  return r;
}

SemaValue SemaValue::getRuntime(mlir::Value v,
                                llvm::ArrayRef<int64_t> logicalShape) {
  SemaValue r = getRuntime(v);
  if (getShapeOf(r.type) != logicalShape)
    r.logicalType = withShape(getElementType(r.type), logicalShape);
  return r;
}

SemaValue SemaValue::getModule(llvm::StringRef path) {
  SemaValue r;
  r.kind = Kind::Module;
  r.text = path.str();
  return r;
}

SemaValue SemaValue::getBuiltin(llvm::StringRef name) {
  SemaValue r;
  r.kind = Kind::Builtin;
  r.text = name.str();
  return r;
}

SemaValue SemaValue::getFunction(const ast::FunctionDef *fn) {
  SemaValue r;
  r.kind = Kind::Function;
  r.function = fn;
  r.text = fn->name;
  return r;
}

SemaValue SemaValue::getMethod(SemaValue receiver, llvm::StringRef name) {
  SemaValue r;
  r.kind = Kind::Method;
  r.text = name.str();
  r.elements.push_back(std::move(receiver));
  return r;
}

bool SemaValue::isConstexpr() const {
  switch (kind) {
  case Kind::Int:
  case Kind::Float:
  case Kind::Bool:
  case Kind::None:
  case Kind::String:
  case Kind::DType:
    return true;
  case Kind::Tuple:
    if (!text.empty())
      return false; // a block pointer or descriptor is a runtime object
    for (const SemaValue &e : elements)
      if (!e.isConstexpr())
        return false;
    return true;
  default:
    return false;
  }
}

bool SemaValue::isTensor() const {
  return kind == Kind::Runtime && llvm::isa<mlir::RankedTensorType>(type);
}

double SemaValue::getAsDouble() const {
  if (kind == Kind::Float)
    return floatValue;
  return unsignedInt ? static_cast<double>(uint64_t(intValue))
                     : static_cast<double>(intValue);
}

bool SemaValue::isTruthy() const {
  switch (kind) {
  case Kind::Int:
  case Kind::Bool:
    return intValue != 0;
  case Kind::Float:
    return floatValue != 0.0;
  case Kind::None:
    return false;
  case Kind::String:
    return !text.empty();
  case Kind::Tuple:
    return !elements.empty();
  default:
    return true;
  }
}

bool SemaValue::constEquals(const SemaValue &o) const {
  if (isConstNumber() && o.isConstNumber()) {
    if (isFloat() || o.isFloat())
      return getAsDouble() == o.getAsDouble();
    return getWideInt() == o.getWideInt();
  }
  if (kind != o.kind)
    return false;
  switch (kind) {
  case Kind::None:
    return true;
  case Kind::String:
    return text == o.text;
  case Kind::DType:
    return type == o.type && unsignedInt == o.unsignedInt;
  case Kind::Tuple:
    if (elements.size() != o.elements.size() || text != o.text)
      return false;
    for (size_t i = 0; i < elements.size(); ++i)
      if (!elements[i].constEquals(o.elements[i]))
        return false;
    return true;
  case Kind::Runtime:
    return value == o.value;
  default:
    return text == o.text && function == o.function;
  }
}

std::string SemaValue::describe() const {
  switch (kind) {
  case Kind::Int:
    if (type)
      return "scalar " + describeType(withSignedness(type, unsignedInt)) +
             " " + (unsignedInt ? std::to_string(uint64_t(intValue))
                                : std::to_string(intValue));
    return "constexpr int " + (unsignedInt ? std::to_string(uint64_t(intValue))
                                           : std::to_string(intValue));
  case Kind::Float: {
    std::ostringstream os;
    os << floatValue;
    if (type)
      return "scalar " + describeType(type) + " " + os.str();
    return "constexpr float " + os.str();
  }
  case Kind::Bool:
    if (type)
      return intValue ? "scalar i1 True" : "scalar i1 False";
    return intValue ? "constexpr True" : "constexpr False";
  case Kind::None:
    return "None";
  case Kind::String:
    return "string '" + text + "'";
  case Kind::DType:
    return "dtype " + getTypeName(withSignedness(type, unsignedInt));
  case Kind::Tuple:
    if (!text.empty())
      return text == kBlockPtrTag ? "block pointer" : "tensor descriptor";
    return "tuple of " + std::to_string(elements.size());
  case Kind::Runtime:
    return llvm::isa<mlir::RankedTensorType>(type)
               ? "block " + describeType(withSignedness(getLogicalType(),
                                                        unsignedInt))
               : "scalar " + describeType(withSignedness(type, unsignedInt));
  case Kind::Module:
    return "module '" + text + "'";
  case Kind::Builtin:
    return "builtin '" + text + "'";
  case Kind::Function:
    return "function '" + text + "'";
  case Kind::Method:
    return "method '" + text + "'";
  }
  return "value";
}

//===----------------------------------------------------------------------===//
// Compound values as trees of leaves
//===----------------------------------------------------------------------===//

void mgp::detail::collectLeaves(
    const SemaValue &v, std::vector<int> path,
    std::vector<std::pair<std::vector<int>, SemaValue>> &out) {
  if (!v.isCompound()) {
    out.emplace_back(std::move(path), v);
    return;
  }
  for (size_t i = 0; i < v.getElements().size(); ++i) {
    std::vector<int> sub = path;
    sub.push_back(static_cast<int>(i));
    collectLeaves(v.getElements()[i], std::move(sub), out);
  }
}

SemaValue mgp::detail::replaceLeaf(const SemaValue &v, llvm::ArrayRef<int> path,
                                   const SemaValue &leaf) {
  if (path.empty())
    return leaf;
  std::vector<SemaValue> elts = v.getElements();
  elts[path[0]] = replaceLeaf(elts[path[0]], path.drop_front(), leaf);
  return v.getTag().empty()
             ? SemaValue::getTuple(std::move(elts))
             : SemaValue::getCompound(v.getTag(), std::move(elts));
}

const SemaValue *mgp::detail::getLeaf(const SemaValue &v,
                                      llvm::ArrayRef<int> path) {
  if (path.empty())
    return &v;
  return getLeaf(v.getElements()[path[0]], path.drop_front());
}

bool mgp::detail::sameStructure(const SemaValue &a, const SemaValue &b) {
  if (a.isCompound() != b.isCompound())
    return false;
  if (!a.isCompound())
    return true;
  if (a.getTag() != b.getTag() ||
      a.getElements().size() != b.getElements().size())
    return false;
  for (size_t i = 0; i < a.getElements().size(); ++i)
    if (!sameStructure(a.getElements()[i], b.getElements()[i]))
      return false;
  return true;
}

int64_t mgp::convertFloatToInt(double d, unsigned width) {
  llvm::APSInt i64(64, /*isUnsigned=*/false);
  bool exact;
  if (llvm::APFloat(d).convertToInteger(i64, llvm::APFloat::rmTowardZero,
                                        &exact) != llvm::APFloat::opInvalidOp)
    return i64.getExtValue();
  if (std::isnan(d))
    return 0;
  unsigned range = width == 1 ? 64 : std::min(width, 64u);
  return d < 0 ? llvm::APInt::getSignedMinValue(range).getSExtValue()
               : llvm::APInt::getSignedMaxValue(range).getSExtValue();
}
