//===- LanguageTest.cpp - the wider Triton language on the interpreter ----===//
//
// This file implements the numerics tests of the language features of
// language_kernels.py: libdevice and math functions (against formulas in
// long double, or inverse identities, not the functions the interpreter
// calls), integer bit functions (against bit loops), Python's min/max on
// runtime scalars (the tutorial's grouped program ordering), early returns,
// dtype and string constexprs and helpers imported from another module
// (found through the import search path), tl.target_info's answers per
// compute capability and a `while tl.condition(...)` loop. Inputs are fresh random values;
// NaN where a number is expected fails.
//
//===----------------------------------------------------------------------===//
#include "FrontendKernelSupport.h"
#include "InterpTestSupport.h"

#include "runtime/HalfFloat.h"

#include <bitset>
#include <cmath>
#include <functional>

using namespace mgp;
using namespace mgp::test;

namespace {

constexpr int kBlock = 128;

FrontendKernel compile(llvm::StringRef name, llvm::StringRef signature,
                       const llvm::StringMap<ConstValue> &defines,
                       int computeCapability = 90) {
  KernelGenOptions options;
  options.computeCapability = computeCapability;
  options.importPaths = {MGP_LANGUAGE_KERNEL_DIR};
  return compileFrontendKernel(MGP_LANGUAGE_KERNELS, name, signature, defines,
                               name.str(), options);
}

llvm::StringMap<ConstValue> funcDefines(llvm::StringRef func) {
  llvm::StringMap<ConstValue> d;
  d["FUNC"] = ConstValue::getString(func);
  d["BLOCK"] = ConstValue::getInt(kBlock);
  return d;
}

/// Runs unary_f32 with FUNC = `func` on `x` and returns y.
std::vector<float> runUnaryF32(llvm::StringRef func, std::vector<float> x) {
  FrontendKernel k = compile("unary_f32", "*fp32,*fp32,i32", funcDefines(func));
  EXPECT_TRUE(k.kernel) << func.str();
  if (!k.kernel)
    return {};
  int n = static_cast<int>(x.size());
  std::vector<float> y(n, -123.0f);
  int grid = (n + kBlock - 1) / kBlock;
  EXPECT_EQ(errorText(runKernel(k.kernel, {grid, 1, 1},
                                {InterpArg::buffer(x.data(), n, DType::F32),
                                 InterpArg::buffer(y.data(), n, DType::F32),
                                 InterpArg::integer(n)},
                                {})),
            "")
      << func.str();
  return y;
}

/// Checks every `y[i]` against `want(x[i])` within `ulps` float ulps of the
/// larger of |want| and 1e-30.
void expectUnary(llvm::StringRef func, float lo, float hi,
                 const std::function<long double(long double)> &want,
                 double tol) {
  SCOPED_TRACE(func.str());
  std::vector<float> x = randomFloats(1000, lo, hi, 17 + func.size());
  std::vector<float> y = runUnaryF32(func, x);
  ASSERT_EQ(y.size(), x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    long double w = want(x[i]);
    ASSERT_FALSE(std::isnan(y[i])) << "x = " << x[i];
    ASSERT_NEAR(y[i], static_cast<double>(w),
                tol * std::max<double>(1.0, std::fabs(static_cast<double>(w))))
        << "x = " << x[i];
  }
}

TEST(LanguageLibdevice, TranscendentalsAgainstFormulas) {
  const double tol = 4e-7;
  expectUnary(
      "tanh", -4, 4,
      [](long double x) {
        long double e = std::exp(2 * x);
        return (e - 1) / (e + 1);
      },
      tol);
  expectUnary(
      "log1p", -0.9f, 3, [](long double x) { return std::log(1 + x); }, tol);
  expectUnary(
      "expm1", -2, 2, [](long double x) { return std::exp(x) - 1; }, tol);
  expectUnary(
      "sigmoid", -8, 8, [](long double x) { return 1 / (1 + std::exp(-x)); },
      tol);
  expectUnary(
      "pow", -3, 3, [](long double x) { return x * x * x; }, tol);
  expectUnary(
      "powi", -3, 3, [](long double x) { return x * x * x; }, tol);
  expectUnary(
      "fast_expf", -5, 5, [](long double x) { return std::exp(x); }, tol);
  expectUnary(
      "cospi", -2, 2,
      [](long double x) { return std::cos(3.14159265358979323846L * x); }, tol);
  expectUnary(
      "clamp", -1, 1, [](long double x) { return std::clamp(x, -0.25L, 0.5L); },
      0);
  expectUnary(
      "floor", -3, 3,
      [](long double x) { return std::floor(8 * x) + std::ceil(4 * x); }, 0);
  // erf by its Taylor series (|x| <= 1.5 converges fast).
  expectUnary(
      "erf", -1.5f, 1.5f,
      [](long double x) {
        long double sum = 0, term = x;
        for (int k = 0; k < 60; ++k) {
          sum += term / (2 * k + 1);
          term *= -x * x / (k + 1);
        }
        return 2 / std::sqrt(3.14159265358979323846L) * sum;
      },
      tol);
}

TEST(LanguageLibdevice, InversesAndRounding) {
  // asin and erfinv through their inverses.
  for (const char *func : {"asin", "erfinv"}) {
    SCOPED_TRACE(func);
    std::vector<float> x = randomFloats(1000, -0.99f, 0.99f, 5);
    std::vector<float> y = runUnaryF32(func, x);
    ASSERT_EQ(y.size(), x.size());
    for (size_t i = 0; i < x.size(); ++i) {
      long double back = std::string(func) == "asin"
                             ? std::sin(static_cast<long double>(y[i]))
                             : std::erf(static_cast<long double>(y[i]));
      ASSERT_NEAR(static_cast<double>(back), x[i], 2e-6) << "x = " << x[i];
    }
  }
  // rint: round half to even, done by hand.
  std::vector<float> x = randomFloats(1000, -4, 4, 6);
  for (int k = 0; k < 40; ++k)
    x[k] = (k - 20) / 16.0f; // x * 8 = multiples of 0.5: ties
  std::vector<float> y = runUnaryF32("rint", x);
  ASSERT_EQ(y.size(), x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    double v = double(x[i]) * 8.0, f = std::floor(v), want = f;
    if (v - f > 0.5 || (v - f == 0.5 && std::fmod(f, 2.0) != 0))
      want = f + 1;
    ASSERT_EQ(y[i], want) << "x = " << x[i];
  }
  // div_rz: the quotient rounded toward zero.
  y = runUnaryF32("div_rz", x);
  ASSERT_EQ(y.size(), x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    double q = double(x[i]) / 3.0;
    float f = static_cast<float>(q);
    if (std::fabs(double(f)) > std::fabs(q))
      f = std::nextafter(f, 0.0f);
    ASSERT_EQ(y[i], f) << "x = " << x[i];
  }
  // isnan(log(x)) on negative inputs, converted to float.
  y = runUnaryF32("isnan", x);
  for (size_t i = 0; i < x.size(); ++i)
    ASSERT_EQ(y[i], x[i] < 0 ? 1.0f : 0.0f) << "x = " << x[i];
}

TEST(LanguageLibdevice, IntegerBitFunctions) {
  std::vector<int32_t> x = randomInts(1000, INT32_MIN, INT32_MAX, 9);
  x[0] = 0;
  x[1] = -1;
  x[2] = 1;
  auto run = [&](llvm::StringRef func) {
    FrontendKernel k = compile("unary_i32", "*i32,*i32,i32", funcDefines(func));
    EXPECT_TRUE(k.kernel);
    std::vector<int32_t> y(x.size(), 0);
    int n = static_cast<int>(x.size());
    EXPECT_EQ(errorText(runKernel(k.kernel, {(n + kBlock - 1) / kBlock, 1, 1},
                                  {InterpArg::buffer(x.data(), n, DType::I32),
                                   InterpArg::buffer(y.data(), n, DType::I32),
                                   InterpArg::integer(n)},
                                  {})),
              "");
    return y;
  };
  std::vector<int32_t> clz = run("clz"), popc = run("popc"), brev = run("brev"),
                       ffs = run("ffs"), hi = run("umulhi"),
                       perm = run("byte_perm");
  for (size_t i = 0; i < x.size(); ++i) {
    uint32_t u = static_cast<uint32_t>(x[i]);
    int lead = 0;
    while (lead < 32 && !(u & (0x80000000u >> lead)))
      ++lead;
    ASSERT_EQ(clz[i], lead) << u;
    ASSERT_EQ(popc[i], static_cast<int>(std::bitset<32>(u).count())) << u;
    uint32_t rev = 0;
    for (int b = 0; b < 32; ++b)
      if (u & (1u << b))
        rev |= 1u << (31 - b);
    ASSERT_EQ(static_cast<uint32_t>(brev[i]), rev) << u;
    int first = 0;
    for (int b = 0; b < 32 && !first; ++b)
      if (u & (1u << b))
        first = b + 1;
    ASSERT_EQ(ffs[i], first) << u;
    uint32_t v = u + 12345u;
    ASSERT_EQ(static_cast<uint32_t>(hi[i]),
              static_cast<uint32_t>((uint64_t(u) * v) >> 32))
        << u;
    uint32_t w = u * 3u;
    uint32_t want = (u & 0xff) | ((w & 0xff) << 8) | (((u >> 8) & 0xff) << 16) |
                    (((w >> 8) & 0xff) << 24);
    ASSERT_EQ(static_cast<uint32_t>(perm[i]), want) << u;
  }
}

TEST(LanguageScalars, GroupedOrderingWithMinOfConstexpr) {
  for (auto [m, n] : {std::pair{1000, 700}, {129, 1000}, {64, 64}}) {
    SCOPED_TRACE(m);
    llvm::StringMap<ConstValue> d;
    d["BLOCK_M"] = ConstValue::getInt(64);
    d["BLOCK_N"] = ConstValue::getInt(32);
    d["GROUP_M"] = ConstValue::getInt(8);
    FrontendKernel k = compile("grouped_pids", "*i32,i32,i32", d);
    ASSERT_TRUE(k.kernel);
    int pm = (m + 63) / 64, pn = (n + 31) / 32, programs = pm * pn;
    std::vector<int32_t> out(2 * programs, -1);
    ASSERT_EQ(errorText(runKernel(
                  k.kernel, {programs, 1, 1},
                  {InterpArg::buffer(out.data(), out.size(), DType::I32),
                   InterpArg::integer(m), InterpArg::integer(n)},
                  {})),
              "");
    std::vector<int> seen(programs, 0);
    for (int pid = 0; pid < programs; ++pid) {
      int inGroup = 8 * pn, group = pid / inGroup, first = group * 8;
      int size = std::min(pm - first, 8);
      int wantM = first + (pid % inGroup) % size;
      int wantN = (pid % inGroup) / size;
      ASSERT_EQ(out[2 * pid], wantM) << pid;
      ASSERT_EQ(out[2 * pid + 1], wantN) << pid;
      ++seen[wantM * pn + wantN];
    }
    for (int s : seen)
      ASSERT_EQ(s, 1); // a permutation of the tiles
  }
}

TEST(LanguageControlFlow, EarlyReturnSkipsTheRest) {
  const int rows = 10, n = 100;
  FrontendKernel k = compile("early_return", "*fp32,*fp32,i32,i32",
                             {{"BLOCK", ConstValue::getInt(128)}});
  ASSERT_TRUE(k.kernel);
  std::vector<float> x = randomFloats((rows + 3) * n, -1, 1, 3);
  std::vector<float> y(x.size(), -7.0f);
  ASSERT_EQ(
      errorText(runKernel(k.kernel, {rows + 3, 1, 1},
                          {InterpArg::buffer(x.data(), x.size(), DType::F32),
                           InterpArg::buffer(y.data(), y.size(), DType::F32),
                           InterpArg::integer(rows), InterpArg::integer(n)},
                          {})),
      "");
  for (int r = 0; r < rows + 3; ++r)
    for (int c = 0; c < n; ++c) {
      bool written = r < rows && r % 3 != 0;
      ASSERT_EQ(y[r * n + c], written ? x[r * n + c] + 1.0f : -7.0f)
          << r << "," << c;
    }
}

TEST(LanguageConstexprs, DtypeAndStringConstexprsAndImportedHelper) {
  const int n = 1000;
  std::vector<float> x = randomFloats(n, -3, 3, 11);
  for (auto [dtype, act] : {std::pair{"bf16", "gelu"}, {"fp16", "relu"}}) {
    SCOPED_TRACE(std::string(dtype) + " " + act);
    llvm::StringMap<ConstValue> d;
    d["BLOCK"] = ConstValue::getInt(kBlock);
    d["X_dtype"] = ConstValue::getDType(dtype);
    d["ACTIVATION"] = ConstValue::getString(act);
    FrontendKernel k = compile("activation", "*fp32,*fp32,i32", d);
    ASSERT_TRUE(k.kernel);
    std::vector<float> y(n, 0.0f);
    ASSERT_EQ(errorText(runKernel(k.kernel, {(n + kBlock - 1) / kBlock, 1, 1},
                                  {InterpArg::buffer(x.data(), n, DType::F32),
                                   InterpArg::buffer(y.data(), n, DType::F32),
                                   InterpArg::integer(n)},
                                  {})),
              "");
    for (int i = 0; i < n; ++i) {
      bool bf16 = std::string(dtype) == "bf16";
      double v = bf16 ? bf16BitsToFloat(floatToBF16Bits(x[i]))
                      : halfBitsToFloat(floatToHalfBits(x[i]));
      double want;
      if (std::string(act) == "gelu") {
        long double inner = 0.7978845608028654L * (v + 0.044715L * v * v * v);
        long double e = std::exp(2 * inner);
        want = static_cast<double>(0.5L * v * (1 + (e - 1) / (e + 1)));
      } else {
        want = std::max(v, 0.0);
      }
      ASSERT_NEAR(y[i], want, 2e-6 * std::max(1.0, std::fabs(want))) << x[i];
    }
  }
}

TEST(LanguageTarget, TargetInfoAnswersForTheCapabilityInAConditionLoop) {
  const int n = 1000;
  std::vector<float> x = randomFloats(n, -3, 3, 5);
  // The CPU interpreter (0) is no CUDA device, as in Triton's interpreter.
  for (auto [capability, factor] :
       {std::pair{90, 9.0f}, {80, 8.0f}, {0, 2.0f}}) {
    SCOPED_TRACE(capability);
    llvm::StringMap<ConstValue> d;
    d["BLOCK"] = ConstValue::getInt(kBlock);
    FrontendKernel k = compile("target_scale", "*fp32,*fp32,i32", d, capability);
    ASSERT_TRUE(k.kernel);
    std::vector<float> y(n, -123.0f);
    // Three programs walk the eight blocks.
    ASSERT_EQ(errorText(runKernel(k.kernel, {3, 1, 1},
                                  {InterpArg::buffer(x.data(), n, DType::F32),
                                   InterpArg::buffer(y.data(), n, DType::F32),
                                   InterpArg::integer(n)},
                                  {})),
              "");
    for (int i = 0; i < n; ++i)
      ASSERT_EQ(y[i], x[i] * factor) << i;
  }
}

} // namespace
