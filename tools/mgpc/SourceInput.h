//===- SourceInput.h - mgpc's .mgp/.py input to an mgp module ---*- C++ -*-===//
//
// This file declares the one call that turns a kernel source file into a
// block-level mgp module for mgpc: parse, pick the kernels (`-k`), apply the
// signature and `-D` defines, and generate MLIR.
//
//===----------------------------------------------------------------------===//
#ifndef MGP_TOOLS_MGPC_SOURCEINPUT_H
#define MGP_TOOLS_MGPC_SOURCEINPUT_H

#include "compiler/api/Signature.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <utility>
#include <vector>

namespace mgp {

/// What mgpc's command line says about a source input.
struct SourceOptions {
  std::string kernelName; ///< -k; empty: every @jit kernel
  Signature signature;    ///< --signature (empty: none given)
  bool hasSignature = false;
  std::vector<std::pair<std::string, std::string>> defines; ///< -D NAME=VALUE
  /// -I DIR: folders searched for the modules the file imports helpers from.
  std::vector<std::string> importPaths;
  int numWarps = 4;   ///< --num-warps (the register budget check)
  bool debug = false; ///< --debug: compile tl.device_assert checks
  /// --arch's compute capability (0 for cpu): tl.target_info's answers.
  int computeCapability = 90;
};

/// Builds the mgp module of the kernels of source file `filename` (".mgp" or
/// ".py"); front-end errors come back formatted with the source line.
llvm::Expected<mlir::OwningOpRef<mlir::ModuleOp>>
buildModuleFromSource(mlir::MLIRContext &context, llvm::StringRef filename,
                      const SourceOptions &options);

} // namespace mgp

#endif // MGP_TOOLS_MGPC_SOURCEINPUT_H
