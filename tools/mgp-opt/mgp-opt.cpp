//===- mgp-opt.cpp - runs mgp passes on textual IR -------------------------===//
//
// This file implements `mgp-opt`, MlirOptMain with the mgp dialect and every
// mgp pass registered; the lit tests drive each pass through it.
//
//===----------------------------------------------------------------------===//
#include "compiler/codegen/gpu/Passes.h"
#include "compiler/codegen/llvm/Passes.h"
#include "compiler/ir/MgpDialect.h"
#include "compiler/pipeline/Pipeline.h"
#include "compiler/transforms/Passes.h"

#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

int main(int argc, char **argv) {
  mlir::registerTransformsPasses();
  mgp::registerMgpGPUPasses();
  mgp::registerMgpToLLVMPasses();
  mgp::registerMgpTransformsPasses();
  mlir::DialectRegistry registry;
  mgp::registerAllDialects(registry);
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "mgp optimizer driver\n", registry));
}
