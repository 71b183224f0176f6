//===- CompileErrorsTest.cpp - every user-facing interpreter error --------===//
//
// This file implements tests of the interpreter errors not covered by the
// memory tests: unsupported value types, combiners with control flow,
// kernels that return values or have no body, tensor parameters and a
// non-positive loop step; plus numerics of absi, ceildivui and i64 wrapping.
//
//===----------------------------------------------------------------------===//
#include "InterpTestSupport.h"

using namespace mgp;
using namespace mgp::test;

namespace {

std::string compileError(const std::string &source) {
  ParsedKernel k = parseKernel(source, "err.mlir");
  EXPECT_TRUE(k.kernel) << source;
  if (!k.kernel)
    return "";
  llvm::Expected<InterpKernel> compiled = InterpKernel::compile(k.kernel);
  if (compiled)
    return "";
  return llvm::toString(compiled.takeError());
}

TEST(InterpErrors, UnsupportedValueType) {
  std::string text = compileError(R"mlir(
func.func @k() attributes {mgp.kernel} {
  %x = arith.constant 1.0 : f80
  return
}
)mlir");
  EXPECT_NE(text.find("err.mlir:3:8: 'arith.constant': the interpreter does not "
                      "support values of type f80"),
            std::string::npos)
      << text;
}

TEST(InterpErrors, CombinerWithControlFlow) {
  std::string text = compileError(R"mlir(
func.func @k(%p: !mgp.ptr<f32>) attributes {mgp.kernel} {
  %x = arith.constant dense<1.0> : tensor<16xf32>
  %s = "mgp.reduce"(%x) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %t = arith.constant true
    %r = scf.if %t -> (f32) {
      scf.yield %a : f32
    } else {
      scf.yield %b : f32
    }
    mgp.reduce.return %r : f32
  }) : (tensor<16xf32>) -> f32
  mgp.store %p, %s : !mgp.ptr<f32>
  return
}
)mlir");
  EXPECT_NE(text.find("err.mlir:7:10: 'scf.if': the interpreter supports "
                      "combiners made of arith, math and libdevice ops only"),
            std::string::npos)
      << text;
}

TEST(InterpErrors, KernelShapes) {
  std::string returns = compileError(R"mlir(
func.func @k(%x: i32) -> i32 attributes {mgp.kernel} {
  return %x : i32
}
)mlir");
  EXPECT_NE(returns.find("'func.return': a kernel must not return values"),
            std::string::npos)
      << returns;
  std::string tensorParam = compileError(R"mlir(
func.func @k(%x: tensor<4xf32>) attributes {mgp.kernel} {
  return
}
)mlir");
  EXPECT_NE(tensorParam.find("kernel parameters must be scalars or pointers"),
            std::string::npos)
      << tensorParam;
  std::string noBody = compileError(R"mlir(
func.func private @k(%x: i32)
)mlir");
  EXPECT_NE(noBody.find("kernel 'k' has no body"), std::string::npos) << noBody;
}

TEST(InterpErrors, NonPositiveLoopStep) {
  ParsedKernel k = parseKernel(R"mlir(
func.func @k(%p: !mgp.ptr<i32>, %step: i32) attributes {mgp.kernel} {
  %c0 = arith.constant 0 : i32
  %c8 = arith.constant 8 : i32
  %r = scf.for %i = %c0 to %c8 step %step iter_args(%a = %c0) -> (i32) : i32 {
    %b = arith.addi %a, %i : i32
    scf.yield %b : i32
  }
  mgp.store %p, %r : !mgp.ptr<i32>
  return
}
)mlir",
                               "loop.mlir");
  ASSERT_TRUE(k.kernel);
  int32_t out = -1;
  ASSERT_EQ(errorText(runKernel(k.kernel, {1, 1, 1},
                                {InterpArg::buffer(&out, 1, DType::I32),
                                 InterpArg::integer(3)},
                                {})),
            "");
  EXPECT_EQ(out, 0 + 3 + 6);
  std::string text = errorText(runKernel(
      k.kernel, {1, 1, 1},
      {InterpArg::buffer(&out, 1, DType::I32), InterpArg::integer(0)}, {}));
  EXPECT_EQ(text, "loop.mlir:5:8: 'scf.for': program (0, 0, 0): loop step 0 is "
                  "not positive");
}

TEST(InterpErrors, AbsiCeildivuiAndI64Wrap) {
  std::vector<int32_t> xs = randomInts(1024, INT32_MIN, INT32_MAX, 300);
  std::vector<int32_t> ys = randomInts(1024, 1, 1000, 301);
  xs[0] = INT32_MIN;
  std::vector<int32_t> abs = runElementwise<int32_t, int32_t, int32_t>(
      "i32", DType::I32, "i32", DType::I32, "i32", DType::I32,
      "%z = math.absi %x : tensor<256xi32>", xs, ys);
  std::vector<int32_t> cdiv = runElementwise<int32_t, int32_t, int32_t>(
      "i32", DType::I32, "i32", DType::I32, "i32", DType::I32,
      "%z = arith.ceildivui %x, %y : tensor<256xi32>", xs, ys);
  for (size_t k = 0; k < xs.size(); ++k) {
    uint32_t ux = static_cast<uint32_t>(xs[k]), uy = static_cast<uint32_t>(ys[k]);
    ASSERT_EQ(abs[k], static_cast<int32_t>(xs[k] < 0 ? 0u - ux : ux)) << xs[k];
    ASSERT_EQ(cdiv[k], static_cast<int32_t>(ux / uy + (ux % uy != 0))) << k;
  }
  std::vector<int64_t> big(256), other(256);
  for (size_t k = 0; k < 256; ++k) {
    big[k] = INT64_MAX - static_cast<int64_t>(k);
    other[k] = static_cast<int64_t>(k) * 977 + 5;
  }
  std::vector<int64_t> sum = runElementwise<int64_t, int64_t, int64_t>(
      "i64", DType::I64, "i64", DType::I64, "i64", DType::I64,
      "%z = arith.addi %x, %y : tensor<256xi64>", big, other);
  for (size_t k = 0; k < 256; ++k)
    ASSERT_EQ(sum[k], static_cast<int64_t>(static_cast<uint64_t>(big[k]) +
                                           static_cast<uint64_t>(other[k])));
}

} // namespace
