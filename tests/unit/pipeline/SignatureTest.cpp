//===- SignatureTest.cpp - tests of the AOT signature parser --------------===//
//
// This file implements unit tests for mgp::parseSignature: every entry kind,
// hints, round-tripping through Signature::str, and the errors for malformed
// signatures.
//
//===----------------------------------------------------------------------===//
#include "compiler/api/Signature.h"

#include "gtest/gtest.h"

using namespace mgp;

namespace {

std::string errorOf(llvm::StringRef text) {
  llvm::Expected<Signature> signature = parseSignature(text);
  if (signature)
    return "";
  return llvm::toString(signature.takeError());
}

TEST(SignatureTest, ParsesTritonAOTExample) {
  llvm::Expected<Signature> signature =
      parseSignature("*fp32:16,*fp32,i32,1024");
  ASSERT_TRUE(static_cast<bool>(signature))
      << llvm::toString(signature.takeError());
  ASSERT_EQ(signature->params.size(), 4u);
  const SignatureParam &a = signature->params[0];
  EXPECT_TRUE(a.isPointer());
  EXPECT_EQ(a.type, DType::F32);
  EXPECT_EQ(a.divisibility, 16);
  const SignatureParam &b = signature->params[1];
  EXPECT_TRUE(b.isPointer());
  EXPECT_EQ(b.divisibility, 1);
  const SignatureParam &n = signature->params[2];
  EXPECT_EQ(n.kind, SignatureParam::Kind::Scalar);
  EXPECT_EQ(n.type, DType::I32);
  const SignatureParam &block = signature->params[3];
  EXPECT_TRUE(block.isConstexpr());
  EXPECT_FALSE(block.isFloat);
  EXPECT_EQ(block.intValue, 1024);
}

TEST(SignatureTest, ParsesHintsFloatsAndSpaces) {
  llvm::Expected<Signature> signature =
      parseSignature(" *bf16:16 , i64:16, i32:1, fp16, -3, 0.5, u8");
  ASSERT_TRUE(static_cast<bool>(signature))
      << llvm::toString(signature.takeError());
  ASSERT_EQ(signature->params.size(), 7u);
  EXPECT_EQ(signature->params[0].type, DType::BF16);
  EXPECT_EQ(signature->params[1].divisibility, 16);
  EXPECT_TRUE(signature->params[2].equalsOne);
  EXPECT_EQ(signature->params[3].type, DType::F16);
  EXPECT_EQ(signature->params[4].intValue, -3);
  EXPECT_TRUE(signature->params[5].isFloat);
  EXPECT_DOUBLE_EQ(signature->params[5].floatValue, 0.5);
  EXPECT_EQ(signature->params[6].type, DType::U8);
  EXPECT_EQ(dtypeBits(signature->params[6].type), 8u);
}

TEST(SignatureTest, RoundTrips) {
  const char *text = "*fp32:16,*i8,i32:16,i64:1,fp64,1024,0.25,2.0";
  llvm::Expected<Signature> signature = parseSignature(text);
  ASSERT_TRUE(static_cast<bool>(signature));
  EXPECT_EQ(signature->str(), text);
}

TEST(SignatureTest, ConstPointersTakeTritonsKPrefix) {
  llvm::Expected<Signature> signature = parseSignature("*kfp16:16,*fp16,i32");
  ASSERT_TRUE(static_cast<bool>(signature))
      << llvm::toString(signature.takeError());
  EXPECT_TRUE(signature->params[0].isConst);
  EXPECT_EQ(signature->params[0].type, DType::F16);
  EXPECT_EQ(signature->params[0].divisibility, 16);
  EXPECT_FALSE(signature->params[1].isConst);
  EXPECT_EQ(signature->str(), "*kfp16:16,*fp16,i32");
  EXPECT_EQ(errorOf("*kfloat"),
            "invalid signature entry 0 '*kfloat': unknown pointee type "
            "'kfloat'");
}

TEST(SignatureTest, EmptySignatureHasNoParams) {
  llvm::Expected<Signature> signature = parseSignature("");
  ASSERT_TRUE(static_cast<bool>(signature));
  EXPECT_TRUE(signature->params.empty());
}

TEST(SignatureTest, RejectsMalformedEntries) {
  EXPECT_EQ(errorOf("*fp32,,i32"), "invalid signature entry 1 '': empty entry");
  EXPECT_EQ(
      errorOf("*float32"),
      "invalid signature entry 0 '*float32': unknown pointee type 'float32'");
  EXPECT_EQ(errorOf("i32,in-t"),
            "invalid signature entry 1 'in-t': expected a type such as "
            "'fp32', '*fp16' or 'i32', or a constexpr number or string");
  EXPECT_EQ(errorOf("i32:8"),
            "invalid signature entry 0 'i32:8': unknown hint ':8' (expected "
            "':16' or ':1')");
  EXPECT_EQ(errorOf("*fp16:1"),
            "invalid signature entry 0 '*fp16:1': unknown hint ':1' (expected "
            "':16')");
  EXPECT_EQ(errorOf("fp32:16"),
            "invalid signature entry 0 'fp32:16': hints apply to pointers and "
            "integers only");
  EXPECT_EQ(errorOf("foo:16"),
            "invalid signature entry 0 'foo:16': unknown type 'foo'");
  EXPECT_EQ(errorOf("12abc"),
            "invalid signature entry 0 '12abc': expected a type such as "
            "'fp32', '*fp16' or 'i32', or a constexpr number or string");
}

TEST(SignatureTest, BareWordsAreStringConstexprs) {
  // `gelu` and `'gelu'` are the string constexpr "gelu"; a misspelt type
  // such as `int` is one too, and the kernel reports its use (located).
  for (llvm::StringRef text : {"i32,gelu", "i32,'gelu'"}) {
    llvm::Expected<Signature> signature = parseSignature(text);
    ASSERT_TRUE(static_cast<bool>(signature))
        << toString(signature.takeError());
    ASSERT_EQ(signature->params.size(), 2u);
    EXPECT_TRUE(signature->params[1].isConstexpr());
    EXPECT_TRUE(signature->params[1].isString);
    EXPECT_EQ(signature->params[1].stringValue, "gelu");
  }
}

TEST(SignatureTest, NoneIsAConstexprAndPrintsBack) {
  // An absent optional argument, as Triton specializes None.
  llvm::Expected<Signature> signature = parseSignature("*fp32:16,None,i32");
  ASSERT_TRUE(static_cast<bool>(signature)) << toString(signature.takeError());
  ASSERT_EQ(signature->params.size(), 3u);
  EXPECT_TRUE(signature->params[1].isConstexpr());
  EXPECT_TRUE(signature->params[1].isNone);
  EXPECT_FALSE(signature->params[1].isString);
  EXPECT_EQ(signature->str(), "*fp32:16,None,i32");
}

TEST(SignatureTest, IntegersPastInt64AreUInt64Constexprs) {
  // Triton types integers from 2**63 to 2**64 - 1 as uint64.
  llvm::Expected<Signature> signature = parseSignature(
      "*u64,9223372036854775807,9223372036854775808,18446744073709551615");
  ASSERT_TRUE(static_cast<bool>(signature)) << toString(signature.takeError());
  ASSERT_EQ(signature->params.size(), 4u);
  EXPECT_EQ(signature->params[1].type, DType::I64);
  EXPECT_EQ(signature->params[2].type, DType::U64);
  EXPECT_EQ(static_cast<uint64_t>(signature->params[2].intValue),
            9223372036854775808ull);
  EXPECT_EQ(signature->params[3].type, DType::U64);
  EXPECT_EQ(signature->params[3].intValue, -1); // the bits
  EXPECT_EQ(signature->str(), "*u64,9223372036854775807,9223372036854775808,"
                              "18446744073709551615");
  // Past 2**64 - 1 it is no integer any more (a float constexpr).
  llvm::Expected<Signature> wider = parseSignature("18446744073709551616");
  ASSERT_TRUE(static_cast<bool>(wider));
  EXPECT_TRUE(wider->params[0].isFloat);
}

} // namespace
