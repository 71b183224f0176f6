//===- BitcastTest.cpp - x.to(dtype, bitcast=True) on the interpreter -----===//
//
// This file implements the numerics tests of bitcasts in the kernel language:
// the kernels of bitcast.mgp go through the front end (arith.bitcast) and the
// target-independent passes and run on the interpreter, on fresh random bit
// patterns (finite, both signs, every exponent, subnormals included), with
// padded (100) and power-of-two (128) blocks. Every result is compared bit for
// bit: fp32 -> int32 against memcpy, the tf32 rounding trick
// `((bits + 0x1000) & -8192)` against the interpreter's roundTF32 (the
// rounding of tf32 dot operands) and ties against "away from zero", fp16 <->
// int16 and fp16 -> bf16 against the input bits, scalars and Python numbers.
//
//===----------------------------------------------------------------------===//
#include "FrontendKernelSupport.h"
#include "InterpTestSupport.h"

#include "runtime/interp/Numerics.h"

#include <cmath>
#include <cstring>
#include <limits>

using namespace mgp;
using namespace mgp::test;

namespace {

FrontendKernel compile(llvm::StringRef name, llvm::StringRef signature,
                       int block) {
  llvm::StringMap<ConstValue> defines;
  if (block)
    defines["BLOCK"] = ConstValue::getInt(block);
  return compileFrontendKernel(MGP_BITCAST_KERNELS, name, signature, defines,
                               name.str());
}

uint32_t bitsOf(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}
float floatOf(uint32_t b) {
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}

/// `n` random finite floats drawn as bit patterns (uniform sign, exponent and
/// mantissa; exponent 255, inf and NaN, is redrawn).
std::vector<float> randomFiniteFloats(size_t n, unsigned seed) {
  std::mt19937 gen(seed);
  std::vector<float> v;
  while (v.size() < n) {
    uint32_t b = gen();
    if ((b & 0x7f800000u) != 0x7f800000u && (b & 0x7fffffffu) != 0)
      v.push_back(floatOf(b));
  }
  return v;
}

constexpr int kN = 251; // 3 blocks of 100 (padded to 128), 2 of 128

TEST(Bitcast, Fp32ToInt32AndBack) {
  for (int block : {100, 128}) {
    SCOPED_TRACE(block);
    FrontendKernel k = compile("f32_bits", "*fp32,*i32,*fp32,i32", block);
    ASSERT_TRUE(k.kernel);
    std::vector<float> x = randomFiniteFloats(kN, 11 + block);
    x[0] = 0.0f;
    x[1] = -0.0f;
    x[2] = std::numeric_limits<float>::denorm_min();
    x[3] = -std::numeric_limits<float>::max();
    std::vector<int32_t> bits(kN, 0);
    std::vector<float> back(kN, 0.0f);
    int grid = (kN + block - 1) / block;
    ASSERT_EQ(errorText(runKernel(
                  k.kernel, {grid, 1, 1},
                  {InterpArg::buffer(x.data(), x.size(), DType::F32),
                   InterpArg::buffer(bits.data(), bits.size(), DType::I32),
                   InterpArg::buffer(back.data(), back.size(), DType::F32),
                   InterpArg::integer(kN)},
                  {})),
              "");
    for (int i = 0; i < kN; ++i) {
      ASSERT_EQ(uint32_t(bits[i]), bitsOf(x[i])) << "at " << i << ": " << x[i];
      ASSERT_EQ(bitsOf(back[i]), bitsOf(x[i])) << "at " << i;
    }
  }
}

TEST(Bitcast, Tf32RoundingTrickMatchesRoundTF32) {
  for (int block : {100, 128}) {
    SCOPED_TRACE(block);
    FrontendKernel k = compile("tf32_round_away", "*fp32,*fp32,i32", block);
    ASSERT_TRUE(k.kernel);
    std::vector<float> x = randomFiniteFloats(kN, 23 + block);
    // Ties (the 13 dropped bits exactly half) of both signs and several
    // magnitudes, a subnormal tie, and the largest float (rounds to inf).
    const uint32_t ties[] = {0x3f801000u,          0xbf801000u, 0x4b7ff000u,
                             0xc0003000u,          0x00001000u, 0x80001000u,
                             0x7f7fe000u | 0x1000u};
    for (size_t t = 0; t < std::size(ties); ++t)
      x[t] = floatOf(ties[t]);
    x[std::size(ties)] = std::numeric_limits<float>::max();
    std::vector<float> y(kN, 0.0f);
    int grid = (kN + block - 1) / block;
    ASSERT_EQ(
        errorText(runKernel(k.kernel, {grid, 1, 1},
                            {InterpArg::buffer(x.data(), x.size(), DType::F32),
                             InterpArg::buffer(y.data(), y.size(), DType::F32),
                             InterpArg::integer(kN)},
                            {})),
        "");
    for (int i = 0; i < kN; ++i)
      ASSERT_EQ(bitsOf(y[i]), bitsOf(interp::roundTF32(x[i])))
          << "at " << i << ": " << x[i];
    for (size_t t = 0; t < std::size(ties); ++t) {
      // Away from zero: the magnitude grows by exactly half a tf32 ulp.
      ASSERT_EQ(bitsOf(y[t]) & 0x1fffu, 0u);
      ASSERT_EQ(bitsOf(y[t]), ties[t] + 0x1000u) << "tie " << t;
    }
    EXPECT_TRUE(std::isinf(y[std::size(ties)]));
  }
}

TEST(Bitcast, Fp16ToInt16AndBf16) {
  for (int block : {100, 128}) {
    SCOPED_TRACE(block);
    FrontendKernel k = compile("f16_bits", "*fp16,*i16,*fp16,*bf16,i32", block);
    ASSERT_TRUE(k.kernel);
    // Random finite, non-zero fp16 bit patterns whose bf16 reading is finite
    // too (no all-ones bf16 exponent: bits 7..14).
    std::mt19937 gen(37 + block);
    std::vector<uint16_t> h;
    while (h.size() < size_t(kN)) {
      uint16_t b = uint16_t(gen());
      if ((b & 0x7c00u) != 0x7c00u && (b & 0x7f80u) != 0x7f80u &&
          (b & 0x7fffu) != 0)
        h.push_back(b);
    }
    std::vector<int16_t> bits(kN, 0);
    std::vector<uint16_t> back(kN, 0), bf(kN, 0);
    int grid = (kN + block - 1) / block;
    ASSERT_EQ(errorText(runKernel(
                  k.kernel, {grid, 1, 1},
                  {InterpArg::buffer(h.data(), h.size(), DType::F16),
                   InterpArg::buffer(bits.data(), bits.size(), DType::I16),
                   InterpArg::buffer(back.data(), back.size(), DType::F16),
                   InterpArg::buffer(bf.data(), bf.size(), DType::BF16),
                   InterpArg::integer(kN)},
                  {})),
              "");
    for (int i = 0; i < kN; ++i) {
      ASSERT_EQ(uint16_t(bits[i]), h[i]) << "at " << i;
      ASSERT_EQ(back[i], h[i]) << "at " << i;
      ASSERT_EQ(bf[i], h[i]) << "at " << i;
    }
  }
}

TEST(Bitcast, ScalarsAndPythonNumbers) {
  FrontendKernel k =
      compile("scalar_and_constant_bits", "*fp32,*i32,*fp64,*i64", 0);
  ASSERT_TRUE(k.kernel);
  std::vector<float> xs = randomFiniteFloats(8, 41);
  std::mt19937_64 gen(43);
  for (int trial = 0; trial < 8; ++trial) {
    float x = xs[trial];
    uint64_t dBits;
    do
      dBits = gen();
    while ((dBits & 0x7ff0000000000000ull) == 0x7ff0000000000000ull ||
           (dBits & 0x000fffffffffffffull) == 0x000fffffffffffffull);
    double d;
    std::memcpy(&d, &dBits, 8);
    std::vector<int32_t> bits(3, 0);
    std::vector<int64_t> dbits(2, 0);
    ASSERT_EQ(errorText(runKernel(
                  k.kernel, {1, 1, 1},
                  {InterpArg::buffer(&x, 1, DType::F32),
                   InterpArg::buffer(bits.data(), bits.size(), DType::I32),
                   InterpArg::buffer(&d, 1, DType::F64),
                   InterpArg::buffer(dbits.data(), dbits.size(), DType::I64)},
                  {})),
              "");
    EXPECT_EQ(uint32_t(bits[0]), bitsOf(x));
    EXPECT_EQ(uint32_t(bits[1]), bitsOf(1.5f)); // 0x3fc00000
    EXPECT_EQ(bits[2], -2);
    EXPECT_EQ(uint64_t(dbits[0]), dBits);
    EXPECT_EQ(uint64_t(dbits[1]), dBits + 1); // the next double up in bits
  }
}

} // namespace
