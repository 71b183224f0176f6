//===- ModuleLoader.cpp - Python modules a kernel file imports ------------===//
//
// This file implements ModuleLoader: resolving dotted module names to files
// (compiler/api/ModuleSearch.h, which the cache key shares) and parsing each
// file once into the compilation's SourceMgr.
//
//===----------------------------------------------------------------------===//
#include "compiler/frontend/ModuleLoader.h"

#include "compiler/api/ModuleSearch.h"
#include "compiler/frontend/Frontend.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"

using namespace mgp;
namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

ModuleLoader::ModuleLoader(llvm::SourceMgr &sourceMgr,
                           std::vector<std::string> searchPaths)
    : sourceMgr(sourceMgr), searchPaths(std::move(searchPaths)) {}

ModuleLoader::~ModuleLoader() = default;

std::string
ModuleLoader::findModuleFile(llvm::StringRef name, const ast::Module &from,
                             std::vector<std::string> &searched) const {
  return mgp::findModuleFile(name, getImporterFolder(from.fileName),
                             searchPaths, searched);
}

llvm::Expected<const ast::Module *>
ModuleLoader::loadFile(llvm::StringRef file) {
  llvm::SmallString<256> real;
  if (fs::real_path(file, real))
    real = file;
  auto it = modules.find(real);
  if (it != modules.end())
    return it->second.get();
  llvm::Expected<unsigned> buffer = addSourceFile(sourceMgr, file);
  if (!buffer)
    return buffer.takeError();
  llvm::Expected<std::unique_ptr<ast::Module>> module =
      parseSourceFile(sourceMgr, *buffer);
  if (!module)
    return module.takeError();
  const ast::Module *result = module->get();
  modules[real] = std::move(*module);
  return result;
}
