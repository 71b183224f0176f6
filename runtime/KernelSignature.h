//===- KernelSignature.h - kernel parameters and launch arguments -*- C++ -*-=//
//
// This file implements a kernel's parameter list (KernelSignature), the tagged
// value a launch passes for each parameter (KernelArg), and the check of the
// one against the other: count, pointer or scalar, element type and range.
// Every error names the kernel, the argument (1-based position and name), what
// the parameter expects and what was given.
//
//===----------------------------------------------------------------------===//
#ifndef MGP_RUNTIME_KERNELSIGNATURE_H
#define MGP_RUNTIME_KERNELSIGNATURE_H

#include "compiler/api/DType.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mgp {

/// What a kernel parameter is.
enum class ParamKind { Pointer, Int32, Int64, Fp32, Constexpr };

/// One parameter of a kernel.
struct KernelParam {
  std::string name;
  ParamKind kind = ParamKind::Int32;
  DType pointee = DType::F32; ///< element type, for ParamKind::Pointer only

  static KernelParam pointer(std::string name, DType pointee) {
    return {std::move(name), ParamKind::Pointer, pointee};
  }
  static KernelParam scalar(std::string name, ParamKind kind) {
    return {std::move(name), kind, DType::F32};
  }
  /// "a pointer to fp32", "i32", "i64", "fp32", "a constexpr".
  std::string describe() const;
};

/// A kernel's name and parameters, in order.
struct KernelSignature {
  std::string kernelName;
  std::vector<KernelParam> params;
};

/// One launch argument: a pointer with its element type, or a scalar.
class KernelArg {
public:
  enum class Kind { DevicePointer, HostPointer, Int, Float };

  /// A GPU address (e.g. DeviceBuffer::address()) holding \p type elements.
  static KernelArg devicePointer(uint64_t address, DType type) {
    KernelArg arg(Kind::DevicePointer);
    arg.bits = address;
    arg.type = type;
    return arg;
  }
  /// Host memory holding \p type elements (the CPU interpreter's buffers).
  static KernelArg hostPointer(void *address, DType type) {
    KernelArg arg(Kind::HostPointer);
    arg.bits = reinterpret_cast<uintptr_t>(address);
    arg.type = type;
    return arg;
  }
  static KernelArg integer(int64_t value) {
    KernelArg arg(Kind::Int);
    arg.intVal = value;
    return arg;
  }
  static KernelArg floating(double value) {
    KernelArg arg(Kind::Float);
    arg.floatVal = value;
    return arg;
  }

  Kind kind() const { return argKind; }
  bool isPointer() const {
    return argKind == Kind::DevicePointer || argKind == Kind::HostPointer;
  }
  DType dtype() const { return type; }
  /// The address, for either pointer kind.
  uint64_t address() const { return bits; }
  void *hostAddress() const { return reinterpret_cast<void *>(bits); }
  int64_t intValue() const { return intVal; }
  double floatValue() const { return floatVal; }
  /// "a device pointer to fp16", "the integer 5", "the float 2.5".
  std::string describe() const;

private:
  explicit KernelArg(Kind kind) : argKind(kind) {}
  Kind argKind;
  DType type = DType::F32;
  uint64_t bits = 0;
  int64_t intVal = 0;
  double floatVal = 0;
};

/// The shortest decimal text that reads back as \p value, always with a '.'
/// or an exponent ("1.0", "0.1", "1e-05", "inf").
std::string formatFloat(double value);

/// Checks \p args against \p signature: one argument per parameter; a
/// pointer for a pointer parameter, with the parameter's element type; an
/// integer within range for i32 / i64; a float for fp32; an integer or a
/// float for a constexpr. All mismatches are reported, one line each.
llvm::Error checkArguments(const KernelSignature &signature,
                           llvm::ArrayRef<KernelArg> args);

/// The 8-byte launch slot of \p arg for the passed (non-constexpr) parameter
/// \p param: the device address, the i32 or i64 value, or the fp32 bits,
/// from the start of the slot (cuLaunchKernel reads as many bytes as the PTX
/// parameter has, little-endian). A host pointer is an error naming
/// \p kernelName and the parameter: it cannot reach a GPU kernel.
llvm::Expected<uint64_t> packLaunchSlot(const KernelParam &param,
                                        const KernelArg &arg,
                                        llvm::StringRef kernelName);

} // namespace mgp

#endif // MGP_RUNTIME_KERNELSIGNATURE_H
