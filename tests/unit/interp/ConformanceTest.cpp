//===- ConformanceTest.cpp - the seed kernels on the interpreter ----------===//
//
// This file implements the end-to-end interpreter tests of the conformance
// kernels (tests/conformance/*.py): each is compiled by the front end
// (parse, MLIRGen with its constexprs as defines) and the target-independent
// passes, run on the interpreter over random data at small shapes that
// exercise the masks, and compared with a plain C++ reference accumulating
// in double.
//
//===----------------------------------------------------------------------===//
#include "FrontendKernelSupport.h"
#include "InterpTestSupport.h"

#include <chrono>
#include <cmath>
#include <ctime>

using namespace mgp;
using namespace mgp::test;

namespace {

/// A conformance kernel compiled to block-level mgp IR.
using CompiledKernel = FrontendKernel;

/// Compiles kernel \p name of tests/conformance/\p file; fails the test (and
/// returns no kernel) on any error.
CompiledKernel compileConformance(const std::string &file, llvm::StringRef name,
                                  llvm::StringRef signature,
                                  const llvm::StringMap<ConstValue> &defines) {
  return compileFrontendKernel(std::string(MGP_CONFORMANCE_DIR) + "/" + file,
                               name, signature, defines, file);
}

ConstValue i(int64_t v) { return ConstValue::getInt(v); }

/// Checks \p got against \p want with tolerance rel * scale[k] + abs.
void expectClose(const std::vector<float> &got, const std::vector<double> &want,
                 const std::vector<double> &scale, double rel, const char *what) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t k = 0; k < got.size(); ++k)
    ASSERT_NEAR(got[k], want[k], rel * scale[k] + 1e-6) << what << " at " << k;
}

std::vector<double> magnitudes(const std::vector<double> &v) {
  std::vector<double> m(v.size());
  for (size_t k = 0; k < v.size(); ++k)
    m[k] = std::fabs(v[k]);
  return m;
}

TEST(InterpConformance, Relu) {
  CompiledKernel k = compileConformance("relu.py", "_relu_forward_kernel",
                                        "*fp32,*fp32,i32", {{"BLOCK_SIZE", i(1024)}});
  ASSERT_TRUE(k.kernel);
  const int n = 3000;
  std::vector<float> x = randomFloats(n, -1, 1, 1), y(n, 0);
  ASSERT_EQ(errorText(runKernel(k.kernel, {3, 1, 1},
                                {InterpArg::buffer(x.data(), n, DType::F32),
                                 InterpArg::buffer(y.data(), n, DType::F32),
                                 InterpArg::integer(n)},
                                {})),
            "");
  for (int e = 0; e < n; ++e)
    ASSERT_EQ(y[e], x[e] > 0 ? x[e] : 0.0f) << e;
}

TEST(InterpConformance, BatchNorm) {
  const int N = 2, C = 3, H = 5, W = 7, total = N * C * H * W;
  const double eps = 1e-5;
  CompiledKernel k = compileConformance(
      "batchnorm2d.py", "_bn2d_kernel", "*fp32,*fp32,i32,*fp32,*fp32,*fp32,*fp32",
      {{"C", i(C)}, {"H", i(H)}, {"W", i(W)}, {"eps", ConstValue::getFloat(eps)},
       {"BLOCK_SIZE", i(1024)}});
  ASSERT_TRUE(k.kernel);
  std::vector<float> x = randomFloats(total, -2, 2, 2), y(total, 0);
  std::vector<float> w = randomFloats(C, 0.5, 2, 3), b = randomFloats(C, -1, 1, 4),
                     mean = randomFloats(C, -0.5, 0.5, 5), var = randomFloats(C, 0.5, 2, 6);
  ASSERT_EQ(errorText(runKernel(k.kernel, {1, 1, 1},
                                {InterpArg::buffer(x.data(), total, DType::F32),
                                 InterpArg::buffer(y.data(), total, DType::F32),
                                 InterpArg::integer(total),
                                 InterpArg::buffer(w.data(), C, DType::F32),
                                 InterpArg::buffer(b.data(), C, DType::F32),
                                 InterpArg::buffer(mean.data(), C, DType::F32),
                                 InterpArg::buffer(var.data(), C, DType::F32)},
                                {})),
            "");
  std::vector<double> ref(total);
  for (int e = 0; e < total; ++e) {
    int c = (e / (H * W)) % C;
    ref[e] = (x[e] - mean[c]) / std::sqrt(double(var[c]) + eps) * w[c] + b[c];
  }
  expectClose(y, ref, magnitudes(ref), 1e-5, "batchnorm");
}

TEST(InterpConformance, MaxPoolAndAvgPool) {
  const int N = 2, C = 3, H = 9, W = 8, kh = 3, kw = 3, s = 2, p = 1;
  const int oh = (H + 2 * p - kh) / s + 1, ow = (W + 2 * p - kw) / s + 1;
  const int total = N * C * oh * ow;
  CompiledKernel k = compileConformance(
      "maxpool2d.py", "_maxpool2d_kernel", "*fp32,*fp32,i32",
      {{"C", i(C)}, {"H", i(H)}, {"W", i(W)}, {"kH", i(kh)}, {"kW", i(kw)},
       {"sH", i(s)}, {"sW", i(s)}, {"pH", i(p)}, {"pW", i(p)}, {"out_H", i(oh)},
       {"out_W", i(ow)}, {"BLOCK_SIZE", i(256)}});
  ASSERT_TRUE(k.kernel);
  std::vector<float> x = randomFloats(N * C * H * W, -3, 3, 7), y(total, 0);
  ASSERT_EQ(errorText(runKernel(k.kernel, {1, 1, 1},
                                {InterpArg::buffer(x.data(), x.size(), DType::F32),
                                 InterpArg::buffer(y.data(), total, DType::F32),
                                 InterpArg::integer(total)},
                                {})),
            "");
  for (int e = 0; e < total; ++e) {
    int q = e % ow, r = (e / ow) % oh, c = (e / (oh * ow)) % C, n = e / (C * oh * ow);
    float best = -INFINITY;
    for (int a = 0; a < kh; ++a)
      for (int b = 0; b < kw; ++b) {
        int ih = r * s + a - p, iw = q * s + b - p;
        if (ih >= 0 && ih < H && iw >= 0 && iw < W)
          best = std::max(best, x[((n * C + c) * H + ih) * W + iw]);
      }
    ASSERT_EQ(y[e], best) << e;
  }

  // avgpool: 2x2 windows, stride 2, no padding, on an 8x8 input.
  const int AH = 8, AW = 8, aoh = 4, aow = 4, atotal = N * C * aoh * aow;
  CompiledKernel avg = compileConformance(
      "avgpool2d.py", "_avgpool2d_kernel", "*fp32,*fp32,i32",
      {{"C", i(C)}, {"H", i(AH)}, {"W", i(AW)}, {"kH", i(2)}, {"kW", i(2)},
       {"sH", i(2)}, {"sW", i(2)}, {"out_H", i(aoh)}, {"out_W", i(aow)},
       {"BLOCK_SIZE", i(256)}});
  ASSERT_TRUE(avg.kernel);
  std::vector<float> ax = randomFloats(N * C * AH * AW, -3, 3, 8), ay(atotal, 0);
  ASSERT_EQ(errorText(runKernel(avg.kernel, {1, 1, 1},
                                {InterpArg::buffer(ax.data(), ax.size(), DType::F32),
                                 InterpArg::buffer(ay.data(), atotal, DType::F32),
                                 InterpArg::integer(atotal)},
                                {})),
            "");
  std::vector<double> ref(atotal), scale(atotal);
  for (int e = 0; e < atotal; ++e) {
    int q = e % aow, r = (e / aow) % aoh, c = (e / (aoh * aow)) % C, n = e / (C * aoh * aow);
    for (int a = 0; a < 2; ++a)
      for (int b = 0; b < 2; ++b) {
        float v = ax[((n * C + c) * AH + r * 2 + a) * AW + q * 2 + b];
        ref[e] += v / 4.0;
        scale[e] += std::fabs(v) / 4.0;
      }
  }
  expectClose(ay, ref, scale, 1e-6, "avgpool");
}

TEST(InterpConformance, Linear) {
  const int M = 5, N = 7, K = 13;
  CompiledKernel k = compileConformance("linear.py", "_linear_kernel",
                                        "*fp32,*fp32,*fp32,*fp32,i32,i32,i32",
                                        {{"BLOCK_SIZE", i(1)}});
  ASSERT_TRUE(k.kernel);
  std::vector<float> a = randomFloats(M * K, -1, 1, 9), b = randomFloats(K * N, -1, 1, 10),
                     bias = randomFloats(N, -1, 1, 11), c(M * N, 0);
  ASSERT_EQ(errorText(runKernel(k.kernel, {M * N, 1, 1},
                                {InterpArg::buffer(a.data(), a.size(), DType::F32),
                                 InterpArg::buffer(b.data(), b.size(), DType::F32),
                                 InterpArg::buffer(bias.data(), N, DType::F32),
                                 InterpArg::buffer(c.data(), c.size(), DType::F32),
                                 InterpArg::integer(M), InterpArg::integer(N),
                                 InterpArg::integer(K)},
                                {})),
            "");
  std::vector<double> ref(M * N), scale(M * N);
  for (int r = 0; r < M; ++r)
    for (int col = 0; col < N; ++col) {
      double s = bias[col], m = std::fabs(bias[col]);
      for (int q = 0; q < K; ++q) {
        s += double(a[r * K + q]) * b[q * N + col];
        m += std::fabs(double(a[r * K + q]) * b[q * N + col]);
      }
      ref[r * N + col] = s;
      scale[r * N + col] = m;
    }
  expectClose(c, ref, scale, 1e-5, "linear");
}

/// Conv problem shared by the three conv kernels: NCHW input, KCRS weights,
/// 3x3, stride 1, padding 1, with bias.
struct ConvProblem {
  int N = 2, C = 3, H = 7, W = 6, K = 20, R = 3, S = 3, P = 7, Q = 6;
  std::vector<float> x, w, bias;
  std::vector<double> ref, scale;

  ConvProblem() { init(); }
  ConvProblem(int n, int c, int hw, int k) : N(n), C(c), H(hw), W(hw), K(k), P(hw), Q(hw) {
    init();
  }
  void init() {
    x = randomFloats(N * C * H * W, -1, 1, 20);
    w = randomFloats(K * C * R * S, -1, 1, 21);
    bias = randomFloats(K, -1, 1, 22);
    ref.assign(N * K * P * Q, 0);
    scale.assign(N * K * P * Q, 0);
    for (int n = 0; n < N; ++n)
      for (int k = 0; k < K; ++k)
        for (int p = 0; p < P; ++p)
          for (int q = 0; q < Q; ++q) {
            double s = bias[k], m = std::fabs(bias[k]);
            for (int c = 0; c < C; ++c)
              for (int r = 0; r < R; ++r)
                for (int t = 0; t < S; ++t) {
                  int ih = p + r - 1, iw = q + t - 1;
                  if (ih < 0 || ih >= H || iw < 0 || iw >= W)
                    continue;
                  double v = double(x[((n * C + c) * H + ih) * W + iw]) *
                             w[((k * C + c) * R + r) * S + t];
                  s += v;
                  m += std::fabs(v);
                }
            int e = ((n * K + k) * P + p) * Q + q;
            ref[e] = s;
            scale[e] = m;
          }
  }
  std::vector<InterpArg> args(std::vector<float> &y) {
    return {InterpArg::buffer(x.data(), x.size(), DType::F32),
            InterpArg::buffer(w.data(), w.size(), DType::F32),
            InterpArg::buffer(bias.data(), bias.size(), DType::F32),
            InterpArg::buffer(y.data(), y.size(), DType::F32)};
  }
  llvm::StringMap<ConstValue> tiledDefines() const {
    return {{"M_total", i(N * P * Q)}, {"C", i(C)}, {"H", i(H)}, {"W", i(W)},
            {"K", i(K)}, {"P", i(P)}, {"Q", i(Q)}, {"sH", i(1)}, {"sW", i(1)},
            {"pH", i(1)}, {"pW", i(1)}, {"bias_exist", ConstValue::getBool(true)},
            {"BLOCK_M", i(16)}, {"BLOCK_K", i(16)}};
  }
};

TEST(InterpConformance, Conv2dNaive) {
  ConvProblem prob;
  int total = prob.N * prob.K * prob.P * prob.Q;
  CompiledKernel k = compileConformance(
      "conv2d.py", "_conv2d_kernel", "*fp32,*fp32,*fp32,*fp32,i32",
      {{"C", i(prob.C)}, {"H", i(prob.H)}, {"W", i(prob.W)}, {"K", i(prob.K)},
       {"R", i(3)}, {"S", i(3)}, {"P", i(prob.P)}, {"Q", i(prob.Q)}, {"sH", i(1)},
       {"sW", i(1)}, {"pH", i(1)}, {"pW", i(1)}, {"dH", i(1)}, {"dW", i(1)},
       {"bias_exist", ConstValue::getBool(true)}, {"BLOCK_SIZE", i(128)}});
  ASSERT_TRUE(k.kernel);
  std::vector<float> y(total, 0);
  std::vector<InterpArg> args = prob.args(y);
  args.push_back(InterpArg::integer(total));
  ASSERT_EQ(errorText(runKernel(k.kernel, {(total + 127) / 128, 1, 1}, args, {})), "");
  expectClose(y, prob.ref, prob.scale, 1e-5, "conv2d");
}

TEST(InterpConformance, Conv2d3x3Tiled) {
  ConvProblem prob;
  CompiledKernel k =
      compileConformance("conv2d_3x3_tiled.py", "_conv2d_3x3_tiled_kernel",
                         "*fp32,*fp32,*fp32,*fp32", prob.tiledDefines());
  ASSERT_TRUE(k.kernel);
  std::vector<float> y(prob.N * prob.K * prob.P * prob.Q, 0);
  int gm = (prob.N * prob.P * prob.Q + 15) / 16, gk = (prob.K + 15) / 16;
  ASSERT_EQ(errorText(runKernel(k.kernel, {gm, gk, 1}, prob.args(y), {})), "");
  expectClose(y, prob.ref, prob.scale, 1e-5, "conv2d_3x3_tiled");
}

TEST(InterpConformance, Conv2d3x3DotIeeeAndTf32) {
  ConvProblem prob;
  llvm::StringMap<ConstValue> defines = prob.tiledDefines();
  defines["BLOCK_CRS"] = i(32);
  CompiledKernel k = compileConformance("conv2d_3x3_dot.py", "_conv2d_3x3_dot_kernel",
                                        "*fp32,*fp32,*fp32,*fp32", defines);
  ASSERT_TRUE(k.kernel);
  int gm = (prob.N * prob.P * prob.Q + 15) / 16, gk = (prob.K + 15) / 16;
  std::vector<float> y(prob.N * prob.K * prob.P * prob.Q, 0);
  ASSERT_EQ(errorText(runKernel(k.kernel, {gm, gk, 1}, prob.args(y), {})), "");
  expectClose(y, prob.ref, prob.scale, 1e-5, "conv2d_3x3_dot ieee products");
  InterpOptions tf32;
  tf32.emulateTF32 = true;
  std::vector<float> yt(y.size(), 0);
  ASSERT_EQ(errorText(runKernel(k.kernel, {gm, gk, 1}, prob.args(yt), tf32)), "");
  expectClose(yt, prob.ref, prob.scale, 1e-3, "conv2d_3x3_dot tf32");
  // The kernel's dot asks for tf32 (Triton's default), so emulation changes
  // the result.
  int dots = 0;
  k.module->walk([&](mgp::DotOp dot) {
    ++dots;
    EXPECT_EQ(dot.getInputPrecision(), mgp::InputPrecision::TF32);
  });
  EXPECT_EQ(dots, 1);
  double maxDiff = 0;
  for (size_t e = 0; e < y.size(); ++e)
    maxDiff = std::max(maxDiff, std::fabs(double(y[e]) - yt[e]));
  EXPECT_GT(maxDiff, 1e-6);
}

TEST(InterpConformance, Conv2d3x3DotTiming) {
  // A ResNet-like layer: 64 -> 64 channels, 28x28, batch 1 (29M MACs).
  ConvProblem prob(1, 64, 28, 64);
  llvm::StringMap<ConstValue> defines = prob.tiledDefines();
  defines["BLOCK_CRS"] = i(32);
  CompiledKernel k = compileConformance("conv2d_3x3_dot.py", "_conv2d_3x3_dot_kernel",
                                        "*fp32,*fp32,*fp32,*fp32", defines);
  ASSERT_TRUE(k.kernel);
  int gm = (prob.N * prob.P * prob.Q + 15) / 16, gk = (prob.K + 15) / 16;
  std::vector<float> y(prob.N * prob.K * prob.P * prob.Q, 0);
  llvm::Expected<InterpKernel> compiled = InterpKernel::compile(k.kernel);
  ASSERT_TRUE(static_cast<bool>(compiled));
  for (unsigned threads : {1u, 0u}) {
    InterpOptions options;
    options.numThreads = threads;
    auto start = std::chrono::steady_clock::now();
    std::clock_t cpuStart = std::clock();
    ASSERT_EQ(errorText(compiled->run({gm, gk, 1}, prob.args(y), options)), "");
    double cpuMs = 1000.0 * double(std::clock() - cpuStart) / CLOCKS_PER_SEC;
    double ms = std::chrono::duration<double, std::milli>(
                    std::chrono::steady_clock::now() - start)
                    .count();
    std::printf("[ timing ] conv2d_3x3_dot 1x64x28x28 -> 64 (%s): %.1f ms wall, "
                "%.1f ms CPU\n",
                threads == 1 ? "1 thread" : "all cores", ms, cpuMs);
  }
  expectClose(y, prob.ref, prob.scale, 1e-5, "conv2d_3x3_dot 64x28x28");
}

} // namespace
