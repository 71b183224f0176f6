//===- MLIRGenTypesTest.cpp - type promotion and broadcasting -------------===//
//
// This file implements unit tests of SemaTypes.h: Triton's promotion of
// binary operands (literals, integer widths, half precision, division),
// numpy broadcasting of static shapes, literal types and type names.
//
//===----------------------------------------------------------------------===//
#include "compiler/frontend/SemaTypes.h"

#include "compiler/ir/MgpDialect.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

using namespace mgp;

namespace {
class SemaTypesTest : public ::testing::Test {
protected:
  SemaTypesTest() { ctx.loadDialect<MgpDialect>(); }
  mlir::Type i(unsigned w) { return mlir::IntegerType::get(&ctx, w); }
  mlir::Type f16() { return mlir::Float16Type::get(&ctx); }
  mlir::Type bf16() { return mlir::BFloat16Type::get(&ctx); }
  mlir::Type f32() { return mlir::Float32Type::get(&ctx); }
  mlir::Type f64() { return mlir::Float64Type::get(&ctx); }
  /// computeArithmeticType with literal flags.
  mlir::Type promote(mlir::Type a, bool aLit, mlir::Type b, bool bLit,
                     bool divOrMod = false) {
    std::string why;
    return computeArithmeticType(a, aLit, b, bLit, divOrMod, why);
  }
  mlir::MLIRContext ctx;
};
} // namespace

TEST_F(SemaTypesTest, IntLiteralAdoptsTheBlockType) {
  // `x + 1` keeps x's integer type, whatever its width.
  EXPECT_EQ(promote(i(32), false, i(32), true), i(32));
  EXPECT_EQ(promote(i(8), false, i(32), true), i(8));
  EXPECT_EQ(promote(i(32), true, i(64), false), i(64));
  // An int literal with a float block: the float type.
  EXPECT_EQ(promote(f16(), false, i(32), true), f16());
  EXPECT_EQ(promote(i(32), true, bf16(), false), bf16());
}

TEST_F(SemaTypesTest, FloatLiteralWithIntBlockIsFp32) {
  // int32 block + 0.5: the literal's kind is higher, so it takes part.
  EXPECT_EQ(promote(i(32), false, f32(), true), f32());
  EXPECT_EQ(promote(f32(), true, i(64), false), f32());
  // A float literal with a float block keeps the block's type.
  EXPECT_EQ(promote(f16(), false, f32(), true), f16());
}

TEST_F(SemaTypesTest, BlockWithBlock) {
  EXPECT_EQ(promote(i(32), false, i(64), false), i(64));
  EXPECT_EQ(promote(i(16), false, i(8), false), i(16));
  EXPECT_EQ(promote(i(32), false, f32(), false), f32());
  EXPECT_EQ(promote(f16(), false, f32(), false), f32());
  EXPECT_EQ(promote(f64(), false, f32(), false), f64());
  EXPECT_EQ(promote(f16(), false, f16(), false), f16());
  // Triton 3.6: fp16 comes before bf16; bf16 stays bf16 only with bf16.
  EXPECT_EQ(promote(f16(), false, bf16(), false), f16());
  EXPECT_EQ(promote(bf16(), false, bf16(), false), bf16());
  EXPECT_EQ(promote(bf16(), false, i(32), false), f32());
  EXPECT_EQ(promote(i(8), false, bf16(), false), f32());
  EXPECT_EQ(promote(f16(), false, i(32), false), f16());
  EXPECT_EQ(promote(i(1), false, i(1), false), i(1));
  EXPECT_EQ(promote(i(1), false, i(32), false), i(32));
}

TEST_F(SemaTypesTest, HalfDivisionComputesInFp32) {
  EXPECT_EQ(promote(f16(), false, f16(), false, /*divOrMod=*/true), f32());
  EXPECT_EQ(promote(bf16(), false, i(32), true, /*divOrMod=*/true), f32());
  EXPECT_EQ(promote(f32(), false, i(32), true, /*divOrMod=*/true), f32());
}

TEST_F(SemaTypesTest, PointersAreRejected) {
  std::string why;
  mlir::Type ptr = PointerType::get(f32());
  EXPECT_FALSE(computeArithmeticType(ptr, false, i(32), false, false, why));
  EXPECT_FALSE(why.empty());
}

TEST_F(SemaTypesTest, IntegerPromotion) {
  EXPECT_EQ(promoteIntegers(i(1), i(1)), i(1));
  EXPECT_EQ(promoteIntegers(i(1), i(32)), i(32));
  EXPECT_EQ(promoteIntegers(i(64), i(32)), i(64));
}

// C's usual arithmetic conversions, as Triton's integer_promote_impl: at equal
// width the unsigned type wins, a wider signed type beats a narrower
// unsigned one, a wider unsigned one beats a narrower signed one.
TEST_F(SemaTypesTest, UnsignedIntegerPromotion) {
  auto u = [&](unsigned w) {
    return mlir::IntegerType::get(&ctx, w, mlir::IntegerType::Unsigned);
  };
  EXPECT_EQ(promoteIntegers(u(32), i(32)), u(32));
  EXPECT_EQ(promoteIntegers(i(32), u(32)), u(32));
  EXPECT_EQ(promoteIntegers(u(8), i(32)), i(32));
  EXPECT_EQ(promoteIntegers(i(32), u(64)), u(64));
  EXPECT_EQ(promoteIntegers(u(16), u(32)), u(32));
  std::string why;
  // A literal (kind int) does not take part against an unsigned block.
  EXPECT_EQ(computeArithmeticType(u(32), false, i(64), true, false, why),
            u(32));
  EXPECT_EQ(computeArithmeticType(u(32), false, i(32), false, false, why),
            u(32));
  // Division and remainder of integers of different signedness: Triton's
  // error.
  EXPECT_FALSE(computeArithmeticType(u(32), false, i(32), false, true, why));
  EXPECT_NE(why.find("different signedness"), std::string::npos);
  EXPECT_EQ(computeArithmeticType(u(32), false, i(32), true, true, why),
            u(32));
  EXPECT_EQ(computeArithmeticType(u(32), false, f32(), true, false, why),
            f32());
  // The two views of signedness.
  EXPECT_EQ(withSignedness(i(32), true), u(32));
  EXPECT_EQ(withSignedness(i(1), true), i(1));
  EXPECT_EQ(withSignedness(f32(), true), f32());
  EXPECT_EQ(toSignless(u(16)), i(16));
  auto block = mlir::RankedTensorType::get({4, 8}, i(32));
  EXPECT_TRUE(isUnsignedType(withSignedness(block, true)));
  EXPECT_EQ(toSignless(withSignedness(block, true)), block);
  EXPECT_EQ(getTypeName(u(8)), "uint8");
  EXPECT_EQ(getTypeName(i(8)), "int8");
  EXPECT_TRUE(isUnsignedDTypeName("uint32"));
  EXPECT_FALSE(isUnsignedDTypeName("int32"));
}

TEST_F(SemaTypesTest, LiteralTypes) {
  EXPECT_EQ(getIntLiteralType(&ctx, 7), i(32));
  EXPECT_EQ(getIntLiteralType(&ctx, -2147483648LL), i(32));
  EXPECT_EQ(getIntLiteralType(&ctx, 2147483648LL), i(64));
  // In a binary operation, as Triton's to_tensor: 2^31 .. 2^32-1 are uint32.
  auto u32 = mlir::IntegerType::get(&ctx, 32, mlir::IntegerType::Unsigned);
  EXPECT_EQ(getIntLiteralType(&ctx, 2147483648LL, true), u32);
  EXPECT_EQ(getIntLiteralType(&ctx, 4294967295LL, true), u32);
  EXPECT_EQ(getIntLiteralType(&ctx, 4294967296LL, true), i(64));
  EXPECT_EQ(getIntLiteralType(&ctx, -2147483649LL, true), i(64));
  EXPECT_EQ(getFloatLiteralType(&ctx, 1e-5), f32());
  EXPECT_EQ(getFloatLiteralType(&ctx, -INFINITY), f32());
  EXPECT_EQ(getFloatLiteralType(&ctx, 1e300), f64());
}

TEST_F(SemaTypesTest, Broadcasting) {
  using V = llvm::SmallVector<int64_t>;
  EXPECT_EQ(*broadcastShapes({128, 1}, {1, 64}), (V{128, 64}));
  EXPECT_EQ(*broadcastShapes({64}, {32, 64}), (V{32, 64}));
  EXPECT_EQ(*broadcastShapes({32, 1}, {64}), (V{32, 64}));
  EXPECT_EQ(*broadcastShapes({}, {4, 8}), (V{4, 8}));
  EXPECT_EQ(*broadcastShapes({2, 1, 8}, {4, 1}), (V{2, 4, 8}));
  EXPECT_FALSE(broadcastShapes({3}, {4}).has_value());
  EXPECT_FALSE(broadcastShapes({16, 32}, {32, 16}).has_value());
}

TEST_F(SemaTypesTest, Names) {
  EXPECT_EQ(getTypeName(f32()), "fp32");
  EXPECT_EQ(getTypeName(i(1)), "int1");
  EXPECT_EQ(getTypeName(PointerType::get(f16())), "pointer<fp16>");
  EXPECT_EQ(describeType(mlir::RankedTensorType::get({64, 32}, f32())),
            "<64x32xfp32>");
  EXPECT_EQ(describeShape({16, 8}), "[16, 8]");
  EXPECT_EQ(lookupDTypeName(&ctx, "bfloat16"), bf16());
  EXPECT_EQ(lookupDTypeName(&ctx, "int1"), i(1));
  EXPECT_TRUE(mlir::isa_and_nonnull<mlir::Float8E5M2Type>(
      lookupDTypeName(&ctx, "float8e5")));
  EXPECT_TRUE(mlir::isa_and_nonnull<mlir::Float8E4M3FNType>(
      lookupDTypeName(&ctx, "float8e4nv")));
  // Triton's float8e4b15 while a kernel is generated (MLIRGenFp8E4B15.cpp).
  EXPECT_TRUE(isFp8E4B15(lookupDTypeName(&ctx, "float8e4b15")));
  EXPECT_EQ(getTypeName(lookupDTypeName(&ctx, "fp8e4b15")), "fp8e4b15");
  EXPECT_FALSE(lookupDTypeName(&ctx, "float8e4b8")); // AMD's
  EXPECT_EQ(getTypeName(lookupDTypeName(&ctx, "float8e4nv")), "fp8e4nv");
}
