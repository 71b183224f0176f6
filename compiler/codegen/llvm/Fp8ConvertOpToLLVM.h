//===- Fp8ConvertOpToLLVM.h - conversions to and from fp8 -------*- C++ -*-===//
//
// The lowering of arith.extf / arith.truncf to or from float8e4nv and
// float8e5 for a compute capability: PTX's cvt from sm_89 on, e5m2 in
// integer arithmetic before (Fp8ConvertOpToLLVM.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef MGP_CODEGEN_LLVM_FP8CONVERTOPTOLLVM_H
#define MGP_CODEGEN_LLVM_FP8CONVERTOPTOLLVM_H

#include "compiler/codegen/llvm/Patterns.h"

namespace mgp {

void populateFp8ConvertOpToLLVMPatterns(MgpLLVMTypeConverter &converter,
                                        mlir::RewritePatternSet &patterns,
                                        int computeCapability);

} // namespace mgp

#endif // MGP_CODEGEN_LLVM_FP8CONVERTOPTOLLVM_H
