//===- KernelSignature.cpp - kernel parameters and launch arguments -------===//
//
// This file implements the descriptions of parameters and arguments used in
// error messages, and checkArguments.
//
//===----------------------------------------------------------------------===//
#include "runtime/KernelSignature.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <cassert>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <optional>

using namespace mgp;

std::string mgp::formatFloat(double value) {
  char text[64];
  for (int digits = 1; digits <= 17; ++digits) {
    std::snprintf(text, sizeof(text), "%.*g", digits, value);
    if (std::strtod(text, nullptr) == value)
      break;
  }
  std::string result = text;
  if (result.find_first_of(".eEni") == std::string::npos)
    result += ".0";
  return result;
}

std::string KernelParam::describe() const {
  switch (kind) {
  case ParamKind::Pointer:
    return ("a pointer to " + dtypeName(pointee)).str();
  case ParamKind::Int32:
    return "i32";
  case ParamKind::Int64:
    return "i64";
  case ParamKind::Fp32:
    return "fp32";
  case ParamKind::Constexpr:
    return "a constexpr";
  }
  llvm_unreachable("unknown ParamKind");
}

std::string KernelArg::describe() const {
  switch (argKind) {
  case Kind::DevicePointer:
    return ("a device pointer to " + dtypeName(type)).str();
  case Kind::HostPointer:
    return ("a host pointer to " + dtypeName(type)).str();
  case Kind::Int:
    return llvm::formatv("the integer {0}", intVal).str();
  case Kind::Float:
    return "the float " + formatFloat(floatVal);
  }
  llvm_unreachable("unknown KernelArg kind");
}

/// Whether \p arg can be passed for \p param: nullopt if it can, otherwise
/// a detail to append to the message (often empty).
static std::optional<std::string> mismatch(const KernelParam &param,
                                           const KernelArg &arg) {
  using Kind = KernelArg::Kind;
  const std::optional<std::string> ok;
  const std::optional<std::string> wrongKind = std::string();
  switch (param.kind) {
  case ParamKind::Pointer:
    return arg.isPointer() && arg.dtype() == param.pointee ? ok : wrongKind;
  case ParamKind::Int32:
    if (arg.kind() != Kind::Int)
      return wrongKind;
    if (arg.intValue() < std::numeric_limits<int32_t>::min() ||
        arg.intValue() > std::numeric_limits<int32_t>::max())
      return std::string(", which does not fit in i32");
    return ok;
  case ParamKind::Int64:
    return arg.kind() == Kind::Int ? ok : wrongKind;
  case ParamKind::Fp32:
    return arg.kind() == Kind::Float ? ok : wrongKind;
  case ParamKind::Constexpr:
    return arg.kind() == Kind::Int || arg.kind() == Kind::Float ? ok
                                                                : wrongKind;
  }
  llvm_unreachable("unknown ParamKind");
}

llvm::Error mgp::checkArguments(const KernelSignature &signature,
                                llvm::ArrayRef<KernelArg> args) {
  const std::string &kernel = signature.kernelName;
  if (args.size() != signature.params.size()) {
    std::string names = llvm::join(
        llvm::map_range(signature.params,
                        [](const KernelParam &param) { return param.name; }),
        ", ");
    return llvm::createStringError(
        llvm::formatv("kernel '{0}' takes {1} argument(s) ({2}), got {3}",
                      kernel, signature.params.size(), names, args.size()));
  }
  std::vector<std::string> problems;
  for (auto [index, param, arg] : llvm::enumerate(signature.params, args)) {
    std::optional<std::string> why = mismatch(param, arg);
    if (!why)
      continue;
    problems.push_back(llvm::formatv(
        "kernel '{0}', argument {1} ('{2}'): expected {3}, got {4}{5}", kernel,
        index + 1, param.name, param.describe(), arg.describe(), *why));
  }
  if (problems.empty())
    return llvm::Error::success();
  return llvm::createStringError(llvm::join(problems, "\n"));
}

llvm::Expected<uint64_t> mgp::packLaunchSlot(const KernelParam &param,
                                             const KernelArg &arg,
                                             llvm::StringRef kernelName) {
  if (arg.kind() == KernelArg::Kind::HostPointer)
    return llvm::createStringError(llvm::formatv(
        "kernel '{0}', argument '{1}': a host pointer cannot be passed to a "
        "GPU kernel; copy the data to a DeviceBuffer",
        kernelName, param.name));
  uint64_t slot = 0;
  switch (param.kind) {
  case ParamKind::Constexpr:
    assert(false && "constexpr parameters are not passed");
    break;
  case ParamKind::Pointer:
    slot = arg.address();
    break;
  case ParamKind::Int32: {
    int32_t value = static_cast<int32_t>(arg.intValue());
    std::memcpy(&slot, &value, sizeof(value));
    break;
  }
  case ParamKind::Int64:
    slot = static_cast<uint64_t>(arg.intValue());
    break;
  case ParamKind::Fp32: {
    float value = static_cast<float>(arg.floatValue());
    std::memcpy(&slot, &value, sizeof(value));
    break;
  }
  }
  return slot;
}
