//===- FrontendKernelSupport.h - source kernels for the tests -*- C++ -*-===//
//
// This file implements what the conformance and padded-block interpreter
// tests share: one kernel of a source file (tests/conformance/*.py,
// padded_blocks.mgp) through the front end (parse, MLIRGen with the
// constexprs as defines) and the target-independent passes, ready for the
// interpreter. Any error fails the calling test and leaves no kernel.
//
//===----------------------------------------------------------------------===//
#ifndef MGP_TESTS_UNIT_INTERP_FRONTENDKERNELSUPPORT_H
#define MGP_TESTS_UNIT_INTERP_FRONTENDKERNELSUPPORT_H

#include "compiler/api/Signature.h"
#include "compiler/frontend/Frontend.h"
#include "compiler/frontend/MLIRGen.h"
#include "compiler/ir/MgpDialect.h"
#include "compiler/pipeline/Pipeline.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/SourceMgr.h"
#include "gtest/gtest.h"

#include <memory>
#include <string>

namespace mgp::test {

/// A source kernel compiled to block-level mgp IR (no kernel on an error).
struct FrontendKernel {
  std::unique_ptr<mlir::MLIRContext> context;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  mlir::func::FuncOp kernel;
};

/// Compiles kernel \p name of the source file \p path with \p signature (its
/// runtime parameters) and \p defines (its constexprs); failures name
/// \p label.
inline FrontendKernel compileFrontendKernel(
    const std::string &path, llvm::StringRef name, llvm::StringRef signature,
    const llvm::StringMap<ConstValue> &defines, const std::string &label,
    const KernelGenOptions &options = {}) {
  FrontendKernel out;
  mlir::DialectRegistry registry;
  registerAllDialects(registry);
  out.context = std::make_unique<mlir::MLIRContext>(registry);
  out.context->loadAllAvailableDialects();
  llvm::SourceMgr sourceMgr;
  llvm::Expected<unsigned> buffer = addSourceFile(sourceMgr, path);
  if (!buffer) {
    ADD_FAILURE() << llvm::toString(buffer.takeError());
    return out;
  }
  auto ast = parseSourceFile(sourceMgr, *buffer);
  if (!ast) {
    ADD_FAILURE() << llvm::toString(ast.takeError());
    return out;
  }
  llvm::Expected<Signature> sig = parseSignature(signature);
  if (!sig) {
    ADD_FAILURE() << llvm::toString(sig.takeError());
    return out;
  }
  auto module = generateKernelModule(*out.context, sourceMgr, **ast, name, *sig,
                                     defines, options);
  if (!module) {
    ADD_FAILURE() << label << ": " << llvm::toString(module.takeError());
    return out;
  }
  out.module = std::move(*module);
  if (llvm::Error err = runTargetIndependentPasses(*out.module)) {
    ADD_FAILURE() << label << ": " << llvm::toString(std::move(err));
    return out;
  }
  for (auto func : out.module->getOps<mlir::func::FuncOp>())
    if (func.getSymName() == name)
      out.kernel = func;
  EXPECT_TRUE(out.kernel) << "no func @" << name.str() << " in " << label;
  return out;
}

} // namespace mgp::test

#endif // MGP_TESTS_UNIT_INTERP_FRONTENDKERNELSUPPORT_H
