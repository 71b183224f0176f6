//===- KernelModuleCache.h - kernels_dsl kernels as mgp IR ------*- C++ -*-===//
//
// This file implements the front half of the kernel backends: it compiles a
// kernel of the embedded kernels_dsl sources for one specialization (a Triton
// AOT signature) through the parser, MLIRGen and the target-independent passes
// into block-level mgp IR, and keeps one module per (file, kernel, signature).
// The `cpu` backend hands the functions to the interpreter; a GPU backend can
// clone them and continue with the GPU passes.
//
//===----------------------------------------------------------------------===//

#ifndef MGP_GRAPH_KERNELMODULECACHE_H
#define MGP_GRAPH_KERNELMODULECACHE_H

#include "graph/KernelLaunch.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"

#include <memory>

namespace mgp::graph {

/// Compiled block-level modules of kernels_dsl kernels, by specialization.
/// Not thread-safe.
class KernelModuleCache {
public:
  KernelModuleCache();
  ~KernelModuleCache();

  /// The kernel function of `kernel` in kernels_dsl/`file` specialized for
  /// `signature`, after the target-independent passes; compiled on first
  /// use. Errors: an unknown file or kernel, or the compiler's own message.
  llvm::Expected<mlir::func::FuncOp> getKernel(llvm::StringRef file,
                                               llvm::StringRef kernel,
                                               llvm::StringRef signature);
  llvm::Expected<mlir::func::FuncOp> getKernel(const KernelLaunch &launch) {
    return getKernel(launch.file, launch.kernel, launch.signature());
  }

  /// How many distinct specializations have been compiled.
  size_t size() const { return modules.size(); }

  mlir::MLIRContext &getContext() { return *context; }

private:
  struct ParsedFile;
  llvm::Expected<ParsedFile *> parseFile(llvm::StringRef file);

  std::unique_ptr<mlir::MLIRContext> context;
  llvm::StringMap<std::unique_ptr<ParsedFile>> files;
  llvm::StringMap<mlir::OwningOpRef<mlir::ModuleOp>> modules;
};

} // namespace mgp::graph

#endif // MGP_GRAPH_KERNELMODULECACHE_H
