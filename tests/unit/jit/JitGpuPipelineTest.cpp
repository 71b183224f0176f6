//===- JitGpuPipelineTest.cpp - software-pipelined loops on the GPU -------===//
//
// This file implements the GPU tests of the software pipeliner (mgp-pipeline,
// label gpu; "skipped: no GPU" without one): K loops whose loads feed dots,
// compiled with --num-stages 1 (no pipelining), 2, 3 and 4, against a
// double-precision C++ reference on fresh random inputs. Cases cover pointers
// advanced through loop-carried values, masked (ragged) tiles, trip counts
// below the pipeline depth and zero, and 16-byte aligned rows (cp.async of
// 16 bytes). ieee dots (the FMA path) are held to fp32's tolerance,
// |C - ref| <= 1e-5 * sum_k |a_ik||b_kj| + 1e-6; tf32 dots (mma.sync, operands
// staged through swizzled shared buffers) to 2 * 2^-10 * sum_k |a_ik||b_kj|
// + 1e-5.
//
//===----------------------------------------------------------------------===//
#include "runtime/Device.h"
#include "runtime/jit/Jit.h"
#include "tests/unit/support/GpuTestSupport.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstdio>
#include <random>
#include <string>

using namespace mgp;
using namespace mgp::test;

namespace {

/// C = A @ B with the operand pointers advanced by BLOCK_K each iteration
/// (loop-carried, as in Triton's tutorial matmul) and masks on every dim.
const char *kMatmulSource = R"(
import triton
import triton.language as tl

@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K,
                  BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                  BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + rm[:, None] * K + rk[None, :]
    b_ptrs = b_ptr + rk[:, None] * N + rn[None, :]
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        ka = k0 + rk
        a = tl.load(a_ptrs, mask=(rm[:, None] < M) & (ka[None, :] < K), other=0.0)
        b = tl.load(b_ptrs, mask=(ka[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc += tl.dot(a, b, input_precision="ieee")
        a_ptrs += BLOCK_K
        b_ptrs += BLOCK_K * N
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc,
             mask=(rm[:, None] < M) & (rn[None, :] < N))
)";

struct PipelineCase {
  int stages;
  bool tf32;
  int m, n, k;
  int blockM, blockN, blockK;
  int warps;
};

void runCase(const PipelineCase &c) {
  JitOptions options;
  options.numWarps = c.warps;
  options.numStages = c.stages;
  options.precision = c.tf32 ? DotPrecision::TF32 : DotPrecision::IEEE;
  options.fileName = "pipelined_matmul.py";
  std::string source = kMatmulSource;
  const std::string ieee = ", input_precision=\"ieee\"";
  if (c.tf32)
    source.erase(source.find(ieee), ieee.size());
  auto kernel = jit(source, "matmul_kernel", options);
  ASSERT_TRUE(bool(kernel)) << llvm::toString(kernel.takeError());

  std::mt19937 gen(97 + c.stages * 13 + c.m * 7 + c.n * 3 + c.k);
  std::uniform_real_distribution<float> dist(0.25f, 1.0f);
  std::uniform_int_distribution<int> sign(0, 1);
  auto fill = [&](std::vector<float> &v) {
    for (float &x : v)
      x = sign(gen) ? dist(gen) : -dist(gen);
  };
  std::vector<float> a(size_t(c.m) * c.k), b(size_t(c.k) * c.n);
  std::vector<float> out(size_t(c.m) * c.n, 12345.0f);
  fill(a);
  fill(b);
  auto da = uploadFloats(a), db = uploadFloats(b), dc = uploadFloats(out);
  ASSERT_TRUE(da && db && dc);
  Grid grid((c.m + c.blockM - 1) / c.blockM, (c.n + c.blockN - 1) / c.blockN);
  llvm::Error err =
      kernel->launch(grid, nullptr, buffer<float>(*da), buffer<float>(*db),
                     buffer<float>(*dc), c.m, c.n, c.k, kw("BLOCK_M", c.blockM),
                     kw("BLOCK_N", c.blockN), kw("BLOCK_K", c.blockK));
  ASSERT_FALSE(bool(err)) << llvm::toString(std::move(err));
  ASSERT_FALSE(bool(dc->copyToHost(out.data(), out.size() * 4)));

  MatmulError error;
  if (c.tf32)
    checkMatmul(a, b, out, c.m, c.n, c.k, 2 * std::ldexp(1.0, -10), 1e-5,
                error);
  else
    checkMatmul(a, b, out, c.m, c.n, c.k, 1e-5, 1e-6, error);
  if (::testing::Test::HasFatalFailure())
    return;
  std::printf(
      "%s stages %d %4dx%-4d x%4d blocks %3dx%-3dx%3d %d warps: %.2f of "
      "the bound\n",
      c.tf32 ? "tf32" : "ieee", c.stages, c.m, c.n, c.k, c.blockM, c.blockN,
      c.blockK, c.warps, error.worst);
}

class JitGpuPipeline : public ::testing::TestWithParam<PipelineCase> {};

TEST_P(JitGpuPipeline, MatchesReference) {
  MGP_SKIP_WITHOUT_GPU();
  runCase(GetParam());
}

// Per depth: aligned rows and a long K loop (16-byte copies, many slot
// wrap-arounds), ragged M/N/K (masked copies, zero fill), one iteration
// (fewer than the stages: predicated prologue), no iteration at all, and
// 8 warps on a larger tile.
std::vector<PipelineCase> cases() {
  std::vector<PipelineCase> all;
  for (bool tf32 : {false, true})
    for (int stages : {1, 2, 3, 4}) {
      all.push_back({stages, tf32, 64, 64, 256, 32, 32, 16, 4});
      all.push_back({stages, tf32, 70, 45, 83, 32, 32, 16, 4});
      all.push_back({stages, tf32, 32, 32, 16, 32, 32, 16, 4});
      all.push_back({stages, tf32, 32, 32, 0, 32, 32, 16, 4});
      all.push_back({stages, tf32, 128, 64, 96, 64, 64, 32, 8});
    }
  return all;
}

INSTANTIATE_TEST_SUITE_P(
    Stages, JitGpuPipeline, ::testing::ValuesIn(cases()),
    [](const ::testing::TestParamInfo<PipelineCase> &info) {
      const PipelineCase &c = info.param;
      return std::string(c.tf32 ? "tf32" : "ieee") + "_s" +
             std::to_string(c.stages) + "_" + std::to_string(c.m) + "x" +
             std::to_string(c.n) + "x" + std::to_string(c.k) + "_b" +
             std::to_string(c.blockM) + "x" + std::to_string(c.blockN) + "x" +
             std::to_string(c.blockK) + "_w" + std::to_string(c.warps);
    });

} // namespace
