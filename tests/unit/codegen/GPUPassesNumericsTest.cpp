//===- GPUPassesNumericsTest.cpp - GPU passes keep what kernels compute ---===//
//
// This file runs kernels through mgp::runGPUPasses and executes the result on
// the CPU interpreter (which ignores layouts; the barriers the passes insert
// have no meaning there and are dropped), comparing with plain C++ references
// on random non-zero data. A pass that rewires a value through the wrong
// conversion, rematerialises a chain wrongly or loses a loop-carried value
// shows up here.
//
//===----------------------------------------------------------------------===//
#include "compiler/ir/MgpDialect.h"
#include "compiler/pipeline/Pipeline.h"
#include "runtime/interp/Interpreter.h"
#include "tests/unit/codegen/MatmulKernelText.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "gtest/gtest.h"

#include <cmath>
#include <random>
#include <string>

using namespace mlir;
using namespace mgp::test;

namespace {

class GPUPassesNumericsTest : public ::testing::Test {
protected:
  GPUPassesNumericsTest() {
    DialectRegistry registry;
    mgp::registerAllDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
  }

  /// Parses `source`, runs the GPU passes and returns its only kernel.
  func::FuncOp compile(StringRef source) {
    module = parseSourceString<ModuleOp>(source, &context);
    EXPECT_TRUE(module);
    llvm::Error err =
        mgp::runGPUPasses(*module, mgp::KernelOptions(), mgp::Target());
    EXPECT_FALSE(static_cast<bool>(err)) << llvm::toString(std::move(err));
    module->walk([](mgp::BarrierOp barrier) { barrier.erase(); });
    return *module->getOps<func::FuncOp>().begin();
  }

  static std::vector<float> random(size_t n, unsigned seed) {
    std::mt19937 gen(seed);
    std::uniform_real_distribution<float> dist(-2.0f, 2.0f);
    std::vector<float> v(n);
    for (float &x : v) {
      x = dist(gen);
      if (x == 0.0f)
        x = 0.5f;
    }
    return v;
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
};

TEST_F(GPUPassesNumericsTest, MaskedRelu) {
  const char *source = R"mlir(
func.func @relu(%x: !mgp.ptr<f32> {mgp.divisibility = 16 : i32},
                %y: !mgp.ptr<f32> {mgp.divisibility = 16 : i32},
                %n: i32) attributes {mgp.kernel} {
  %pid = mgp.program_id 0 : i32
  %c256 = arith.constant 256 : i32
  %base = arith.muli %pid, %c256 : i32
  %range = mgp.make_range {start = 0 : i32, end = 256 : i32} : tensor<256xi32>
  %bases = mgp.splat %base : i32 -> tensor<256xi32>
  %offs = arith.addi %bases, %range : tensor<256xi32>
  %ns = mgp.splat %n : i32 -> tensor<256xi32>
  %mask = arith.cmpi slt, %offs, %ns : tensor<256xi32>
  %xs = mgp.splat %x : !mgp.ptr<f32> -> tensor<256x!mgp.ptr<f32>>
  %xp = mgp.addptr %xs, %offs : tensor<256x!mgp.ptr<f32>>, tensor<256xi32>
  %v = mgp.load %xp, %mask : tensor<256x!mgp.ptr<f32>>
  %zero = arith.constant dense<0.0> : tensor<256xf32>
  %r = arith.maximumf %v, %zero : tensor<256xf32>
  %ys = mgp.splat %y : !mgp.ptr<f32> -> tensor<256x!mgp.ptr<f32>>
  %yp = mgp.addptr %ys, %offs : tensor<256x!mgp.ptr<f32>>, tensor<256xi32>
  mgp.store %yp, %r, %mask : tensor<256x!mgp.ptr<f32>>
  return
}
)mlir";
  func::FuncOp kernel = compile(source);
  const int n = 1000; // not a multiple of the block: the mask matters
  std::vector<float> x = random(n, 1), y(n, 7.0f);
  llvm::Error err = mgp::runKernel(
      kernel, {4, 1, 1},
      {mgp::InterpArg::buffer(x.data(), n, mgp::DType::F32),
       mgp::InterpArg::buffer(y.data(), n, mgp::DType::F32),
       mgp::InterpArg::integer(n)},
      {});
  ASSERT_FALSE(static_cast<bool>(err)) << llvm::toString(std::move(err));
  for (int i = 0; i < n; ++i)
    EXPECT_EQ(y[i], std::max(x[i], 0.0f)) << i;
}

TEST_F(GPUPassesNumericsTest, MatmulLoopWithRowSums) {
  // C = A @ B (32x32, K = 64 in steps of 16, pointers carried by the loop)
  // and s = rowsum(C) (a reduce after the loop).
  std::string source = std::string(R"mlir(
func.func @matmul(%a: !mgp.ptr<f32> {mgp.divisibility = 16 : i32},
                  %b: !mgp.ptr<f32> {mgp.divisibility = 16 : i32},
                  %c: !mgp.ptr<f32> {mgp.divisibility = 16 : i32},
                  %s: !mgp.ptr<f32> {mgp.divisibility = 16 : i32},
                  %K: i32 {mgp.divisibility = 16 : i32}) attributes {mgp.kernel} {)mlir") +
                       kMatmulOperandPointers +
                       R"mlir(
  %zero = arith.constant dense<0.0> : tensor<32x32xf32>)mlir" +
                       kMatmulLoopHead +
                       R"mlir(
    %av = mgp.load %ap : tensor<32x16x!mgp.ptr<f32>>
    %bv = mgp.load %bp : tensor<16x32x!mgp.ptr<f32>>)mlir" +
                       kMatmulLoopTailAndStore +
                       R"mlir(
  %sum = "mgp.reduce"(%res#0) <{axis = 1 : i32}> ({
  ^bb0(%l: f32, %r: f32):
    %t = arith.addf %l, %r : f32
    mgp.reduce.return %t : f32
  }) : (tensor<32x32xf32>) -> tensor<32xf32>
  %ss = mgp.splat %s : !mgp.ptr<f32> -> tensor<32x!mgp.ptr<f32>>
  %sp = mgp.addptr %ss, %rm : tensor<32x!mgp.ptr<f32>>, tensor<32xi32>
  mgp.store %sp, %sum : tensor<32x!mgp.ptr<f32>>
  return
}
)mlir";
  func::FuncOp kernel = compile(source);
  const int M = 32, N = 32, K = 64;
  std::vector<float> a = random(M * K, 2), b = random(K * N, 3);
  std::vector<float> c(M * N, 0.0f), s(M, 0.0f);
  llvm::Error err = mgp::runKernel(
      kernel, {1, 1, 1},
      {mgp::InterpArg::buffer(a.data(), a.size(), mgp::DType::F32),
       mgp::InterpArg::buffer(b.data(), b.size(), mgp::DType::F32),
       mgp::InterpArg::buffer(c.data(), c.size(), mgp::DType::F32),
       mgp::InterpArg::buffer(s.data(), s.size(), mgp::DType::F32),
       mgp::InterpArg::integer(K)},
      {});
  ASSERT_FALSE(static_cast<bool>(err)) << llvm::toString(std::move(err));
  for (int i = 0; i < M; ++i) {
    double rowSum = 0;
    for (int j = 0; j < N; ++j) {
      double ref = 0;
      for (int k = 0; k < K; ++k)
        ref += double(a[i * K + k]) * b[k * N + j];
      rowSum += ref;
      EXPECT_NEAR(c[i * N + j], ref, 1e-4 * (1 + std::fabs(ref))) << i << "," << j;
    }
    EXPECT_NEAR(s[i], rowSum, 1e-3 * (1 + std::fabs(rowSum))) << i;
  }
}

} // namespace
