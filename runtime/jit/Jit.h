//===- Jit.h - the C++ API: mgp::jit and Kernel::launch ---------*- C++ -*-===//
//
// This file implements the user-facing JIT of DESIGN.md section 1:
//
//   auto k = mgp::jit(source, "relu_kernel");          // llvm::Expected<Kernel>
//   llvm::Error e = k->launch(grid, stream, mgp::buffer<float>(x),
//                             mgp::buffer<float>(y), n, mgp::kw("BLOCK", 1024));
//
// Arguments are C++ values: pointer arguments are mgp::buffer<T>(DeviceBuffer)
// (GPU) or mgp::host(data, count) / mgp::host(vector) (CPU device), integers,
// floats, and constexpr values by position or by keyword (mgp::kw). They are
// bound to the kernel's parameters, checked (count, unknown or repeated
// keywords, and, against the parameter types - declared in
// JitOptions::signature or taken from the arguments as Triton does - pointer
// or scalar, dtype, range), and the kernel is specialized on them
// (deriveSpecialization). Kernels come from getCompiledKernel
// (runtime/jit/KernelCompiler.h): the memory cache, then the disk cache
// (KernelCache), then the compiler; a CPU device runs the same kernel on the
// interpreter (memory cache only). MGP_DEBUG=1 reports compiled vs cached.
//
//===----------------------------------------------------------------------===//
#ifndef MGP_RUNTIME_JIT_JIT_H
#define MGP_RUNTIME_JIT_JIT_H

#include "compiler/api/KernelOptions.h"
#include "runtime/DeviceBuffer.h"
#include "runtime/KernelSignature.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

namespace mgp {

class Device;

/// Where a kernel runs.
enum class DeviceKind { GPU, CPU };

/// How mgp::jit compiles and runs a kernel: the kernel options every launch's
/// KernelRequest forwards (numWarps, numStages, precision:
/// compiler/api/KernelOptions.h), and where and how it runs.
struct JitOptions : KernelOptions {
  DeviceKind device = DeviceKind::GPU;
  /// Optional parameter types, comma-separated, one per parameter: `*fp32`,
  /// `i32`, `i64`, `fp32`, `constexpr`. Empty: types come from the arguments
  /// (pointers from the buffer's dtype, integers i32 when they fit else i64,
  /// floats fp32; parameters annotated constexpr are constexpr).
  std::string signature;
  std::string fileName = "<jit>"; ///< names the source in diagnostics
  unsigned cpuThreads = 0;        ///< interpreter workers; 0 = all cores
  /// The GPU kernels run on; negative: none (compile only: kernels give
  /// PTX through SpecializedKernel but cannot launch; needs `arch`).
  int deviceOrdinal = 0;
  /// GPU: the arch to compile for ("sm_80", "sm_90a"); empty: the device's.
  std::string arch;
};

/// A 1-3D grid of programs.
struct Grid {
  std::array<unsigned, 3> dims;
  Grid(unsigned x, unsigned y = 1, unsigned z = 1) : dims{x, y, z} {}
};

/// One launch argument as the caller gave it.
struct LaunchArg {
  std::string keyword; ///< empty for a positional argument
  KernelArg value = KernelArg::integer(0);
  uint64_t bytes = 0; ///< a host buffer's size (the interpreter checks it)
};

/// A device buffer holding elements of \p type.
inline LaunchArg buffer(const DeviceBuffer &buf, DType type) {
  return {"", KernelArg::devicePointer(buf.address(), type), buf.size()};
}
/// The dtype of the C++ element type T (float, int32_t, ...).
template <typename T> constexpr DType dtypeOf() {
  if constexpr (std::is_same_v<T, float>)
    return DType::F32;
  else if constexpr (std::is_same_v<T, double>)
    return DType::F64;
  else if constexpr (std::is_same_v<T, int64_t>)
    return DType::I64;
  else if constexpr (std::is_same_v<T, int32_t>)
    return DType::I32;
  else if constexpr (std::is_same_v<T, int16_t>)
    return DType::I16;
  else if constexpr (std::is_same_v<T, int8_t> || std::is_same_v<T, bool>)
    return std::is_same_v<T, bool> ? DType::I1 : DType::I8;
  else
    static_assert(sizeof(T) == 0, "no dtype for this element type");
}
/// A device buffer of T elements.
template <typename T> LaunchArg buffer(const DeviceBuffer &buf) {
  return buffer(buf, dtypeOf<T>());
}
/// Host memory of \p count T elements (CPU device).
template <typename T> LaunchArg host(T *data, uint64_t count) {
  return {"", KernelArg::hostPointer(static_cast<void *>(data), dtypeOf<T>()),
          count * sizeof(T)};
}
template <typename T> LaunchArg host(std::vector<T> &data) {
  return host(data.data(), data.size());
}
/// A value by keyword: `mgp::kw("BLOCK_SIZE", 1024)`.
inline LaunchArg kw(llvm::StringRef name, LaunchArg value) {
  value.keyword = name.str();
  return value;
}

/// How each C++ argument type becomes a LaunchArg.
inline LaunchArg toLaunchArg(LaunchArg arg) { return arg; }
template <typename T,
          std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>,
                           int> = 0>
LaunchArg toLaunchArg(T value) {
  return {"", KernelArg::integer(static_cast<int64_t>(value)), 0};
}
template <typename T, std::enable_if_t<std::is_same_v<T, bool>, int> = 0>
LaunchArg toLaunchArg(T value) {
  return {"", KernelArg::integer(value ? 1 : 0), 0};
}
template <typename T,
          std::enable_if_t<std::is_floating_point_v<T>, int> = 0>
LaunchArg toLaunchArg(T value) {
  return {"", KernelArg::floating(static_cast<double>(value)), 0};
}
template <typename T>
LaunchArg kw(llvm::StringRef name, T value) {
  return kw(name, toLaunchArg(value));
}

/// A JIT kernel: compiled per specialization on first use.
class Kernel {
public:
  /// Launches on \p grid programs. \p stream: a CUstream (null: the default
  /// stream); ignored on the CPU device, where the call returns when done.
  template <typename... Args>
  llvm::Error launch(Grid grid, CUstream stream, Args &&...args) {
    std::array<LaunchArg, sizeof...(Args)> list{
        toLaunchArg(std::forward<Args>(args))...};
    return launchArgs(grid, stream, list);
  }
  llvm::Error launchArgs(Grid grid, CUstream stream,
                         llvm::ArrayRef<LaunchArg> args);

  /// The kernel's arguments in parameter order after binding \p args, and
  /// the signature they are checked against (tests, tools).
  llvm::Error bind(llvm::ArrayRef<LaunchArg> args,
                   std::vector<KernelArg> &bound,
                   KernelSignature &signature) const;
  /// The specialization \p args call for, in Triton's signature syntax.
  llvm::Expected<std::string>
  specialization(llvm::ArrayRef<LaunchArg> args) const;

  /// The parameter names, in order.
  std::vector<std::string> parameterNames() const;
  llvm::StringRef name() const;
  DeviceKind device() const;

  class Impl;
  explicit Kernel(std::shared_ptr<Impl> impl) : impl(std::move(impl)) {}

private:
  friend class SpecializedKernel;
  std::shared_ptr<Impl> impl;
};

/// Compiles nothing yet: parses \p source, finds kernel \p name and its
/// parameters. On the GPU device it opens device JitOptions::deviceOrdinal
/// (its primary context becomes current) to learn the arch, unless the
/// ordinal is negative (compile only, for JitOptions::arch). Errors: syntax,
/// unknown kernel, bad options, no GPU.
llvm::Expected<Kernel> jit(llvm::StringRef source, llvm::StringRef name,
                           const JitOptions &options = {});

/// Device \p ordinal, opened once per process and shared by every kernel on
/// it (mgp::jit's GPU kernels, the C API's contexts); its primary context is
/// made current on the calling thread.
llvm::Expected<std::shared_ptr<Device>> getSharedDevice(int ordinal);

} // namespace mgp

#endif // MGP_RUNTIME_JIT_JIT_H
