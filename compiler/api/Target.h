//===- Target.h - what code is generated for --------------------*- C++ -*-===//
//
// This file implements Target, the architecture a kernel is compiled for,
// parsed once from its name: a GPU (sm_80, sm_86, sm_89, sm_90, sm_90a) with
// its compute capability and features (cp.async from sm_80, wgmma on sm_90a
// only), or the CPU interpreter ("cpu"). A device's target is
// getDeviceTarget's (runtime/Device.h), for the JIT and the graph backends
// alike.
//
//===----------------------------------------------------------------------===//
#ifndef MGP_COMPILER_API_TARGET_H
#define MGP_COMPILER_API_TARGET_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace mgp {

/// A code generation target.
class Target {
public:
  /// sm_90, mgpc's default.
  Target();

  /// Parses "sm_80", "sm_86", "sm_89", "sm_90", "sm_90a" or "cpu". Errors:
  /// `unsupported GPU architecture 'X' (expected sm_80, sm_86, sm_89, sm_90,
  /// sm_90a or cpu)`.
  static llvm::Expected<Target> parse(llvm::StringRef name);
  /// The CPU interpreter.
  static Target cpu();

  /// The name parse() reads: "sm_90a", "cpu".
  llvm::StringRef arch() const { return name; }
  /// 90 for sm_90 and sm_90a; 0 for the CPU.
  int computeCapability() const { return capability; }
  bool isCPU() const { return capability == 0; }
  /// cp.async (sm_80 and later).
  bool hasAsyncCopy() const { return capability >= 80; }
  /// Hopper warp-group MMA: sm_90a only (its PTX loads on 9.0 alone).
  bool hasWgmma() const { return wgmma; }

  bool operator==(const Target &other) const { return name == other.name; }
  bool operator!=(const Target &other) const { return name != other.name; }

private:
  Target(std::string name, int capability, bool wgmma)
      : name(std::move(name)), capability(capability), wgmma(wgmma) {}
  std::string name;
  int capability;
  bool wgmma;
};

} // namespace mgp

#endif // MGP_COMPILER_API_TARGET_H
