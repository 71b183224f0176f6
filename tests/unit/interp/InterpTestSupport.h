//===- InterpTestSupport.h - helpers for the interpreter tests --*- C++ -*-===//
//
// This file implements what the interpreter tests share: parsing a kernel
// from MLIR text (with a file name, so locations appear in messages), random
// data, and the elementwise test kernel that loads two blocks, applies a
// body of ops and stores the result.
//
//===----------------------------------------------------------------------===//
#ifndef MGP_TESTS_UNIT_INTERP_INTERPTESTSUPPORT_H
#define MGP_TESTS_UNIT_INTERP_INTERPTESTSUPPORT_H

#include "compiler/ir/MgpDialect.h"
#include "compiler/pipeline/Pipeline.h"
#include "runtime/interp/Interpreter.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/StringExtras.h"
#include "gtest/gtest.h"

#include <memory>
#include <random>
#include <string>
#include <vector>

namespace mgp::test {

/// A parsed module and its kernel (the first func.func).
struct ParsedKernel {
  std::unique_ptr<mlir::MLIRContext> context;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  mlir::func::FuncOp kernel;
};

inline ParsedKernel parseKernel(const std::string &source,
                                llvm::StringRef fileName = "kernel.mlir") {
  ParsedKernel parsed;
  mlir::DialectRegistry registry;
  registerAllDialects(registry);
  parsed.context = std::make_unique<mlir::MLIRContext>(registry);
  parsed.context->loadAllAvailableDialects();
  mlir::ParserConfig config(parsed.context.get());
  parsed.module = mlir::parseSourceString<mlir::ModuleOp>(source, config, fileName);
  if (parsed.module)
    for (auto func : parsed.module->getOps<mlir::func::FuncOp>()) {
      parsed.kernel = func;
      break;
    }
  return parsed;
}

/// Replaces every "{NAME}" in \p text by its value.
inline std::string substitute(std::string text,
                              std::initializer_list<std::pair<std::string, std::string>> vars) {
  for (const auto &[name, value] : vars) {
    std::string key = "{" + name + "}";
    for (size_t pos = text.find(key); pos != std::string::npos;
         pos = text.find(key, pos + value.size()))
      text.replace(pos, key.size(), value);
  }
  return text;
}

inline std::vector<float> randomFloats(size_t n, float lo, float hi, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(lo, hi);
  std::vector<float> v(n);
  for (float &x : v)
    x = dist(gen);
  return v;
}

inline std::vector<int32_t> randomInts(size_t n, int32_t lo, int32_t hi, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_int_distribution<int32_t> dist(lo, hi);
  std::vector<int32_t> v(n);
  for (int32_t &x : v)
    x = dist(gen);
  return v;
}

/// The message of \p err ("" for success).
inline std::string errorText(llvm::Error err) {
  if (!err)
    return "";
  return llvm::toString(std::move(err));
}

/// A kernel over `grid * 256` elements: %x and %y are loaded from the first
/// two pointers, {BODY} computes %z, which is stored through the third.
inline const char *kElementwiseKernel = R"mlir(
func.func @ew(%px: !mgp.ptr<{TX}>, %py: !mgp.ptr<{TY}>, %pz: !mgp.ptr<{TZ}>) attributes {mgp.kernel} {
  %pid = mgp.program_id 0 : i32
  %c256 = arith.constant 256 : i32
  %base = arith.muli %pid, %c256 : i32
  %r = mgp.make_range {start = 0 : i32, end = 256 : i32} : tensor<256xi32>
  %bs = mgp.splat %base : i32 -> tensor<256xi32>
  %off = arith.addi %bs, %r : tensor<256xi32>
  %sx = mgp.splat %px : !mgp.ptr<{TX}> -> tensor<256x!mgp.ptr<{TX}>>
  %ax = mgp.addptr %sx, %off : tensor<256x!mgp.ptr<{TX}>>, tensor<256xi32>
  %x = mgp.load %ax : tensor<256x!mgp.ptr<{TX}>>
  %sy = mgp.splat %py : !mgp.ptr<{TY}> -> tensor<256x!mgp.ptr<{TY}>>
  %ay = mgp.addptr %sy, %off : tensor<256x!mgp.ptr<{TY}>>, tensor<256xi32>
  %y = mgp.load %ay : tensor<256x!mgp.ptr<{TY}>>
  {BODY}
  %sz = mgp.splat %pz : !mgp.ptr<{TZ}> -> tensor<256x!mgp.ptr<{TZ}>>
  %az = mgp.addptr %sz, %off : tensor<256x!mgp.ptr<{TZ}>>, tensor<256xi32>
  mgp.store %az, %z : tensor<256x!mgp.ptr<{TZ}>>
  return
}
)mlir";

/// Runs kElementwiseKernel with element types \p tx, \p ty, \p tz (MLIR
/// names) over \p xs and \p ys (whose sizes are a multiple of 256).
template <typename X, typename Y, typename Z>
std::vector<Z> runElementwise(const std::string &tx, DType dx, const std::string &ty,
                              DType dy, const std::string &tz, DType dz,
                              const std::string &body, std::vector<X> xs,
                              std::vector<Y> ys, const InterpOptions &options = {}) {
  std::string source = substitute(
      kElementwiseKernel, {{"TX", tx}, {"TY", ty}, {"TZ", tz}, {"BODY", body}});
  ParsedKernel parsed = parseKernel(source);
  EXPECT_TRUE(parsed.kernel) << source;
  if (!parsed.kernel)
    return {};
  std::vector<Z> zs(xs.size());
  int grid = static_cast<int>(xs.size() / 256);
  llvm::Error err = runKernel(parsed.kernel, {grid, 1, 1},
                              {InterpArg::buffer(xs.data(), xs.size(), dx),
                               InterpArg::buffer(ys.data(), ys.size(), dy),
                               InterpArg::buffer(zs.data(), zs.size(), dz)},
                              options);
  EXPECT_EQ(errorText(std::move(err)), "") << body;
  return zs;
}

} // namespace mgp::test

#endif // MGP_TESTS_UNIT_INTERP_INTERPTESTSUPPORT_H
