//===- Compare.cpp - a computed array against its reference ---------------===//
//
// This file implements compareValues (Compare.h): one pass over the pairs,
// finite ones measured, non-finite ones matched or located.
//
//===----------------------------------------------------------------------===//
#include "runtime/Compare.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

using namespace mgp;

namespace {

/// True when \p got and \p want are the same non-finite value: both NaN, or
/// the same Inf.
bool sameNonFinite(double got, double want) {
  if (std::isnan(want))
    return std::isnan(got);
  return std::isinf(want) && got == want;
}

template <typename G, typename W>
ValueComparison compare(llvm::ArrayRef<G> got, llvm::ArrayRef<W> want) {
  ValueComparison c;
  c.sizeMatch = got.size() == want.size();
  c.count = int64_t(std::min(got.size(), want.size()));
  for (int64_t i = 0; i < c.count; ++i) {
    double g = double(got[i]), w = double(want[i]);
    if (!std::isfinite(g) || !std::isfinite(w)) {
      if (sameNonFinite(g, w)) {
        if (c.nonFiniteMatches++ == 0) {
          c.firstNonFiniteAt = i;
          c.nonFiniteValue = w;
        }
      } else if (c.nonFiniteMismatches++ == 0) {
        c.firstMismatchAt = i;
        c.mismatchGot = g;
        c.mismatchWant = w;
      }
      if (std::isfinite(w))
        c.maxAbsWant = std::max(c.maxAbsWant, std::fabs(w));
      continue;
    }
    double err = std::fabs(g - w);
    c.maxAbsWant = std::max(c.maxAbsWant, std::fabs(w));
    if (err > c.maxAbsError || c.maxAbsErrorAt < 0) {
      c.maxAbsError = err;
      c.maxAbsErrorAt = i;
    }
    double scaled = err / std::max(1.0, std::fabs(w));
    if (scaled > c.maxElementError || c.maxElementErrorAt < 0) {
      c.maxElementError = scaled;
      c.maxElementErrorAt = i;
    }
  }
  return c;
}

/// NaN, +Inf, -Inf or the number with 9 significant digits.
std::string formatValue(double v) {
  if (std::isnan(v))
    return "NaN";
  if (std::isinf(v))
    return v > 0 ? "+Inf" : "-Inf";
  char text[32];
  std::snprintf(text, sizeof(text), "%.9g", v);
  return text;
}

} // namespace

double ValueComparison::maxRelError() const {
  if (!sizeMatch || nonFiniteMismatches)
    return std::numeric_limits<double>::infinity();
  return maxAbsWant > 0 ? maxAbsError / maxAbsWant : maxAbsError;
}

bool ValueComparison::within(double tolerance, bool allowNonFinite) const {
  if (!sizeMatch || nonFiniteMismatches ||
      (!allowNonFinite && nonFiniteMatches))
    return false; // even an infinite tolerance
  return maxRelError() <= tolerance;
}

bool ValueComparison::withinElementwise(double tolerance,
                                        bool allowNonFinite) const {
  if (!sizeMatch || nonFiniteMismatches ||
      (!allowNonFinite && nonFiniteMatches))
    return false;
  return maxElementError <= tolerance;
}

std::string ValueComparison::describe() const {
  if (!sizeMatch)
    return llvm::formatv("length mismatch: the result has a different number "
                         "of elements than the reference ({0} compared)",
                         count)
        .str();
  if (nonFiniteMismatches)
    return llvm::formatv("{0} at [{1}] where the reference is {2} ({3} "
                         "NaN/Inf mismatch{4} in {5} elements)",
                         formatValue(mismatchGot), firstMismatchAt,
                         formatValue(mismatchWant),
                         nonFiniteMismatches,
                         nonFiniteMismatches == 1 ? "" : "es", count)
        .str();
  std::string text = llvm::formatv("max relative error {0:E3} (max abs error "
                                   "{1:E3} at [{2}], max |reference| {3:E3}), "
                                   "max element error {4:E3} at [{5}], {6} "
                                   "elements",
                                   maxRelError(), maxAbsError, maxAbsErrorAt,
                                   maxAbsWant, maxElementError,
                                   maxElementErrorAt, count)
                         .str();
  if (nonFiniteMatches)
    text += llvm::formatv("; {0} at [{1}] on both sides ({2} such)",
                          formatValue(nonFiniteValue), firstNonFiniteAt,
                          nonFiniteMatches)
                .str();
  return text;
}

ValueComparison mgp::compareValues(llvm::ArrayRef<float> got,
                                   llvm::ArrayRef<float> want) {
  return compare(got, want);
}

ValueComparison mgp::compareValues(llvm::ArrayRef<double> got,
                                   llvm::ArrayRef<double> want) {
  return compare(got, want);
}

ValueComparison mgp::compareValues(llvm::ArrayRef<float> got,
                                   llvm::ArrayRef<double> want) {
  return compare(got, want);
}
