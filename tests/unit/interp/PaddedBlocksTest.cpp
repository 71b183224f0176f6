//===- PaddedBlocksTest.cpp - non-power-of-two blocks on the interpreter --===//
//
// This file implements the numerics tests of block shapes that are not powers
// of two (padded internally, compiler/frontend/MLIRGenPadding.cpp): the
// kernels of padded_blocks.mgp go through the front end and the
// target-independent passes and run on the interpreter, on random non-zero
// inputs, against plain C++ references at 1e-5 relative. The buffers are sized
// exactly, so touching the padding in memory is an error.
//
//===----------------------------------------------------------------------===//
#include "FrontendKernelSupport.h"
#include "InterpTestSupport.h"

#include <algorithm>
#include <cmath>

using namespace mgp;
using namespace mgp::test;

namespace {

/// One kernel of padded_blocks.mgp compiled with `signature` (its runtime
/// parameters) and `defines` (its constexprs).
struct PaddedKernel : FrontendKernel {
  /// Runs the kernel on `grid` programs; float vectors are f32 buffers,
  /// integers scalars. Returns the error text ("" on success).
  std::string run(int grid, std::vector<InterpArg> args) {
    return errorText(runKernel(kernel, {grid, 1, 1}, args, {}));
  }
};

PaddedKernel
compile(llvm::StringRef name, llvm::StringRef signature,
        std::initializer_list<std::pair<const char *, int>> consts) {
  llvm::StringMap<ConstValue> defines;
  for (auto [key, value] : consts)
    defines[key] = ConstValue::getInt(value);
  return PaddedKernel{compileFrontendKernel(MGP_PADDED_KERNELS, name, signature,
                                            defines, name.str())};
}

InterpArg buf(std::vector<float> &v) {
  return InterpArg::buffer(v.data(), v.size(), DType::F32);
}

void expectClose(const std::vector<float> &got, const std::vector<double> &want,
                 const char *what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (size_t i = 0; i < got.size(); ++i)
    ASSERT_NEAR(got[i], want[i], 1e-5 * std::max(1.0, std::fabs(want[i])))
        << what << " at " << i;
}

/// Index of the first maximum (sign = 1) or minimum (sign = -1).
template <typename F> size_t argBest(size_t n, int sign, F value) {
  size_t best = 0;
  for (size_t i = 1; i < n; ++i)
    if (sign * value(i) > sign * value(best))
      best = i;
  return best;
}

TEST(PaddedBlocks, MaskedBlocksInReverseOrder) {
  for (int block : {3, 5, 7, 12, 100, 1000}) {
    SCOPED_TRACE(block);
    PaddedKernel k =
        compile("scale_blocks", "*fp32,*fp32,i32", {{"BLOCK", block}});
    ASSERT_TRUE(k.kernel);
    const int n = 2 * block + block / 2 + 1;
    const int grid = (n + block - 1) / block;
    std::vector<float> x = randomFloats(n, -1, 1, block), y(n, 0.0f);
    ASSERT_EQ(k.run(grid, {buf(x), buf(y), InterpArg::integer(n)}), "");
    std::vector<double> want(n);
    for (int i = 0; i < n; ++i)
      want[i] = x[i] * 2.0 + i / block;
    expectClose(y, want, "scale_blocks");
  }
}

TEST(PaddedBlocks, UnmaskedBlockOfExactSize) {
  for (int block : {3, 5, 7, 24, 48, 100, 1000}) {
    SCOPED_TRACE(block);
    PaddedKernel k =
        compile("scale_unmasked", "*fp32,*fp32", {{"BLOCK", block}});
    ASSERT_TRUE(k.kernel);
    std::vector<float> x = randomFloats(block, -1, 1, block), y(block, 0.0f);
    ASSERT_EQ(k.run(1, {buf(x), buf(y)}), "");
    std::vector<double> want(block);
    for (int i = 0; i < block; ++i)
      want[i] = x[i] * 3.0 - 1.0;
    expectClose(y, want, "scale_unmasked");
  }
}

TEST(PaddedBlocks, Reductions1D) {
  for (int block : {3, 5, 7, 12, 100, 1000}) {
    SCOPED_TRACE(block);
    PaddedKernel k = compile("reduce_1d", "*fp32,*fp32", {{"BLOCK", block}});
    ASSERT_TRUE(k.kernel);
    std::vector<float> x = randomFloats(block, -2, -0.5, block), out(8, 0.0f);
    ASSERT_EQ(k.run(1, {buf(x), buf(out)}), "");
    double sumExp = 0, sum = 0;
    for (float v : x) {
      sumExp += std::exp(double(v));
      sum += v;
    }
    auto at = [&](size_t i) { return double(x[i]); };
    size_t amax = argBest(block, 1, at);
    size_t amin = argBest(block, -1, [&](size_t i) { return -at(i); });
    // Integer max/min: x * 100 truncated toward zero (all negative).
    int imax = int(x[0] * 100.0f);
    for (float v : x)
      imax = std::max(imax, int(v * 100.0f));
    expectClose(out,
                {sumExp, x[amax], double(amax), -x[amax], double(amin),
                 sum + block, double(imax), double(-imax)},
                "reduce_1d");
  }
}

TEST(PaddedBlocks, Reductions2D) {
  const std::pair<int, int> shapes[] = {{12, 24},  {48, 24}, {3, 5},
                                        {7, 1000}, {16, 5},  {5, 16}};
  for (auto [m, n] : shapes) {
    SCOPED_TRACE(std::to_string(m) + "x" + std::to_string(n));
    PaddedKernel k =
        compile("reduce_2d", "*fp32,*fp32,*fp32,*fp32", {{"M", m}, {"N", n}});
    ASSERT_TRUE(k.kernel);
    std::vector<float> x = randomFloats(m * n, -2, -0.5, m * 131 + n);
    std::vector<float> rows(m), cols(2 * n), all(4);
    ASSERT_EQ(k.run(1, {buf(x), buf(rows), buf(cols), buf(all)}), "");
    std::vector<double> wantRows(m, 0), wantCols(2 * n);
    double total = 0, softSum = 0;
    for (int i = 0; i < m; ++i) {
      double rowMax = -INFINITY;
      for (int j = 0; j < n; ++j) {
        wantRows[i] += std::exp(double(x[i * n + j]));
        rowMax = std::max(rowMax, double(x[i * n + j]));
      }
      total += wantRows[i];
      for (int j = 0; j < n; ++j)
        softSum += std::exp(double(x[i * n + j]) - rowMax);
    }
    for (int j = 0; j < n; ++j) {
      size_t best = argBest(m, 1, [&](size_t i) { return x[i * n + j]; });
      wantCols[j] = x[best * n + j];
      wantCols[n + j] = double(best);
    }
    size_t flat = argBest(m * n, 1, [&](size_t i) { return x[i]; });
    expectClose(rows, wantRows, "row sums of exp");
    expectClose(cols, wantCols, "column max and argmax");
    expectClose(all, {total, double(flat), -x[flat], softSum},
                "flattened reductions");
  }
}

TEST(PaddedBlocks, DotWithPaddedMNK) {
  const int shapes[][3] = {
      {48, 24, 20}, {20, 36, 24}, {16, 16, 17}, {33, 16, 100}};
  for (auto &s : shapes) {
    int m = s[0], n = s[1], kk = s[2];
    SCOPED_TRACE(std::to_string(m) + "x" + std::to_string(n) + "x" +
                 std::to_string(kk));
    PaddedKernel k = compile("dot_padded", "*fp32,*fp32,*fp32",
                             {{"M", m}, {"N", n}, {"K", kk}});
    ASSERT_TRUE(k.kernel);
    std::vector<float> a = randomFloats(m * kk, -1, 0.5, m + kk);
    std::vector<float> b = randomFloats(kk * n, -1, 0.5, n + 7 * kk);
    std::vector<float> c(m * n, 0.0f);
    ASSERT_EQ(k.run(1, {buf(a), buf(b), buf(c)}), "");
    std::vector<double> want(m * n);
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < n; ++j) {
        double acc = 0.5;
        for (int p = 0; p < kk; ++p)
          acc +=
              std::exp(double(a[i * kk + p])) * std::exp(double(b[p * n + j]));
        want[i * n + j] = acc;
      }
    expectClose(c, want, "dot");
  }
}

TEST(PaddedBlocks, BroadcastAndTranspose) {
  const std::pair<int, int> shapes[] = {{48, 5}, {48, 16}, {3, 24}, {12, 7}};
  for (auto [m, n] : shapes) {
    SCOPED_TRACE(std::to_string(m) + "x" + std::to_string(n));
    PaddedKernel k = compile("broadcast_mix", "*fp32,*fp32,*fp32,*fp32,*fp32",
                             {{"M", m}, {"N", n}});
    ASSERT_TRUE(k.kernel);
    std::vector<float> x = randomFloats(m, -1, 1, m),
                       y = randomFloats(n, -1, 1, n);
    std::vector<float> out(m * n), t(m * n), w(m * 16);
    ASSERT_EQ(k.run(1, {buf(x), buf(y), buf(out), buf(t), buf(w)}), "");
    std::vector<double> wantOut(m * n), wantT(m * n), wantW(m * 16);
    for (int i = 0; i < m; ++i) {
      for (int j = 0; j < n; ++j) {
        wantOut[i * n + j] = double(x[i]) * y[j] + x[i];
        wantT[j * m + i] = wantOut[i * n + j];
      }
      for (int j = 0; j < 16; ++j)
        wantW[i * 16 + j] = x[i] > 0 ? x[i] : 1.0;
    }
    expectClose(out, wantOut, "broadcast");
    expectClose(t, wantT, "trans");
    expectClose(w, wantW, "broadcast_to and where");
  }
}

TEST(PaddedBlocks, ReshapePaddedLeadingDim) {
  for (int m : {3, 12, 48, 100}) {
    SCOPED_TRACE(m);
    PaddedKernel k = compile("reshape_rows", "*fp32,*fp32", {{"M", m}});
    ASSERT_TRUE(k.kernel);
    std::vector<float> x = randomFloats(m, -1, 1, m), f(m * 16);
    ASSERT_EQ(k.run(1, {buf(x), buf(f)}), "");
    std::vector<double> want(m * 16);
    for (int i = 0; i < m * 16; ++i)
      want[i] = double(x[i / 16]) + i % 16;
    expectClose(f, want, "reshape");
  }
}

TEST(PaddedBlocks, LoopCarriedBlockWithIf) {
  for (int m : {5, 24, 100}) {
    SCOPED_TRACE(m);
    PaddedKernel k = compile("loop_accumulate", "*fp32,*fp32,i32", {{"M", m}});
    ASSERT_TRUE(k.kernel);
    const int steps = 5;
    std::vector<float> x = randomFloats(steps * m, -1, 1, m), out(m + 1);
    ASSERT_EQ(k.run(1, {buf(x), buf(out), InterpArg::integer(steps)}), "");
    std::vector<double> want(m + 1, 0.0);
    for (int i = 0; i < m; ++i) {
      double acc = 0;
      for (int s = 0; s < steps; ++s)
        acc = s % 2 == 0 ? acc + std::exp(double(x[s * m + i]))
                         : std::max(acc, double(x[s * m + i]));
      want[i] = acc;
      want[m] += acc;
    }
    expectClose(out, want, "loop_accumulate");
  }
}

} // namespace
