//===- Specialization.cpp - what a kernel is compiled for -----------------===//
//
// This file implements the derivation of a Specialization from checked launch
// arguments, following Triton's JIT: a pointer is "divisible by 16" when its
// address is, an integer when its value is; an integer equal to 1 is marked
// so the compiler may fold it; constexpr values are taken as they are.
//
//===----------------------------------------------------------------------===//
#include "runtime/Specialization.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace mgp;

std::string ConstexprValue::str() const {
  return isFloat ? formatFloat(floatValue) : std::to_string(intValue);
}

bool ConstexprValue::operator==(const ConstexprValue &other) const {
  return index == other.index && name == other.name &&
         isFloat == other.isFloat && intValue == other.intValue &&
         (floatValue == other.floatValue ||
          (floatValue != floatValue && other.floatValue != other.floatValue));
}

bool Specialization::operator==(const Specialization &other) const {
  return argTypes == other.argTypes && constexprs == other.constexprs &&
         divisibleBy16 == other.divisibleBy16 && equalToOne == other.equalToOne;
}

std::string Specialization::str() const {
  std::vector<std::string> parts;
  for (auto [index, type] : llvm::enumerate(argTypes)) {
    if (type == "constexpr") {
      auto it = llvm::find_if(constexprs, [&](const ConstexprValue &value) {
        return value.index == index;
      });
      parts.push_back(it == constexprs.end() ? type : it->str());
      continue;
    }
    std::string part = type;
    if (llvm::is_contained(divisibleBy16, index))
      part += ":16";
    else if (llvm::is_contained(equalToOne, index))
      part += ":1";
    parts.push_back(part);
  }
  return llvm::join(parts, ",");
}

static std::string argType(const KernelParam &param) {
  switch (param.kind) {
  case ParamKind::Pointer:
    return ("*" + dtypeName(param.pointee)).str();
  case ParamKind::Int32:
    return "i32";
  case ParamKind::Int64:
    return "i64";
  case ParamKind::Fp32:
    return "fp32";
  case ParamKind::Constexpr:
    return "constexpr";
  }
  llvm_unreachable("unknown ParamKind");
}

llvm::Expected<Specialization>
mgp::deriveSpecialization(const KernelSignature &signature,
                          llvm::ArrayRef<KernelArg> args) {
  if (llvm::Error err = checkArguments(signature, args))
    return std::move(err);
  Specialization spec;
  for (auto [index, param, arg] : llvm::enumerate(signature.params, args)) {
    unsigned position = static_cast<unsigned>(index);
    spec.argTypes.push_back(argType(param));
    switch (param.kind) {
    case ParamKind::Pointer:
      if (arg.address() % 16 == 0)
        spec.divisibleBy16.push_back(position);
      break;
    case ParamKind::Int32:
    case ParamKind::Int64:
      if (arg.intValue() % 16 == 0)
        spec.divisibleBy16.push_back(position);
      else if (arg.intValue() == 1)
        spec.equalToOne.push_back(position);
      break;
    case ParamKind::Fp32:
      break;
    case ParamKind::Constexpr: {
      ConstexprValue value;
      value.index = position;
      value.name = param.name;
      value.isFloat = arg.kind() == KernelArg::Kind::Float;
      value.intValue = value.isFloat ? 0 : arg.intValue();
      value.floatValue = value.isFloat ? arg.floatValue() : 0;
      spec.constexprs.push_back(std::move(value));
      break;
    }
    }
  }
  return spec;
}
