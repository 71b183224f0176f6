//===- MemoryTest.cpp - masks, bounds, arguments, unsupported ops ---------===//
//
// This file implements the interpreter tests of memory semantics and of
// every user-facing error: masked loads (other / zero, no memory touched),
// masked stores (nothing written), scalar loads and stores, out-of-bounds
// accesses reported with location, program and address, argument mismatches,
// empty grids, unsupported ops and calls that were not inlined.
//
//===----------------------------------------------------------------------===//
#include "InterpTestSupport.h"

using namespace mgp;
using namespace mgp::test;

namespace {

/// y[i] = x[i] * 2 for i < n, masked loads with other = -1 (so masked-off
/// lanes read -1, which the kernel stores only when STORE_ALL is set).
const char *kMaskedKernel = R"mlir(
func.func @masked(%px: !mgp.ptr<f32>, %py: !mgp.ptr<f32>, %n: i32) attributes {mgp.kernel} {
  %pid = mgp.program_id 0 : i32
  %c128 = arith.constant 128 : i32
  %base = arith.muli %pid, %c128 : i32
  %r = mgp.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32>
  %bs = mgp.splat %base : i32 -> tensor<128xi32>
  %off = arith.addi %bs, %r : tensor<128xi32>
  %ns = mgp.splat %n : i32 -> tensor<128xi32>
  %mask = arith.cmpi slt, %off, %ns : tensor<128xi32>
  %other = arith.constant dense<-1.0> : tensor<128xf32>
  %sx = mgp.splat %px : !mgp.ptr<f32> -> tensor<128x!mgp.ptr<f32>>
  %ax = mgp.addptr %sx, %off : tensor<128x!mgp.ptr<f32>>, tensor<128xi32>
  %x = mgp.load %ax, %mask, %other : tensor<128x!mgp.ptr<f32>>
  %two = arith.constant dense<2.0> : tensor<128xf32>
  %y = arith.mulf %x, %two : tensor<128xf32>
  %sy = mgp.splat %py : !mgp.ptr<f32> -> tensor<128x!mgp.ptr<f32>>
  %ay = mgp.addptr %sy, %off : tensor<128x!mgp.ptr<f32>>, tensor<128xi32>
  mgp.store %ay, %y, %mask : tensor<128x!mgp.ptr<f32>>
  return
}
)mlir";

TEST(InterpMemory, MaskedLoadsAndStoresTouchOnlyActiveLanes) {
  ParsedKernel k = parseKernel(kMaskedKernel);
  ASSERT_TRUE(k.kernel);
  const int n = 300; // 3 programs, the last one partly masked
  std::vector<float> x = randomFloats(n, -3, 3, 5);
  std::vector<float> y(384, 42.0f);
  // The input buffer is exactly n floats: a masked-off lane that touched
  // memory would be out of bounds.
  llvm::Error err = runKernel(k.kernel, {3, 1, 1},
                              {InterpArg::buffer(x.data(), n, DType::F32),
                               InterpArg::buffer(y.data(), y.size(), DType::F32),
                               InterpArg::integer(n)},
                              {});
  ASSERT_EQ(errorText(std::move(err)), "");
  for (int i = 0; i < n; ++i)
    ASSERT_EQ(y[i], x[i] * 2) << i;
  for (int i = n; i < 384; ++i)
    ASSERT_EQ(y[i], 42.0f) << i; // masked-off stores write nothing
}

TEST(InterpMemory, MaskedLoadWithoutOtherGivesZero) {
  std::string source = kMaskedKernel;
  source.replace(source.find("%mask, %other :"), 15, "%mask :");
  source.replace(source.find("mgp.store %ay, %y, %mask"), 24, "mgp.store %ay, %y");
  ParsedKernel k = parseKernel(source);
  ASSERT_TRUE(k.kernel);
  std::vector<float> x = randomFloats(100, 1, 2, 6), y(128, 42.0f);
  llvm::Error err = runKernel(k.kernel, {1, 1, 1},
                              {InterpArg::buffer(x.data(), x.size(), DType::F32),
                               InterpArg::buffer(y.data(), y.size(), DType::F32),
                               InterpArg::integer(100)},
                              {});
  ASSERT_EQ(errorText(std::move(err)), "");
  for (int i = 0; i < 100; ++i)
    ASSERT_EQ(y[i], x[i] * 2);
  for (int i = 100; i < 128; ++i)
    ASSERT_EQ(y[i], 0.0f);
}

TEST(InterpMemory, OutOfBoundsLoadIsAnErrorNamingOpProgramAndAddress) {
  std::string source = kMaskedKernel;
  source.replace(source.find("%mask, %other :"), 15, "%mask :");
  // Mask against n, but the buffer is one element shorter than n.
  ParsedKernel k = parseKernel(source, "oob.mlir");
  ASSERT_TRUE(k.kernel);
  std::vector<float> x(199, 1.0f), y(256, 0.0f);
  InterpOptions options;
  options.numThreads = 1;
  llvm::Error err = runKernel(k.kernel, {2, 1, 1},
                              {InterpArg::buffer(x.data(), x.size(), DType::F32),
                               InterpArg::buffer(y.data(), y.size(), DType::F32),
                               InterpArg::integer(200)},
                              options);
  std::string text = errorText(std::move(err));
  EXPECT_NE(text.find("oob.mlir:14:"), std::string::npos) << text;
  EXPECT_NE(text.find("'mgp.load'"), std::string::npos) << text;
  EXPECT_NE(text.find("program (1, 0, 0)"), std::string::npos) << text;
  EXPECT_NE(text.find("out-of-bounds load of 4 bytes"), std::string::npos) << text;
  char addr[32];
  std::snprintf(addr, sizeof addr, "0x%016llx",
                static_cast<unsigned long long>(reinterpret_cast<uintptr_t>(x.data() + 199)));
  EXPECT_NE(text.find(addr), std::string::npos) << text << " vs " << addr;
  EXPECT_NE(text.find("(lane 71)"), std::string::npos) << text;
}

TEST(InterpMemory, OutOfBoundsStoreIsAnError) {
  ParsedKernel k = parseKernel(kMaskedKernel, "oob.mlir");
  ASSERT_TRUE(k.kernel);
  std::vector<float> x(128, 1.0f), y(127, 0.0f);
  llvm::Error err = runKernel(k.kernel, {1, 1, 1},
                              {InterpArg::buffer(x.data(), x.size(), DType::F32),
                               InterpArg::buffer(y.data(), y.size(), DType::F32),
                               InterpArg::integer(128)},
                              {});
  std::string text = errorText(std::move(err));
  EXPECT_NE(text.find("'mgp.store'"), std::string::npos) << text;
  EXPECT_NE(text.find("out-of-bounds store"), std::string::npos) << text;
  EXPECT_NE(text.find("(lane 127)"), std::string::npos) << text;
}

TEST(InterpMemory, ScalarLoadStoreAndExtraRanges) {
  const char *source = R"mlir(
func.func @scalar(%p: !mgp.ptr<i32>, %q: !mgp.ptr<i32>, %k: i32) attributes {mgp.kernel} {
  %pid = mgp.program_id 0 : i32
  %a = mgp.addptr %p, %pid : !mgp.ptr<i32>, i32
  %v = mgp.load %a : !mgp.ptr<i32>
  %w = arith.muli %v, %k : i32
  %b = mgp.addptr %q, %pid : !mgp.ptr<i32>, i32
  mgp.store %b, %w : !mgp.ptr<i32>
  return
}
)mlir";
  ParsedKernel k = parseKernel(source);
  ASSERT_TRUE(k.kernel);
  std::vector<int32_t> p = randomInts(16, -1000, 1000, 3), q(16, 0);
  ASSERT_EQ(errorText(runKernel(k.kernel, {16, 1, 1},
                                {InterpArg::buffer(p.data(), p.size(), DType::I32),
                                 InterpArg::buffer(q.data(), q.size(), DType::I32),
                                 InterpArg::integer(-3)},
                                {})),
            "");
  for (int i = 0; i < 16; ++i)
    ASSERT_EQ(q[i], p[i] * -3);
  // A pointer argument of 0 bytes is valid only through options.extraRanges.
  InterpOptions options;
  options.extraRanges.push_back({reinterpret_cast<uint64_t>(q.data()), 64});
  ASSERT_EQ(errorText(runKernel(k.kernel, {16, 1, 1},
                                {InterpArg::buffer(p.data(), p.size(), DType::I32),
                                 InterpArg::buffer(q.data(), 0, DType::I32),
                                 InterpArg::integer(2)},
                                options)),
            "");
  EXPECT_EQ(q[5], p[5] * 2);
  std::string text = errorText(runKernel(
      k.kernel, {16, 1, 1},
      {InterpArg::buffer(p.data(), p.size(), DType::I32),
       InterpArg::buffer(q.data(), 0, DType::I32), InterpArg::integer(2)},
      {}));
  EXPECT_NE(text.find("out-of-bounds store of 4 bytes"), std::string::npos) << text;
}

TEST(InterpMemory, ArgumentErrorsAreReported) {
  ParsedKernel k = parseKernel(kMaskedKernel);
  ASSERT_TRUE(k.kernel);
  std::vector<float> x(128);
  std::vector<int32_t> xi(128);
  std::string count = errorText(runKernel(
      k.kernel, {1, 1, 1}, {InterpArg::buffer(x.data(), x.size(), DType::F32)}, {}));
  EXPECT_EQ(count, "kernel 'masked' takes 3 argument(s), 1 given");
  std::string kinds = errorText(
      runKernel(k.kernel, {1, 1, 1},
                {InterpArg::buffer(xi.data(), xi.size(), DType::I32),
                 InterpArg{KernelArg::devicePointer(0x1000, DType::F32), 512},
                 InterpArg::floating(1.5)},
                {}));
  EXPECT_NE(kinds.find("argument 1: expects a pointer to fp32"), std::string::npos) << kinds;
  EXPECT_NE(kinds.find("argument 2: a device pointer"), std::string::npos) << kinds;
  EXPECT_NE(kinds.find("argument 3: expects an i32 integer"), std::string::npos) << kinds;
  std::string range = errorText(
      runKernel(k.kernel, {1, 1, 1},
                {InterpArg::buffer(x.data(), x.size(), DType::F32),
                 InterpArg::buffer(x.data(), x.size(), DType::F32),
                 InterpArg::integer(int64_t(1) << 40)},
                {}));
  EXPECT_NE(range.find("does not fit in i32"), std::string::npos) << range;
  std::string grid = errorText(
      runKernel(k.kernel, {0, 1, 1},
                {InterpArg::buffer(x.data(), x.size(), DType::F32),
                 InterpArg::buffer(x.data(), x.size(), DType::F32),
                 InterpArg::integer(1)},
                {}));
  EXPECT_NE(grid.find("has an empty dimension"), std::string::npos) << grid;
}

TEST(InterpMemory, UnsupportedOpIsAnErrorAtItsLocation) {
  const char *source = R"mlir(
func.func @bad(%p: !mgp.ptr<i32>) attributes {mgp.kernel} {
  %v = mgp.load %p : !mgp.ptr<i32>
  %c = math.ctlz %v : i32
  mgp.store %p, %c : !mgp.ptr<i32>
  return
}
)mlir";
  ParsedKernel k = parseKernel(source, "bad.mlir");
  ASSERT_TRUE(k.kernel);
  llvm::Expected<InterpKernel> compiled = InterpKernel::compile(k.kernel);
  ASSERT_FALSE(static_cast<bool>(compiled));
  std::string text = llvm::toString(compiled.takeError());
  EXPECT_EQ(text, "bad.mlir:4:8: 'math.ctlz': the interpreter does not support this op");
}

TEST(InterpMemory, CallsMustBeInlined) {
  const char *source = R"mlir(
func.func @outer(%p: !mgp.ptr<i32>) attributes {mgp.kernel} {
  %v = mgp.load %p : !mgp.ptr<i32>
  %w = func.call @helper(%v) : (i32) -> i32
  mgp.store %p, %w : !mgp.ptr<i32>
  return
}
func.func @helper(%x: i32) -> i32 {
  return %x : i32
}
)mlir";
  ParsedKernel k = parseKernel(source, "call.mlir");
  ASSERT_TRUE(k.kernel);
  std::string text = errorText(runKernel(k.kernel, {1, 1, 1}, {}, {}));
  EXPECT_NE(text.find("call.mlir:4:8: 'func.call': calls must be inlined"),
            std::string::npos)
      << text;
}

} // namespace
