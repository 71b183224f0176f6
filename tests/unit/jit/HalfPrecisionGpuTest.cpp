//===- HalfPrecisionGpuTest.cpp - f16 / bf16 builtins on the GPU ----------===//
//
// This file implements the GPU half of the f16/bf16 builtin tests
// (HalfPrecisionChecks.h; label gpu, "skipped: no GPU" without one): the
// same kernels and APFloat references as on the interpreter, through the
// PTX lowering (native f16/bf16 add, mul, fma, max, cvt.rn; f32 for `/`,
// exp, sqrt, log), bit for bit where the operation is correctly rounded.
//
//===----------------------------------------------------------------------===//
#include "HalfPrecisionChecks.h"

#include "runtime/Device.h"

using namespace mgp;
using namespace mgp::halftest;

namespace {

bool haveGpu() {
  llvm::Expected<int> count = getDeviceCount();
  if (!count) {
    llvm::consumeError(count.takeError());
    return false;
  }
  return *count > 0;
}

#define SKIP_WITHOUT_GPU()                                                     \
  if (!haveGpu())                                                              \
  GTEST_SKIP() << "skipped: no GPU"

TEST(HalfPrecisionGpu, CorrectlyRoundedOpsMatchAPFloatBitForBit) {
  SKIP_WITHOUT_GPU();
  checkCorrectlyRoundedOps(DeviceKind::GPU);
}

TEST(HalfPrecisionGpu, TranscendentalsWithinHalfTolerance) {
  SKIP_WITHOUT_GPU();
  checkTranscendentals(DeviceKind::GPU);
}

TEST(HalfPrecisionGpu, ConversionsRoundToNearestEven) {
  SKIP_WITHOUT_GPU();
  checkConversions(DeviceKind::GPU);
}

TEST(HalfPrecisionGpu, ReductionsAndMixedPromotion) {
  SKIP_WITHOUT_GPU();
  checkReductionsAndPromotion(DeviceKind::GPU);
}

} // namespace
