//===- DotReduceTest.cpp - mgp.dot and mgp.reduce against plain C++ -------===//
//
// This file implements interpreter tests of mgp.dot (a tiled matmul kernel
// with a K loop, ieee against a double reference, tf32 emulation against a
// reference on tf32-rounded inputs, f16 inputs) and mgp.reduce (sum and max
// along either axis of a 2-D block, argmax with first-index tie breaking,
// integer sums with wraparound). It also measures the 64x64x64 matmul.
//
//===----------------------------------------------------------------------===//
#include "InterpTestSupport.h"

#include "llvm/ADT/APFloat.h"

#include <chrono>
#include <cmath>
#include <cstring>
#include <ctime>

using namespace mgp;
using namespace mgp::test;

namespace {

/// C[M,N] = A[M,K] @ B[K,N], row-major, tiles BMxBNxBK, grid (M/BM, N/BN).
const char *kMatmulKernel = R"mlir(
func.func @matmul(%pa: !mgp.ptr<{T}>, %pb: !mgp.ptr<{T}>, %pc: !mgp.ptr<f32>) attributes {mgp.kernel} {
  %pm = mgp.program_id 0 : i32
  %pn = mgp.program_id 1 : i32
  %cBM = arith.constant {BM} : i32
  %cBN = arith.constant {BN} : i32
  %m0 = arith.muli %pm, %cBM : i32
  %n0 = arith.muli %pn, %cBN : i32
  %rm = mgp.make_range {start = 0 : i32, end = {BM} : i32} : tensor<{BM}xi32>
  %rn = mgp.make_range {start = 0 : i32, end = {BN} : i32} : tensor<{BN}xi32>
  %rk = mgp.make_range {start = 0 : i32, end = {BK} : i32} : tensor<{BK}xi32>
  %m0s = mgp.splat %m0 : i32 -> tensor<{BM}xi32>
  %offm = arith.addi %m0s, %rm : tensor<{BM}xi32>
  %n0s = mgp.splat %n0 : i32 -> tensor<{BN}xi32>
  %offn = arith.addi %n0s, %rn : tensor<{BN}xi32>
  %am = mgp.expand_dims %offm {axis = 1 : i32} : tensor<{BM}xi32> -> tensor<{BM}x1xi32>
  %cK = arith.constant dense<{K}> : tensor<{BM}x1xi32>
  %amK = arith.muli %am, %cK : tensor<{BM}x1xi32>
  %amb = mgp.broadcast %amK : tensor<{BM}x1xi32> -> tensor<{BM}x{BK}xi32>
  %ak = mgp.expand_dims %rk {axis = 0 : i32} : tensor<{BK}xi32> -> tensor<1x{BK}xi32>
  %akb = mgp.broadcast %ak : tensor<1x{BK}xi32> -> tensor<{BM}x{BK}xi32>
  %aoff = arith.addi %amb, %akb : tensor<{BM}x{BK}xi32>
  %bk = mgp.expand_dims %rk {axis = 1 : i32} : tensor<{BK}xi32> -> tensor<{BK}x1xi32>
  %cN = arith.constant dense<{N}> : tensor<{BK}x1xi32>
  %bkN = arith.muli %bk, %cN : tensor<{BK}x1xi32>
  %bkb = mgp.broadcast %bkN : tensor<{BK}x1xi32> -> tensor<{BK}x{BN}xi32>
  %bn = mgp.expand_dims %offn {axis = 0 : i32} : tensor<{BN}xi32> -> tensor<1x{BN}xi32>
  %bnb = mgp.broadcast %bn : tensor<1x{BN}xi32> -> tensor<{BK}x{BN}xi32>
  %boff = arith.addi %bkb, %bnb : tensor<{BK}x{BN}xi32>
  %sa = mgp.splat %pa : !mgp.ptr<{T}> -> tensor<{BM}x{BK}x!mgp.ptr<{T}>>
  %a0 = mgp.addptr %sa, %aoff : tensor<{BM}x{BK}x!mgp.ptr<{T}>>, tensor<{BM}x{BK}xi32>
  %sb = mgp.splat %pb : !mgp.ptr<{T}> -> tensor<{BK}x{BN}x!mgp.ptr<{T}>>
  %b0 = mgp.addptr %sb, %boff : tensor<{BK}x{BN}x!mgp.ptr<{T}>>, tensor<{BK}x{BN}xi32>
  %zero = arith.constant dense<0.0> : tensor<{BM}x{BN}xf32>
  %c0 = arith.constant 0 : i32
  %cKs = arith.constant {K} : i32
  %cBK = arith.constant {BK} : i32
  %stepA = arith.constant dense<{BK}> : tensor<{BM}x{BK}xi32>
  %stepB = arith.constant dense<{BKN}> : tensor<{BK}x{BN}xi32>
  %res:3 = scf.for %k = %c0 to %cKs step %cBK iter_args(%acc = %zero, %ap = %a0, %bp = %b0)
      -> (tensor<{BM}x{BN}xf32>, tensor<{BM}x{BK}x!mgp.ptr<{T}>>, tensor<{BK}x{BN}x!mgp.ptr<{T}>>) : i32 {
    %a = mgp.load %ap : tensor<{BM}x{BK}x!mgp.ptr<{T}>>
    %b = mgp.load %bp : tensor<{BK}x{BN}x!mgp.ptr<{T}>>
    %d = mgp.dot %a, %b, %acc {inputPrecision = {PREC}} : tensor<{BM}x{BK}x{T}> * tensor<{BK}x{BN}x{T}> -> tensor<{BM}x{BN}xf32>
    %ap2 = mgp.addptr %ap, %stepA : tensor<{BM}x{BK}x!mgp.ptr<{T}>>, tensor<{BM}x{BK}xi32>
    %bp2 = mgp.addptr %bp, %stepB : tensor<{BK}x{BN}x!mgp.ptr<{T}>>, tensor<{BK}x{BN}xi32>
    scf.yield %d, %ap2, %bp2 : tensor<{BM}x{BN}xf32>, tensor<{BM}x{BK}x!mgp.ptr<{T}>>, tensor<{BK}x{BN}x!mgp.ptr<{T}>>
  }
  %cm = mgp.expand_dims %offm {axis = 1 : i32} : tensor<{BM}xi32> -> tensor<{BM}x1xi32>
  %cNm = arith.constant dense<{N}> : tensor<{BM}x1xi32>
  %cmN = arith.muli %cm, %cNm : tensor<{BM}x1xi32>
  %cmb = mgp.broadcast %cmN : tensor<{BM}x1xi32> -> tensor<{BM}x{BN}xi32>
  %cn = mgp.expand_dims %offn {axis = 0 : i32} : tensor<{BN}xi32> -> tensor<1x{BN}xi32>
  %cnb = mgp.broadcast %cn : tensor<1x{BN}xi32> -> tensor<{BM}x{BN}xi32>
  %coff = arith.addi %cmb, %cnb : tensor<{BM}x{BN}xi32>
  %sc = mgp.splat %pc : !mgp.ptr<f32> -> tensor<{BM}x{BN}x!mgp.ptr<f32>>
  %cp = mgp.addptr %sc, %coff : tensor<{BM}x{BN}x!mgp.ptr<f32>>, tensor<{BM}x{BN}xi32>
  mgp.store %cp, %res#0 : tensor<{BM}x{BN}x!mgp.ptr<f32>>
  return
}
)mlir";

ParsedKernel matmulKernel(int m, int n, int k, int bm, int bn, int bk,
                          const char *prec, const char *type = "f32") {
  std::string source = substitute(
      kMatmulKernel,
      {{"BM", std::to_string(bm)}, {"BN", std::to_string(bn)},
       {"BKN", std::to_string(bk * n)}, {"BK", std::to_string(bk)},
       {"K", std::to_string(k)}, {"N", std::to_string(n)}, {"PREC", prec},
       {"T", type}});
  (void)m;
  return parseKernel(source);
}

float tf32(float x) {
  uint32_t b;
  std::memcpy(&b, &x, 4);
  b = (b + 0x1000u) & 0xffffe000u; // round to nearest, ties away
  std::memcpy(&x, &b, 4);
  return x;
}

/// Double-precision reference C = A @ B and sum |A||B| per element.
void reference(const std::vector<float> &a, const std::vector<float> &b, int m, int n,
               int k, std::vector<double> &c, std::vector<double> &mag) {
  c.assign(m * n, 0);
  mag.assign(m * n, 0);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j)
      for (int q = 0; q < k; ++q) {
        c[i * n + j] += double(a[i * k + q]) * b[q * n + j];
        mag[i * n + j] += std::fabs(double(a[i * k + q]) * b[q * n + j]);
      }
}

TEST(InterpDot, IeeeMatmulMatchesDoubleReference) {
  const int m = 64, n = 32, k = 96;
  ParsedKernel kern = matmulKernel(m, n, k, 32, 16, 32, "ieee");
  ASSERT_TRUE(kern.kernel);
  std::vector<float> a = randomFloats(m * k, -1, 1, 70), b = randomFloats(k * n, -1, 1, 71);
  std::vector<float> c(m * n, 0);
  ASSERT_EQ(errorText(runKernel(kern.kernel, {m / 32, n / 16, 1},
                                {InterpArg::buffer(a.data(), a.size(), DType::F32),
                                 InterpArg::buffer(b.data(), b.size(), DType::F32),
                                 InterpArg::buffer(c.data(), c.size(), DType::F32)},
                                {})),
            "");
  std::vector<double> ref, mag;
  reference(a, b, m, n, k, ref, mag);
  for (int e = 0; e < m * n; ++e)
    ASSERT_NEAR(c[e], ref[e], 1e-6 * mag[e] + 1e-7) << e;
}

TEST(InterpDot, Tf32EmulationRoundsInputs) {
  const int m = 32, n = 32, k = 64;
  ParsedKernel kern = matmulKernel(m, n, k, 32, 32, 16, "tf32");
  ASSERT_TRUE(kern.kernel);
  std::vector<float> a = randomFloats(m * k, -1, 1, 72), b = randomFloats(k * n, -1, 1, 73);
  std::vector<float> emulated(m * n), exact(m * n);
  auto args = [&](std::vector<float> &c) {
    return std::vector<InterpArg>{InterpArg::buffer(a.data(), a.size(), DType::F32),
                                  InterpArg::buffer(b.data(), b.size(), DType::F32),
                                  InterpArg::buffer(c.data(), c.size(), DType::F32)};
  };
  InterpOptions tf;
  tf.emulateTF32 = true;
  ASSERT_EQ(errorText(runKernel(kern.kernel, {1, 1, 1}, args(emulated), tf)), "");
  ASSERT_EQ(errorText(runKernel(kern.kernel, {1, 1, 1}, args(exact), {})), "");
  std::vector<float> at(a.size()), bt(b.size());
  for (size_t e = 0; e < a.size(); ++e)
    at[e] = tf32(a[e]);
  for (size_t e = 0; e < b.size(); ++e)
    bt[e] = tf32(b[e]);
  std::vector<double> refT, magT, ref, mag;
  reference(at, bt, m, n, k, refT, magT);
  reference(a, b, m, n, k, ref, mag);
  double maxDiff = 0;
  for (int e = 0; e < m * n; ++e) {
    ASSERT_NEAR(emulated[e], refT[e], 1e-6 * magT[e] + 1e-7) << e;
    ASSERT_NEAR(emulated[e], ref[e], 1e-3 * mag[e]) << e; // tf32 is ~1e-3 off
    ASSERT_NEAR(exact[e], ref[e], 1e-6 * mag[e] + 1e-7) << e;
    maxDiff = std::max(maxDiff, std::fabs(double(emulated[e]) - exact[e]));
  }
  EXPECT_GT(maxDiff, 1e-5); // the rounding did happen
}

TEST(InterpDot, HalfInputsAccumulateInF32) {
  const int m = 16, n = 16, k = 32;
  ParsedKernel kern = matmulKernel(m, n, k, 16, 16, 32, "ieee", "f16");
  ASSERT_TRUE(kern.kernel);
  std::vector<float> af = randomFloats(m * k, -2, 2, 74), bf = randomFloats(k * n, -2, 2, 75);
  std::vector<uint16_t> ah(af.size()), bh(bf.size());
  auto toHalf = [](float x, float &rounded) {
    llvm::APFloat v(x);
    bool lost;
    v.convert(llvm::APFloat::IEEEhalf(), llvm::APFloat::rmNearestTiesToEven, &lost);
    rounded = llvm::APFloat(llvm::APFloat::IEEEhalf(), v.bitcastToAPInt()).convertToFloat();
    return static_cast<uint16_t>(v.bitcastToAPInt().getZExtValue());
  };
  for (size_t e = 0; e < af.size(); ++e)
    ah[e] = toHalf(af[e], af[e]);
  for (size_t e = 0; e < bf.size(); ++e)
    bh[e] = toHalf(bf[e], bf[e]);
  std::vector<float> c(m * n);
  ASSERT_EQ(errorText(runKernel(kern.kernel, {1, 1, 1},
                                {InterpArg::buffer(ah.data(), ah.size(), DType::F16),
                                 InterpArg::buffer(bh.data(), bh.size(), DType::F16),
                                 InterpArg::buffer(c.data(), c.size(), DType::F32)},
                                {})),
            "");
  std::vector<double> ref, mag;
  reference(af, bf, m, n, k, ref, mag);
  for (int e = 0; e < m * n; ++e)
    ASSERT_NEAR(c[e], ref[e], 1e-6 * mag[e] + 1e-7) << e;
}

TEST(InterpDot, Matmul64Timing) {
  const int s = 64;
  ParsedKernel kern = matmulKernel(s, s, s, 32, 32, 32, "ieee");
  ASSERT_TRUE(kern.kernel);
  std::vector<float> a = randomFloats(s * s, -1, 1, 76), b = randomFloats(s * s, -1, 1, 77);
  std::vector<float> c(s * s);
  llvm::Expected<InterpKernel> compiled = InterpKernel::compile(kern.kernel);
  ASSERT_TRUE(static_cast<bool>(compiled));
  std::vector<InterpArg> args = {InterpArg::buffer(a.data(), a.size(), DType::F32),
                                 InterpArg::buffer(b.data(), b.size(), DType::F32),
                                 InterpArg::buffer(c.data(), c.size(), DType::F32)};
  InterpOptions oneThread;
  oneThread.numThreads = 1;
  ASSERT_EQ(errorText(compiled->run({2, 2, 1}, args, oneThread)), ""); // warm-up
  const int reps = 20;
  auto start = std::chrono::steady_clock::now();
  std::clock_t cpuStart = std::clock();
  for (int r = 0; r < reps; ++r)
    ASSERT_EQ(errorText(compiled->run({2, 2, 1}, args, oneThread)), "");
  double cpuUs = 1e6 * double(std::clock() - cpuStart) / CLOCKS_PER_SEC / reps;
  double us = std::chrono::duration<double, std::micro>(
                  std::chrono::steady_clock::now() - start)
                  .count() /
              reps;
  std::vector<double> ref, mag;
  reference(a, b, s, s, s, ref, mag);
  for (int e = 0; e < s * s; ++e)
    ASSERT_NEAR(c[e], ref[e], 1e-6 * mag[e] + 1e-7);
  std::printf("[ timing ] 64x64x64 matmul (32x32x32 tiles, grid 2x2, 1 thread): "
              "%.1f us wall, %.1f us CPU per launch\n",
              us, cpuUs);
}

const char *kReduceKernel = R"mlir(
func.func @red(%px: !mgp.ptr<f32>, %pi: !mgp.ptr<i32>, %prow: !mgp.ptr<f32>,
               %pcol: !mgp.ptr<f32>, %parg: !mgp.ptr<i32>, %pisum: !mgp.ptr<i32>) attributes {mgp.kernel} {
  %r = mgp.make_range {start = 0 : i32, end = 512 : i32} : tensor<512xi32>
  %sx = mgp.splat %px : !mgp.ptr<f32> -> tensor<512x!mgp.ptr<f32>>
  %ax = mgp.addptr %sx, %r : tensor<512x!mgp.ptr<f32>>, tensor<512xi32>
  %flat = mgp.load %ax : tensor<512x!mgp.ptr<f32>>
  %x = mgp.reshape %flat : tensor<512xf32> -> tensor<16x32xf32>
  %rowsum = "mgp.reduce"(%x) <{axis = 1 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    mgp.reduce.return %s : f32
  }) : (tensor<16x32xf32>) -> tensor<16xf32>
  %colmax = "mgp.reduce"(%x) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %s = arith.maxnumf %a, %b : f32
    mgp.reduce.return %s : f32
  }) : (tensor<16x32xf32>) -> tensor<32xf32>
  %am:2 = "mgp.reduce"(%flat, %r) <{axis = 0 : i32}> ({
  ^bb0(%v0: f32, %i0: i32, %v1: f32, %i1: i32):
    %gt = arith.cmpf ogt, %v0, %v1 : f32
    %eq = arith.cmpf oeq, %v0, %v1 : f32
    %lt = arith.cmpi slt, %i0, %i1 : i32
    %tie = arith.andi %eq, %lt : i1
    %pick = arith.ori %gt, %tie : i1
    %v = arith.select %pick, %v0, %v1 : f32
    %i = arith.select %pick, %i0, %i1 : i32
    mgp.reduce.return %v, %i : f32, i32
  }) : (tensor<512xf32>, tensor<512xi32>) -> (f32, i32)
  %si = mgp.splat %pi : !mgp.ptr<i32> -> tensor<512x!mgp.ptr<i32>>
  %ai = mgp.addptr %si, %r : tensor<512x!mgp.ptr<i32>>, tensor<512xi32>
  %ints = mgp.load %ai : tensor<512x!mgp.ptr<i32>>
  %isum = "mgp.reduce"(%ints) <{axis = 0 : i32}> ({
  ^bb0(%a: i32, %b: i32):
    %s = arith.addi %a, %b : i32
    mgp.reduce.return %s : i32
  }) : (tensor<512xi32>) -> i32
  %r16 = mgp.make_range {start = 0 : i32, end = 16 : i32} : tensor<16xi32>
  %srow = mgp.splat %prow : !mgp.ptr<f32> -> tensor<16x!mgp.ptr<f32>>
  %arow = mgp.addptr %srow, %r16 : tensor<16x!mgp.ptr<f32>>, tensor<16xi32>
  mgp.store %arow, %rowsum : tensor<16x!mgp.ptr<f32>>
  %r32 = mgp.make_range {start = 0 : i32, end = 32 : i32} : tensor<32xi32>
  %scol = mgp.splat %pcol : !mgp.ptr<f32> -> tensor<32x!mgp.ptr<f32>>
  %acol = mgp.addptr %scol, %r32 : tensor<32x!mgp.ptr<f32>>, tensor<32xi32>
  mgp.store %acol, %colmax : tensor<32x!mgp.ptr<f32>>
  mgp.store %parg, %am#1 : !mgp.ptr<i32>
  mgp.store %pisum, %isum : !mgp.ptr<i32>
  return
}
)mlir";

TEST(InterpReduce, SumMaxArgmaxAndIntSum) {
  ParsedKernel k = parseKernel(kReduceKernel);
  ASSERT_TRUE(k.kernel);
  for (unsigned seed : {80u, 81u, 82u}) {
    std::vector<float> x = randomFloats(512, -10, 10, seed);
    // Ties for the maximum: the first index must win.
    int first = static_cast<int>(seed * 37 % 200);
    x[first] = 50.0f;
    x[first + 100] = 50.0f;
    x[first + 300] = 50.0f;
    std::vector<int32_t> ints = randomInts(512, INT32_MIN, INT32_MAX, seed + 10);
    std::vector<float> rows(16), cols(32);
    int32_t arg = -1, isum = 0;
    ASSERT_EQ(errorText(runKernel(
                  k.kernel, {1, 1, 1},
                  {InterpArg::buffer(x.data(), x.size(), DType::F32),
                   InterpArg::buffer(ints.data(), ints.size(), DType::I32),
                   InterpArg::buffer(rows.data(), rows.size(), DType::F32),
                   InterpArg::buffer(cols.data(), cols.size(), DType::F32),
                   InterpArg::buffer(&arg, 1, DType::I32),
                   InterpArg::buffer(&isum, 1, DType::I32)},
                  {})),
              "");
    for (int i = 0; i < 16; ++i) {
      double sum = 0, mag = 0;
      for (int j = 0; j < 32; ++j) {
        sum += x[i * 32 + j];
        mag += std::fabs(x[i * 32 + j]);
      }
      ASSERT_NEAR(rows[i], sum, 1e-6 * mag) << i;
    }
    for (int j = 0; j < 32; ++j) {
      float mx = -INFINITY;
      for (int i = 0; i < 16; ++i)
        mx = std::max(mx, x[i * 32 + j]);
      ASSERT_EQ(cols[j], mx) << j;
    }
    EXPECT_EQ(arg, first);
    uint32_t wrapSum = 0;
    for (int32_t v : ints)
      wrapSum += static_cast<uint32_t>(v);
    EXPECT_EQ(isum, static_cast<int32_t>(wrapSum));
  }
}

} // namespace
