//===- CompareTest.cpp - compareValues lets no NaN or Inf through ---------===//
//
// The project's one comparison (runtime/Compare.h) on random data: errors
// measured against a reference computed here, and every way a NaN or an Inf
// can stand where the reference has a number fails, with its position.
//
//===----------------------------------------------------------------------===//
#include "runtime/Compare.h"

#include "gtest/gtest.h"

#include <cmath>
#include <limits>
#include <random>
#include <vector>

using namespace mgp;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

std::vector<float> randomFloats(size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(-4.0f, 4.0f);
  std::vector<float> v(n);
  for (float &x : v)
    x = dist(rng);
  return v;
}

TEST(CompareTest, MeasuresTheErrorOfFiniteValues) {
  std::vector<float> want = randomFloats(1000, 1);
  std::vector<float> got = want;
  got[417] += 0.125f;
  double maxWant = 0;
  for (float w : want)
    maxWant = std::max(maxWant, double(std::fabs(w)));
  ValueComparison c = compareValues(got, want);
  EXPECT_EQ(c.count, 1000);
  EXPECT_EQ(c.maxAbsErrorAt, 417);
  EXPECT_DOUBLE_EQ(c.maxAbsError, double(got[417]) - double(want[417]));
  EXPECT_DOUBLE_EQ(c.maxAbsWant, maxWant);
  EXPECT_DOUBLE_EQ(c.maxRelError(), c.maxAbsError / maxWant);
  EXPECT_TRUE(c.within(0.125 / maxWant + 1e-9));
  EXPECT_FALSE(c.within(0.1 / maxWant));
  EXPECT_EQ(c.nonFiniteMismatches, 0);
}

TEST(CompareTest, EqualArraysHaveNoError) {
  std::vector<float> want = randomFloats(257, 2);
  ValueComparison c = compareValues(want, want);
  EXPECT_EQ(c.maxAbsError, 0.0);
  EXPECT_TRUE(c.within(0.0));
  EXPECT_TRUE(c.withinElementwise(0.0));
}

// The case std::max hides: the error at the NaN is NaN, and
// std::max(err, NaN) keeps err.
TEST(CompareTest, NaNWhereTheReferenceIsFiniteFails) {
  std::vector<float> want = randomFloats(100, 3);
  std::vector<float> got = want;
  got[42] = std::numeric_limits<float>::quiet_NaN();
  ValueComparison c = compareValues(got, want);
  EXPECT_EQ(c.nonFiniteMismatches, 1);
  EXPECT_EQ(c.firstMismatchAt, 42);
  EXPECT_TRUE(std::isinf(c.maxRelError()));
  EXPECT_FALSE(c.within(1e30));
  EXPECT_FALSE(c.within(1e30, /*allowNonFinite=*/true));
  EXPECT_FALSE(c.within(INFINITY, true)) << "not even an infinite tolerance";
  EXPECT_FALSE(c.withinElementwise(1e30, true));
  EXPECT_FALSE(c.withinElementwise(INFINITY, true));
  EXPECT_NE(c.describe().find("NaN at [42]"), std::string::npos)
      << c.describe();
}

TEST(CompareTest, InfWhereTheReferenceIsFiniteFails) {
  std::vector<float> want = randomFloats(100, 4);
  std::vector<float> got = want;
  got[7] = std::numeric_limits<float>::infinity();
  ValueComparison c = compareValues(got, want);
  EXPECT_EQ(c.nonFiniteMismatches, 1);
  EXPECT_EQ(c.firstMismatchAt, 7);
  EXPECT_FALSE(c.within(1e30, true));
  EXPECT_NE(c.describe().find("+Inf at [7]"), std::string::npos)
      << c.describe();
}

TEST(CompareTest, FiniteWhereTheReferenceIsNaNOrInfFails) {
  std::vector<double> want = {1.0, kNaN, 2.0, -kInf};
  ValueComparison a = compareValues(std::vector<double>{1.0, 0.0, 2.0, -kInf},
                                    want);
  EXPECT_EQ(a.nonFiniteMismatches, 1);
  EXPECT_EQ(a.firstMismatchAt, 1);
  EXPECT_FALSE(a.within(1e30, true));
  ValueComparison b =
      compareValues(std::vector<double>{1.0, kNaN, 2.0, kInf}, want);
  EXPECT_EQ(b.nonFiniteMismatches, 1) << "+Inf against -Inf";
  EXPECT_EQ(b.firstMismatchAt, 3);
  EXPECT_FALSE(b.within(1e30, true));
}

TEST(CompareTest, MatchingNaNAndInfPassOnlyWhenAllowed) {
  std::vector<double> want = {1.0, kNaN, 2.0, -kInf};
  std::vector<double> got = {1.0, kNaN, 2.0, -kInf};
  ValueComparison c = compareValues(got, want);
  EXPECT_EQ(c.nonFiniteMismatches, 0);
  EXPECT_EQ(c.nonFiniteMatches, 2);
  EXPECT_EQ(c.firstNonFiniteAt, 1);
  EXPECT_TRUE(c.within(0.0, /*allowNonFinite=*/true));
  EXPECT_FALSE(c.within(1e30)) << "logits must be finite";
  EXPECT_FALSE(c.withinElementwise(1e30));
}

TEST(CompareTest, LengthMismatchFails) {
  std::vector<float> want = randomFloats(10, 5);
  std::vector<float> got(want.begin(), want.begin() + 9);
  ValueComparison c = compareValues(got, want);
  EXPECT_FALSE(c.sizeMatch);
  EXPECT_FALSE(c.within(1e30, true));
  EXPECT_NE(c.describe().find("length mismatch"), std::string::npos);
}

TEST(CompareTest, ElementErrorIsRelativeForLargeValuesAbsoluteForSmall) {
  std::vector<double> want = {1000.0, 0.001};
  std::vector<double> got = {1001.0, 0.002};
  ValueComparison c = compareValues(got, want);
  EXPECT_DOUBLE_EQ(c.maxElementError, 1e-3);
  EXPECT_TRUE(c.withinElementwise(1.0001e-3));
  EXPECT_FALSE(c.withinElementwise(0.9e-3));
}

} // namespace
