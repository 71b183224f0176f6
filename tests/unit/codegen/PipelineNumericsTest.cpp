//===- PipelineNumericsTest.cpp - pipelined loops keep their results ------===//
//
// This file runs a K loop of dots whose loads the software pipeliner turns
// into multi-buffered asynchronous copies (mgp::runGPUPasses with num_stages
// 1..4) on the CPU interpreter, which executes the copies synchronously,
// against a C++ reference on random non-zero data, with ieee dots (the FMA
// path: load -> convert_layout) and tf32 dots (tensor cores on sm_90: load ->
// local_alloc -> local_load through swizzled buffers; the interpreter rounds
// the inputs to tf32), and with `other` 0 (the copies' zero fill) or 1 (a
// select after the slot is read; each padded k of the last tile then adds
// 1 * 1). The loop has a dynamic
// trip count (0, 1, fewer than the stages, many), masked (ragged) K tiles
// and pointers carried by the loop, so a wrong prologue, a wrong slot, a
// loop-carried value off by an iteration or a copy not predicated off past
// the end changes the result.
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

/// C[32, 32] = A[32, K] @ B[K, 32], row-major, K in steps of 16 with the
/// last step masked; A and B pointers advance through iter_args.
const std::string kSource = std::string(R"mlir(
func.func @matmul(%a: !mgp.ptr<f32> {mgp.divisibility = 16 : i32},
                  %b: !mgp.ptr<f32> {mgp.divisibility = 16 : i32},
                  %c: !mgp.ptr<f32> {mgp.divisibility = 16 : i32},
                  %K: i32) attributes {mgp.kernel} {)mlir") +
                            kMatmulOperandPointers +
                            R"mlir(
  %zero = arith.constant dense<0.0> : tensor<32x32xf32>
  %za = arith.constant dense<OTHER> : tensor<32x16xf32>
  %zb = arith.constant dense<OTHER> : tensor<16x32xf32>)mlir" +
                            kMatmulLoopHead +
                            R"mlir(
    %ks = mgp.splat %k : i32 -> tensor<16xi32>
    %ka = arith.addi %ks, %rk : tensor<16xi32>
    %Kv = mgp.splat %K : i32 -> tensor<16xi32>
    %in = arith.cmpi slt, %ka, %Kv : tensor<16xi32>
    %ina = mgp.expand_dims %in {axis = 0 : i32} : tensor<16xi1> -> tensor<1x16xi1>
    %ma = mgp.broadcast %ina : tensor<1x16xi1> -> tensor<32x16xi1>
    %inb = mgp.expand_dims %in {axis = 1 : i32} : tensor<16xi1> -> tensor<16x1xi1>
    %mb = mgp.broadcast %inb : tensor<16x1xi1> -> tensor<16x32xi1>
    %av = mgp.load %ap, %ma, %za : tensor<32x16x!mgp.ptr<f32>>
    %bv = mgp.load %bp, %mb, %zb : tensor<16x32x!mgp.ptr<f32>>)mlir" +
                            kMatmulLoopTailAndStore +
                            R"mlir(
  return
}
)mlir";

class PipelineNumericsTest
    : public ::testing::TestWithParam<std::tuple<int, bool, bool>> {
protected:
  PipelineNumericsTest() {
    DialectRegistry registry;
    mgp::registerAllDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
  }
  MLIRContext context;
};

TEST_P(PipelineNumericsTest, MatchesReference) {
  auto [stages, tf32, otherOne] = GetParam();
  std::string source = kSource;
  for (size_t at; (at = source.find("OTHER")) != std::string::npos;)
    source.replace(at, 5, otherOne ? "1.0" : "0.0");
  if (tf32)
    source.replace(source.find("inputPrecision = ieee"), 21,
                   "inputPrecision = tf32");
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(source, &context);
  ASSERT_TRUE(module);
  mgp::KernelOptions options;
  options.numStages = stages;
  llvm::Error err = mgp::runGPUPasses(*module, options, mgp::Target());
  ASSERT_FALSE(static_cast<bool>(err)) << llvm::toString(std::move(err));
  int copies = 0, loads = 0;
  module->walk([&](mgp::AsyncCopyGlobalToLocalOp) { ++copies; });
  module->walk([&](mgp::LoadOp) { ++loads; });
  if (stages >= 2) {
    // Prologue (stages - 1 iterations) and kernel: two copies each.
    EXPECT_EQ(copies, 2 * stages);
    EXPECT_EQ(loads, 0);
  } else {
    EXPECT_EQ(copies, 0);
    EXPECT_EQ(loads, 2);
  }
  module->walk([](mgp::BarrierOp barrier) { barrier.erase(); });
  func::FuncOp kernel = *module->getOps<func::FuncOp>().begin();

  for (int K : {0, 16, 40, 83, 160}) {
    SCOPED_TRACE(
        "num_stages " + std::to_string(stages) + (tf32 ? ", tf32" : ", ieee") +
        (otherOne ? ", other 1" : ", other 0") + ", K " + std::to_string(K));
    std::mt19937 gen(stages * 1000 + K);
    std::uniform_real_distribution<float> dist(0.25f, 2.0f);
    std::bernoulli_distribution negative(0.5);
    auto random = [&](size_t n) {
      std::vector<float> v(n);
      for (float &x : v)
        x = negative(gen) ? -dist(gen) : dist(gen);
      return v;
    };
    // Pad A and B so the masked-off lanes of the last tile point inside.
    std::vector<float> a = random(32 * size_t(K) + 64),
                       b = random(size_t(K + 16) * 32);
    std::vector<float> c(32 * 32, 7.0f);
    mgp::InterpOptions run;
    run.emulateTF32 = tf32;
    llvm::Error err = mgp::runKernel(
        kernel, {1, 1, 1},
        {mgp::InterpArg::buffer(a.data(), a.size(), mgp::DType::F32),
         mgp::InterpArg::buffer(b.data(), b.size(), mgp::DType::F32),
         mgp::InterpArg::buffer(c.data(), c.size(), mgp::DType::F32),
         mgp::InterpArg::integer(K)},
        run);
    ASSERT_FALSE(static_cast<bool>(err)) << llvm::toString(std::move(err));
    for (int i = 0; i < 32; ++i)
      for (int j = 0; j < 32; ++j) {
        double ref = 0, mag = 0;
        for (int k = 0; k < K; ++k) {
          double p = double(a[size_t(i) * K + k]) * b[size_t(k) * 32 + j];
          ref += p;
          mag += std::fabs(p);
        }
        // fp32 accumulation; tf32 inputs: 2 * 2^-11 per product.
        double tol = (tf32 ? std::ldexp(1.0, -10) : 1e-5) * mag + 1e-6;
        // The masked-off k of the last tile (up to a multiple of 16).
        if (otherOne)
          ref += (K + 15) / 16 * 16 - K;
        ASSERT_NEAR(c[i * 32 + j], ref, tol) << i << "," << j;
      }
  }
}

INSTANTIATE_TEST_SUITE_P(Stages, PipelineNumericsTest,
                         ::testing::Combine(::testing::Values(1, 2, 3, 4),
                                            ::testing::Bool(),
                                            ::testing::Bool()));

} // namespace
