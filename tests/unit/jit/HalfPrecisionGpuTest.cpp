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
#include "tests/unit/support/GpuTestSupport.h"

using namespace mgp;
using namespace mgp::halftest;

namespace {

TEST(HalfPrecisionGpu, CorrectlyRoundedOpsMatchAPFloatBitForBit) {
  MGP_SKIP_WITHOUT_GPU();
  checkCorrectlyRoundedOps(DeviceKind::GPU);
}

TEST(HalfPrecisionGpu, TranscendentalsWithinHalfTolerance) {
  MGP_SKIP_WITHOUT_GPU();
  checkTranscendentals(DeviceKind::GPU);
}

TEST(HalfPrecisionGpu, ConversionsRoundToNearestEven) {
  MGP_SKIP_WITHOUT_GPU();
  checkConversions(DeviceKind::GPU);
}

TEST(HalfPrecisionGpu, ReductionsAndMixedPromotion) {
  MGP_SKIP_WITHOUT_GPU();
  checkReductionsAndPromotion(DeviceKind::GPU);
}

} // namespace
