//===- ControlFlowTest.cpp - scf loops and branches, shape ops, grids -----===//
//
// This file implements interpreter tests of structured control flow
// (scf.for with loop-carried blocks, scf.while, scf.if with results), of the
// shape ops (expand_dims, broadcast, trans, reshape) on a 2-D tile, and of
// 3-D grids (program_id / num_programs on every axis).
//
//===----------------------------------------------------------------------===//
#include "InterpTestSupport.h"

using namespace mgp;
using namespace mgp::test;

namespace {

TEST(InterpControlFlow, ForWhileIf) {
  // out[i] = sum_{j<n} x[j*64 + i]  (scf.for, loop-carried block)
  //        + (number of halvings of n until 1: scf.while)
  //        + (n > 3 ? 100 : -100) (scf.if with a result)
  const char *source = R"mlir(
func.func @cf(%px: !mgp.ptr<f32>, %po: !mgp.ptr<f32>, %n: i32) attributes {mgp.kernel} {
  %r = mgp.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %zero = arith.constant dense<0.0> : tensor<64xf32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c64 = arith.constant 64 : i32
  %sx = mgp.splat %px : !mgp.ptr<f32> -> tensor<64x!mgp.ptr<f32>>
  %acc = scf.for %j = %c0 to %n step %c1 iter_args(%a = %zero) -> (tensor<64xf32>) : i32 {
    %base = arith.muli %j, %c64 : i32
    %bs = mgp.splat %base : i32 -> tensor<64xi32>
    %off = arith.addi %bs, %r : tensor<64xi32>
    %ptr = mgp.addptr %sx, %off : tensor<64x!mgp.ptr<f32>>, tensor<64xi32>
    %v = mgp.load %ptr : tensor<64x!mgp.ptr<f32>>
    %s = arith.addf %a, %v : tensor<64xf32>
    scf.yield %s : tensor<64xf32>
  }
  %steps:2 = scf.while (%m = %n, %k = %c0) : (i32, i32) -> (i32, i32) {
    %more = arith.cmpi sgt, %m, %c1 : i32
    scf.condition(%more) %m, %k : i32, i32
  } do {
  ^bb0(%m2: i32, %k2: i32):
    %h = arith.divsi %m2, %c1 : i32
    %two = arith.constant 2 : i32
    %h2 = arith.divsi %h, %two : i32
    %k3 = arith.addi %k2, %c1 : i32
    scf.yield %h2, %k3 : i32, i32
  }
  %c3 = arith.constant 3 : i32
  %big = arith.cmpi sgt, %n, %c3 : i32
  %bonus = scf.if %big -> (f32) {
    %p = arith.constant 100.0 : f32
    scf.yield %p : f32
  } else {
    %m = arith.constant -100.0 : f32
    scf.yield %m : f32
  }
  %kf = arith.sitofp %steps#1 : i32 to f32
  %extra = arith.addf %kf, %bonus : f32
  %es = mgp.splat %extra : f32 -> tensor<64xf32>
  %out = arith.addf %acc, %es : tensor<64xf32>
  %so = mgp.splat %po : !mgp.ptr<f32> -> tensor<64x!mgp.ptr<f32>>
  %po2 = mgp.addptr %so, %r : tensor<64x!mgp.ptr<f32>>, tensor<64xi32>
  mgp.store %po2, %out : tensor<64x!mgp.ptr<f32>>
  return
}
)mlir";
  ParsedKernel k = parseKernel(source);
  ASSERT_TRUE(k.kernel);
  for (int n : {0, 3, 5, 8}) {
    std::vector<float> x = randomFloats(64 * 8, -1, 1, 9 + n), out(64, 0.0f);
    ASSERT_EQ(errorText(runKernel(k.kernel, {1, 1, 1},
                                  {InterpArg::buffer(x.data(), x.size(), DType::F32),
                                   InterpArg::buffer(out.data(), out.size(), DType::F32),
                                   InterpArg::integer(n)},
                                  {})),
              "");
    int halvings = 0;
    for (int m = n; m > 1; m /= 2)
      ++halvings;
    float extra = static_cast<float>(halvings) + (n > 3 ? 100.0f : -100.0f);
    for (int i = 0; i < 64; ++i) {
      float sum = 0;
      for (int j = 0; j < n; ++j)
        sum += x[j * 64 + i];
      ASSERT_EQ(out[i], sum + extra) << "n=" << n << " i=" << i;
    }
  }
}

TEST(InterpControlFlow, TileTransposeViaShapeOps) {
  // out = trans(x) for an 8x16 tile, plus a reshape round trip.
  const char *source = R"mlir(
func.func @tr(%px: !mgp.ptr<i32>, %po: !mgp.ptr<i32>) attributes {mgp.kernel} {
  %rm = mgp.make_range {start = 0 : i32, end = 8 : i32} : tensor<8xi32>
  %rn = mgp.make_range {start = 0 : i32, end = 16 : i32} : tensor<16xi32>
  %em = mgp.expand_dims %rm {axis = 1 : i32} : tensor<8xi32> -> tensor<8x1xi32>
  %en = mgp.expand_dims %rn {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
  %c16 = arith.constant dense<16> : tensor<8x1xi32>
  %rows = arith.muli %em, %c16 : tensor<8x1xi32>
  %bm = mgp.broadcast %rows : tensor<8x1xi32> -> tensor<8x16xi32>
  %bn = mgp.broadcast %en : tensor<1x16xi32> -> tensor<8x16xi32>
  %off = arith.addi %bm, %bn : tensor<8x16xi32>
  %sx = mgp.splat %px : !mgp.ptr<i32> -> tensor<8x16x!mgp.ptr<i32>>
  %ax = mgp.addptr %sx, %off : tensor<8x16x!mgp.ptr<i32>>, tensor<8x16xi32>
  %x = mgp.load %ax : tensor<8x16x!mgp.ptr<i32>>
  %flat = mgp.reshape %x : tensor<8x16xi32> -> tensor<128xi32>
  %back = mgp.reshape %flat : tensor<128xi32> -> tensor<8x16xi32>
  %t = mgp.trans %back {order = array<i32: 1, 0>} : tensor<8x16xi32> -> tensor<16x8xi32>
  %ro = mgp.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32>
  %o2 = mgp.reshape %ro : tensor<128xi32> -> tensor<16x8xi32>
  %so = mgp.splat %po : !mgp.ptr<i32> -> tensor<16x8x!mgp.ptr<i32>>
  %ao = mgp.addptr %so, %o2 : tensor<16x8x!mgp.ptr<i32>>, tensor<16x8xi32>
  mgp.store %ao, %t : tensor<16x8x!mgp.ptr<i32>>
  return
}
)mlir";
  ParsedKernel k = parseKernel(source);
  ASSERT_TRUE(k.kernel);
  std::vector<int32_t> x = randomInts(128, -1000, 1000, 4), out(128, 0);
  ASSERT_EQ(errorText(runKernel(k.kernel, {1, 1, 1},
                                {InterpArg::buffer(x.data(), x.size(), DType::I32),
                                 InterpArg::buffer(out.data(), out.size(), DType::I32)},
                                {})),
            "");
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 8; ++j)
      ASSERT_EQ(out[i * 8 + j], x[j * 16 + i]);
}

TEST(InterpControlFlow, ThreeDimensionalGrid) {
  // out[z][y][x] = x + 10*y + 100*z + 1000*(nx + ny + nz)
  const char *source = R"mlir(
func.func @grid(%po: !mgp.ptr<i32>) attributes {mgp.kernel} {
  %x = mgp.program_id 0 : i32
  %y = mgp.program_id 1 : i32
  %z = mgp.program_id 2 : i32
  %nx = mgp.num_programs 0 : i32
  %ny = mgp.num_programs 1 : i32
  %nz = mgp.num_programs 2 : i32
  %c10 = arith.constant 10 : i32
  %c100 = arith.constant 100 : i32
  %c1000 = arith.constant 1000 : i32
  %y10 = arith.muli %y, %c10 : i32
  %z100 = arith.muli %z, %c100 : i32
  %n1 = arith.addi %nx, %ny : i32
  %n2 = arith.addi %n1, %nz : i32
  %n3 = arith.muli %n2, %c1000 : i32
  %v1 = arith.addi %x, %y10 : i32
  %v2 = arith.addi %v1, %z100 : i32
  %v = arith.addi %v2, %n3 : i32
  %zy = arith.muli %z, %ny : i32
  %zyy = arith.addi %zy, %y : i32
  %row = arith.muli %zyy, %nx : i32
  %idx = arith.addi %row, %x : i32
  %p = mgp.addptr %po, %idx : !mgp.ptr<i32>, i32
  mgp.store %p, %v : !mgp.ptr<i32>
  return
}
)mlir";
  ParsedKernel k = parseKernel(source);
  ASSERT_TRUE(k.kernel);
  std::vector<int32_t> out(5 * 3 * 2, -1);
  ASSERT_EQ(errorText(runKernel(k.kernel, {5, 3, 2},
                                {InterpArg::buffer(out.data(), out.size(), DType::I32)},
                                {})),
            "");
  for (int z = 0; z < 2; ++z)
    for (int y = 0; y < 3; ++y)
      for (int x = 0; x < 5; ++x)
        ASSERT_EQ(out[(z * 3 + y) * 5 + x], x + 10 * y + 100 * z + 10000);
}

} // namespace
