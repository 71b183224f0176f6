//===- FuncOpToLLVM.cpp - kernels and functions to llvm.func --------------===//
//
// This file implements the lowering of func.func/return/call (upstream
// patterns with mgp's type converter, so pointer arguments become
// `!llvm.ptr<1>`) and the kernel finishing step: a function with `mgp.kernel`
// gets `nvvm.kernel` and `nvvm.maxntid = [32 * mgp.num_warps, 1, 1]` (and
// `nvvm.maxnreg` when the module has `mgp.maxnreg`), and a pointer argument
// with `mgp.divisibility = 16` gets `llvm.align = 16`.
//
//===----------------------------------------------------------------------===//
#include "compiler/codegen/llvm/ElementIndices.h"
#include "compiler/codegen/llvm/Patterns.h"
#include "compiler/ir/MgpDialect.h"

#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace mgp;

void mgp::populateFuncOpToLLVMPatterns(MgpLLVMTypeConverter &converter,
                                       RewritePatternSet &patterns) {
  populateFuncToLLVMConversionPatterns(converter, patterns);
}

void mgp::finalizeKernelAttributes(ModuleOp module) {
  int threads = 32 * getNumWarps(module);
  auto maxNumRegs = module->getAttrOfType<IntegerAttr>(kMaxNumRegsAttrName);
  module.walk([&](LLVM::LLVMFuncOp func) {
    for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i) {
      auto divisibility =
          func.getArgAttrOfType<IntegerAttr>(i, kDivisibilityAttrName);
      if (!divisibility)
        continue;
      func.removeArgAttr(i, kDivisibilityAttrName);
      if (isa<LLVM::LLVMPointerType>(func.getArgument(i).getType()) &&
          divisibility.getInt() >= 16)
        func.setArgAttr(i, LLVM::LLVMDialect::getAlignAttrName(),
                        Builder(module).getI64IntegerAttr(16));
    }
    if (!func->hasAttr(kKernelAttrName))
      return;
    func->removeAttr(kKernelAttrName);
    Builder b(module.getContext());
    func->setAttr(NVVM::NVVMDialect::getKernelFuncAttrName(), b.getUnitAttr());
    func->setAttr(NVVM::NVVMDialect::getMaxntidAttrName(),
                  b.getDenseI32ArrayAttr({threads, 1, 1}));
    if (maxNumRegs)
      func->setAttr(NVVM::NVVMDialect::getMaxnregAttrName(),
                    b.getI32IntegerAttr(maxNumRegs.getInt()));
  });
}
