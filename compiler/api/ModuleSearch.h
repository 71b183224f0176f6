//===- ModuleSearch.h - the files a kernel file's imports name --*- C++ -*-===//
//
// This file declares the search for the Python module files that a kernel
// file imports helpers from, shared by the front end (which parses them,
// compiler/frontend/ModuleLoader.h) and the cache key (which covers them,
// runtime/CacheKey.h). No MLIR and no parser: the runtime links it.
//
// Search order for `a.b.c` (absolute): each folder of `searchPaths` (mgpc's
// -I, in order), then the importing file's folder and up to 8 of its
// ancestors (so the root of a package is found from a file inside it). In
// each folder `a/b/c.py`, then `a/b/c/__init__.py`. A relative import
// (`.utils`, `..ops.utils`) starts from the importing file's folder, one
// level up per extra dot, and is only looked up there.
//
//===----------------------------------------------------------------------===//
#ifndef MGP_COMPILER_API_MODULESEARCH_H
#define MGP_COMPILER_API_MODULESEARCH_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace mgp {

/// The folder of file \p fileName, made absolute; empty if \p fileName is
/// not a file on disk (a relative import then finds nothing).
std::string getImporterFolder(llvm::StringRef fileName);

/// The file that the dotted module path \p name (with leading dots when
/// relative) names when imported from a file in \p importerFolder; empty if
/// none exists. \p searched receives the folders looked in (for messages).
std::string findModuleFile(llvm::StringRef name, llvm::StringRef importerFolder,
                           llvm::ArrayRef<std::string> searchPaths,
                           std::vector<std::string> &searched);

/// Every module file that an `import` / `from` statement of \p source (the
/// file \p fileName), or of a module file so found, may load: for `from M
/// import a, b` the files of M, M.a and M.b that exist; for `import M.N` the
/// file of M.N. Transitive, each file once, in the order found (at most 256
/// files); `triton` modules are builtins and never searched. A superset of
/// what the front end loads: the cache key covers these files' text.
std::vector<std::string>
findImportedModuleFiles(llvm::StringRef source, llvm::StringRef fileName,
                        llvm::ArrayRef<std::string> searchPaths);

} // namespace mgp

#endif // MGP_COMPILER_API_MODULESEARCH_H
