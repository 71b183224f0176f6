//===- KernelSources.h - The kernels_dsl sources in the binary --*- C++ -*-===//
//
// This file implements access to the text of every kernels_dsl/*.mgp file,
// embedded at build time (graph/EmbedKernels.cmake), so the kernel backends
// compile their kernels without finding the source tree at run time.
//
//===----------------------------------------------------------------------===//

#ifndef MGP_GRAPH_KERNELSOURCES_H
#define MGP_GRAPH_KERNELSOURCES_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <optional>

namespace mgp::graph {

/// One embedded kernel file.
struct KernelSource {
  const char *file; ///< Its name in kernels_dsl/ (`conv2d.mgp`).
  const char *text;
};

/// Every kernels_dsl/*.mgp file, sorted by name.
llvm::ArrayRef<KernelSource> getKernelSources();

/// The text of kernels_dsl/`file`, if it exists.
inline std::optional<llvm::StringRef> findKernelSource(llvm::StringRef file) {
  for (const KernelSource &source : getKernelSources())
    if (file == source.file)
      return llvm::StringRef(source.text);
  return std::nullopt;
}

} // namespace mgp::graph

#endif // MGP_GRAPH_KERNELSOURCES_H
