// RUN: mgp-opt %s -split-input-file -mgp-to-llvm | FileCheck %s

// A contiguous 4-wide load and store (mgp.vector_width = 4): one vector load
// and one vector store per group of 4 registers, none predicated.
#b4 = #mgp.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {mgp.num_warps = 4 : i32} {
// CHECK-LABEL: llvm.func @copy
// CHECK-SAME: nvvm.kernel
// CHECK-SAME: nvvm.maxntid = array<i32: 128, 1, 1>
// CHECK-COUNT-2: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
// CHECK-COUNT-2: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<1>
  func.func @copy(%x: !mgp.ptr<f32> {mgp.divisibility = 16 : i32}, %y: !mgp.ptr<f32> {mgp.divisibility = 16 : i32}) attributes {mgp.kernel} {
    %r = mgp.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32, #b4>
    %xs = mgp.splat %x : !mgp.ptr<f32> -> tensor<1024x!mgp.ptr<f32>, #b4>
    %xp = mgp.addptr %xs, %r : tensor<1024x!mgp.ptr<f32>, #b4>, tensor<1024xi32, #b4>
    %v = mgp.load %xp {mgp.vector_width = 4 : i32} : tensor<1024x!mgp.ptr<f32>, #b4>
    %ys = mgp.splat %y : !mgp.ptr<f32> -> tensor<1024x!mgp.ptr<f32>, #b4>
    %yp = mgp.addptr %ys, %r : tensor<1024x!mgp.ptr<f32>, #b4>, tensor<1024xi32, #b4>
    mgp.store %yp, %v {mgp.vector_width = 4 : i32} : tensor<1024x!mgp.ptr<f32>, #b4>
    return
  }
}

// -----

// Masked: predicated inline PTX; `other` is moved into the outputs first.
#b4 = #mgp.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {mgp.num_warps = 4 : i32} {
// CHECK-LABEL: llvm.func @masked
// CHECK: llvm.inline_asm has_side_effects {{.*}}"mov.b32 $0, $6;{{.*}}@$5 ld.global.v4.b32 { $0, $1, $2, $3 }, [ $4 + 0 ];", "=r,=r,=r,=r,l,b,r,r,r,r"
// CHECK: llvm.inline_asm has_side_effects {{.*}}"@$5 st.global.v4.b32 [ $0 + 0 ], { $1, $2, $3, $4 };", "l,r,r,r,r,b"
  func.func @masked(%x: !mgp.ptr<f32>, %n: i32) attributes {mgp.kernel} {
    %r = mgp.make_range {start = 0 : i32, end = 512 : i32} : tensor<512xi32, #b4>
    %ns = mgp.splat %n : i32 -> tensor<512xi32, #b4>
    %m = arith.cmpi slt, %r, %ns : tensor<512xi32, #b4>
    %xs = mgp.splat %x : !mgp.ptr<f32> -> tensor<512x!mgp.ptr<f32>, #b4>
    %xp = mgp.addptr %xs, %r : tensor<512x!mgp.ptr<f32>, #b4>, tensor<512xi32, #b4>
    %o = arith.constant dense<1.0> : tensor<512xf32, #b4>
    %v = mgp.load %xp, %m, %o {mgp.vector_width = 4 : i32} : tensor<512x!mgp.ptr<f32>, #b4>
    mgp.store %xp, %v, %m {mgp.vector_width = 4 : i32} : tensor<512x!mgp.ptr<f32>, #b4>
    return
  }
}

// -----

// A 16-element tensor over 128 threads: lanes 16..31 and warps 1..3 replicate
// data, so the store is predicated on (lane & 16) == 0 and (warp & 3) == 0.
#b1 = #mgp.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {mgp.num_warps = 4 : i32} {
// CHECK-LABEL: llvm.func @replicated
// CHECK: %[[C16:.*]] = llvm.mlir.constant(16 : i32) : i32
// CHECK-NEXT: %[[LB:.*]] = llvm.and %{{.*}}, %[[C16]] : i32
// CHECK: llvm.icmp "eq" %[[LB]]
// CHECK: %[[C3:.*]] = llvm.mlir.constant(3 : i32) : i32
// CHECK-NEXT: %[[WB:.*]] = llvm.and %{{.*}}, %[[C3]] : i32
// CHECK: llvm.icmp "eq" %[[WB]]
// CHECK: "@$2 st.global.b32 [ $0 + 0 ], $1;", "l,r,b"
  func.func @replicated(%x: !mgp.ptr<f32>) attributes {mgp.kernel} {
    %r = mgp.make_range {start = 0 : i32, end = 16 : i32} : tensor<16xi32, #b1>
    %xs = mgp.splat %x : !mgp.ptr<f32> -> tensor<16x!mgp.ptr<f32>, #b1>
    %xp = mgp.addptr %xs, %r : tensor<16x!mgp.ptr<f32>, #b1>, tensor<16xi32, #b1>
    %v = arith.sitofp %r : tensor<16xi32, #b1> to tensor<16xf32, #b1>
    mgp.store %xp, %v : tensor<16x!mgp.ptr<f32>, #b1>
    return
  }
}
