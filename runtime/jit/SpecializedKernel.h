//===- SpecializedKernel.h - one specialization, compiled up front -*- C++ -*-//
//
// This file implements SpecializedKernel, the unit of the C API (and so of
// the Python package): a kernel of an mgp::Kernel compiled for a signature in
// Triton's AOT syntax ("*fp32:16,*fp32,i32,1024", as `mgpc --signature` and
// Triton's JIT write it) instead of a specialization derived from launch
// arguments. Compiling goes through the C++ API's lookup (getCompiledKernel:
// the same KernelCache, compile function and cache key; the interpreter's
// memory table on the CPU device), so a kernel compiled here is a cache hit
// for mgp::jit and mgp-run, and the other way round.
//
// Launches pass one LaunchValue per runtime (non-constexpr) parameter, or one
// per parameter with constexprs empty or equal to their compiled value. Each
// is checked against the specialization before anything runs: a pointer of
// the right kind and element type, 16-byte aligned where the signature says
// `:16`; an integer within its type, a multiple of 16 for `:16`, 1 for `:1`;
// a float for a float. A mismatch is an error naming the parameter, never a
// silently wrong launch.
//
//===----------------------------------------------------------------------===//
#ifndef MGP_RUNTIME_JIT_SPECIALIZEDKERNEL_H
#define MGP_RUNTIME_JIT_SPECIALIZEDKERNEL_H

#include "compiler/api/Signature.h"
#include "runtime/CompiledKernel.h"
#include "runtime/LoadedKernel.h"
#include "runtime/jit/Jit.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mgp {


/// One launch argument of a SpecializedKernel.
struct LaunchValue {
  enum class Kind { None, DevicePointer, HostPointer, Int, Float };
  Kind kind = Kind::None;
  /// A pointer's element type (unset: unknown, which a pointer parameter
  /// refuses).
  std::optional<DType> dtype;
  uint64_t bits = 0;  ///< an address, or an integer's two's complement bits
  double value = 0;   ///< Kind::Float
  uint64_t bytes = 0; ///< host pointers: bytes valid from the address on
};

/// The maximum grid of a CUDA launch (compute capability 3.0 and later); the
/// interpreter keeps the same limits.
inline constexpr unsigned kMaxGridX = 2147483647u;
inline constexpr unsigned kMaxGridYZ = 65535u;

/// A kernel compiled for one signature.
class SpecializedKernel {
public:
  /// One parameter with what the signature made of it.
  struct Param {
    std::string name;
    std::string entry;       ///< its signature entry, e.g. "*fp32:16"
    SignatureParam type;     ///< kind, scalar type, hints, value
    bool annotatedConstexpr; ///< `: tl.constexpr` in the source
    int launchIndex = -1;    ///< position among launch values
  };

  /// Compiles \p kernel for \p signature (one entry per parameter; a
  /// parameter annotated constexpr needs a value) or finds it in the
  /// caches; on the GPU loads it into the device's context. Errors: a bad
  /// signature, the compiler's diagnostics, loading.
  static llvm::Expected<std::unique_ptr<SpecializedKernel>>
  create(const Kernel &kernel, llvm::StringRef signature);

  /// Checks \p args and launches on \p grid programs (\p stream: a CUstream
  /// of the kernel's device, null for the default stream; the interpreter
  /// ignores it and returns when done).
  llvm::Error launch(Grid grid, CUstream stream,
                     llvm::ArrayRef<LaunchValue> args) const;

  const std::vector<Param> &params() const { return parameters; }
  unsigned numLaunchArgs() const { return launchCount; }
  llvm::StringRef name() const;
  /// The specialization in Triton's syntax ("*fp32:16,i32,1024").
  llvm::StringRef signature() const { return signatureText; }
  DeviceKind device() const;
  /// Whether launch() can run (false when compiled for an arch only).
  bool launchable() const;
  llvm::StringRef arch() const;
  int numWarps() const;
  int numStages() const;
  unsigned sharedBytes() const;
  /// The PTX .entry name and text; empty for interpreter kernels.
  llvm::StringRef entryName() const;
  llvm::StringRef ptx() const;

  ~SpecializedKernel();

private:
  SpecializedKernel() = default;
  llvm::Error checkGrid(Grid grid) const;
  /// Checks \p args and fills \p order: the index into args of the value of
  /// each launch parameter, in launch order.
  llvm::Error checkArgs(llvm::ArrayRef<LaunchValue> args,
                        llvm::SmallVectorImpl<unsigned> &order) const;
  llvm::Error launchGPU(Grid grid, CUstream stream,
                        llvm::ArrayRef<LaunchValue> args,
                        llvm::ArrayRef<unsigned> order) const;
  llvm::Error launchCPU(Grid grid, llvm::ArrayRef<LaunchValue> args,
                        llvm::ArrayRef<unsigned> order) const;

  Kernel kernel{nullptr};
  std::vector<Param> parameters;
  unsigned launchCount = 0;
  std::string signatureText;
  /// GPU, compile-only, and CPU (its `interp`).
  std::shared_ptr<const CompiledKernel> compiled;
  /// GPU: loaded in the device's context (mutable: a launch of a const
  /// kernel uses its function).
  mutable std::optional<LoadedKernel> loaded;
};

} // namespace mgp

#endif // MGP_RUNTIME_JIT_SPECIALIZEDKERNEL_H
