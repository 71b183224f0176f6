//===- KernelModuleCache.cpp - kernels_dsl kernels as mgp IR --------------===//
//
// This file implements KernelModuleCache: parse each embedded source once,
// generate one module per specialization with MLIRGen, run the
// target-independent passes on it, and keep it.
//
//===----------------------------------------------------------------------===//

#include "graph/KernelModuleCache.h"

#include "graph/KernelSources.h"

#include "compiler/frontend/Frontend.h"
#include "compiler/frontend/MLIRGen.h"
#include "compiler/pipeline/Pipeline.h"

#include "mlir/IR/DialectRegistry.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

using namespace mgp;
using namespace mgp::graph;

struct KernelModuleCache::ParsedFile {
  llvm::SourceMgr sourceMgr;
  std::unique_ptr<ast::Module> module;
};

KernelModuleCache::KernelModuleCache() {
  mlir::DialectRegistry registry;
  registerAllDialects(registry);
  context = std::make_unique<mlir::MLIRContext>(registry);
  context->loadAllAvailableDialects();
}

KernelModuleCache::~KernelModuleCache() {
  // Modules reference the context: drop them first.
  modules.clear();
}

llvm::Expected<KernelModuleCache::ParsedFile *>
KernelModuleCache::parseFile(llvm::StringRef file) {
  auto it = files.find(file);
  if (it != files.end())
    return it->second.get();
  std::optional<llvm::StringRef> text = findKernelSource(file);
  if (!text) {
    std::vector<std::string> known;
    for (const KernelSource &source : getKernelSources())
      known.push_back(source.file);
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "no kernel file kernels_dsl/%s (have: %s)",
                                   file.str().c_str(),
                                   llvm::join(known, ", ").c_str());
  }
  auto parsed = std::make_unique<ParsedFile>();
  unsigned id = parsed->sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBuffer(*text, "kernels_dsl/" + file.str()),
      llvm::SMLoc());
  auto module = parseSourceFile(parsed->sourceMgr, id);
  if (!module)
    return module.takeError();
  parsed->module = std::move(*module);
  ParsedFile *result = parsed.get();
  files[file] = std::move(parsed);
  return result;
}

llvm::Expected<mlir::func::FuncOp>
KernelModuleCache::getKernel(llvm::StringRef file, llvm::StringRef kernel,
                             llvm::StringRef signatureText) {
  std::string key = (file + ":" + kernel + "[" + signatureText + "]").str();
  auto it = modules.find(key);
  if (it == modules.end()) {
    auto parsed = parseFile(file);
    if (!parsed)
      return parsed.takeError();
    std::vector<std::string> kernels = listKernels(*(*parsed)->module);
    if (!llvm::is_contained(kernels, kernel.str()))
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          "no @jit kernel '%s' in kernels_dsl/%s (kernels: %s)",
          kernel.str().c_str(), file.str().c_str(),
          llvm::join(kernels, ", ").c_str());
    auto signature = parseSignature(signatureText);
    if (!signature)
      return signature.takeError();
    auto module =
        generateKernelModule(*context, (*parsed)->sourceMgr, *(*parsed)->module,
                             kernel, *signature, {});
    if (!module)
      return module.takeError();
    if (llvm::Error e = runTargetIndependentPasses(**module, CompileOptions()))
      return std::move(e);
    it = modules.try_emplace(key, std::move(*module)).first;
  }
  for (auto func : it->second->getOps<mlir::func::FuncOp>())
    if (func.getSymName() == kernel)
      return func;
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "kernel '%s' vanished from its module after "
                                 "the target-independent passes",
                                 kernel.str().c_str());
}
