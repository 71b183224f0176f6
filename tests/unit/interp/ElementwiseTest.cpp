//===- ElementwiseTest.cpp - arith and math ops against plain C++ ---------===//
//
// This file implements the numerics tests of the interpreter's elementwise
// ops: every float and integer arith op, comparisons with every predicate,
// select, shifts, casts (with f16 / bf16 rounding checked against APFloat)
// and the math functions, each on random non-zero data against plain C++.
//
//===----------------------------------------------------------------------===//
#include "InterpTestSupport.h"
#include "tests/unit/support/APFloatReference.h"

#include "llvm/ADT/APFloat.h"

#include <cmath>
#include <functional>

using namespace mgp;
using namespace mgp::test;

namespace {

constexpr size_t kN = 1024;

struct FloatCase {
  std::string body;
  std::function<double(float, float)> ref;
  double relTol; // 0: the result must be exactly the correctly rounded value
  float lo = -4, hi = 4;
};

TEST(InterpElementwise, FloatOps) {
  auto f = [](const char *op) {
    return std::string("%z = ") + op + " %x, %y : tensor<256xf32>";
  };
  auto u = [](const char *op) {
    return std::string("%z = ") + op + " %x : tensor<256xf32>";
  };
  std::vector<FloatCase> cases = {
      {f("arith.addf"), [](float x, float y) { return x + y; }, 0},
      {f("arith.subf"), [](float x, float y) { return x - y; }, 0},
      {f("arith.mulf"), [](float x, float y) { return x * y; }, 0},
      {f("arith.divf"), [](float x, float y) { return x / y; }, 0},
      {f("arith.remf"), [](float x, float y) { return std::fmod(x, y); }, 0},
      {f("arith.maximumf"), [](float x, float y) { return std::max(x, y); }, 0},
      {f("arith.minimumf"), [](float x, float y) { return std::min(x, y); }, 0},
      {f("arith.maxnumf"), [](float x, float y) { return std::fmax(x, y); }, 0},
      {f("arith.minnumf"), [](float x, float y) { return std::fmin(x, y); }, 0},
      {u("arith.negf"), [](float x, float) { return -x; }, 0},
      {u("math.exp"), [](float x, float) { return std::exp(x); }, 1e-6},
      {u("math.exp2"), [](float x, float) { return std::exp2(x); }, 1e-6},
      {u("math.log"), [](float x, float) { return std::log(x); }, 1e-6, 0.01f, 8},
      {u("math.log2"), [](float x, float) { return std::log2(x); }, 1e-6, 0.01f, 8},
      {u("math.sqrt"), [](float x, float) { return std::sqrt(x); }, 0, 0.01f, 8},
      {u("math.rsqrt"), [](float x, float) { return 1 / std::sqrt(double(x)); }, 1e-6, 0.01f, 8},
      {u("math.absf"), [](float x, float) { return std::fabs(x); }, 0},
      {u("math.erf"), [](float x, float) { return std::erf(x); }, 1e-6},
      {u("math.tanh"), [](float x, float) { return std::tanh(x); }, 1e-6},
      {u("math.floor"), [](float x, float) { return std::floor(x); }, 0},
      {u("math.ceil"), [](float x, float) { return std::ceil(x); }, 0},
      {u("math.sin"), [](float x, float) { return std::sin(x); }, 1e-6},
      {"%z = math.fma %x, %y, %x : tensor<256xf32>",
       [](float x, float y) { return std::fma(x, y, x); }, 0},
  };
  unsigned seed = 1;
  for (const FloatCase &c : cases) {
    std::vector<float> xs = randomFloats(kN, c.lo, c.hi, seed++);
    std::vector<float> ys = randomFloats(kN, 0.25f, 4, seed++);
    for (size_t k = 0; k < kN; k += 2)
      ys[k] = -ys[k];
    std::vector<float> zs = runElementwise<float, float, float>(
        "f32", DType::F32, "f32", DType::F32, "f32", DType::F32, c.body, xs, ys);
    ASSERT_EQ(zs.size(), kN) << c.body;
    for (size_t k = 0; k < kN; ++k) {
      double want = c.ref(xs[k], ys[k]);
      if (c.relTol == 0)
        ASSERT_EQ(zs[k], static_cast<float>(want)) << c.body << " at " << k;
      else
        ASSERT_NEAR(zs[k], want, c.relTol * std::max(1.0, std::fabs(want)))
            << c.body << " at " << k;
    }
  }
}

TEST(InterpElementwise, FloatCompareEveryPredicate) {
  std::vector<float> xs = randomFloats(kN, -2, 2, 11);
  std::vector<float> ys = randomFloats(kN, -2, 2, 12);
  for (size_t k = 0; k < kN; k += 7)
    ys[k] = xs[k]; // equal pairs
  for (size_t k = 3; k < kN; k += 31)
    xs[k] = NAN; // unordered pairs
  using P = std::function<bool(float, float)>;
  auto uno = [](float x, float y) { return std::isnan(x) || std::isnan(y); };
  std::vector<std::pair<const char *, P>> preds = {
      {"false", [](float, float) { return false; }},
      {"oeq", [](float x, float y) { return x == y; }},
      {"ogt", [](float x, float y) { return x > y; }},
      {"oge", [](float x, float y) { return x >= y; }},
      {"olt", [](float x, float y) { return x < y; }},
      {"ole", [](float x, float y) { return x <= y; }},
      {"one", [=](float x, float y) { return !uno(x, y) && x != y; }},
      {"ord", [=](float x, float y) { return !uno(x, y); }},
      {"ueq", [=](float x, float y) { return uno(x, y) || x == y; }},
      {"ugt", [=](float x, float y) { return uno(x, y) || x > y; }},
      {"uge", [=](float x, float y) { return uno(x, y) || x >= y; }},
      {"ult", [=](float x, float y) { return uno(x, y) || x < y; }},
      {"ule", [=](float x, float y) { return uno(x, y) || x <= y; }},
      {"une", [](float x, float y) { return x != y; }},
      {"uno", uno},
      {"true", [](float, float) { return true; }},
  };
  for (const auto &[name, ref] : preds) {
    std::string body = std::string("%m = arith.cmpf ") + name +
                       ", %x, %y : tensor<256xf32>\n"
                       "  %z = arith.extui %m : tensor<256xi1> to tensor<256xi32>";
    std::vector<int32_t> zs = runElementwise<float, float, int32_t>(
        "f32", DType::F32, "f32", DType::F32, "i32", DType::I32, body, xs, ys);
    ASSERT_EQ(zs.size(), kN);
    for (size_t k = 0; k < kN; ++k)
      ASSERT_EQ(zs[k], ref(xs[k], ys[k]) ? 1 : 0) << name << " at " << k;
  }
}

struct IntCase {
  std::string op;
  std::function<int64_t(int32_t, int32_t)> ref;
  int32_t ylo = INT32_MIN, yhi = INT32_MAX;
};

TEST(InterpElementwise, IntOpsWrapAndCDivision) {
  auto u32 = [](int32_t v) { return static_cast<uint32_t>(v); };
  auto wrap = [](uint64_t v) { return static_cast<int64_t>(static_cast<int32_t>(v)); };
  std::vector<IntCase> cases = {
      {"arith.addi", [=](int32_t x, int32_t y) { return wrap(u32(x) + u32(y)); }},
      {"arith.subi", [=](int32_t x, int32_t y) { return wrap(u32(x) - u32(y)); }},
      {"arith.muli", [=](int32_t x, int32_t y) { return wrap(u32(x) * u32(y)); }},
      {"arith.divsi", [](int32_t x, int32_t y) { return int64_t(x / y); }, -1000, 1000},
      {"arith.remsi", [](int32_t x, int32_t y) { return int64_t(x % y); }, -1000, 1000},
      {"arith.divui", [=](int32_t x, int32_t y) { return wrap(u32(x) / u32(y)); }, -1000, 1000},
      {"arith.remui", [=](int32_t x, int32_t y) { return wrap(u32(x) % u32(y)); }, -1000, 1000},
      {"arith.ceildivsi",
       [](int32_t x, int32_t y) { return int64_t(std::ceil(double(x) / double(y))); },
       -1000, 1000},
      {"arith.floordivsi",
       [](int32_t x, int32_t y) { return int64_t(std::floor(double(x) / double(y))); },
       -1000, 1000},
      {"arith.maxsi", [](int32_t x, int32_t y) { return int64_t(std::max(x, y)); }},
      {"arith.minsi", [](int32_t x, int32_t y) { return int64_t(std::min(x, y)); }},
      {"arith.maxui", [=](int32_t x, int32_t y) { return wrap(std::max(u32(x), u32(y))); }},
      {"arith.minui", [=](int32_t x, int32_t y) { return wrap(std::min(u32(x), u32(y))); }},
      {"arith.andi", [](int32_t x, int32_t y) { return int64_t(x & y); }},
      {"arith.ori", [](int32_t x, int32_t y) { return int64_t(x | y); }},
      {"arith.xori", [](int32_t x, int32_t y) { return int64_t(x ^ y); }},
      {"arith.shli", [=](int32_t x, int32_t y) { return wrap(u32(x) << y); }, 0, 31},
      {"arith.shrsi", [](int32_t x, int32_t y) { return int64_t(x >> y); }, 0, 31},
      {"arith.shrui", [=](int32_t x, int32_t y) { return wrap(u32(x) >> y); }, 0, 31},
  };
  unsigned seed = 100;
  for (const IntCase &c : cases) {
    std::vector<int32_t> xs = randomInts(kN, INT32_MIN, INT32_MAX, seed++);
    std::vector<int32_t> ys = randomInts(kN, c.ylo, c.yhi, seed++);
    for (int32_t &y : ys)
      if (y == 0)
        y = 7;
    if (c.ylo == -1000) // keep dividends small too, with both signs
      for (int32_t &x : xs)
        x %= 100000;
    std::string body = "%z = " + c.op + " %x, %y : tensor<256xi32>";
    std::vector<int32_t> zs = runElementwise<int32_t, int32_t, int32_t>(
        "i32", DType::I32, "i32", DType::I32, "i32", DType::I32, body, xs, ys);
    ASSERT_EQ(zs.size(), kN);
    for (size_t k = 0; k < kN; ++k)
      ASSERT_EQ(zs[k], c.ref(xs[k], ys[k]))
          << c.op << " at " << k << ": " << xs[k] << ", " << ys[k];
  }
}

TEST(InterpElementwise, CDivisionOnNegatives) {
  std::vector<int32_t> xs(256), ys(256);
  int32_t pairs[][2] = {{-7, 2}, {7, -2}, {-7, -2}, {7, 2}, {-1, 3}, {INT32_MIN, -1}};
  for (size_t k = 0; k < 256; ++k) {
    xs[k] = pairs[k % 6][0];
    ys[k] = pairs[k % 6][1];
  }
  std::vector<int32_t> q = runElementwise<int32_t, int32_t, int32_t>(
      "i32", DType::I32, "i32", DType::I32, "i32", DType::I32,
      "%z = arith.divsi %x, %y : tensor<256xi32>", xs, ys);
  std::vector<int32_t> r = runElementwise<int32_t, int32_t, int32_t>(
      "i32", DType::I32, "i32", DType::I32, "i32", DType::I32,
      "%z = arith.remsi %x, %y : tensor<256xi32>", xs, ys);
  int32_t wantQ[] = {-3, -3, 3, 3, 0, INT32_MIN}, wantR[] = {-1, 1, -1, 1, -1, 0};
  for (size_t k = 0; k < 6; ++k) {
    EXPECT_EQ(q[k], wantQ[k]) << xs[k] << " / " << ys[k];
    EXPECT_EQ(r[k], wantR[k]) << xs[k] << " % " << ys[k];
  }
}

TEST(InterpElementwise, IntCompareEveryPredicateAndSelect) {
  std::vector<int32_t> xs = randomInts(kN, -50, 50, 7), ys = randomInts(kN, -50, 50, 8);
  using P = std::function<bool(int32_t, int32_t)>;
  auto u = [](int32_t v) { return static_cast<uint32_t>(v); };
  std::vector<std::pair<const char *, P>> preds = {
      {"eq", [](int32_t x, int32_t y) { return x == y; }},
      {"ne", [](int32_t x, int32_t y) { return x != y; }},
      {"slt", [](int32_t x, int32_t y) { return x < y; }},
      {"sle", [](int32_t x, int32_t y) { return x <= y; }},
      {"sgt", [](int32_t x, int32_t y) { return x > y; }},
      {"sge", [](int32_t x, int32_t y) { return x >= y; }},
      {"ult", [=](int32_t x, int32_t y) { return u(x) < u(y); }},
      {"ule", [=](int32_t x, int32_t y) { return u(x) <= u(y); }},
      {"ugt", [=](int32_t x, int32_t y) { return u(x) > u(y); }},
      {"uge", [=](int32_t x, int32_t y) { return u(x) >= u(y); }},
  };
  for (const auto &[name, ref] : preds) {
    std::string body = std::string("%m = arith.cmpi ") + name +
                       ", %x, %y : tensor<256xi32>\n"
                       "  %z = arith.select %m, %x, %y : tensor<256xi1>, tensor<256xi32>";
    std::vector<int32_t> zs = runElementwise<int32_t, int32_t, int32_t>(
        "i32", DType::I32, "i32", DType::I32, "i32", DType::I32, body, xs, ys);
    ASSERT_EQ(zs.size(), kN);
    for (size_t k = 0; k < kN; ++k)
      ASSERT_EQ(zs[k], ref(xs[k], ys[k]) ? xs[k] : ys[k]) << name << " at " << k;
  }
}

TEST(InterpElementwise, TruncfToHalfAndBF16RoundToNearestEven) {
  std::vector<float> xs = randomFloats(kN, -70000, 70000, 21);
  for (size_t k = 0; k < kN; k += 3)
    xs[k] *= 1e-7f; // tiny values: subnormal halves
  std::vector<float> ys(kN, 1.0f);
  for (auto [name, sem, dtype] :
       {std::tuple{"f16", &llvm::APFloat::IEEEhalf(), DType::F16},
        std::tuple{"bf16", &llvm::APFloat::BFloat(), DType::BF16}}) {
    std::string body = std::string("%z = arith.truncf %x : tensor<256xf32> to tensor<256x") +
                       name + ">";
    std::vector<uint16_t> zs = runElementwise<float, float, uint16_t>(
        "f32", DType::F32, "f32", DType::F32, name, dtype, body, xs, ys);
    ASSERT_EQ(zs.size(), kN);
    for (size_t k = 0; k < kN; ++k)
      ASSERT_EQ(zs[k], apfloatBits(xs[k], *sem)) << name << " of " << xs[k];
  }
}

TEST(InterpElementwise, HalfArithmeticRoundsEachResult) {
  // f16 inputs, f16 add: the exact sum rounded once to f16.
  std::vector<float> xf = randomFloats(kN, -100, 100, 31), yf = randomFloats(kN, -1, 1, 32);
  std::vector<uint16_t> xs(kN), ys(kN);
  for (size_t k = 0; k < kN; ++k) {
    xs[k] = apfloatBits(xf[k], llvm::APFloat::IEEEhalf());
    ys[k] = apfloatBits(yf[k], llvm::APFloat::IEEEhalf());
  }
  std::vector<uint16_t> zs = runElementwise<uint16_t, uint16_t, uint16_t>(
      "f16", DType::F16, "f16", DType::F16, "f16", DType::F16,
      "%z = arith.addf %x, %y : tensor<256xf16>", xs, ys);
  for (size_t k = 0; k < kN; ++k) {
    llvm::APFloat a(llvm::APFloat::IEEEhalf(), llvm::APInt(16, xs[k]));
    llvm::APFloat b(llvm::APFloat::IEEEhalf(), llvm::APInt(16, ys[k]));
    a.add(b, llvm::APFloat::rmNearestTiesToEven);
    ASSERT_EQ(zs[k], a.bitcastToAPInt().getZExtValue()) << k;
  }
}

TEST(InterpElementwise, IntFloatCastsSaturateLikePTX) {
  std::vector<float> xs = randomFloats(kN, -3e9f, 3e9f, 41);
  xs[0] = NAN;
  xs[1] = -0.75f;
  xs[2] = 2.5f;
  std::vector<float> ys(kN, 0.0f);
  std::vector<int32_t> zs = runElementwise<float, float, int32_t>(
      "f32", DType::F32, "f32", DType::F32, "i32", DType::I32,
      "%z = arith.fptosi %x : tensor<256xf32> to tensor<256xi32>", xs, ys);
  for (size_t k = 0; k < kN; ++k) {
    double t = std::isnan(xs[k]) ? 0 : std::trunc(double(xs[k]));
    int64_t want = static_cast<int64_t>(std::clamp(t, double(INT32_MIN), double(INT32_MAX)));
    ASSERT_EQ(zs[k], want) << xs[k];
  }
  std::vector<int32_t> is = randomInts(kN, INT32_MIN, INT32_MAX, 42), js(kN, 0);
  std::vector<float> fs = runElementwise<int32_t, int32_t, float>(
      "i32", DType::I32, "i32", DType::I32, "f32", DType::F32,
      "%z = arith.sitofp %x : tensor<256xi32> to tensor<256xf32>", is, js);
  std::vector<float> us = runElementwise<int32_t, int32_t, float>(
      "i32", DType::I32, "i32", DType::I32, "f32", DType::F32,
      "%z = arith.uitofp %x : tensor<256xi32> to tensor<256xf32>", is, js);
  for (size_t k = 0; k < kN; ++k) {
    ASSERT_EQ(fs[k], static_cast<float>(is[k]));
    ASSERT_EQ(us[k], static_cast<float>(static_cast<uint32_t>(is[k])));
  }
}

TEST(InterpElementwise, IntWidthCastsAndBitcast) {
  std::vector<int32_t> xs = randomInts(kN, INT32_MIN, INT32_MAX, 51), ys(kN, 0);
  // trunci to i8 then extsi / extui back to i32.
  std::vector<int32_t> sext = runElementwise<int32_t, int32_t, int32_t>(
      "i32", DType::I32, "i32", DType::I32, "i32", DType::I32,
      "%t = arith.trunci %x : tensor<256xi32> to tensor<256xi8>\n"
      "  %z = arith.extsi %t : tensor<256xi8> to tensor<256xi32>",
      xs, ys);
  std::vector<int32_t> zext = runElementwise<int32_t, int32_t, int32_t>(
      "i32", DType::I32, "i32", DType::I32, "i32", DType::I32,
      "%t = arith.trunci %x : tensor<256xi32> to tensor<256xi8>\n"
      "  %z = arith.extui %t : tensor<256xi8> to tensor<256xi32>",
      xs, ys);
  std::vector<float> bits = runElementwise<int32_t, int32_t, float>(
      "i32", DType::I32, "i32", DType::I32, "f32", DType::F32,
      "%z = arith.bitcast %x : tensor<256xi32> to tensor<256xf32>", xs, ys);
  for (size_t k = 0; k < kN; ++k) {
    ASSERT_EQ(sext[k], static_cast<int8_t>(xs[k]));
    ASSERT_EQ(zext[k], static_cast<uint8_t>(xs[k]));
    uint32_t b;
    std::memcpy(&b, &bits[k], 4);
    if (!std::isnan(bits[k])) {
      ASSERT_EQ(b, static_cast<uint32_t>(xs[k]));
    }
  }
}

TEST(InterpElementwise, DenseAndSplatConstants) {
  std::vector<float> xs = randomFloats(kN, -1, 1, 61), ys(kN, 0.0f);
  std::vector<float> zs = runElementwise<float, float, float>(
      "f32", DType::F32, "f32", DType::F32, "f32", DType::F32,
      "%c = arith.constant dense<2.5> : tensor<256xf32>\n"
      "  %z = arith.mulf %x, %c : tensor<256xf32>",
      xs, ys);
  for (size_t k = 0; k < kN; ++k)
    ASSERT_EQ(zs[k], xs[k] * 2.5f);
}

} // namespace
