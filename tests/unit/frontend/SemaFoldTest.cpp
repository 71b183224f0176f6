//===- SemaFoldTest.cpp - folding compile-time integers -------------------===//
//
// foldBinary against Python 3's integer arithmetic: the expected values were
// computed by Python (unbounded ints); a result outside -2**63 .. 2**64 - 1
// (int64, or Triton's uint64 literals) is an error (nullptr below).
//
//===----------------------------------------------------------------------===//
#include "compiler/frontend/SemaFold.h"

#include "llvm/ADT/APInt.h"
#include "llvm/ADT/StringExtras.h"

#include <gtest/gtest.h>

using namespace mgp;
using ast::BinaryOp;

namespace {

using U128 = unsigned __int128;

__int128 parseWide(const char *text) {
  llvm::APInt v(128, text, 10);
  return __int128((U128(v.extractBitsAsZExtValue(64, 64)) << 64) |
                  v.extractBitsAsZExtValue(64, 0));
}

std::string toText(__int128 v) {
  llvm::APInt ap(128, {uint64_t(U128(v)), uint64_t(U128(v) >> 64)});
  return llvm::toString(ap, 10, /*Signed=*/true);
}

struct Case {
  BinaryOp op;
  const char *a, *b, *expected;
};

TEST(SemaFoldTest, IntegersAsPython) {
  const Case cases[] = {
    {BinaryOp::Add, "9223372036854775807", "1", "9223372036854775808"},
    {BinaryOp::Add, "18446744073709551615", "1", nullptr},
    {BinaryOp::Sub, "9223372036854775808", "1", "9223372036854775807"},
    {BinaryOp::Sub, "-9223372036854775808", "1", nullptr},
    {BinaryOp::Mul, "11400714819323198485", "1", "11400714819323198485"},
    {BinaryOp::Mul, "4052555153018976267", "3", "12157665459056928801"},
    {BinaryOp::Mul, "4052555153018976267", "5", nullptr},
    {BinaryOp::Mul, "18446744073709551615", "18446744073709551615", nullptr},
    {BinaryOp::Mul, "-9223372036854775808", "-1", "9223372036854775808"},
    {BinaryOp::FloorDiv, "13787848793156543934", "7", "1969692684736649133"},
    {BinaryOp::FloorDiv, "-9223372036854775808", "-1", "9223372036854775808"},
    {BinaryOp::FloorDiv, "-7", "18446744073709551615", "-1"},
    {BinaryOp::Mod, "9223372036854775808", "-3", "-1"},
    {BinaryOp::Mod, "-5", "18446744073709551615", "18446744073709551610"},
    {BinaryOp::Mod, "-9223372036854775808", "-1", "0"},
    {BinaryOp::Pow, "3", "40", "12157665459056928801"},
    {BinaryOp::Pow, "3", "41", nullptr},
    {BinaryOp::Pow, "2", "64", nullptr},
    {BinaryOp::Pow, "-2", "63", "-9223372036854775808"},
    {BinaryOp::Pow, "-1", "9223372036854775807", "-1"},
    {BinaryOp::LShift, "1", "63", "9223372036854775808"},
    {BinaryOp::LShift, "3", "62", "13835058055282163712"},
    {BinaryOp::LShift, "5", "62", nullptr},
    {BinaryOp::LShift, "-1", "63", "-9223372036854775808"},
    {BinaryOp::LShift, "-1", "64", nullptr},
    {BinaryOp::LShift, "0", "100", "0"},
    {BinaryOp::LShift, "1", "100", nullptr},
    {BinaryOp::RShift, "18446744073709551615", "1", "9223372036854775807"},
    {BinaryOp::RShift, "-1", "100", "-1"},
    {BinaryOp::RShift, "9223372036854775808", "200", "0"},
    {BinaryOp::BitAnd, "-1", "11400714819323198485", "11400714819323198485"},
    {BinaryOp::BitOr, "-9223372036854775808", "9223372036854775808", "-9223372036854775808"},
    {BinaryOp::BitXor, "18446744073709551615", "-1", nullptr},
    {BinaryOp::BitXor, "9223372036854775808", "9223372036854775809", "1"},
  };
  for (const Case &c : cases) {
    SCOPED_TRACE(std::string(c.a) + " op" + std::to_string(int(c.op)) + " " + c.b);
    std::optional<SemaValue> a = SemaValue::getWideInt(parseWide(c.a));
    std::optional<SemaValue> b = SemaValue::getWideInt(parseWide(c.b));
    ASSERT_TRUE(a && b);
    std::string why;
    std::optional<SemaValue> r = foldBinary(c.op, *a, *b, why);
    if (!c.expected) {
      EXPECT_FALSE(r) << "got " << toText(r->getWideInt());
      EXPECT_NE(why.find("does not fit in 64 bits"), std::string::npos) << why;
      continue;
    }
    ASSERT_TRUE(r) << why;
    ASSERT_TRUE(r->isInt());
    EXPECT_EQ(toText(r->getWideInt()), c.expected);
    // Past int64 the value is an unsigned int (Triton's uint64 literal).
    EXPECT_EQ(r->isUnsigned(), r->getWideInt() > INT64_MAX);
  }
}

TEST(SemaFoldTest, WideIntRange) {
  EXPECT_FALSE(SemaValue::getWideInt(parseWide("18446744073709551616")));
  EXPECT_FALSE(SemaValue::getWideInt(parseWide("-9223372036854775809")));
  std::optional<SemaValue> top = SemaValue::getWideInt(parseWide("18446744073709551615"));
  ASSERT_TRUE(top);
  EXPECT_EQ(top->getInt(), -1); // the bits
  EXPECT_DOUBLE_EQ(top->getAsDouble(), 18446744073709551615.0);
  EXPECT_EQ(top->describe(), "constexpr int 18446744073709551615");
  EXPECT_TRUE(top->constEquals(*SemaValue::getWideInt(parseWide("18446744073709551615"))));
  EXPECT_FALSE(top->constEquals(SemaValue::getInt(-1)));
  // A literal keeps its value when taken as a literal again.
  EXPECT_EQ(toText(top->asLiteral().getWideInt()), "18446744073709551615");
}

TEST(SemaFoldTest, ShiftErrors) {
  std::string why;
  EXPECT_FALSE(foldBinary(BinaryOp::LShift, SemaValue::getInt(1), SemaValue::getInt(-1), why));
  EXPECT_EQ(why, "negative shift count");
  EXPECT_FALSE(foldBinary(BinaryOp::FloorDiv, SemaValue::getInt(1), SemaValue::getInt(0), why));
  EXPECT_EQ(why, "division by zero");
}

} // namespace
