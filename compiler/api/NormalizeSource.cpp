//===- NormalizeSource.cpp - the text a kernel's cache key covers ---------===//
//
// This file implements normalizeKernelSource: the file is cut into top-level
// chunks by indentation; the kernel's chunk and, transitively, every chunk
// whose name it mentions are kept (kernel first, the rest by name), with
// trailing whitespace stripped and line endings as "\n". An edit elsewhere in
// the file leaves the text unchanged; an edit to a helper or a constant the
// kernel uses changes it. Mentions are whole words, so a name in a comment
// also counts: that can only make the key change more often, never less.
//
//===----------------------------------------------------------------------===//
#include "compiler/api/NormalizeSource.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

#include <algorithm>

using namespace mgp;

namespace {
struct Chunk {
  std::string name;
  std::string text;
};
} // namespace

static bool isIdentChar(char c) { return llvm::isAlnum(c) || c == '_'; }

/// The name a chunk defines: `def NAME(` (after decorators) or `NAME =` /
/// `NAME: T =`; empty otherwise.
static std::string chunkName(llvm::StringRef text) {
  llvm::SmallVector<llvm::StringRef> lines;
  text.split(lines, '\n');
  for (llvm::StringRef line : lines) {
    if (line.starts_with("@") || line.trim().empty() || line.starts_with("#"))
      continue;
    llvm::StringRef rest = line;
    if (rest.consume_front("def ")) {
      rest = rest.ltrim();
      return rest.take_while(isIdentChar).str();
    }
    llvm::StringRef name = rest.take_while(isIdentChar);
    llvm::StringRef after = rest.drop_front(name.size()).ltrim();
    if (!name.empty() && (after.starts_with("=") || after.starts_with(":")) &&
        !after.starts_with("=="))
      return name.str();
    return "";
  }
  return "";
}

/// Splits \p source into top-level chunks, each line right-trimmed.
static std::vector<Chunk> splitChunks(llvm::StringRef source) {
  std::vector<Chunk> chunks;
  std::string current;
  bool pendingDecorator = false;
  auto flush = [&]() {
    llvm::StringRef text = llvm::StringRef(current).rtrim();
    if (!text.empty())
      chunks.push_back({chunkName(text), text.str()});
    current.clear();
  };
  llvm::SmallVector<llvm::StringRef> lines;
  source.split(lines, '\n');
  for (llvm::StringRef line : lines) {
    line = line.rtrim(); // also drops the '\r' of "\r\n"
    bool topLevel = !line.empty() && !llvm::isSpace(line[0]) &&
                    !line.starts_with("#") && !line.starts_with(")") &&
                    !line.starts_with("]") && !line.starts_with("}");
    if (topLevel && !pendingDecorator)
      flush();
    if (topLevel)
      pendingDecorator = line.starts_with("@");
    current += line;
    current += '\n';
  }
  flush();
  return chunks;
}

/// The whole words of \p text.
static void collectWords(llvm::StringRef text, llvm::StringSet<> &words) {
  size_t i = 0;
  while (i < text.size()) {
    if (!isIdentChar(text[i])) {
      ++i;
      continue;
    }
    size_t start = i;
    while (i < text.size() && isIdentChar(text[i]))
      ++i;
    words.insert(text.slice(start, i));
  }
}

std::string mgp::normalizeKernelSource(llvm::StringRef source,
                                       llvm::StringRef kernelName) {
  std::vector<Chunk> chunks = splitChunks(source);
  // The last definition of a name wins, as in Python.
  llvm::StringMap<const Chunk *> byName;
  for (const Chunk &chunk : chunks)
    if (!chunk.name.empty())
      byName[chunk.name] = &chunk;
  auto kernel = byName.find(kernelName);
  if (kernel == byName.end())
    return "";

  llvm::StringSet<> included{kernelName};
  llvm::SmallVector<const Chunk *> work{kernel->second};
  std::vector<const Chunk *> callees;
  while (!work.empty()) {
    const Chunk *chunk = work.pop_back_val();
    llvm::StringSet<> words;
    collectWords(chunk->text, words);
    for (const auto &word : words) {
      auto it = byName.find(word.getKey());
      if (it == byName.end() || !included.insert(word.getKey()).second)
        continue;
      callees.push_back(it->second);
      work.push_back(it->second);
    }
  }
  std::sort(callees.begin(), callees.end(),
            [](const Chunk *a, const Chunk *b) { return a->name < b->name; });
  // Imports bind the builtins' aliases (`tl`): all of them, in file order, so
  // the text compiles on its own.
  for (const Chunk &chunk : chunks)
    if (llvm::StringRef(chunk.text).starts_with("import ") ||
        llvm::StringRef(chunk.text).starts_with("from "))
      callees.push_back(&chunk);
  std::string text = kernel->second->text;
  for (const Chunk *chunk : callees)
    text += "\n\n" + chunk->text;
  return text;
}
