//===- FrontendFuzzer.cpp - libFuzzer target: lexer and parser ------------===//
//
// This file implements the fuzz target of the syntax half of the front end:
// any byte string is lexed and parsed as a kernel file, and the AST (if any)
// is dumped. The input may be rejected with a diagnostic; it may not crash,
// hang or trip a sanitizer.
//
//===----------------------------------------------------------------------===//

#include "compiler/frontend/Frontend.h"
#include "fuzz/FuzzSupport.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::SourceMgr sourceMgr;
  unsigned bufferId = sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(
          llvm::StringRef(reinterpret_cast<const char *>(data), size),
          "fuzz.py"),
      llvm::SMLoc());
  auto module = mgp::parseSourceFile(sourceMgr, bufferId);
  if (!module) {
    mgp::fuzz::consumeChecked(module.takeError());
    return 0;
  }
  std::string dump;
  llvm::raw_string_ostream os(dump);
  mgp::dumpAST(**module, os);
  return 0;
}
