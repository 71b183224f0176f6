//===- TimingTest.cpp - how fast the interpreter runs a streaming kernel --===//
//
// This file implements the interpreter's relu timing test: relu over 1M
// floats (blocks of 1024, grid 1024), checked against plain C++, with the
// time per launch printed (single-threaded and on all cores).
//
//===----------------------------------------------------------------------===//
#include "InterpTestSupport.h"

#include <chrono>
#include <ctime>

using namespace mgp;
using namespace mgp::test;

namespace {

const char *kReluKernel = R"mlir(
func.func @relu(%px: !mgp.ptr<f32>, %py: !mgp.ptr<f32>, %n: i32) attributes {mgp.kernel} {
  %pid = mgp.program_id 0 : i32
  %c1024 = arith.constant 1024 : i32
  %base = arith.muli %pid, %c1024 : i32
  %r = mgp.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32>
  %bs = mgp.splat %base : i32 -> tensor<1024xi32>
  %off = arith.addi %bs, %r : tensor<1024xi32>
  %ns = mgp.splat %n : i32 -> tensor<1024xi32>
  %mask = arith.cmpi slt, %off, %ns : tensor<1024xi32>
  %sx = mgp.splat %px : !mgp.ptr<f32> -> tensor<1024x!mgp.ptr<f32>>
  %ax = mgp.addptr %sx, %off : tensor<1024x!mgp.ptr<f32>>, tensor<1024xi32>
  %x = mgp.load %ax, %mask : tensor<1024x!mgp.ptr<f32>>
  %zero = arith.constant dense<0.0> : tensor<1024xf32>
  %y = arith.maxnumf %x, %zero : tensor<1024xf32>
  %sy = mgp.splat %py : !mgp.ptr<f32> -> tensor<1024x!mgp.ptr<f32>>
  %ay = mgp.addptr %sy, %off : tensor<1024x!mgp.ptr<f32>>, tensor<1024xi32>
  mgp.store %ay, %y, %mask : tensor<1024x!mgp.ptr<f32>>
  return
}
)mlir";

TEST(InterpTiming, Relu1M) {
  ParsedKernel k = parseKernel(kReluKernel);
  ASSERT_TRUE(k.kernel);
  const int n = 1 << 20;
  std::vector<float> x = randomFloats(n, -1, 1, 90), y(n, 7.0f);
  llvm::Expected<InterpKernel> compiled = InterpKernel::compile(k.kernel);
  ASSERT_TRUE(static_cast<bool>(compiled));
  std::vector<InterpArg> args = {InterpArg::buffer(x.data(), n, DType::F32),
                                 InterpArg::buffer(y.data(), n, DType::F32),
                                 InterpArg::integer(n)};
  for (unsigned threads : {1u, 0u}) {
    InterpOptions options;
    options.numThreads = threads;
    ASSERT_EQ(errorText(compiled->run({n / 1024, 1, 1}, args, options)), "");
    const int reps = 5;
    auto start = std::chrono::steady_clock::now();
    std::clock_t cpuStart = std::clock();
    for (int r = 0; r < reps; ++r)
      ASSERT_EQ(errorText(compiled->run({n / 1024, 1, 1}, args, options)), "");
    double cpuMs = 1000.0 * double(std::clock() - cpuStart) / CLOCKS_PER_SEC / reps;
    double ms = std::chrono::duration<double, std::milli>(
                    std::chrono::steady_clock::now() - start)
                    .count() /
                reps;
    // CPU time is what the work costs; wall time also shows the machine's load.
    std::printf("[ timing ] relu over 1M floats (%s): %.2f ms wall, %.2f ms CPU "
                "per launch\n",
                threads == 1 ? "1 thread" : "all cores", ms, cpuMs);
  }
  for (int i = 0; i < n; ++i)
    ASSERT_EQ(y[i], x[i] > 0 ? x[i] : 0.0f) << i;
}

} // namespace
