//===- MatmulKernelText.h - text of the matmul test kernels -----*- C++ -*-===//
//
// This file implements the pieces of MLIR text that the pipeline and GPU-pass
// numerics tests (PipelineNumericsTest.cpp, GPUPassesNumericsTest.cpp) share
// in their hand-written matmul kernels: C[32, 32] = A[32, K] @ B[K, 32],
// row-major, K in steps of 16, the A and B pointer tiles advanced through the
// loop's iter_args. Each test writes the signature (%a, %b, %c, %K), the
// accumulator's %zero, the loads %av and %bv of the loop body (from %ap, %bp)
// and what follows the store of C. Every piece starts with a line break and
// ends without one, so that the pieces and the tests' text join line by line.
//
//===----------------------------------------------------------------------===//
#ifndef MGP_TESTS_UNIT_CODEGEN_MATMULKERNELTEXT_H
#define MGP_TESTS_UNIT_CODEGEN_MATMULKERNELTEXT_H

namespace mgp::test {

/// %rm, %rk, %bn and the first pointer tiles %ap0 (A) and %bp0 (B).
inline constexpr const char *kMatmulOperandPointers = R"mlir(
  %rm = mgp.make_range {start = 0 : i32, end = 32 : i32} : tensor<32xi32>
  %rk = mgp.make_range {start = 0 : i32, end = 16 : i32} : tensor<16xi32>
  %am = mgp.expand_dims %rm {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
  %Ks = mgp.splat %K : i32 -> tensor<32x1xi32>
  %amK = arith.muli %am, %Ks : tensor<32x1xi32>
  %ak = mgp.expand_dims %rk {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
  %amKb = mgp.broadcast %amK : tensor<32x1xi32> -> tensor<32x16xi32>
  %akb = mgp.broadcast %ak : tensor<1x16xi32> -> tensor<32x16xi32>
  %aoffs = arith.addi %amKb, %akb : tensor<32x16xi32>
  %as = mgp.splat %a : !mgp.ptr<f32> -> tensor<32x16x!mgp.ptr<f32>>
  %ap0 = mgp.addptr %as, %aoffs : tensor<32x16x!mgp.ptr<f32>>, tensor<32x16xi32>
  %bk = mgp.expand_dims %rk {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
  %c32 = arith.constant dense<32> : tensor<16x1xi32>
  %bk32 = arith.muli %bk, %c32 : tensor<16x1xi32>
  %bn = mgp.expand_dims %rm {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
  %bkb = mgp.broadcast %bk32 : tensor<16x1xi32> -> tensor<16x32xi32>
  %bnb = mgp.broadcast %bn : tensor<1x32xi32> -> tensor<16x32xi32>
  %boffs = arith.addi %bkb, %bnb : tensor<16x32xi32>
  %bs = mgp.splat %b : !mgp.ptr<f32> -> tensor<16x32x!mgp.ptr<f32>>
  %bp0 = mgp.addptr %bs, %boffs : tensor<16x32x!mgp.ptr<f32>>, tensor<16x32xi32>)mlir";

/// The pointer increments and the loop's head: `%res:3 = scf.for` over k,
/// carrying the accumulator (from %zero) and the pointer tiles %ap, %bp.
inline constexpr const char *kMatmulLoopHead = R"mlir(
  %ainc = arith.constant dense<16> : tensor<32x16xi32>
  %binc = arith.constant dense<512> : tensor<16x32xi32>
  %c0 = arith.constant 0 : i32
  %c16 = arith.constant 16 : i32
  %res:3 = scf.for %k = %c0 to %K step %c16
      iter_args(%acc = %zero, %ap = %ap0, %bp = %bp0)
      -> (tensor<32x32xf32>, tensor<32x16x!mgp.ptr<f32>>, tensor<16x32x!mgp.ptr<f32>>) : i32 {)mlir";

/// The loop's dot into %acc, the pointer advance and yield, then the store of
/// the result %res#0 to %c.
inline constexpr const char *kMatmulLoopTailAndStore = R"mlir(
    %d = mgp.dot %av, %bv, %acc {inputPrecision = ieee} : tensor<32x16xf32> * tensor<16x32xf32> -> tensor<32x32xf32>
    %ap2 = mgp.addptr %ap, %ainc : tensor<32x16x!mgp.ptr<f32>>, tensor<32x16xi32>
    %bp2 = mgp.addptr %bp, %binc : tensor<16x32x!mgp.ptr<f32>>, tensor<16x32xi32>
    scf.yield %d, %ap2, %bp2 : tensor<32x32xf32>, tensor<32x16x!mgp.ptr<f32>>, tensor<16x32x!mgp.ptr<f32>>
  }
  %cm = mgp.expand_dims %rm {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
  %c32b = arith.constant dense<32> : tensor<32x1xi32>
  %cm32 = arith.muli %cm, %c32b : tensor<32x1xi32>
  %cmb = mgp.broadcast %cm32 : tensor<32x1xi32> -> tensor<32x32xi32>
  %cnb = mgp.broadcast %bn : tensor<1x32xi32> -> tensor<32x32xi32>
  %coffs = arith.addi %cmb, %cnb : tensor<32x32xi32>
  %cs = mgp.splat %c : !mgp.ptr<f32> -> tensor<32x32x!mgp.ptr<f32>>
  %cp = mgp.addptr %cs, %coffs : tensor<32x32x!mgp.ptr<f32>>, tensor<32x32xi32>
  mgp.store %cp, %res#0 : tensor<32x32x!mgp.ptr<f32>>)mlir";

} // namespace mgp::test

#endif // MGP_TESTS_UNIT_CODEGEN_MATMULKERNELTEXT_H
