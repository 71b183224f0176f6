//===- LogitComparisonTest.cpp - mgp-run --check's logit comparison -------===//
//
// This file tests run::compareLogits (tools/mgp-run/LaunchReport.h): a
// top-1 disagreement passes only where the reference's own margin between the
// two classes is within the tolerance (a near-tie that rounding flips), never
// where the reference prefers its class clearly, and a NaN fails.
//
//===----------------------------------------------------------------------===//
#include "tools/mgp-run/LaunchReport.h"

#include "gtest/gtest.h"

#include <cmath>
#include <random>

using namespace mgp;
using mgp::graph::Tensor;

namespace {

/// Random logits [rows, classes] in [-100, 100], each row's class 0 raised
/// to 150 so that the arg-max is clear.
Tensor randomLogits(int64_t rows, int64_t classes, unsigned seed) {
  Tensor t({rows, classes});
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(-100.f, 100.f);
  for (float &v : t.data)
    v = dist(rng);
  for (int64_t r = 0; r < rows; ++r)
    t.data[r * classes] = 150.f;
  return t;
}

TEST(LogitComparison, NearTieFlipPassesClearDisagreementFails) {
  Tensor want = randomLogits(4, 10, 1);
  // Row 2: class 3 is 0.2 below class 0 in the reference (margin 0.2/150).
  want.data[2 * 10 + 3] = 149.8f;
  Tensor got = want;
  got.data[2 * 10 + 3] = 150.1f; // the flip: within 2e-3 of max |logit|
  run::LogitComparison c = run::compareLogits(got, want);
  EXPECT_EQ(c.top1Agree, 3);
  EXPECT_NEAR(c.maxFlipMargin, 0.2 / 150.0, 1e-6);
  EXPECT_TRUE(c.passes(1e-2));
  EXPECT_FALSE(c.passes(1e-3)); // the element error 0.3/150 is beyond it

  // Row 1: the reference prefers class 0 by 50 (a third of max |logit|).
  Tensor clear = want;
  clear.data[1 * 10 + 5] = 100.f;
  Tensor flipped = clear;
  flipped.data[1 * 10 + 5] = 151.f;
  run::LogitComparison d = run::compareLogits(flipped, clear);
  EXPECT_EQ(d.top1Agree, 3);
  EXPECT_GT(d.maxFlipMargin, 0.3);
  EXPECT_FALSE(d.passes(1.0 / 3.0)); // element error 51/150 too
  EXPECT_FALSE(d.passes(0.2));

  // Every element within 1e-2 of max |logit| (1.5), yet the reference's margin
  // (2.0, 1.3e-2) is not a near-tie: the flip alone fails.
  Tensor close = want;
  close.data[0 * 10 + 4] = 148.f;
  Tensor swapped = close;
  swapped.data[0 * 10 + 0] = 149.f;
  swapped.data[0 * 10 + 4] = 149.2f;
  run::LogitComparison e = run::compareLogits(swapped, close);
  EXPECT_TRUE(e.values.within(1e-2));
  EXPECT_NEAR(e.maxFlipMargin, 2.0 / 150.0, 1e-6);
  EXPECT_FALSE(e.passes(1e-2));
  EXPECT_TRUE(e.passes(2e-2));
}

TEST(LogitComparison, AgreementAndNaN) {
  Tensor want = randomLogits(3, 7, 2);
  Tensor got = want;
  got.data[5] += 0.01f;
  run::LogitComparison c = run::compareLogits(got, want);
  EXPECT_EQ(c.top1Agree, 3);
  EXPECT_EQ(c.maxFlipMargin, 0.0);
  EXPECT_TRUE(c.passes(1e-3));
  got.data[0] = std::nanf("");
  run::LogitComparison n = run::compareLogits(got, want);
  EXPECT_FALSE(n.passes(1.0));
}

} // namespace
