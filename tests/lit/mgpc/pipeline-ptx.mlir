// REQUIRES: ptxas
// RUN: mgpc %s --num-stages 3 -emit=mlir-gpu | FileCheck %s --check-prefix=GPU
// RUN: mgpc %s --num-stages 3 -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: %ptxas -arch=sm_90 %t.ptx -o %t.cubin
// RUN: mgpc %s --num-stages 1 -emit=mlir-gpu | FileCheck %s --check-prefix=OFF

// A K loop of 32x16 @ 16x32 fp32 dots over 64-wide row-major A and B with
// 16-byte aligned rows: with --num-stages 3 both tiles are copied with 16-byte
// cp.async.cg into 3 buffers each, two iterations ahead, one wait_group 1 and
// one barrier per iteration; --num-stages 1 keeps the loads.
// GPU: mgp.local_alloc {{.*}} -> !mgp.memdesc<3x32x16xf32
// GPU: mgp.local_alloc {{.*}} -> !mgp.memdesc<3x16x32xf32
// GPU: scf.for
// GPU: mgp.async_wait 1
// GPU-NEXT: mgp.barrier
// GPU: mgp.async_copy_global_to_local {{.*}} {mgp.vector_width = 4 : i32}
// GPU: mgp.async_commit_group
// GPU: mgp.dot
// GPU: scf.yield
// GPU: mgp.async_wait 0
// CHECK: .visible .entry matmul(
// CHECK: cp.async.cg.shared.global [{{.*}}], [{{.*}}], 16, {{.*}};
// CHECK: cp.async.commit_group;
// CHECK: cp.async.wait_group 1;
// CHECK: fma.rn.f32
// CHECK: cp.async.wait_group 0;
// OFF-NOT: mgp.async
// OFF: mgp.load
module {
  func.func @matmul(%a: !mgp.ptr<f32> {mgp.divisibility = 16 : i32},
                    %b: !mgp.ptr<f32> {mgp.divisibility = 16 : i32},
                    %c: !mgp.ptr<f32> {mgp.divisibility = 16 : i32},
                    %K: i32) attributes {mgp.kernel} {
    %c0 = arith.constant 0 : i32
    %c16 = arith.constant 16 : i32
    %c64 = arith.constant 64 : i32
    %rm = mgp.make_range {start = 0 : i32, end = 32 : i32} : tensor<32xi32>
    %rk = mgp.make_range {start = 0 : i32, end = 16 : i32} : tensor<16xi32>
    %c64m = arith.constant dense<64> : tensor<32x1xi32>
    %c64k = arith.constant dense<64> : tensor<16x1xi32>
    %c32m = arith.constant dense<32> : tensor<32x1xi32>
    %am = mgp.expand_dims %rm {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
    %amo = arith.muli %am, %c64m : tensor<32x1xi32>
    %amb = mgp.broadcast %amo : tensor<32x1xi32> -> tensor<32x16xi32>
    %ak = mgp.expand_dims %rk {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
    %akb = mgp.broadcast %ak : tensor<1x16xi32> -> tensor<32x16xi32>
    %aoff = arith.addi %amb, %akb : tensor<32x16xi32>
    %bk = mgp.expand_dims %rk {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
    %bko = arith.muli %bk, %c64k : tensor<16x1xi32>
    %bkb = mgp.broadcast %bko : tensor<16x1xi32> -> tensor<16x32xi32>
    %bn = mgp.expand_dims %rm {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
    %bnb = mgp.broadcast %bn : tensor<1x32xi32> -> tensor<16x32xi32>
    %boff = arith.addi %bkb, %bnb : tensor<16x32xi32>
    %as = mgp.splat %a : !mgp.ptr<f32> -> tensor<32x16x!mgp.ptr<f32>>
    %bs = mgp.splat %b : !mgp.ptr<f32> -> tensor<16x32x!mgp.ptr<f32>>
    %zero = arith.constant dense<0.0> : tensor<32x32xf32>
    %acc = scf.for %k = %c0 to %K step %c16 iter_args(%acc0 = %zero) -> (tensor<32x32xf32>) : i32 {
      // A[m, k + kk] at m * 64 + k + kk; B[k + kk, n] at (k + kk) * 64 + n
      %ka = mgp.splat %k : i32 -> tensor<32x16xi32>
      %aoffk = arith.addi %aoff, %ka : tensor<32x16xi32>
      %ap = mgp.addptr %as, %aoffk : tensor<32x16x!mgp.ptr<f32>>, tensor<32x16xi32>
      %av = mgp.load %ap : tensor<32x16x!mgp.ptr<f32>>
      %kb1 = arith.muli %k, %c64 : i32
      %kb = mgp.splat %kb1 : i32 -> tensor<16x32xi32>
      %boffk = arith.addi %boff, %kb : tensor<16x32xi32>
      %bp = mgp.addptr %bs, %boffk : tensor<16x32x!mgp.ptr<f32>>, tensor<16x32xi32>
      %bv = mgp.load %bp : tensor<16x32x!mgp.ptr<f32>>
      %d = mgp.dot %av, %bv, %acc0 {inputPrecision = ieee} : tensor<32x16xf32> * tensor<16x32xf32> -> tensor<32x32xf32>
      scf.yield %d : tensor<32x32xf32>
    }
    %cmo = arith.muli %am, %c32m : tensor<32x1xi32>
    %cmb = mgp.broadcast %cmo : tensor<32x1xi32> -> tensor<32x32xi32>
    %cnb = mgp.broadcast %bn : tensor<1x32xi32> -> tensor<32x32xi32>
    %coff = arith.addi %cmb, %cnb : tensor<32x32xi32>
    %cs = mgp.splat %c : !mgp.ptr<f32> -> tensor<32x32x!mgp.ptr<f32>>
    %cp = mgp.addptr %cs, %coff : tensor<32x32x!mgp.ptr<f32>>, tensor<32x32xi32>
    mgp.store %cp, %acc : tensor<32x32x!mgp.ptr<f32>>
    return
  }
}
