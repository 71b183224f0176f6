//===- JitGpuDotTest.cpp - tensor-core dots on the GPU vs a C++ reference -===//
//
// This file implements the GPU tests of mgp.dot on tensor cores (label gpu;
// "skipped: no GPU" without one): a tiled matmul kernel C = A @ B (with
// masks for ragged M, N, K and a K loop) in tf32, fp16 and bf16 (operands
// loaded as fp32 and cast), for several block shapes and 4 or 8 warps,
// against a double-precision C++ reference. The tolerance is the
// componentwise bound of the operand rounding: |C - ref| <= 2u * sum_k
// |a_ik||b_kj| + 1e-5, u = 2^-10 (tf32), 2^-11 (fp16), 2^-8 (bf16). Some
// cases store C column-major (a transposing conversion of the accumulator).
//
//===----------------------------------------------------------------------===//
#include "runtime/Device.h"
#include "runtime/jit/Jit.h"
#include "tests/unit/support/GpuTestSupport.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstdio>
#include <ostream>
#include <random>
#include <string>

using namespace mgp;
using namespace mgp::test;

namespace {

/// The kernel; CAST becomes the operand cast (empty for tf32).
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
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        ka = k0 + rk
        a = tl.load(a_ptr + rm[:, None] * K + ka[None, :],
                    mask=(rm[:, None] < M) & (ka[None, :] < K), other=0.0)
        b = tl.load(b_ptr + ka[:, None] * N + rn[None, :],
                    mask=(ka[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc += tl.dot(aCAST, bCAST)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc,
             mask=(rm[:, None] < M) & (rn[None, :] < N))
)";

struct DotCase {
  const char *precision; ///< tf32, fp16 or bf16
  int m, n, k;           ///< problem size
  int blockM, blockN, blockK;
  int warps;
  bool storeColumns = false; ///< C stored column-major (C[m + n * M])
};

/// gtest prints each case by name instead of its bytes.
void PrintTo(const DotCase &c, std::ostream *os) {
  *os << c.precision << " " << c.m << "x" << c.n << "x" << c.k << " blocks "
      << c.blockM << "x" << c.blockN << "x" << c.blockK << ", " << c.warps
      << " warps" << (c.storeColumns ? ", C column-major" : "");
}

/// The kernel for `c`: its operand cast, and for column-major C the store
/// offsets rm + rn * M (a transposing conversion of the accumulator).
std::string sourceFor(const DotCase &c) {
  std::string precision = c.precision;
  std::string cast = precision == "fp16"   ? ".to(tl.float16)"
                     : precision == "bf16" ? ".to(tl.bfloat16)"
                                           : "";
  std::string src = kMatmulSource;
  for (size_t at; (at = src.find("CAST")) != std::string::npos;)
    src.replace(at, 4, cast);
  if (c.storeColumns) {
    const std::string rows = "c_ptr + rm[:, None] * N + rn[None, :]";
    size_t at = src.find(rows);
    src.replace(at, rows.size(), "c_ptr + rm[:, None] + rn[None, :] * M");
  }
  return src;
}

double unitRoundoff(const std::string &precision) {
  if (precision == "fp16")
    return std::ldexp(1.0, -11);
  if (precision == "bf16")
    return std::ldexp(1.0, -8);
  return std::ldexp(1.0, -10); // tf32: 10 mantissa bits, truncated or rounded
}

void runDotCase(const DotCase &c) {
  SCOPED_TRACE(std::string(c.precision) + " " + std::to_string(c.m) + "x" +
               std::to_string(c.n) + "x" + std::to_string(c.k));
  JitOptions options;
  options.numWarps = c.warps;
  options.fileName = "matmul.py";
  auto kernel = jit(sourceFor(c), "matmul_kernel", options);
  ASSERT_TRUE(bool(kernel)) << llvm::toString(kernel.takeError());

  std::mt19937 gen(11 + c.m * 7 + c.n * 3 + c.k);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> a(size_t(c.m) * c.k), b(size_t(c.k) * c.n),
      out(size_t(c.m) * c.n, 0.0f);
  for (float &v : a)
    v = dist(gen);
  for (float &v : b)
    v = dist(gen);
  auto da = uploadFloats(a), db = uploadFloats(b), dc = uploadFloats(out);
  ASSERT_TRUE(da && db && dc);
  Grid grid((c.m + c.blockM - 1) / c.blockM, (c.n + c.blockN - 1) / c.blockN);
  llvm::Error err =
      kernel->launch(grid, nullptr, buffer<float>(*da), buffer<float>(*db),
                     buffer<float>(*dc), c.m, c.n, c.k, kw("BLOCK_M", c.blockM),
                     kw("BLOCK_N", c.blockN), kw("BLOCK_K", c.blockK));
  ASSERT_FALSE(bool(err)) << llvm::toString(std::move(err));
  ASSERT_FALSE(bool(dc->copyToHost(out.data(), out.size() * 4)));
  if (c.storeColumns) {
    std::vector<float> rows(out.size());
    for (int m = 0; m < c.m; ++m)
      for (int n = 0; n < c.n; ++n)
        rows[size_t(m) * c.n + n] = out[m + size_t(n) * c.m];
    out = std::move(rows);
  }

  MatmulError error;
  checkMatmul(a, b, out, c.m, c.n, c.k, 2 * unitRoundoff(c.precision), 1e-5,
              error);
  if (::testing::Test::HasFatalFailure())
    return;
  std::printf("%-5s %4dx%-4d x%4d blocks %3dx%-3dx%3d %d warps: max abs err "
              "%.3g (%.2f of the bound)\n",
              c.precision, c.m, c.n, c.k, c.blockM, c.blockN, c.blockK, c.warps,
              error.maxAbs, error.worst);
}

class JitGpuDot : public ::testing::TestWithParam<DotCase> {};

TEST_P(JitGpuDot, MatchesReference) {
  MGP_SKIP_WITHOUT_GPU();
  runDotCase(GetParam());
}

// One tile (dot needs every dim >= 16), single K step; more warps than
// tiles (replicated warps); square tiles with a K loop; ragged (masked) M, N
// and K; 8 warps; the conformance-like 128x64 tile. On an H200 the runtime
// compiles for sm_90a, so every case with BLOCK_M % 64 == 0, 4 or 8 warps
// and a K tile of 32, 64 or 128 bytes runs on wgmma, the others on
// mma.sync (MGP_NO_WGMMA=1: all on mma.sync).
INSTANTIATE_TEST_SUITE_P(
    Shapes, JitGpuDot,
    ::testing::Values(DotCase{"tf32", 16, 16, 16, 16, 16, 16, 4},
                      DotCase{"fp16", 16, 16, 16, 16, 16, 16, 4},
                      DotCase{"bf16", 16, 16, 16, 16, 16, 16, 4},
                      DotCase{"tf32", 32, 16, 48, 32, 16, 16, 8},
                      DotCase{"tf32", 64, 64, 64, 32, 32, 16, 4},
                      DotCase{"fp16", 64, 64, 64, 32, 32, 32, 4},
                      DotCase{"bf16", 64, 64, 64, 32, 32, 32, 4},
                      DotCase{"tf32", 100, 70, 45, 64, 32, 16, 4},
                      DotCase{"fp16", 100, 70, 45, 64, 32, 32, 4},
                      DotCase{"bf16", 100, 70, 45, 64, 32, 32, 4},
                      DotCase{"tf32", 256, 256, 128, 128, 128, 32, 8},
                      DotCase{"fp16", 256, 256, 128, 128, 128, 64, 8},
                      DotCase{"tf32", 200, 130, 96, 128, 64, 16, 8},
                      DotCase{"fp16", 128, 128, 64, 128, 128, 64, 4},
                      // sm_90a (wgmma, docs/wgmma.md): two warp groups
                      // side by side along N (warps [4, 2]), 256-wide
                      // instructions, a 32-byte swizzle (f16 K tile 16).
                      DotCase{"tf32", 130, 200, 64, 64, 128, 32, 8},
                      DotCase{"bf16", 256, 256, 96, 128, 256, 32, 8},
                      DotCase{"fp16", 192, 64, 80, 64, 64, 16, 4},
                      // C column-major: the accumulator reaches the store's
                      // layout through SharedScratch.h's vector scratch
                      // (whole 16-byte runs on both sides), on wgmma with
                      // two warp groups along M and along N, and on mma.sync
                      // (a 32-row block), ragged and masked.
                      DotCase{"fp16", 512, 128, 128, 256, 64, 64, 8, true},
                      DotCase{"tf32", 130, 200, 64, 64, 128, 32, 8, true},
                      DotCase{"bf16", 100, 70, 45, 32, 32, 32, 4, true},
                      DotCase{"tf32", 256, 128, 96, 128, 128, 32, 4, true}),
    [](const ::testing::TestParamInfo<DotCase> &info) {
      const DotCase &c = info.param;
      return std::string(c.precision) + "_" + std::to_string(c.m) + "x" +
             std::to_string(c.n) + "x" + std::to_string(c.k) + "_b" +
             std::to_string(c.blockM) + "x" + std::to_string(c.blockN) + "x" +
             std::to_string(c.blockK) + "_w" + std::to_string(c.warps) +
             (c.storeColumns ? "_colC" : "");
    });

} // namespace
