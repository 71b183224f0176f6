//===- SpecializedKernel.cpp - one specialization, compiled up front ------===//
//
// This file implements SpecializedKernel: the signature parsed and turned
// into the runtime's Specialization (so the request is the C++ API's), the
// compile through getCompiledKernel (the one compile entry, for the GPU and
// the interpreter), loading into the device's context (LoadedKernel), and the
// checked launch.
//
//===----------------------------------------------------------------------===//
#include "runtime/jit/SpecializedKernel.h"

#include "runtime/HalfFloat.h"
#include "runtime/Specialization.h"
#include "runtime/interp/Interpreter.h"
#include "runtime/jit/JitError.h"
#include "runtime/jit/JitImpl.h"
#include "runtime/jit/KernelCompiler.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>
#include <cstring>

using namespace mgp;

SpecializedKernel::~SpecializedKernel() = default;

static std::string typeName(DType type) { return dtypeName(type).str(); }

/// The signature entry of \p param ("*fp32:16", "i32:1", "1024").
static std::string entryText(const SignatureParam &param) {
  Signature one;
  one.params.push_back(param);
  return one.str();
}

/// The interpreter's element type of \p type (unsigned types are signless;
/// float8e4b15 is bytes: the front end converts it in integer arithmetic).
static DType signlessDType(DType type) {
  switch (type) {
  case DType::U8:
  case DType::F8E4B15:
    return DType::I8;
  case DType::U16:
    return DType::I16;
  case DType::U32:
    return DType::I32;
  case DType::U64:
    return DType::I64;
  default:
    return type;
  }
}

/// The runtime's Specialization of \p params, as deriveSpecialization would
/// give it for arguments of these types and hints (so the cache key agrees).
static Specialization
makeSpecialization(const std::vector<SpecializedKernel::Param> &params) {
  Specialization spec;
  for (auto [index, param] : llvm::enumerate(params)) {
    unsigned position = static_cast<unsigned>(index);
    const SignatureParam &type = param.type;
    switch (type.kind) {
    case SignatureParam::Kind::Constexpr: {
      spec.argTypes.push_back("constexpr");
      ConstexprValue value;
      value.index = position;
      value.name = param.name;
      value.isFloat = type.isFloat;
      value.intValue = type.isFloat ? 0 : type.intValue;
      value.floatValue = type.isFloat ? type.floatValue : 0;
      spec.constexprs.push_back(std::move(value));
      continue;
    }
    case SignatureParam::Kind::Pointer:
      spec.argTypes.push_back("*" + typeName(type.type));
      break;
    case SignatureParam::Kind::Scalar:
      spec.argTypes.push_back(typeName(type.type));
      break;
    }
    if (type.divisibility == 16)
      spec.divisibleBy16.push_back(position);
    else if (type.equalsOne)
      spec.equalToOne.push_back(position);
  }
  return spec;
}

llvm::Expected<std::unique_ptr<SpecializedKernel>>
SpecializedKernel::create(const Kernel &kernel, llvm::StringRef signature) {
  const Kernel::Impl &impl = *kernel.impl;
  auto invalid = [&](const llvm::Twine &message) {
    return makeJitError(JitErrorKind::InvalidArgument, message);
  };
  llvm::Expected<Signature> parsed = parseSignature(signature);
  if (!parsed)
    return invalid("kernel '" + impl.kernelName +
                   "': " + llvm::toString(parsed.takeError()));
  if (parsed->params.size() != impl.params.size()) {
    std::vector<std::string> names;
    for (const KernelParamInfo &info : impl.params)
      names.push_back(info.name);
    return invalid(llvm::formatv(
        "kernel '{0}' has {1} parameter(s) ({2}); the signature \"{3}\" gives "
        "{4}",
        impl.kernelName, impl.params.size(), llvm::join(names, ", "), signature,
        parsed->params.size()));
  }

  std::unique_ptr<SpecializedKernel> result(new SpecializedKernel());
  result->kernel = kernel;
  for (auto [info, type] : llvm::zip_equal(impl.params, parsed->params)) {
    if (info.isConstexpr && !type.isConstexpr())
      return invalid(llvm::formatv(
          "kernel '{0}', parameter '{1}' is a tl.constexpr: the signature "
          "must give its value (a number), got '{2}'",
          impl.kernelName, info.name, entryText(type)));
    Param param{info.name, entryText(type), type, info.isConstexpr, -1};
    if (!type.isConstexpr())
      param.launchIndex = static_cast<int>(result->launchCount++);
    result->parameters.push_back(std::move(param));
  }
  Specialization spec = makeSpecialization(result->parameters);
  result->signatureText = spec.str();

  // The request mgp::jit makes for the same arguments (a CPU device's
  // target is the interpreter).
  llvm::Expected<Signature> specialized = parseSignature(spec.str());
  if (!specialized)
    return withJitErrorKind(JitErrorKind::Compile, specialized.takeError());
  KernelRequest request;
  request.source = impl.source;
  request.fileName = impl.fileName;
  request.kernelName = impl.kernelName;
  request.signature = std::move(*specialized);
  request.options = impl.options; // the KernelOptions part of the JitOptions
  request.target = impl.target;
  auto compiled = getCompiledKernel(request);
  if (!compiled)
    return withJitErrorKind(JitErrorKind::Compile, compiled.takeError());
  result->compiled = std::move(*compiled);
  if (impl.options.device == DeviceKind::CPU || !impl.device)
    return std::move(result); // the interpreter, or compile only
  auto load = [&]() -> llvm::Error {
    auto loaded =
        LoadedKernel::load(result->compiled, "'" + impl.kernelName + "'");
    if (!loaded)
      return loaded.takeError();
    result->loaded.emplace(std::move(*loaded));
    return llvm::Error::success();
  };
  if (llvm::Error err = runInContext(impl.device->context(), load))
    return withJitErrorKind(JitErrorKind::Device, std::move(err));
  return std::move(result);
}

llvm::StringRef SpecializedKernel::name() const {
  return kernel.impl->kernelName;
}
DeviceKind SpecializedKernel::device() const {
  return kernel.impl->options.device;
}
bool SpecializedKernel::launchable() const {
  return device() == DeviceKind::CPU || loaded.has_value();
}
llvm::StringRef SpecializedKernel::arch() const {
  return kernel.impl->target.arch();
}
int SpecializedKernel::numWarps() const {
  return compiled ? compiled->numWarps : kernel.impl->options.numWarps;
}
int SpecializedKernel::numStages() const {
  return compiled ? compiled->numStages : kernel.impl->options.numStages;
}
unsigned SpecializedKernel::sharedBytes() const {
  return compiled ? compiled->sharedBytes : 0;
}
llvm::StringRef SpecializedKernel::entryName() const {
  return compiled && !compiled->interp ? llvm::StringRef(compiled->name)
                                       : llvm::StringRef();
}
llvm::StringRef SpecializedKernel::ptx() const {
  return compiled ? llvm::StringRef(compiled->ptx) : llvm::StringRef();
}

//===----------------------------------------------------------------------===//
// Launch checks
//===----------------------------------------------------------------------===//

/// "a device pointer to fp16", "the integer 7", "the float 2.5", "nothing".
static std::string describe(const LaunchValue &value) {
  auto pointee = [&] {
    return value.dtype ? " to " + typeName(*value.dtype)
                       : std::string(" of unknown element type");
  };
  switch (value.kind) {
  case LaunchValue::Kind::None:
    return "nothing";
  case LaunchValue::Kind::DevicePointer:
    return "a device pointer" + pointee();
  case LaunchValue::Kind::HostPointer:
    return "a host pointer" + pointee();
  case LaunchValue::Kind::Int:
    return "the integer " + std::to_string(static_cast<int64_t>(value.bits));
  case LaunchValue::Kind::Float:
    return "the float " + formatFloat(value.value);
  }
  llvm_unreachable("unknown launch value kind");
}

/// Whether the integer \p bits is a value of \p type.
static bool fitsInteger(DType type, uint64_t bits) {
  int64_t value = static_cast<int64_t>(bits);
  unsigned width = dtypeBits(type);
  switch (type) {
  case DType::I1:
    return bits <= 1;
  case DType::I8:
  case DType::I16:
  case DType::I32:
    return value >= -(int64_t(1) << (width - 1)) &&
           value < (int64_t(1) << (width - 1));
  case DType::U8:
  case DType::U16:
  case DType::U32:
    return bits < (uint64_t(1) << width);
  default:
    return true; // i64, u64: every bit pattern
  }
}

/// The problem of \p value for the runtime parameter \p param as a line
/// appended to \p problems (nothing when it fits; no allocation then: this
/// runs on every launch).
static void checkValue(const SpecializedKernel::Param &param, unsigned index,
                       const LaunchValue &value, DeviceKind device,
                       llvm::StringRef kernelName, std::string &problems) {
  const SignatureParam &type = param.type;
  auto fail = [&](const llvm::Twine &message) {
    problems +=
        llvm::formatv("kernel '{0}', argument {1} ('{2}'): ", kernelName,
                      index + 1, param.name)
            .str();
    problems += message.str() + "\n";
  };
  auto expected = [&] {
    return (type.isPointer() ? "a pointer to " : "") + typeName(type.type);
  };
  if (type.isPointer()) {
    bool host = value.kind == LaunchValue::Kind::HostPointer;
    bool pointer = host || value.kind == LaunchValue::Kind::DevicePointer;
    if (pointer && device == DeviceKind::GPU && host)
      return fail("a host pointer cannot be passed to a GPU kernel; pass "
                  "device memory");
    if (pointer && device == DeviceKind::CPU && !host)
      return fail("a device pointer cannot be passed to the interpreter (a "
                  "CPU kernel); pass host memory");
    if (!pointer || value.dtype != type.type)
      return fail("expected " + expected() + ", got " + describe(value));
    if (type.divisibility == 16 && value.bits % 16 != 0)
      return fail(llvm::formatv("the kernel is specialized for a 16-byte "
                                "aligned address ({0}), got {1:x}",
                                param.entry, value.bits));
    if (host && value.bytes == 0)
      return fail("a host pointer needs the size of its memory in bytes (the "
                  "interpreter checks every access)");
    return;
  }
  if (isFloatDType(type.type)) {
    if (value.kind != LaunchValue::Kind::Float)
      fail("expected " + expected() + ", got " + describe(value));
    return;
  }
  if (value.kind != LaunchValue::Kind::Int)
    return fail("expected " + expected() + ", got " + describe(value));
  if (!fitsInteger(type.type, value.bits))
    return fail("expected " + expected() + ", got " + describe(value) +
                ", which does not fit in " + expected());
  if (type.divisibility == 16 && value.bits % 16 != 0)
    return fail("the kernel is specialized for a multiple of 16 (" +
                param.entry + "), got " + describe(value));
  if (type.equalsOne && value.bits != 1)
    return fail("the kernel is specialized for the value 1 (" + param.entry +
                "), got " + describe(value));
}

/// Whether \p value is the constexpr \p type's compiled value.
static bool matchesConstexpr(const SignatureParam &type,
                             const LaunchValue &value) {
  double compiled =
      type.isFloat ? type.floatValue : static_cast<double>(type.intValue);
  switch (value.kind) {
  case LaunchValue::Kind::None:
    return true;
  case LaunchValue::Kind::Int:
    return type.isFloat
               ? static_cast<double>(static_cast<int64_t>(value.bits)) ==
                     compiled
               : static_cast<int64_t>(value.bits) == type.intValue;
  case LaunchValue::Kind::Float:
    return value.value == compiled ||
           (std::isnan(value.value) && std::isnan(compiled));
  default:
    return false;
  }
}

llvm::Error SpecializedKernel::checkGrid(Grid grid) const {
  auto [x, y, z] = grid.dims;
  if (x == 0 || y == 0 || z == 0)
    return makeJitError(JitErrorKind::InvalidArgument,
                        llvm::formatv("kernel '{0}': grid ({1}, {2}, {3}) has "
                                      "an empty dimension",
                                      name(), x, y, z));
  if (x > kMaxGridX || y > kMaxGridYZ || z > kMaxGridYZ)
    return makeJitError(
        JitErrorKind::InvalidArgument,
        llvm::formatv("kernel '{0}': grid ({1}, {2}, {3}) exceeds the "
                      "device's limits ({4}, {5}, {5})",
                      name(), x, y, z, kMaxGridX, kMaxGridYZ));
  return llvm::Error::success();
}

llvm::Error
SpecializedKernel::checkArgs(llvm::ArrayRef<LaunchValue> args,
                             llvm::SmallVectorImpl<unsigned> &order) const {
  bool everyParam = args.size() == parameters.size();
  if (!everyParam && args.size() != launchCount) {
    std::vector<std::string> launchNames, allNames;
    for (const Param &param : parameters) {
      allNames.push_back(param.name);
      if (param.launchIndex >= 0)
        launchNames.push_back(param.name);
    }
    std::string message =
        llvm::formatv("kernel '{0}' takes {1} argument(s) ({2})", name(),
                      launchCount, llvm::join(launchNames, ", "))
            .str();
    if (launchCount != parameters.size())
      message += llvm::formatv(", or {0} with its constexprs ({1})",
                               parameters.size(), llvm::join(allNames, ", "))
                     .str();
    return makeJitError(JitErrorKind::InvalidArgument,
                        message + ", got " + std::to_string(args.size()));
  }
  std::string problems;
  for (auto [index, param] : llvm::enumerate(parameters)) {
    if (param.launchIndex < 0) {
      if (everyParam && !matchesConstexpr(param.type, args[index]))
        problems +=
            llvm::formatv("kernel '{0}', argument {1} ('{2}'): the kernel is "
                          "compiled for {2} = {3}, got {4}\n",
                          name(), index + 1, param.name, param.entry,
                          describe(args[index]))
                .str();
      continue;
    }
    unsigned at = everyParam ? index : param.launchIndex;
    order.push_back(at);
    checkValue(param, static_cast<unsigned>(index), args[at], device(), name(),
               problems);
  }
  if (problems.empty())
    return llvm::Error::success();
  problems.pop_back();
  return makeJitError(JitErrorKind::InvalidArgument, problems);
}

//===----------------------------------------------------------------------===//
// Launch
//===----------------------------------------------------------------------===//

/// The 8-byte cuLaunchKernel slot of \p value for a parameter of \p type:
/// the value in the parameter's width, little-endian from the start.
static uint64_t packSlot(const SignatureParam &type, const LaunchValue &value) {
  if (type.isPointer() || !isFloatDType(type.type))
    return value.bits;
  switch (type.type) {
  case DType::F64: {
    uint64_t bits;
    std::memcpy(&bits, &value.value, sizeof(bits));
    return bits;
  }
  case DType::F16:
    return floatToHalfBits(static_cast<float>(value.value));
  case DType::BF16:
    return floatToBF16Bits(static_cast<float>(value.value));
  default:
    return floatBits(static_cast<float>(value.value));
  }
}

llvm::Error SpecializedKernel::launchGPU(Grid grid, CUstream stream,
                                         llvm::ArrayRef<LaunchValue> args,
                                         llvm::ArrayRef<unsigned> order) const {
  llvm::SmallVector<uint64_t, 16> slots;
  llvm::SmallVector<void *, 16> pointers;
  slots.reserve(order.size());
  for (const Param &param : parameters)
    if (param.launchIndex >= 0)
      slots.push_back(packSlot(param.type, args[order[param.launchIndex]]));
  for (uint64_t &slot : slots)
    pointers.push_back(&slot);

  // The module lives in the device's primary context; the caller's current
  // context is given back afterwards.
  return runInContext(kernel.impl->device->context(), [&] {
    return loaded->function.launch(loaded->launchConfig(grid.dims, stream),
                                   pointers.data());
  });
}

llvm::Error SpecializedKernel::launchCPU(Grid grid,
                                         llvm::ArrayRef<LaunchValue> args,
                                         llvm::ArrayRef<unsigned> order) const {
  std::vector<InterpArg> values;
  values.reserve(order.size());
  for (const Param &param : parameters) {
    if (param.launchIndex < 0)
      continue;
    const LaunchValue &value = args[order[param.launchIndex]];
    if (param.type.isPointer())
      values.push_back(InterpArg::buffer(reinterpret_cast<void *>(value.bits),
                                         value.bytes,
                                         signlessDType(param.type.type)));
    else if (isFloatDType(param.type.type))
      values.push_back(InterpArg::floating(value.value));
    else
      values.push_back(InterpArg::integer(static_cast<int64_t>(value.bits)));
  }
  InterpOptions options;
  options.emulateTF32 = true; // as Kernel::launch: tf32 dots round inputs
  options.numThreads = kernel.impl->options.cpuThreads;
  std::array<int, 3> dims{static_cast<int>(grid.dims[0]),
                          static_cast<int>(grid.dims[1]),
                          static_cast<int>(grid.dims[2])};
  return compiled->interp->run(dims, values, options);
}

llvm::Error SpecializedKernel::launch(Grid grid, CUstream stream,
                                      llvm::ArrayRef<LaunchValue> args) const {
  if (!launchable())
    return makeJitError(JitErrorKind::Unsupported,
                        llvm::formatv("kernel '{0}' is compiled for {1} "
                                      "without a device; it cannot be "
                                      "launched",
                                      name(), arch()));
  if (llvm::Error err = checkGrid(grid))
    return err;
  llvm::SmallVector<unsigned, 16> order;
  if (llvm::Error err = checkArgs(args, order))
    return err;
  if (device() == DeviceKind::CPU)
    return withJitErrorKind(JitErrorKind::Execution,
                            launchCPU(grid, args, order));
  return withJitErrorKind(JitErrorKind::Device,
                          launchGPU(grid, stream, args, order));
}
