//===- NormalizeSource.h - the text a kernel's cache key covers -*- C++ -*-===//
//
// This file declares normalizeKernelSource, which cuts a kernel file down to
// the kernel and what it uses, so that the cache key (runtime/CacheKey.h)
// survives edits elsewhere in the file. No MLIR: the runtime links it.
//
//===----------------------------------------------------------------------===//
#ifndef MGP_PIPELINE_NORMALIZESOURCE_H
#define MGP_PIPELINE_NORMALIZESOURCE_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace mgp {

/// The text the cache key covers for \p kernelName (see docs/runtime.md,
/// "Source normalization"): the file is cut into top-level chunks (a chunk
/// starts at a line at column 0 that is not blank, a comment, a closing
/// bracket or a continuation of a decorator; decorators belong to the def
/// they precede); a chunk `def NAME`, `class NAME` or `NAME = ...` is named
/// NAME. The result is the kernel's chunks (`def k` and `k = triton.jit(k)`),
/// then every chunk whose name occurs as a word in an included chunk
/// (transitively), sorted by name, then every `import` / `from` chunk and
/// every unnamed `try:` / `if` / `with` / `for` / `while` chunk but the
/// script guard, in file order (so the text compiles on its own); each chunk
/// with trailing whitespace stripped from every line, "\r\n" read as "\n",
/// chunks joined by "\n\n". When no chunk is named \p kernelName, the whole
/// file so normalized.
std::string normalizeKernelSource(llvm::StringRef source,
                                  llvm::StringRef kernelName);

} // namespace mgp

#endif // MGP_PIPELINE_NORMALIZESOURCE_H
