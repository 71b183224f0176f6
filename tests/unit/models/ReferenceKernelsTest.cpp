//===- ReferenceKernelsTest.cpp - Reference operators vs naive loops ------===//
//
// This file implements the tests of the reference operators against the
// most direct loops (one output element at a time, bounds checked per tap)
// on random non-zero data, across strides, paddings and non-square shapes.
//
//===----------------------------------------------------------------------===//

#include "graph/backends/reference/ReferenceKernels.h"
#include "graph/ir/GraphParser.h"
#include "graph/ir/Random.h"
#include "graph/passes/ShapeInference.h"
#include "graph/io/WeightInit.h"

#include "gtest/gtest.h"

#include <cmath>

using namespace mgp::graph;

namespace {

Tensor randomTensor(Shape shape, uint64_t seed, double lo = -1, double hi = 1) {
  Tensor t(std::move(shape));
  Random rng(seed);
  for (float &x : t.data)
    x = float(rng.uniform(lo, hi));
  return t;
}

void expectClose(const Tensor &got, const std::vector<double> &want,
                 double tol) {
  ASSERT_EQ(size_t(got.size()), want.size());
  for (size_t i = 0; i < want.size(); ++i)
    ASSERT_NEAR(got.data[i], want[i], tol * (1 + std::fabs(want[i]))) << i;
}

struct ConvCase {
  int64_t n, c, h, w, k, r, s, stride, pad;
};

class ConvTest : public ::testing::TestWithParam<ConvCase> {};

TEST_P(ConvTest, MatchesNaiveLoops) {
  ConvCase p = GetParam();
  Tensor x = randomTensor({p.n, p.c, p.h, p.w}, 1);
  Tensor w = randomTensor({p.k, p.c, p.r, p.s}, 2);
  Tensor b = randomTensor({p.k}, 3);
  int64_t oh = (p.h + 2 * p.pad - p.r) / p.stride + 1;
  int64_t ow = (p.w + 2 * p.pad - p.s) / p.stride + 1;
  Tensor residual = randomTensor({p.n, p.k, oh, ow}, 4);
  std::vector<double> plain, fused;
  for (int64_t n = 0; n < p.n; ++n)
    for (int64_t k = 0; k < p.k; ++k)
      for (int64_t y = 0; y < oh; ++y)
        for (int64_t xo = 0; xo < ow; ++xo) {
          double sum = 0;
          for (int64_t c = 0; c < p.c; ++c)
            for (int64_t r = 0; r < p.r; ++r)
              for (int64_t s = 0; s < p.s; ++s) {
                int64_t iy = y * p.stride - p.pad + r;
                int64_t ix = xo * p.stride - p.pad + s;
                if (iy < 0 || iy >= p.h || ix < 0 || ix >= p.w)
                  continue;
                sum += double(x.data[((n * p.c + c) * p.h + iy) * p.w + ix]) *
                       double(w.data[((k * p.c + c) * p.r + r) * p.s + s]);
              }
          plain.push_back(sum);
          double v = sum + b.data[k] +
                     residual.data[((n * p.k + k) * oh + y) * ow + xo];
          fused.push_back(v > 0 ? v : 0);
        }
  Tensor got = ref::conv2d(x, w, nullptr, p.stride, p.pad);
  EXPECT_EQ(got.shape, (Shape{p.n, p.k, oh, ow}));
  expectClose(got, plain, 1e-6);
  expectClose(ref::conv2d(x, w, &b, p.stride, p.pad, &residual, true), fused,
              1e-6);
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, ConvTest,
    ::testing::Values(ConvCase{2, 3, 9, 7, 4, 3, 3, 1, 1},
                      ConvCase{1, 3, 15, 15, 5, 7, 7, 2, 3},
                      ConvCase{2, 4, 8, 6, 3, 1, 1, 2, 0},
                      ConvCase{1, 2, 5, 5, 2, 3, 3, 2, 1},
                      ConvCase{1, 2, 4, 6, 3, 3, 2, 3, 2}));

std::vector<double> naivePool(const Tensor &x, int64_t kernel, int64_t stride,
                              int64_t pad, bool isMax) {
  int64_t n = x.shape[0] * x.shape[1], h = x.shape[2], w = x.shape[3];
  int64_t oh = (h + 2 * pad - kernel) / stride + 1;
  int64_t ow = (w + 2 * pad - kernel) / stride + 1;
  std::vector<double> out;
  for (int64_t i = 0; i < n; ++i)
    for (int64_t y = 0; y < oh; ++y)
      for (int64_t xo = 0; xo < ow; ++xo) {
        double acc = isMax ? -1e300 : 0;
        for (int64_t r = 0; r < kernel; ++r)
          for (int64_t s = 0; s < kernel; ++s) {
            int64_t iy = y * stride - pad + r, ix = xo * stride - pad + s;
            if (iy < 0 || iy >= h || ix < 0 || ix >= w)
              continue;
            double v = x.data[(i * h + iy) * w + ix];
            acc = isMax ? std::max(acc, v) : acc + v;
          }
        out.push_back(isMax ? acc : acc / double(kernel * kernel));
      }
  return out;
}

TEST(ReferenceKernelsTest, PoolsMatchNaiveLoops) {
  Tensor x = randomTensor({2, 3, 11, 9}, 5);
  expectClose(ref::maxpool2d(x, 3, 2, 1), naivePool(x, 3, 2, 1, true), 0);
  expectClose(ref::maxpool2d(x, 2, 2, 0), naivePool(x, 2, 2, 0, true), 0);
  expectClose(ref::avgpool2d(x, 3, 2, 1), naivePool(x, 3, 2, 1, false), 1e-6);
  expectClose(ref::avgpool2d(x, 2, 1, 0), naivePool(x, 2, 1, 0, false), 1e-6);
  std::vector<double> global;
  for (int64_t i = 0; i < 6; ++i) {
    double sum = 0;
    for (int64_t j = 0; j < 99; ++j)
      sum += x.data[i * 99 + j];
    global.push_back(sum / 99);
  }
  Tensor g = ref::globalAvgPool(x);
  EXPECT_EQ(g.shape, (Shape{2, 3, 1, 1}));
  expectClose(g, global, 1e-6);
}

TEST(ReferenceKernelsTest, LinearBatchNormAndElementwise) {
  Tensor x = randomTensor({3, 10}, 6), w = randomTensor({4, 10}, 7),
         b = randomTensor({4}, 8);
  std::vector<double> want;
  for (int n = 0; n < 3; ++n)
    for (int k = 0; k < 4; ++k) {
      double sum = b.data[k];
      for (int f = 0; f < 10; ++f)
        sum += double(x.data[n * 10 + f]) * w.data[k * 10 + f];
      want.push_back(sum);
    }
  expectClose(ref::linear(x, w, &b), want, 1e-6);

  Tensor a = randomTensor({2, 3, 2, 2}, 9);
  Tensor gamma = randomTensor({3}, 10, 0.5, 1.5), beta = randomTensor({3}, 11),
         mean = randomTensor({3}, 12), var = randomTensor({3}, 13, 0.5, 1.5);
  std::vector<double> bn, relu, sum;
  Tensor other = randomTensor({2, 3, 2, 2}, 14);
  for (int64_t i = 0; i < a.size(); ++i) {
    int64_t c = (i / 4) % 3;
    bn.push_back((a.data[i] - mean.data[c]) /
                     std::sqrt(double(var.data[c]) + 1e-5) * gamma.data[c] +
                 beta.data[c]);
    relu.push_back(a.data[i] > 0 ? a.data[i] : 0);
    sum.push_back(double(a.data[i]) + other.data[i]);
  }
  expectClose(ref::batchnorm(a, gamma, beta, mean, var, 1e-5), bn, 1e-6);
  expectClose(ref::relu(a), relu, 0);
  expectClose(ref::add(a, other), sum, 1e-7);
  Tensor flat = ref::flatten(a);
  EXPECT_EQ(flat.shape, (Shape{2, 12}));
  EXPECT_EQ(flat.data, a.data);
}

TEST(ReferenceKernelsTest, RandomIsSplitMix64) {
  // The first outputs of splitmix64 seeded with 0 (the reference sequence).
  Random rng(0);
  EXPECT_EQ(rng.next(), 0xe220a8397b1dcdafULL);
  EXPECT_EQ(rng.next(), 0x6e789e6aa1b965f4ULL);
  EXPECT_EQ(rng.next(), 0x06c45d188009454fULL);
  Random normal(42);
  double sum = 0, sumSq = 0;
  for (int i = 0; i < 20000; ++i) {
    double v = normal.normal();
    sum += v;
    sumSq += v * v;
  }
  EXPECT_NEAR(sum / 20000, 0, 0.03);
  EXPECT_NEAR(sumSq / 20000, 1, 0.05);
}

TEST(ReferenceKernelsTest, RandomSkipEqualsThatManyDraws) {
  Random drawn(7, "layer1.0.conv1.weight"), skipped = drawn;
  for (int i = 0; i < 100003; ++i)
    drawn.next();
  skipped.skip(100003);
  for (int i = 0; i < 4; ++i)
    EXPECT_EQ(drawn.next(), skipped.next());
}

// initWeights and randomNormalTensor fill ranges of each stream in parallel;
// every value must equal the sequential pass over the parameter's stream
// (tensors larger than one fill range of 65536 elements).
TEST(ReferenceKernelsTest, ParallelInitEqualsSequentialStreams) {
  auto parsed = parseGraphString(R"(
input x: f32[2, 64, 8, 8]
param conv.weight: f32[128, 64, 3, 3]
param fc.weight: f32[10, 8192]
param fc.bias: f32[10]
c = conv2d(x, conv.weight, padding=1)
f = flatten(c)
y = linear(f, fc.weight, fc.bias)
output y
)");
  ASSERT_TRUE(bool(parsed)) << llvm::toString(parsed.takeError());
  ASSERT_FALSE(bool(inferShapes(*parsed)));
  WeightMap weights = initWeights(*parsed, 5);
  Random conv(5, "conv.weight"), fc(5, "fc.weight");
  const Tensor &convWeight = weights["conv.weight"];
  ASSERT_EQ(convWeight.data.size(), 73728u);
  double stddev = std::sqrt(2.0 / (64 * 9));
  for (float v : convWeight.data)
    ASSERT_EQ(v, static_cast<float>(conv.normal(0, stddev)));
  const Tensor &fcWeight = weights["fc.weight"];
  ASSERT_EQ(fcWeight.data.size(), 81920u);
  for (float v : fcWeight.data)
    ASSERT_EQ(v, static_cast<float>(fc.uniform(-1, 1) / std::sqrt(8192.0)));

  Tensor x = randomNormalTensor(Shape{2, 3, 128, 128}, 9);
  Random input(9, "input");
  for (float v : x.data)
    ASSERT_EQ(v, static_cast<float>(input.normal()));
}

} // namespace
