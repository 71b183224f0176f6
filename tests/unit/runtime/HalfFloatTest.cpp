//===- HalfFloatTest.cpp - fp32 <-> fp16 / bf16 bit conversions -----------===//
//
// This file implements the tests of runtime/HalfFloat.h, the one scalar
// conversion shared by the graph's storage types and the interpreter:
// fp32 -> fp16 / bf16 against llvm::APFloat (round to nearest even) on
// random bit patterns, random finite values, subnormal halves and exact
// ties, and fp16 / bf16 -> fp32 exact for every 16-bit pattern.
//
//===----------------------------------------------------------------------===//

#include "runtime/HalfFloat.h"
#include "tests/unit/support/APFloatReference.h"

#include "llvm/ADT/APFloat.h"

#include "gtest/gtest.h"

#include <cmath>
#include <random>
#include <vector>

namespace {

using mgp::test::apfloatBits;

TEST(HalfFloat, FromFloatMatchesAPFloat) {
  std::mt19937 gen(23);
  std::uniform_int_distribution<uint32_t> anyBits;
  std::uniform_real_distribution<float> finite(-70000.0f, 70000.0f);
  std::vector<float> values;
  for (int i = 0; i < 100000; ++i) {
    float v = finite(gen);
    values.push_back(v);
    values.push_back(v * 1e-9f); // subnormal halves
    float bits = mgp::bitsToFloat(anyBits(gen));
    if (!std::isnan(bits))
      values.push_back(bits);
  }
  for (float tie : {1.0f + 0x1p-11f, 1.0f + 3 * 0x1p-11f, 1.0f + 0x1p-8f,
                    1.0f + 3 * 0x1p-8f, 0x1p-25f, 3 * 0x1p-25f, 65520.0f,
                    65519.0f, INFINITY, -INFINITY, 0.0f, -0.0f})
    values.push_back(tie);
  for (float v : values) {
    ASSERT_EQ(mgp::floatToHalfBits(v),
              apfloatBits(v, llvm::APFloat::IEEEhalf()))
        << v;
    ASSERT_EQ(mgp::floatToBF16Bits(v), apfloatBits(v, llvm::APFloat::BFloat()))
        << v;
  }
  EXPECT_TRUE(std::isnan(mgp::halfBitsToFloat(mgp::floatToHalfBits(NAN))));
  EXPECT_TRUE(std::isnan(mgp::bf16BitsToFloat(mgp::floatToBF16Bits(NAN))));
}

TEST(HalfFloat, ToFloatIsExactForEveryPattern) {
  for (uint32_t bits = 0; bits < 0x10000u; ++bits) {
    uint16_t h = static_cast<uint16_t>(bits);
    llvm::APFloat half(llvm::APFloat::IEEEhalf(), llvm::APInt(16, h));
    llvm::APFloat bf16(llvm::APFloat::BFloat(), llvm::APInt(16, h));
    float fromHalf = mgp::halfBitsToFloat(h);
    float fromBF16 = mgp::bf16BitsToFloat(h);
    if (half.isNaN()) {
      EXPECT_TRUE(std::isnan(fromHalf)) << bits;
    } else {
      EXPECT_EQ(mgp::floatBits(fromHalf), mgp::floatBits(half.convertToFloat()))
          << bits;
      EXPECT_EQ(mgp::floatToHalfBits(fromHalf), h) << bits;
    }
    if (bf16.isNaN()) {
      EXPECT_TRUE(std::isnan(fromBF16)) << bits;
    } else {
      EXPECT_EQ(mgp::floatBits(fromBF16), mgp::floatBits(bf16.convertToFloat()))
          << bits;
      EXPECT_EQ(mgp::floatToBF16Bits(fromBF16), h) << bits;
    }
  }
}

} // namespace
