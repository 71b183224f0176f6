//===- ModuleLoader.cpp - Python modules a kernel file imports ------------===//
//
// This file implements ModuleLoader (see ModuleLoader.h for the search
// order): resolving dotted module names to files and parsing each file once
// into the compilation's SourceMgr.
//
//===----------------------------------------------------------------------===//
#include "compiler/frontend/ModuleLoader.h"

#include "compiler/frontend/Frontend.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"

using namespace mgp;
namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

/// Ancestors of a module's folder searched for absolute imports.
static constexpr unsigned kMaxParentLevels = 8;

ModuleLoader::ModuleLoader(llvm::SourceMgr &sourceMgr,
                           std::vector<std::string> searchPaths)
    : sourceMgr(sourceMgr), searchPaths(std::move(searchPaths)) {}

ModuleLoader::~ModuleLoader() = default;

/// The folder of the file a module was parsed from, made absolute; empty if
/// the module did not come from a file on disk.
static std::string getModuleFolder(const ast::Module &module) {
  if (module.fileName.empty() || !fs::is_regular_file(module.fileName))
    return {};
  llvm::SmallString<256> full(module.fileName);
  if (fs::make_absolute(full))
    return {};
  return path::parent_path(full).str();
}

/// `folder/a/b/c.py` or `folder/a/b/c/__init__.py` for the components
/// `parts`, if either is a file.
static std::string findIn(llvm::StringRef folder,
                          llvm::ArrayRef<llvm::StringRef> parts) {
  llvm::SmallString<256> base(folder);
  for (llvm::StringRef part : parts)
    path::append(base, part);
  llvm::SmallString<256> file(base);
  file += ".py";
  if (fs::is_regular_file(file))
    return file.str().str();
  llvm::SmallString<256> init(base);
  path::append(init, "__init__.py");
  if (!parts.empty() && fs::is_regular_file(init))
    return init.str().str();
  return {};
}

std::string
ModuleLoader::findModuleFile(llvm::StringRef name, const ast::Module &from,
                             std::vector<std::string> &searched) const {
  size_t dots = name.find_first_not_of('.');
  if (dots == llvm::StringRef::npos)
    dots = name.size();
  llvm::StringRef rest = name.drop_front(dots);
  llvm::SmallVector<llvm::StringRef, 4> parts;
  if (!rest.empty())
    rest.split(parts, '.');
  std::string folder = getModuleFolder(from);
  if (dots > 0) {
    // Relative: the importing file's folder, one level up per extra dot.
    if (folder.empty())
      return {};
    llvm::SmallString<256> base(folder);
    for (size_t k = 1; k < dots; ++k)
      base = path::parent_path(base);
    searched.push_back(base.str().str());
    return findIn(base, parts);
  }
  for (const std::string &dir : searchPaths) {
    searched.push_back(dir);
    std::string found = findIn(dir, parts);
    if (!found.empty())
      return found;
  }
  llvm::SmallString<256> dir(folder);
  for (unsigned level = 0; level < kMaxParentLevels && !dir.empty(); ++level) {
    searched.push_back(dir.str().str());
    std::string found = findIn(dir, parts);
    if (!found.empty())
      return found;
    llvm::StringRef parent = path::parent_path(dir);
    if (parent == dir)
      break;
    dir = parent;
  }
  return {};
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
