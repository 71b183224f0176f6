//===- ModuleLoader.h - Python modules a kernel file imports ----*- C++ -*-===//
//
// This file declares the loader of the Python modules that a kernel file
// imports helpers from (`from .utils import f`, `from pkg.ops.utils import
// exp`, `import pkg.utils as u`): it finds the module's file, parses it into
// the same llvm::SourceMgr (so diagnostics quote it) and keeps it for the
// rest of the compilation. Only the syntax half: Sema decides what a name
// means.
//
// The search order is compiler/api/ModuleSearch.h's (shared with the cache
// key, which covers the files the search finds).
//
//===----------------------------------------------------------------------===//
#ifndef MGP_COMPILER_FRONTEND_MODULELOADER_H
#define MGP_COMPILER_FRONTEND_MODULELOADER_H

#include "compiler/frontend/AST.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>
#include <vector>

namespace llvm {
class SourceMgr;
} // namespace llvm

namespace mgp {

/// Finds, parses and keeps imported modules.
class ModuleLoader {
public:
  ModuleLoader(llvm::SourceMgr &sourceMgr,
               std::vector<std::string> searchPaths);
  ~ModuleLoader();

  /// The file that the dotted module path `name` (with leading dots when
  /// relative) names when imported from `from`; empty if none exists.
  /// `searched` receives the folders looked in (for messages).
  std::string findModuleFile(llvm::StringRef name, const ast::Module &from,
                             std::vector<std::string> &searched) const;

  /// The parsed module of file `path` (parsed once; later calls return the
  /// same module). Parse errors come back formatted with the source line.
  llvm::Expected<const ast::Module *> loadFile(llvm::StringRef path);

  const std::vector<std::string> &getSearchPaths() const { return searchPaths; }

private:
  llvm::SourceMgr &sourceMgr;
  std::vector<std::string> searchPaths;
  llvm::StringMap<std::unique_ptr<ast::Module>> modules; // by real path
};

} // namespace mgp

#endif // MGP_COMPILER_FRONTEND_MODULELOADER_H
