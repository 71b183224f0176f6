//===- KernelSignatureTest.cpp - argument checking and specialization -----===//
//
// This file tests that launch arguments are checked against a kernel's
// parameters with errors that name the kernel, the argument (position and
// name), the expected and the given kind, and that the specialization
// (divisibility by 16, integers equal to 1, constexpr values, types) is
// derived from the arguments as Triton does.
//
//===----------------------------------------------------------------------===//
#include "runtime/Specialization.h"

#include "TestErrors.h"

#include "gtest/gtest.h"

using namespace mgp;
using mgp::test::errorText;

namespace {
KernelSignature addSignature() {
  return {"add_kernel",
          {KernelParam::pointer("x_ptr", DType::F32),
           KernelParam::pointer("y_ptr", DType::F32),
           KernelParam::pointer("out_ptr", DType::F32),
           KernelParam::scalar("n_elements", ParamKind::Int32),
           KernelParam::scalar("BLOCK_SIZE", ParamKind::Constexpr)}};
}

std::vector<KernelArg> goodArgs() {
  return {KernelArg::devicePointer(0x7f0000001000, DType::F32),
          KernelArg::devicePointer(0x7f0000002004, DType::F32),
          KernelArg::devicePointer(0x7f0000003000, DType::F32),
          KernelArg::integer(4096), KernelArg::integer(1024)};
}

std::string checkError(const KernelSignature &sig,
                       const std::vector<KernelArg> &args) {
  llvm::Error err = checkArguments(sig, args);
  EXPECT_TRUE(!!err) << "expected a failure";
  return llvm::toString(std::move(err));
}
} // namespace

TEST(KernelSignature, AcceptsMatchingArguments) {
  EXPECT_EQ(errorText(checkArguments(addSignature(), goodArgs())), "");
}

TEST(KernelSignature, WrongCountNamesTheParameters) {
  std::vector<KernelArg> args = goodArgs();
  args.pop_back();
  EXPECT_EQ(checkError(addSignature(), args),
            "kernel 'add_kernel' takes 5 argument(s) (x_ptr, y_ptr, out_ptr, "
            "n_elements, BLOCK_SIZE), got 4");
}

TEST(KernelSignature, ScalarForPointer) {
  std::vector<KernelArg> args = goodArgs();
  args[1] = KernelArg::integer(7);
  EXPECT_EQ(checkError(addSignature(), args),
            "kernel 'add_kernel', argument 2 ('y_ptr'): expected a pointer to "
            "fp32, got the integer 7");
}

TEST(KernelSignature, PointerForScalar) {
  std::vector<KernelArg> args = goodArgs();
  args[3] = KernelArg::devicePointer(0x1000, DType::F32);
  EXPECT_EQ(checkError(addSignature(), args),
            "kernel 'add_kernel', argument 4 ('n_elements'): expected i32, got "
            "a device pointer to fp32");
}

TEST(KernelSignature, WrongElementType) {
  std::vector<KernelArg> args = goodArgs();
  args[0] = KernelArg::devicePointer(0x1000, DType::F16);
  EXPECT_EQ(checkError(addSignature(), args),
            "kernel 'add_kernel', argument 1 ('x_ptr'): expected a pointer to "
            "fp32, got a device pointer to fp16");
}

TEST(KernelSignature, IntegerOutOfRangeForI32) {
  std::vector<KernelArg> args = goodArgs();
  args[3] = KernelArg::integer(int64_t(1) << 33);
  EXPECT_EQ(checkError(addSignature(), args),
            "kernel 'add_kernel', argument 4 ('n_elements'): expected i32, got "
            "the integer 8589934592, which does not fit in i32");
}

TEST(KernelSignature, FloatAndIntAreDistinctScalars) {
  KernelSignature sig{"scale",
                      {KernelParam::scalar("alpha", ParamKind::Fp32),
                       KernelParam::scalar("n", ParamKind::Int64)}};
  EXPECT_EQ(checkError(sig, {KernelArg::integer(2), KernelArg::integer(5)}),
            "kernel 'scale', argument 1 ('alpha'): expected fp32, got the "
            "integer 2");
  EXPECT_EQ(
      checkError(sig, {KernelArg::floating(2.5), KernelArg::floating(5)}),
      "kernel 'scale', argument 2 ('n'): expected i64, got the float 5.0");
  EXPECT_EQ(
      errorText(checkArguments(sig, {KernelArg::floating(2.5),
                                     KernelArg::integer(int64_t(1) << 40)})),
      "");
}

TEST(KernelSignature, ConstexprRejectsPointers) {
  std::vector<KernelArg> args = goodArgs();
  int host = 0;
  args[4] = KernelArg::hostPointer(&host, DType::I32);
  EXPECT_EQ(checkError(addSignature(), args),
            "kernel 'add_kernel', argument 5 ('BLOCK_SIZE'): expected a "
            "constexpr, got a host pointer to i32");
}

TEST(KernelSignature, ReportsEveryMismatch) {
  std::vector<KernelArg> args = goodArgs();
  args[0] = KernelArg::floating(1.0);
  args[2] = KernelArg::devicePointer(0x1000, DType::BF16);
  std::string message = checkError(addSignature(), args);
  EXPECT_NE(message.find("argument 1 ('x_ptr')"), std::string::npos);
  EXPECT_NE(message.find("argument 3 ('out_ptr'): expected a pointer to fp32, "
                         "got a device pointer to bf16"),
            std::string::npos);
  EXPECT_EQ(std::count(message.begin(), message.end(), '\n'), 1);
}

TEST(Specialization, DerivedAsTritonDoes) {
  std::vector<KernelArg> args = goodArgs();
  llvm::Expected<Specialization> spec =
      deriveSpecialization(addSignature(), args);
  ASSERT_TRUE(!!spec) << errorText(spec);
  EXPECT_EQ(spec->argTypes, (std::vector<std::string>{"*fp32", "*fp32", "*fp32",
                                                      "i32", "constexpr"}));
  // y_ptr is 4-byte but not 16-byte aligned.
  EXPECT_EQ(spec->divisibleBy16, (std::vector<unsigned>{0, 2, 3}));
  EXPECT_TRUE(spec->equalToOne.empty());
  ASSERT_EQ(spec->constexprs.size(), 1u);
  EXPECT_EQ(spec->constexprs[0].index, 4u);
  EXPECT_EQ(spec->constexprs[0].name, "BLOCK_SIZE");
  EXPECT_EQ(spec->constexprs[0].intValue, 1024);
  EXPECT_EQ(spec->str(), "*fp32:16,*fp32,*fp32:16,i32:16,1024");

  args[3] = KernelArg::integer(1);
  spec = deriveSpecialization(addSignature(), args);
  ASSERT_TRUE(!!spec) << errorText(spec);
  EXPECT_EQ(spec->equalToOne, (std::vector<unsigned>{3}));
  EXPECT_EQ(spec->divisibleBy16, (std::vector<unsigned>{0, 2}));
  EXPECT_EQ(spec->str(), "*fp32:16,*fp32,*fp32:16,i32:1,1024");

  args[3] = KernelArg::integer(1000); // neither
  spec = deriveSpecialization(addSignature(), args);
  ASSERT_TRUE(!!spec) << errorText(spec);
  EXPECT_EQ(spec->str(), "*fp32:16,*fp32,*fp32:16,i32,1024");
}

TEST(Specialization, SameFactsSameSpecialization) {
  std::vector<KernelArg> a = goodArgs(), b = goodArgs();
  // Different addresses and sizes with the same divisibility specialize alike.
  b[0] = KernelArg::devicePointer(0x7f00000a0000, DType::F32);
  b[3] = KernelArg::integer(32);
  llvm::Expected<Specialization> sa = deriveSpecialization(addSignature(), a);
  llvm::Expected<Specialization> sb = deriveSpecialization(addSignature(), b);
  ASSERT_TRUE(!!sa) << errorText(sa);
  ASSERT_TRUE(!!sb) << errorText(sb);
  EXPECT_TRUE(*sa == *sb);
}

TEST(Specialization, RefusesBadArguments) {
  std::vector<KernelArg> args = goodArgs();
  args[1] = KernelArg::integer(3);
  llvm::Expected<Specialization> spec =
      deriveSpecialization(addSignature(), args);
  ASSERT_FALSE(!!spec);
  EXPECT_EQ(errorText(spec), "kernel 'add_kernel', argument 2 ('y_ptr'): "
                             "expected a pointer to fp32, got the integer 3");
}

TEST(Specialization, FloatConstexprText) {
  ConstexprValue value;
  value.isFloat = true;
  value.floatValue = 1.0;
  EXPECT_EQ(value.str(), "1.0");
  value.floatValue = 0.1;
  EXPECT_EQ(value.str(), "0.1");
  value.floatValue = 1e-5;
  EXPECT_EQ(value.str(), "1e-05");
  value.isFloat = false;
  value.intValue = -3;
  EXPECT_EQ(value.str(), "-3");
}

TEST(DType, NamesAndTraits) {
  // Every type: the signature's spelling and Triton's read back.
  for (unsigned i = 0; i <= unsigned(DType::F64); ++i) {
    DType type = DType(i);
    EXPECT_EQ(parseDType(dtypeName(type)), type) << dtypeName(type).str();
    EXPECT_EQ(parseDType(dtypeTritonName(type)), type);
    EXPECT_EQ(dtypeFromName(dtypeName(type)), type);
    EXPECT_EQ(dtypeBytes(type), type == DType::I1 ? 1u : dtypeBits(type) / 8);
  }
  EXPECT_EQ(parseDType("float32"), DType::F32);
  EXPECT_EQ(parseDType("f16"), DType::F16);
  EXPECT_EQ(parseDType("bool"), DType::I1);
  EXPECT_EQ(parseDType("complex64"), std::nullopt);
  // A signature names types only as Triton's AOT signatures do.
  EXPECT_EQ(dtypeFromName("float32"), std::nullopt);
  EXPECT_EQ(dtypeName(DType::BF16), "bf16");
  EXPECT_EQ(dtypeTritonName(DType::U16), "uint16");
  EXPECT_EQ(dtypeBytes(DType::BF16), 2u);
  EXPECT_EQ(dtypeBytes(DType::I64), 8u);
  EXPECT_EQ(dtypeBits(DType::I1), 1u);
  EXPECT_TRUE(isFloatDType(DType::BF16));
  EXPECT_FALSE(isFloatDType(DType::U32));
  EXPECT_TRUE(isUnsignedDType(DType::U8));
  EXPECT_FALSE(isUnsignedDType(DType::I8));
}
