//===- Compare.h - a computed array against its reference -------*- C++ -*-===//
//
// This file declares the one comparison of numbers the project uses, in tests
// and in `mgp-run --check` / one-kernel runs: a computed array against its
// reference, element by element. NaN and Inf cannot hide in it: a maximum
// taken with std::max drops NaN (std::max(err, NaN) is err), so the error is
// measured over the pairs where both values are finite, and every pair whose
// non-finite values differ (NaN against a number, Inf against a finite value
// or against the other Inf) is counted and located. A comparison with such a
// pair never passes; one where both sides agree on NaN/Inf passes only when
// the caller allows non-finite results (logits and activations must be
// finite).
//
//===----------------------------------------------------------------------===//
#ifndef MGP_RUNTIME_COMPARE_H
#define MGP_RUNTIME_COMPARE_H

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <string>

namespace mgp {

/// How a computed array (`got`) compares with its reference (`want`).
struct ValueComparison {
  int64_t count = 0;      ///< pairs compared (the shorter length)
  bool sizeMatch = true;  ///< both arrays have the same length
  double maxAbsError = 0; ///< max |got - want| over pairs both finite
  int64_t maxAbsErrorAt = -1;
  double maxAbsWant = 0; ///< max |want| over finite references
  /// max |got - want| / max(1, |want|) over pairs both finite: a per-element
  /// error, relative for large values and absolute for small ones.
  double maxElementError = 0;
  int64_t maxElementErrorAt = -1;

  /// Pairs whose non-finite values differ: NaN against anything but NaN,
  /// Inf against a finite value or against the other Inf.
  int64_t nonFiniteMismatches = 0;
  int64_t firstMismatchAt = -1;
  double mismatchGot = 0, mismatchWant = 0;
  /// Pairs where both are NaN, or both the same Inf.
  int64_t nonFiniteMatches = 0;
  int64_t firstNonFiniteAt = -1;
  double nonFiniteValue = 0;

  /// maxAbsError / maxAbsWant (maxAbsError when every reference is 0);
  /// +Inf when a NaN/Inf differs or the lengths differ, so that any bound
  /// on it fails.
  double maxRelError() const;
  /// True when the lengths match, no NaN/Inf differs, maxRelError() <=
  /// \p tolerance and, unless \p allowNonFinite, neither side holds a NaN or
  /// an Inf.
  bool within(double tolerance, bool allowNonFinite = false) const;
  /// The same with maxElementError as the measure.
  bool withinElementwise(double tolerance, bool allowNonFinite = false) const;
  /// One line: the first NaN/Inf mismatch with its position and both values
  /// when there is one, else the errors and where the largest is.
  std::string describe() const;
};

/// Compares \p got with \p want element by element.
ValueComparison compareValues(llvm::ArrayRef<float> got,
                              llvm::ArrayRef<float> want);
ValueComparison compareValues(llvm::ArrayRef<double> got,
                              llvm::ArrayRef<double> want);
/// A float result against a double reference.
ValueComparison compareValues(llvm::ArrayRef<float> got,
                              llvm::ArrayRef<double> want);

} // namespace mgp

#endif // MGP_RUNTIME_COMPARE_H
