//===- Language2Test.cpp - scans, atomics, fp8, random on the interpreter -===//
//
// This file implements the numerics tests of language2_kernels.py against
// references written here: prefix sums and a running arg-max (tl.cumsum,
// tl.associative_scan and tl.reduce with @jit combine functions), atomics
// from many programs (sums, float max, histogram counts with distinct old
// values, a spin lock built from atomic_cas/atomic_xchg), fp8 quantization
// against a nearest-value search over all 256 codes, Philox random numbers
// against Philox-4x32-10 computed here in uint32 arithmetic (bit for bit),
// join/split/interleave/flip/histogram, gather (indices outside the axis,
// constant index and source blocks), and sort/topk against std::sort
// and, with NaNs and signed zeros, against Triton 3.6's own results.
//
//===----------------------------------------------------------------------===//
#include "FrontendKernelSupport.h"
#include "InterpTestSupport.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>

using namespace mgp;
using namespace mgp::test;

namespace {

FrontendKernel compile(llvm::StringRef name, llvm::StringRef signature,
                       std::initializer_list<std::pair<const char *, int>> ints,
                       const char *dtypeName = nullptr,
                       const char *dtypeValue = nullptr) {
  llvm::StringMap<ConstValue> d;
  for (auto [k, v] : ints)
    d[k] = ConstValue::getInt(v);
  if (dtypeName)
    d[dtypeName] = ConstValue::getDType(dtypeValue);
  return compileFrontendKernel(MGP_LANGUAGE2_KERNELS, name, signature, d,
                               name.str());
}

template <typename T> InterpArg buf(std::vector<T> &v, DType t) {
  return InterpArg::buffer(v.data(), v.size() * sizeof(T), t);
}

std::string run(FrontendKernel &k, int grid, std::vector<InterpArg> args) {
  return errorText(runKernel(k.kernel, {grid, 1, 1}, args, {}));
}

TEST(LanguageScans, CumsumForwardAndReverseAlongRows) {
  for (int n : {256, 200, 37}) {
    SCOPED_TRACE(n);
    const int rows = 4;
    FrontendKernel k = compile("cumsum_rows", "*fp32,*fp32,*fp32,i32",
                               {{"R", rows}, {"BLOCK", 256}});
    ASSERT_TRUE(k.kernel);
    std::vector<float> x = randomFloats(rows * n, -1, 1, n), y(rows * n, 0),
                       z(rows * n, 0);
    ASSERT_EQ(run(k, 1,
                  {buf(x, DType::F32), buf(y, DType::F32), buf(z, DType::F32),
                   InterpArg::integer(n)}),
              "");
    for (int r = 0; r < rows; ++r) {
      double fwd = 0;
      for (int c = 0; c < n; ++c) {
        fwd += x[r * n + c];
        ASSERT_NEAR(y[r * n + c], fwd, 1e-4) << r << "," << c;
      }
      double rev = 0;
      for (int c = n - 1; c >= 0; --c) {
        rev += x[r * n + c];
        ASSERT_NEAR(z[r * n + c], rev, 1e-4) << r << "," << c;
      }
    }
  }
}

TEST(LanguageScans, AssociativeScanAndReduceWithJitCombine) {
  const int n = 128;
  FrontendKernel k =
      compile("running_max", "*fp32,*fp32,*i32,*fp32,*fp32", {{"BLOCK", n}});
  ASSERT_TRUE(k.kernel);
  std::vector<float> x = randomFloats(n, -5, 5, 21), v(n), p(2), cp(n);
  for (int i = 0; i < n; i += 7)
    x[i] = 3.0f; // ties: the first index wins
  std::vector<int32_t> idx(n);
  ASSERT_EQ(run(k, 1,
                {buf(x, DType::F32), buf(v, DType::F32), buf(idx, DType::I32),
                 buf(p, DType::F32), buf(cp, DType::F32)}),
            "");
  float best = x[0];
  int bestIdx = 0;
  double prod = 1, sum = 0;
  for (int i = 0; i < n; ++i) {
    if (x[i] > best) {
      best = x[i];
      bestIdx = i;
    }
    ASSERT_EQ(v[i], best) << i;
    ASSERT_EQ(idx[i], bestIdx) << i;
    prod *= double(x[i]) * 0.01 + 1.0;
    sum += x[i];
    ASSERT_NEAR(cp[i], prod, 1e-4 * prod) << i;
  }
  EXPECT_NEAR(p[0], prod, 1e-4 * std::fabs(prod));
  EXPECT_NEAR(p[1], sum, 1e-3);
}

TEST(LanguageAtomics, SumsMaxesAndHistogramFromManyPrograms) {
  const int n = 1000, block = 128, grid = (n + block - 1) / block;
  FrontendKernel k =
      compile("atomics", "*fp32,*fp32,*fp32,*i32,*i32,i32", {{"BLOCK", block}});
  ASSERT_TRUE(k.kernel);
  std::vector<float> x = randomFloats(n, -3, 3, 31), sum(1, 0.0f),
                     maxes(4, -INFINITY);
  std::vector<int32_t> hist(8, 0), old(n, -1);
  ASSERT_EQ(
      run(k, grid,
          {buf(x, DType::F32), buf(sum, DType::F32), buf(maxes, DType::F32),
           buf(hist, DType::I32), buf(old, DType::I32), InterpArg::integer(n)}),
      "");
  double want = 0;
  std::vector<float> wantMax(4, -INFINITY);
  std::vector<int> wantHist(8, 0);
  std::map<int, std::vector<int>> oldByBin;
  for (int i = 0; i < n; ++i) {
    want += x[i];
    wantMax[i % 4] = std::max(wantMax[i % 4], x[i]);
    int bin = int(std::fabs(x[i]) * 4.0f) % 8;
    ++wantHist[bin];
    oldByBin[bin].push_back(old[i]);
  }
  EXPECT_NEAR(sum[0], want, 1e-3);
  for (int j = 0; j < 4; ++j)
    EXPECT_EQ(maxes[j], wantMax[j]) << j;
  for (int b = 0; b < 8; ++b) {
    EXPECT_EQ(hist[b], wantHist[b]) << b;
    std::vector<int> olds = oldByBin[b];
    std::sort(olds.begin(), olds.end());
    for (size_t i = 0; i < olds.size(); ++i)
      ASSERT_EQ(olds[i], int(i)) << "bin " << b; // each count seen once
  }
}

TEST(LanguageAtomics, SpinLockFromCasAndXchg) {
  FrontendKernel k = compile("cas_counter", "*i32,*i32", {});
  ASSERT_TRUE(k.kernel);
  std::vector<int32_t> lock(1, 0), count(1, 0);
  ASSERT_EQ(run(k, 64, {buf(lock, DType::I32), buf(count, DType::I32)}), "");
  EXPECT_EQ(count[0], 64);
  EXPECT_EQ(lock[0], 0);
}

/// The value of fp8 code `c`, from the format's definition.
double fp8Value(uint8_t c, bool e4m3) {
  int man = e4m3 ? 3 : 2, bias = e4m3 ? 7 : 15;
  int e = (c & 0x7f) >> man, m = c & ((1 << man) - 1);
  double mag = e == 0 ? m * std::pow(2.0, 1 - bias - man)
                      : (1 + m / double(1 << man)) * std::pow(2.0, e - bias);
  return (c & 0x80) ? -mag : mag;
}

/// The nearest finite fp8 code (ties to the even code), saturating.
uint8_t nearestFp8(double v, bool e4m3) {
  int best = -1;
  double bestErr = INFINITY;
  for (int c = 0; c < 256; ++c) {
    bool nan = e4m3 ? (c & 0x7f) == 0x7f : ((c & 0x7c) == 0x7c);
    if (nan)
      continue; // and e5m2's infinities
    double err = std::fabs(fp8Value(c, e4m3) - v);
    if (err < bestErr || (err == bestErr && (c & 1) == 0 && (best & 1))) {
      best = c;
      bestErr = err;
    }
  }
  if (v == 0)
    return std::signbit(v) ? 0x80 : 0;
  return static_cast<uint8_t>(best);
}

TEST(LanguageFp8, QuantizeDequantizeBothFormats) {
  for (bool e4m3 : {true, false}) {
    SCOPED_TRACE(e4m3 ? "fp8e4nv" : "fp8e5");
    const int n = 500, block = 256, grid = 2;
    FrontendKernel k =
        compile("fp8_quantize",
                e4m3 ? "*fp32,*fp8e4nv,*fp32,*fp32,i32"
                     : "*fp32,*fp8e5,*fp32,*fp32,i32",
                {{"BLOCK", block}}, "FP8", e4m3 ? "fp8e4nv" : "fp8e5");
    ASSERT_TRUE(k.kernel);
    std::vector<float> x = randomFloats(n, -2, 2, 41), scales(grid), deq(n);
    x[3] = 0.0f;
    std::vector<uint8_t> q(n, 0);
    ASSERT_EQ(run(k, grid,
                  {buf(x, DType::F32),
                   InterpArg::buffer(q.data(), q.size(),
                                     e4m3 ? DType::F8E4NV : DType::F8E5),
                   buf(scales, DType::F32), buf(deq, DType::F32),
                   InterpArg::integer(n)}),
              "");
    for (int i = 0; i < n; ++i) {
      float scaled = x[i] * scales[i / block];
      uint8_t want = nearestFp8(scaled, e4m3);
      ASSERT_EQ(int(q[i]), int(want)) << i << " " << scaled;
      ASSERT_EQ(deq[i], float(fp8Value(want, e4m3)) / scales[i / block]) << i;
    }
  }
}

/// Philox-4x32-10 of Salmon et al., in uint32 arithmetic.
void philox(uint32_t key0, uint32_t key1, uint32_t c[4]) {
  const uint32_t A = 0xD2511F53u, B = 0xCD9E8D57u;
  for (int round = 0; round < 10; ++round) {
    uint64_t pa = uint64_t(A) * c[0], pb = uint64_t(B) * c[2];
    uint32_t n0 = uint32_t(pb >> 32) ^ c[1] ^ key0;
    uint32_t n2 = uint32_t(pa >> 32) ^ c[3] ^ key1;
    c[1] = uint32_t(pb);
    c[3] = uint32_t(pa);
    c[0] = n0;
    c[2] = n2;
    key0 += 0x9E3779B9u;
    key1 += 0xBB67AE85u;
  }
}

TEST(LanguageRandom, PhiloxBitsUniformsAndNormals) {
  const int n = 700, block = 256, grid = 3;
  FrontendKernel k =
      compile("random", "*i32,*fp32,*fp32,i64,i32", {{"BLOCK", block}});
  ASSERT_TRUE(k.kernel);
  for (int64_t seed : {int64_t(1234), int64_t(0x123456789abLL), int64_t(-5)}) {
    SCOPED_TRACE(seed);
    std::vector<int32_t> bits(n);
    std::vector<float> uni(n), nor(n);
    ASSERT_EQ(
        run(k, grid,
            {buf(bits, DType::I32), buf(uni, DType::F32), buf(nor, DType::F32),
             InterpArg::integer(seed), InterpArg::integer(n)}),
        "");
    uint64_t s = static_cast<uint64_t>(seed);
    for (int i = 0; i < n; ++i) {
      uint32_t c[4] = {uint32_t(i), 0, 0, 0};
      philox(uint32_t(s), uint32_t(s >> 32), c);
      ASSERT_EQ(uint32_t(bits[i]), c[0]) << i;
      auto uniform = [](uint32_t u) {
        int32_t v = int32_t(u);
        v = v < 0 ? ~v : v;
        return float(v) * 4.6566127342e-10f;
      };
      ASSERT_EQ(uni[i], uniform(c[0])) << i;
      ASSERT_GE(uni[i], 0.0f);
      ASSERT_LT(uni[i], 1.0f);
      float u1 = std::max(1.0e-7f, uniform(c[0]));
      float th = 6.283185307179586f * uniform(c[1]);
      double normal =
          std::sqrt(-2.0 * std::log(double(u1))) * std::cos(double(th));
      ASSERT_NEAR(nor[i], normal, 1e-5 * std::max(1.0, std::fabs(normal))) << i;
    }
  }
}

TEST(LanguageShapes, JoinSplitInterleaveFlipHistogram) {
  const int n = 64;
  FrontendKernel k = compile("shapes", "*fp32,*fp32,*fp32", {{"BLOCK", n}});
  ASSERT_TRUE(k.kernel);
  std::vector<float> x = randomFloats(n, -2, 2, 51),
                     y = randomFloats(n, -2, 2, 52), out(4 * n + 8, 0);
  x[5] = -0.0f; // split and flip move bits exactly
  ASSERT_EQ(
      run(k, 1, {buf(x, DType::F32), buf(y, DType::F32), buf(out, DType::F32)}),
      "");
  std::vector<int> hist(8, 0);
  for (int i = 0; i < n; ++i) {
    ASSERT_EQ(out[i], x[i] - x[i] + y[i]) << i;
    ASSERT_EQ(out[n + 2 * i], x[i]) << i;
    ASSERT_EQ(out[n + 2 * i + 1], y[i]) << i;
    ASSERT_EQ(out[3 * n + i], x[n - 1 - i]) << i;
    ++hist[int(std::fabs(x[i]) * 3.0f) % 8];
  }
  EXPECT_TRUE(std::signbit(out[3 * n + n - 1 - 5]));
  for (int b = 0; b < 8; ++b)
    EXPECT_EQ(out[4 * n + b], float(hist[b])) << b;
}

TEST(LanguageShapes, GatherAlongRows) {
  const int r = 4, n = 16, k = 8;
  FrontendKernel kern =
      compile("gathers", "*fp32,*i32,*fp32", {{"R", r}, {"N", n}, {"K", k}});
  ASSERT_TRUE(kern.kernel);
  std::vector<float> x = randomFloats(r * n, -2, 2, 61), out(3 * r * k, -1);
  std::vector<int32_t> idx = randomInts(r * k, -2, n + 2, 62);
  ASSERT_EQ(run(kern, 1,
                {buf(x, DType::F32), buf(idx, DType::I32), buf(out, DType::F32)}),
            "");
  int outside = 0;
  for (int i = 0; i < r; ++i)
    for (int j = 0; j < k; ++j) {
      int at = idx[i * k + j];
      bool in = at >= 0 && at < n;
      outside += !in;
      EXPECT_EQ(out[i * k + j], in ? x[i * n + at] : 0.0f) << i << "," << j;
      EXPECT_EQ(out[r * k + i * k + j], x[i * n + 2]) << i << "," << j;
      EXPECT_EQ(out[2 * r * k + i * k + j], in ? 7.0f : 0.0f) << i << "," << j;
    }
  EXPECT_GT(outside, 0); // the seed puts some indices outside the row
}

TEST(LanguageSort, SortAndTopkAlongRows) {
  const int rows = 4, n = 64, k = 8;
  FrontendKernel kern = compile("sort_rows", "*fp32,*fp32,*fp32,*fp32",
                                {{"R", rows}, {"N", n}, {"K", k}});
  ASSERT_TRUE(kern.kernel);
  std::vector<float> x = randomFloats(rows * n, -100, 100, 61);
  for (int i = 0; i < 10; ++i) // ties
    x[3 * i + 1] = x[3 * i];
  std::vector<float> asc(rows * n, 0), desc(rows * n, 0), top(rows * k, 0);
  ASSERT_EQ(run(kern, 1,
                {buf(x, DType::F32), buf(asc, DType::F32),
                 buf(desc, DType::F32), buf(top, DType::F32)}),
            "");
  for (int r = 0; r < rows; ++r) {
    std::vector<float> want(x.begin() + r * n, x.begin() + (r + 1) * n);
    std::sort(want.begin(), want.end());
    for (int c = 0; c < n; ++c) {
      ASSERT_EQ(asc[r * n + c], want[c]) << r << "," << c;
      ASSERT_EQ(desc[r * n + c], want[n - 1 - c]) << r << "," << c;
    }
    for (int c = 0; c < k; ++c)
      ASSERT_EQ(top[r * k + c], want[n - 1 - c]) << r << "," << c;
  }
}

TEST(LanguageSort, ArgsortThroughPackedInt64Keys) {
  const int n = 128;
  FrontendKernel kern = compile("sort_keys_i32", "*i32,*i32", {{"N", n}});
  ASSERT_TRUE(kern.kernel);
  std::vector<int32_t> x = randomInts(n, -50, 50, 62), out(n, -1);
  ASSERT_EQ(run(kern, 1, {buf(x, DType::I32), buf(out, DType::I32)}), "");
  std::vector<int32_t> want(n);
  for (int i = 0; i < n; ++i)
    want[i] = i;
  std::stable_sort(want.begin(), want.end(),
                   [&](int a, int b) { return x[a] < x[b]; });
  EXPECT_EQ(out, want);
}

TEST(LanguageSort, SameNetworkAsTritonWithNaNsAndSignedZeros) {
  // Triton's bitonic network is not a total order with NaNs (a NaN's
  // partner wins both compare-and-swaps) or signed zeros; mgp runs the same
  // network, so it gives the same elements. Expected bits: Triton 3.6.0's
  // interpreter (TRITON_INTERPRET=1) on this input.
  FrontendKernel kern = compile("sort16", "*fp32,*fp32,*fp32,*fp32", {});
  ASSERT_TRUE(kern.kernel);
  float nan = std::nanf("");
  std::vector<float> x = {3.0f,  nan,  -0.0f, 1.0f, 0.0f, 1.0f,
                          -2.5f, nan,  7.0f,  -1.0f, 0.5f, 3.0f,
                          INFINITY, -7.0f, 2.0f, 1.0f};
  std::vector<float> asc(16, 0), desc(16, 0), top(4, 0);
  ASSERT_EQ(run(kern, 1,
                {buf(x, DType::F32), buf(asc, DType::F32),
                 buf(desc, DType::F32), buf(top, DType::F32)}),
            "");
  auto bitsOf = [](const std::vector<float> &v) {
    std::vector<uint32_t> b(v.size());
    std::memcpy(b.data(), v.data(), v.size() * 4);
    return b;
  };
  EXPECT_EQ(bitsOf(asc),
            (std::vector<uint32_t>{0xc0e00000, 0xbf800000, 0x80000000,
                                   0x3f000000, 0x80000000, 0x3f800000,
                                   0x40000000, 0x40400000, 0x3f800000,
                                   0x3f800000, 0x40400000, 0x40400000,
                                   0x40400000, 0x40400000, 0x40e00000,
                                   0x7f800000}));
  EXPECT_EQ(bitsOf(desc),
            (std::vector<uint32_t>{0x7f800000, 0x40e00000, 0x40400000,
                                   0x40400000, 0x40400000, 0x40400000,
                                   0x3f800000, 0x3f800000, 0x40400000,
                                   0x40000000, 0x3f800000, 0x80000000,
                                   0x3f000000, 0x80000000, 0xbf800000,
                                   0xc0e00000}));
  EXPECT_EQ(bitsOf(top), (std::vector<uint32_t>{0x7f800000, 0x40e00000,
                                                0x40400000, 0x40400000}));
}

} // namespace
