//===- RegisterDialects.cpp - every dialect the pipeline uses -------------===//
//
// This file implements mgp::registerAllDialects and mgp::createCompileContext
// (compiler/pipeline/Pipeline.h): the mgp dialect and the upstream dialects
// mgp IR is made of or lowered to.
//
//===----------------------------------------------------------------------===//
#include "compiler/ir/MgpDialect.h"
#include "compiler/pipeline/Pipeline.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/Extensions/InlinerExtension.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"

void mgp::registerAllDialects(mlir::DialectRegistry &registry) {
  registry.insert<mgp::MgpDialect, mlir::func::FuncDialect,
                  mlir::arith::ArithDialect, mlir::math::MathDialect,
                  mlir::scf::SCFDialect, mlir::cf::ControlFlowDialect,
                  mlir::LLVM::LLVMDialect, mlir::NVVM::NVVMDialect>();
  mlir::func::registerInlinerExtension(registry);
}

std::unique_ptr<mlir::MLIRContext> mgp::createCompileContext() {
  mlir::DialectRegistry registry;
  registerAllDialects(registry);
  auto context = std::make_unique<mlir::MLIRContext>(
      registry, mlir::MLIRContext::Threading::DISABLED);
  context->loadAllAvailableDialects();
  return context;
}
