//===- MLIRGenFuzzer.cpp - libFuzzer target: Sema, MLIRGen, verifier ------===//
//
// This file implements the fuzz target of the whole front end: the input is
// parsed, and every kernel it yields goes through Sema and MLIRGen with a
// guessed signature (a `*fp32:16` pointer for parameters whose name contains
// "ptr", 16 for `tl.constexpr` parameters, i32 for the others), then the MLIR
// verifier. Rejections must be diagnostics; crashes, hangs, sanitizer reports
// and modules that MLIRGen returns but the verifier rejects are findings.
//
//===----------------------------------------------------------------------===//

#include "compiler/frontend/Frontend.h"
#include "compiler/frontend/MLIRGen.h"
#include "compiler/pipeline/Pipeline.h"
#include "fuzz/FuzzSupport.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

using namespace mgp;

/// The guessed signature of `def`: see the file comment.
static Signature guessSignature(const ast::FunctionDef &def) {
  Signature signature;
  for (const ast::Param &param : def.params) {
    SignatureParam entry;
    if (param.annotation) {
      entry.kind = SignatureParam::Kind::Constexpr;
      entry.type = DType::I64;
      entry.intValue = 16;
    } else if (llvm::StringRef(param.name).contains("ptr")) {
      entry.kind = SignatureParam::Kind::Pointer;
      entry.type = DType::F32;
      entry.divisibility = 16;
    }
    signature.params.push_back(entry);
  }
  return signature;
}

static mlir::MLIRContext &getContext() {
  static mlir::MLIRContext *context = [] {
    mlir::DialectRegistry registry;
    registerAllDialects(registry);
    auto *result = new mlir::MLIRContext(registry);
    result->disableMultithreading();
    result->loadAllAvailableDialects();
    // Verifier failures are reported through the result of mlir::verify.
    result->getDiagEngine().registerHandler([](mlir::Diagnostic &) {});
    return result;
  }();
  return *context;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::SourceMgr sourceMgr;
  unsigned bufferId = sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(
          llvm::StringRef(reinterpret_cast<const char *>(data), size),
          "fuzz.py"),
      llvm::SMLoc());
  auto module = parseSourceFile(sourceMgr, bufferId);
  if (!module) {
    fuzz::consumeChecked(module.takeError());
    return 0;
  }
  mlir::MLIRContext &context = getContext();
  for (const std::string &kernel : listKernels(**module)) {
    const ast::FunctionDef *def = nullptr;
    for (const auto &function : (*module)->functions)
      if (function->name == kernel)
        def = function.get();
    if (!def)
      continue;
    auto generated = generateKernelModule(context, sourceMgr, **module, kernel,
                                          guessSignature(*def), {});
    if (!generated) {
      fuzz::consumeChecked(generated.takeError());
      continue;
    }
    if (mlir::failed(mlir::verify(generated->get())))
      std::abort(); // MLIRGen built IR its own verifier rejects.
  }
  return 0;
}
