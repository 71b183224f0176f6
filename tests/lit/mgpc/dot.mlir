// REQUIRES: ptxas
// RUN: mgpc %s -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: %ptxas -arch=sm_90 %t.ptx -o %t.cubin

// A 32x32x16 fp32 dot on the FMA path, end to end.
// CHECK: .visible .entry matmul(
// CHECK: fma.rn.f32
module {
  func.func @matmul(%a: !mgp.ptr<f32> {mgp.divisibility = 16 : i32},
                    %b: !mgp.ptr<f32> {mgp.divisibility = 16 : i32},
                    %c: !mgp.ptr<f32> {mgp.divisibility = 16 : i32}) attributes {mgp.kernel} {
    %rm = mgp.make_range {start = 0 : i32, end = 32 : i32} : tensor<32xi32>
    %rk = mgp.make_range {start = 0 : i32, end = 16 : i32} : tensor<16xi32>
    %c16 = arith.constant dense<16> : tensor<32x1xi32>
    %c32 = arith.constant dense<32> : tensor<16x1xi32>
    %c32m = arith.constant dense<32> : tensor<32x1xi32>
    // A[m, k] at m * 16 + k
    %am = mgp.expand_dims %rm {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
    %amo = arith.muli %am, %c16 : tensor<32x1xi32>
    %ak = mgp.expand_dims %rk {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
    %amb = mgp.broadcast %amo : tensor<32x1xi32> -> tensor<32x16xi32>
    %akb = mgp.broadcast %ak : tensor<1x16xi32> -> tensor<32x16xi32>
    %aoff = arith.addi %amb, %akb : tensor<32x16xi32>
    %as = mgp.splat %a : !mgp.ptr<f32> -> tensor<32x16x!mgp.ptr<f32>>
    %ap = mgp.addptr %as, %aoff : tensor<32x16x!mgp.ptr<f32>>, tensor<32x16xi32>
    %av = mgp.load %ap : tensor<32x16x!mgp.ptr<f32>>
    // B[k, n] at k * 32 + n
    %bk = mgp.expand_dims %rk {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
    %bko = arith.muli %bk, %c32 : tensor<16x1xi32>
    %bn = mgp.expand_dims %rm {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
    %bkb = mgp.broadcast %bko : tensor<16x1xi32> -> tensor<16x32xi32>
    %bnb = mgp.broadcast %bn : tensor<1x32xi32> -> tensor<16x32xi32>
    %boff = arith.addi %bkb, %bnb : tensor<16x32xi32>
    %bs = mgp.splat %b : !mgp.ptr<f32> -> tensor<16x32x!mgp.ptr<f32>>
    %bp = mgp.addptr %bs, %boff : tensor<16x32x!mgp.ptr<f32>>, tensor<16x32xi32>
    %bv = mgp.load %bp : tensor<16x32x!mgp.ptr<f32>>
    %zero = arith.constant dense<0.0> : tensor<32x32xf32>
    %d = mgp.dot %av, %bv, %zero {inputPrecision = ieee} : tensor<32x16xf32> * tensor<16x32xf32> -> tensor<32x32xf32>
    // C[m, n] at m * 32 + n
    %cmo = arith.muli %am, %c32m : tensor<32x1xi32>
    %cmb = mgp.broadcast %cmo : tensor<32x1xi32> -> tensor<32x32xi32>
    %cnb = mgp.broadcast %bn : tensor<1x32xi32> -> tensor<32x32xi32>
    %coff = arith.addi %cmb, %cnb : tensor<32x32xi32>
    %cs = mgp.splat %c : !mgp.ptr<f32> -> tensor<32x32x!mgp.ptr<f32>>
    %cp = mgp.addptr %cs, %coff : tensor<32x32x!mgp.ptr<f32>>, tensor<32x32xi32>
    mgp.store %cp, %d : tensor<32x32x!mgp.ptr<f32>>
    return
  }
}
