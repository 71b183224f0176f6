//===- JitArgs.cpp - binding C++ launch arguments to parameters -----------===//
//
// This file implements how mgp::Kernel turns the caller's arguments into one
// KernelArg per parameter: positional arguments fill parameters in order,
// keywords fill the parameter they name; too many, too few, unknown or
// repeated arguments are errors that list the parameters. The signature the
// arguments are checked against is the declared one (JitOptions::signature)
// or, as in Triton, the one the arguments imply.
//
//===----------------------------------------------------------------------===//
#include "runtime/jit/JitImpl.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mgp;

llvm::Expected<std::vector<KernelParam>>
mgp::parseDeclaredTypes(llvm::StringRef text, llvm::StringRef kernelName,
                        const std::vector<KernelParamInfo> &params) {
  llvm::SmallVector<llvm::StringRef> parts;
  text.split(parts, ',');
  if (parts.size() != params.size())
    return llvm::createStringError(llvm::formatv(
        "kernel '{0}': the signature \"{1}\" has {2} type(s), the kernel {3} "
        "parameter(s)",
        kernelName, text, parts.size(), params.size()));
  std::vector<KernelParam> result;
  for (auto [part, param] : llvm::zip_equal(parts, params)) {
    llvm::StringRef type = part.trim();
    if (type.consume_front("*")) {
      // Unsigned buffers are not launch arguments (docs/language.md).
      std::optional<DType> pointee = parseDType(type);
      if (!pointee || isUnsignedDType(*pointee))
        return llvm::createStringError(llvm::formatv(
            "kernel '{0}': unknown element type '{1}' for parameter '{2}'",
            kernelName, type, param.name));
      result.push_back(KernelParam::pointer(param.name, *pointee));
      continue;
    }
    ParamKind kind;
    if (type == "i32")
      kind = ParamKind::Int32;
    else if (type == "i64")
      kind = ParamKind::Int64;
    else if (type == "fp32")
      kind = ParamKind::Fp32;
    else if (type == "constexpr")
      kind = ParamKind::Constexpr;
    else
      return llvm::createStringError(llvm::formatv(
          "kernel '{0}': unknown type '{1}' for parameter '{2}' (expected "
          "*dtype, i32, i64, fp32 or constexpr)",
          kernelName, type, param.name));
    result.push_back(KernelParam::scalar(param.name, kind));
  }
  return result;
}

/// "x_ptr, y_ptr, n, BLOCK".
static std::string listNames(const std::vector<KernelParamInfo> &params) {
  std::vector<std::string> names;
  for (const KernelParamInfo &param : params)
    names.push_back(param.name);
  return llvm::join(names, ", ");
}

/// The parameter type an argument implies when none is declared.
static KernelParam impliedParam(const KernelParamInfo &info,
                                const KernelArg &arg) {
  if (info.isConstexpr)
    return KernelParam::scalar(info.name, ParamKind::Constexpr);
  switch (arg.kind()) {
  case KernelArg::Kind::DevicePointer:
  case KernelArg::Kind::HostPointer:
    return KernelParam::pointer(info.name, arg.dtype());
  case KernelArg::Kind::Int:
    return KernelParam::scalar(info.name, arg.intValue() >= INT32_MIN &&
                                                  arg.intValue() <= INT32_MAX
                                              ? ParamKind::Int32
                                              : ParamKind::Int64);
  case KernelArg::Kind::Float:
    return KernelParam::scalar(info.name, ParamKind::Fp32);
  }
  llvm_unreachable("unknown argument kind");
}

llvm::Error Kernel::Impl::bindValues(llvm::ArrayRef<LaunchArg> args,
                                     llvm::SmallVectorImpl<KernelArg> &bound,
                                     llvm::SmallVectorImpl<uint64_t> &bytes) const {
  size_t n = params.size();
  llvm::SmallVector<const LaunchArg *, 16> slots(n, nullptr);
  std::vector<std::string> errors;
  size_t given = args.size();
  size_t position = 0;
  for (const LaunchArg &arg : args) {
    if (!arg.keyword.empty())
      continue;
    if (position < n)
      slots[position] = &arg;
    ++position;
  }
  if (position > n)
    return llvm::createStringError(llvm::formatv(
        "kernel '{0}' takes {1} argument(s) ({2}), got {3}", kernelName, n,
        listNames(params), given));
  for (const LaunchArg &arg : args) {
    if (arg.keyword.empty())
      continue;
    auto it = llvm::find_if(params, [&](const KernelParamInfo &param) {
      return param.name == arg.keyword;
    });
    if (it == params.end()) {
      errors.push_back(llvm::formatv("kernel '{0}' has no parameter '{1}' "
                                     "(parameters: {2})",
                                     kernelName, arg.keyword,
                                     listNames(params)));
      continue;
    }
    size_t index = it - params.begin();
    if (slots[index]) {
      errors.push_back(llvm::formatv(
          "kernel '{0}', argument {1} ('{2}') is given twice", kernelName,
          index + 1, arg.keyword));
      continue;
    }
    slots[index] = &arg;
  }
  if (errors.empty()) {
    std::vector<std::string> missing;
    for (size_t i = 0; i < n; ++i)
      if (!slots[i])
        missing.push_back(params[i].name);
    if (!missing.empty())
      errors.push_back(llvm::formatv(
          "kernel '{0}' takes {1} argument(s) ({2}), got {3}; missing: {4}",
          kernelName, n, listNames(params), given, llvm::join(missing, ", ")));
  }
  if (!errors.empty())
    return llvm::createStringError(llvm::join(errors, "\n"));

  bound.clear();
  bytes.clear();
  for (size_t i = 0; i < n; ++i) {
    bound.push_back(slots[i]->value);
    bytes.push_back(slots[i]->bytes);
  }
  return llvm::Error::success();
}

llvm::Error Kernel::Impl::signatureFor(llvm::ArrayRef<KernelArg> bound,
                                       KernelSignature &signature) const {
  signature.kernelName = kernelName;
  signature.params.clear();
  for (size_t i = 0; i < params.size(); ++i)
    signature.params.push_back(declared.empty()
                                   ? impliedParam(params[i], bound[i])
                                   : declared[i]);
  return checkArguments(signature, bound);
}

void Kernel::Impl::fingerprint(llvm::ArrayRef<KernelArg> bound,
                               llvm::SmallVectorImpl<char> &key) const {
  key.clear();
  for (auto [info, arg] : llvm::zip_equal(params, bound)) {
    key.push_back(static_cast<char>('0' + static_cast<int>(arg.kind())));
    switch (arg.kind()) {
    case KernelArg::Kind::DevicePointer:
    case KernelArg::Kind::HostPointer:
      key.push_back(static_cast<char>('a' + static_cast<int>(arg.dtype())));
      key.push_back(arg.address() % 16 == 0 ? 'd' : '-');
      break;
    case KernelArg::Kind::Int: {
      int64_t value = arg.intValue();
      if (info.isConstexpr) { // compiled in: keyed by value
        key.append(reinterpret_cast<const char *>(&value),
                   reinterpret_cast<const char *>(&value) + sizeof(value));
        break;
      }
      bool fits32 = value >= INT32_MIN && value <= INT32_MAX;
      key.push_back(fits32 ? '4' : '8');
      key.push_back(value % 16 == 0 ? 'd' : value == 1 ? '1' : '-');
      break;
    }
    case KernelArg::Kind::Float: {
      double value = arg.floatValue();
      if (info.isConstexpr)
        key.append(reinterpret_cast<const char *>(&value),
                   reinterpret_cast<const char *>(&value) + sizeof(value));
      break;
    }
    }
  }
}
