//===- ArgBinding.cpp - launch arguments to interpreter values ------------===//
//
// This file implements bindArguments (ArgBinding.h): every launch argument
// is checked against its parameter and turned into the parameter's value;
// pointer buffers become the launch's valid memory ranges.
//
//===----------------------------------------------------------------------===//
#include "runtime/interp/ArgBinding.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>

using namespace mgp;
using namespace mgp::interp;

/// "fp32", or "a pointer".
static std::string kindName(DType kind) {
  return kind == kPointerKind ? "a pointer" : dtypeName(kind).str();
}

llvm::Expected<std::vector<Buf>>
mgp::interp::bindArguments(const InterpProgram &program,
                           llvm::ArrayRef<InterpArg> args,
                           const InterpOptions &options, MemoryMap &memory) {
  size_t numParams = program.paramKinds.size();
  if (args.size() != numParams)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        llvm::formatv("kernel '{0}' takes {1} argument(s), {2} given",
                      program.name, numParams, args.size()));
  std::vector<Buf> values(numParams);
  std::string problems;
  memory.ranges = options.extraRanges;
  for (size_t p = 0; p < numParams; ++p) {
    const KernelArg &arg = args[p].value;
    DType kind = program.paramKinds[p];
    std::string prefix =
        llvm::formatv("kernel '{0}', argument {1}: ", program.name, p + 1).str();
    if (kind == kPointerKind) {
      DType pointee = program.pointeeKinds[p];
      if (arg.kind() == KernelArg::Kind::DevicePointer) {
        problems += prefix + "a device pointer; the interpreter needs host "
                             "memory (KernelArg::hostPointer)\n";
      } else if (arg.kind() != KernelArg::Kind::HostPointer) {
        problems += prefix + "expects a pointer to " + kindName(pointee) +
                    ", got " + arg.describe() + "\n";
      } else if (arg.dtype() != pointee) {
        problems += prefix + "expects a pointer to " + kindName(pointee) +
                    ", got " + arg.describe() + "\n";
      } else {
        values[p].i.assign(1, static_cast<int64_t>(arg.address()));
        if (args[p].bytes)
          memory.ranges.push_back({arg.address(), args[p].bytes});
      }
      continue;
    }
    if (isFloatDType(kind)) {
      if (arg.kind() != KernelArg::Kind::Float)
        problems += prefix + "expects a " + kindName(kind) + " scalar, got " +
                    arg.describe() + "\n";
      else
        values[p].f.assign(1, roundTo(kind, arg.floatValue()));
      continue;
    }
    unsigned width = intWidth(kind);
    int64_t v = arg.intValue();
    bool fits = width >= 64 ||
                (v >= -(int64_t(1) << (width - 1)) && v < (int64_t(1) << width));
    if (arg.kind() != KernelArg::Kind::Int)
      problems += prefix + "expects an " + kindName(kind) + " integer, got " +
                  arg.describe() + "\n";
    else if (!fits)
      problems += prefix + "the integer " + std::to_string(v) +
                  " does not fit in " + kindName(kind) + "\n";
    else
      values[p].i.assign(1, wrapSigned(static_cast<uint64_t>(v), width));
  }
  if (!problems.empty()) {
    problems.pop_back();
    return llvm::createStringError(llvm::inconvertibleErrorCode(), problems);
  }
  std::sort(memory.ranges.begin(), memory.ranges.end(),
            [](const MemRange &x, const MemRange &y) { return x.base < y.base; });
  return values;
}
