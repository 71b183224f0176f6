//===- ModuleSearch.cpp - the files a kernel file's imports name ----------===//
//
// This file implements the module file search (see ModuleSearch.h for the
// order) and the scan of a file's import statements that the cache key uses:
// a line-level reading of `import` / `from` statements (parenthesized and
// backslash-continued ones joined), not a Python parser, erring towards more
// files.
//
//===----------------------------------------------------------------------===//
#include "compiler/api/ModuleSearch.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

using namespace mgp;
namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

/// Ancestors of a module's folder searched for absolute imports.
static constexpr unsigned kMaxParentLevels = 8;
/// Module files one key covers at most (a bound on a runaway package).
static constexpr size_t kMaxImportedFiles = 256;

std::string mgp::getImporterFolder(llvm::StringRef fileName) {
  if (fileName.empty() || !fs::is_regular_file(fileName))
    return {};
  llvm::SmallString<256> full(fileName);
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

std::string mgp::findModuleFile(llvm::StringRef name,
                                llvm::StringRef importerFolder,
                                llvm::ArrayRef<std::string> searchPaths,
                                std::vector<std::string> &searched) {
  size_t dots = name.find_first_not_of('.');
  if (dots == llvm::StringRef::npos)
    dots = name.size();
  llvm::StringRef rest = name.drop_front(dots);
  llvm::SmallVector<llvm::StringRef, 4> parts;
  if (!rest.empty())
    rest.split(parts, '.');
  if (dots > 0) {
    // Relative: the importing file's folder, one level up per extra dot.
    if (importerFolder.empty())
      return {};
    llvm::SmallString<256> base(importerFolder);
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
  llvm::SmallString<256> dir(importerFolder);
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

/// The import statements of \p source, one per entry, with parenthesized
/// and backslash-continued lines joined and comments dropped.
static std::vector<std::string> importStatements(llvm::StringRef source) {
  std::vector<std::string> statements;
  llvm::SmallVector<llvm::StringRef> lines;
  source.split(lines, '\n');
  for (size_t i = 0; i < lines.size(); ++i) {
    llvm::StringRef line = lines[i].split('#').first.trim();
    if (!line.starts_with("import ") && !line.starts_with("from "))
      continue;
    std::string statement = line.str();
    int open =
        static_cast<int>(line.count('(')) - static_cast<int>(line.count(')'));
    while ((open > 0 || llvm::StringRef(statement).ends_with("\\")) &&
           i + 1 < lines.size()) {
      if (llvm::StringRef(statement).ends_with("\\"))
        statement.pop_back();
      llvm::StringRef next = lines[++i].split('#').first.trim();
      open +=
          static_cast<int>(next.count('(')) - static_cast<int>(next.count(')'));
      statement += " " + next.str();
    }
    for (llvm::StringRef part : llvm::split(statement, ';'))
      statements.push_back(part.trim().str());
  }
  return statements;
}

/// The first word of \p text (a dotted name), without `as ...`.
static llvm::StringRef dottedName(llvm::StringRef text) {
  text = text.trim().trim("()").trim();
  return text.take_while(
      [](char c) { return llvm::isAlnum(c) || c == '_' || c == '.'; });
}

/// The dotted module names that import statement \p statement may load.
static std::vector<std::string> candidateModules(llvm::StringRef statement) {
  std::vector<std::string> names;
  if (statement.consume_front("import ")) {
    for (llvm::StringRef item : llvm::split(statement, ','))
      if (llvm::StringRef name = dottedName(item); !name.empty())
        names.push_back(name.str());
  } else if (statement.consume_front("from ")) {
    auto [module, imported] = statement.split(" import ");
    llvm::StringRef base = dottedName(module);
    if (base.empty())
      return names;
    names.push_back(base.str());
    bool onlyDots = base.find_first_not_of('.') == llvm::StringRef::npos;
    for (llvm::StringRef item : llvm::split(imported, ','))
      if (llvm::StringRef name = dottedName(item); !name.empty() && name != "*")
        names.push_back(base.str() + (onlyDots ? "" : ".") + name.str());
  }
  return names;
}

static bool isTritonModule(llvm::StringRef name) {
  return name == "triton" || name.starts_with("triton.");
}

std::vector<std::string>
mgp::findImportedModuleFiles(llvm::StringRef source, llvm::StringRef fileName,
                             llvm::ArrayRef<std::string> searchPaths) {
  std::vector<std::string> files;
  llvm::StringSet<> seen;
  // (text, folder) of each file still to scan; the texts of found files are
  // kept in `buffers`.
  std::vector<std::unique_ptr<llvm::MemoryBuffer>> buffers;
  std::vector<std::pair<llvm::StringRef, std::string>> work{
      {source, getImporterFolder(fileName)}};
  while (!work.empty() && files.size() < kMaxImportedFiles) {
    auto [text, folder] = work.back();
    work.pop_back();
    for (const std::string &statement : importStatements(text)) {
      for (const std::string &name : candidateModules(statement)) {
        if (isTritonModule(name))
          continue;
        std::vector<std::string> searched;
        std::string file = findModuleFile(name, folder, searchPaths, searched);
        if (file.empty() || !seen.insert(file).second)
          continue;
        files.push_back(file);
        llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
            llvm::MemoryBuffer::getFile(file, /*IsText=*/true);
        if (!buffer)
          continue;
        buffers.push_back(std::move(*buffer));
        work.emplace_back(buffers.back()->getBuffer(), getImporterFolder(file));
      }
    }
  }
  return files;
}
