//===- KernelOptions.cpp - how a kernel is compiled -----------------------===//
//
// This file implements the precision names and KernelOptions::verify.
//
//===----------------------------------------------------------------------===//
#include "compiler/api/KernelOptions.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

using namespace mgp;

llvm::Expected<DotPrecision> mgp::parseDotPrecision(llvm::StringRef text) {
  if (text == "tf32")
    return DotPrecision::TF32;
  if (text == "ieee" || text == "fp32")
    return DotPrecision::IEEE;
  return llvm::createStringError("unknown precision '" + text +
                                 "': expected tf32 or ieee");
}

llvm::StringRef mgp::dotPrecisionName(DotPrecision precision) {
  return precision == DotPrecision::TF32 ? "tf32" : "ieee";
}

llvm::Error KernelOptions::verify() const {
  if (numWarps < 1 || numWarps > 32 || !llvm::isPowerOf2_32(numWarps))
    return llvm::createStringError(llvm::formatv(
        "num_warps must be a power of two in 1..32, got {0}", numWarps));
  if (numStages < 1)
    return llvm::createStringError(
        llvm::formatv("num_stages must be at least 1, got {0}", numStages));
  if (maxNumRegs != 0 && (maxNumRegs < 16 || maxNumRegs > 255))
    return llvm::createStringError(llvm::formatv(
        "maxnreg must be 0 (no limit) or in 16..255, got {0}", maxNumRegs));
  return llvm::Error::success();
}
