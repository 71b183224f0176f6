//===- NormalizeSource.cpp - the text a kernel's cache key covers ---------===//
//
// This file implements normalizeKernelSource: the file is cut into top-level
// chunks by indentation; the kernel's chunks and, transitively, every chunk
// whose name they mention are kept (kernel first, the rest by name), with
// the imports and guarded definitions, trailing whitespace stripped and line
// endings as "\n". An edit elsewhere in the file leaves the text unchanged;
// an edit to the kernel, a helper or a constant it uses changes it. Mentions
// are whole words, so a name in a comment also counts: that can only make the
// key change more often, never less. A kernel the cut cannot name keys on
// the whole file.
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

/// Whether \p line starts with keyword \p word as a whole word.
static bool startsWithWord(llvm::StringRef line, llvm::StringRef word) {
  return line.starts_with(word) &&
         (line.size() == word.size() || !isIdentChar(line[word.size()]));
}

/// Whether \p line starts a statement at the top level: column 0, not blank,
/// not a comment, not a closing bracket (a decorator's or a call's) and not
/// a clause of the compound statement above it (`else:`, `except ...:`).
static bool isTopLevelLine(llvm::StringRef line) {
  if (line.empty() || llvm::isSpace(line[0]) || line.starts_with("#") ||
      line.starts_with(")") || line.starts_with("]") || line.starts_with("}"))
    return false;
  for (llvm::StringRef clause : {"else", "elif", "except", "finally"})
    if (startsWithWord(line, clause))
      return false;
  return true;
}

/// Whether \p line starts with a keyword that opens a compound statement.
static bool isCompoundStatement(llvm::StringRef line) {
  for (llvm::StringRef word : {"try", "if", "with", "for", "while", "async"})
    if (startsWithWord(line, word))
      return true;
  return false;
}

/// The name a chunk defines: `def NAME(` or `class NAME` (after decorators,
/// whose arguments may span lines) or `NAME =` / `NAME: T =`; empty
/// otherwise.
static std::string chunkName(llvm::StringRef text) {
  llvm::SmallVector<llvm::StringRef> lines;
  text.split(lines, '\n');
  for (llvm::StringRef line : lines) {
    if (!isTopLevelLine(line) || line.starts_with("@"))
      continue;
    if (isCompoundStatement(line))
      return "";
    llvm::StringRef rest = line;
    if (rest.consume_front("def ") || rest.consume_front("class ")) {
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

/// Whether an unnamed chunk is a compound statement that may bind names the
/// kernel uses (`try: from m import tanh ...`, `if X: def helper ...`); the
/// script guard `if __name__ == ...` holds host code only.
static bool mayBindNames(llvm::StringRef text) {
  return isCompoundStatement(text) && !text.starts_with("if __name__");
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
    bool topLevel = isTopLevelLine(line);
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
  // Every chunk of a name, in file order: `f = triton.jit(f)` rebinds the
  // `def f` above it, and both make the kernel.
  llvm::StringMap<llvm::SmallVector<const Chunk *, 1>> byName;
  for (const Chunk &chunk : chunks)
    if (!chunk.name.empty())
      byName[chunk.name].push_back(&chunk);
  auto kernel = byName.find(kernelName);
  if (kernel == byName.end()) {
    // No chunk is named for the kernel (a form the cut does not know): the
    // whole file, so that no edit can leave the key unchanged.
    std::string text;
    for (const Chunk &chunk : chunks)
      text += (text.empty() ? "" : "\n\n") + chunk.text;
    return text;
  }

  llvm::StringSet<> included{kernelName};
  llvm::SmallVector<const Chunk *> work(kernel->second.begin(),
                                        kernel->second.end());
  std::vector<const Chunk *> callees;
  while (!work.empty()) {
    const Chunk *chunk = work.pop_back_val();
    llvm::StringSet<> words;
    collectWords(chunk->text, words);
    for (const auto &word : words) {
      auto it = byName.find(word.getKey());
      if (it == byName.end() || !included.insert(word.getKey()).second)
        continue;
      for (const Chunk *named : it->second) {
        callees.push_back(named);
        work.push_back(named);
      }
    }
  }
  // By name; a name's chunks stay in file order.
  std::stable_sort(
      callees.begin(), callees.end(),
      [](const Chunk *a, const Chunk *b) { return a->name < b->name; });
  // Imports bind the builtins' aliases (`tl`): all of them, in file order, so
  // the text compiles on its own; so do compound statements that may bind a
  // name (a guarded import).
  for (const Chunk &chunk : chunks) {
    llvm::StringRef text = chunk.text;
    if (text.starts_with("import ") || text.starts_with("from ") ||
        (chunk.name.empty() && mayBindNames(text)))
      callees.push_back(&chunk);
  }
  std::string text;
  for (const Chunk *chunk : kernel->second)
    text += (text.empty() ? "" : "\n\n") + chunk->text;
  for (const Chunk *chunk : callees)
    text += "\n\n" + chunk->text;
  return text;
}
