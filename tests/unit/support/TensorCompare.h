//===- TensorCompare.h - model outputs against their reference --*- C++ -*-===//
//
// This file implements the relative error of model outputs that the model and
// backend tests check, max |got - want| / max |want| over every output,
// through the project's one comparison (runtime/Compare.h): a NaN or an Inf
// on either side fails the calling test with its position and makes the
// error +Inf, so that no bound on it can pass.
//
//===----------------------------------------------------------------------===//
#ifndef MGP_TESTS_UNIT_SUPPORT_TENSORCOMPARE_H
#define MGP_TESTS_UNIT_SUPPORT_TENSORCOMPARE_H

#include "graph/ir/Tensor.h"
#include "runtime/Compare.h"

#include "llvm/ADT/ArrayRef.h"
#include "gtest/gtest.h"

#include <cmath>
#include <vector>

namespace mgp::test {

/// max |got - want| / max |want| over every output (one tensor converts to a
/// list of one); +Inf, with a test failure naming the element, when the
/// outputs differ in number or shape or either side holds a NaN or an Inf.
inline double relativeError(llvm::ArrayRef<graph::Tensor> got,
                            llvm::ArrayRef<graph::Tensor> want) {
  EXPECT_EQ(got.size(), want.size());
  if (got.size() != want.size())
    return INFINITY;
  std::vector<float> allGot, allWant;
  for (size_t t = 0; t < want.size(); ++t) {
    EXPECT_EQ(got[t].shape, want[t].shape) << "output " << t;
    if (got[t].shape != want[t].shape)
      return INFINITY;
    allGot.insert(allGot.end(), got[t].data.begin(), got[t].data.end());
    allWant.insert(allWant.end(), want[t].data.begin(), want[t].data.end());
  }
  ValueComparison c = compareValues(allGot, allWant);
  EXPECT_GT(c.maxAbsWant, 0.0) << "an all-zero reference checks nothing";
  if (!c.within(INFINITY)) {
    ADD_FAILURE() << c.describe();
    return INFINITY;
  }
  return c.maxRelError();
}

} // namespace mgp::test

#endif // MGP_TESTS_UNIT_SUPPORT_TENSORCOMPARE_H
