//===- HalfPrecisionTest.cpp - f16 / bf16 builtins on the interpreter -----===//
//
// This file implements the interpreter half of the f16/bf16 builtin tests
// (HalfPrecisionChecks.h): each check on DeviceKind::CPU.
//
//===----------------------------------------------------------------------===//
#include "HalfPrecisionChecks.h"

using namespace mgp;
using namespace mgp::halftest;

namespace {

TEST(HalfPrecision, CorrectlyRoundedOpsMatchAPFloatBitForBit) {
  checkCorrectlyRoundedOps(DeviceKind::CPU);
}

TEST(HalfPrecision, TranscendentalsWithinHalfTolerance) {
  checkTranscendentals(DeviceKind::CPU);
}

TEST(HalfPrecision, ConversionsRoundToNearestEven) {
  checkConversions(DeviceKind::CPU);
}

TEST(HalfPrecision, ReductionsAndMixedPromotion) {
  checkReductionsAndPromotion(DeviceKind::CPU);
}

} // namespace
