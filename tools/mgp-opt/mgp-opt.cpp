//===- mgp-opt.cpp - runs mgp passes on textual IR -------------------------===//
//
// This file implements `mgp-opt`, MlirOptMain with the mgp dialect and every
// mgp pass registered; the lit tests drive each pass through it.
//
//===----------------------------------------------------------------------===//
#include "compiler/ir/MgpDialect.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

int main(int argc, char **argv) {
  mlir::registerTransformsPasses();
  mlir::DialectRegistry registry;
  registry.insert<mgp::MgpDialect, mlir::func::FuncDialect, mlir::arith::ArithDialect,
                  mlir::math::MathDialect, mlir::scf::SCFDialect,
                  mlir::LLVM::LLVMDialect, mlir::NVVM::NVVMDialect>();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "mgp optimizer driver\n", registry));
}
