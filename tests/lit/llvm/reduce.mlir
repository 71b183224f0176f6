// RUN: mgp-opt %s -split-input-file -mgp-to-llvm | FileCheck %s

// A 1-D sum over 4 warps: one add inside the thread, five butterfly shuffles,
// then the 4 warp partials through shared scratch with a barrier.
#b = #mgp.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {mgp.num_warps = 4 : i32, mgp.shared = 16 : i32} {
// CHECK: llvm.mlir.global external @global_smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
// CHECK-LABEL: llvm.func @sum
// CHECK: llvm.fadd
// CHECK-COUNT-5: nvvm.shfl.sync bfly
// CHECK: llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr<3>
// CHECK: nvvm.barrier0
// CHECK-COUNT-4: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
  func.func @sum(%x: tensor<256xf32, #b>) -> f32 {
    %s = "mgp.reduce"(%x) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %c: f32):
      %t = arith.addf %a, %c : f32
      mgp.reduce.return %t : f32
    }) {mgp.allocation.offset = 0 : i32} : (tensor<256xf32, #b>) -> f32
    return %s : f32
  }
}

// -----

// Rows of a 2-D tensor: the axis lives in registers and lanes only, so no
// shared memory; the result keeps the slice layout's registers.
#p = #mgp.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {mgp.num_warps = 4 : i32} {
// CHECK-LABEL: llvm.func @rowmax
// CHECK-COUNT-3: llvm.intr.maxnum
// CHECK-COUNT-3: nvvm.shfl.sync bfly
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.return
  func.func @rowmax(%x: tensor<16x32xf32, #p>) -> tensor<16xf32, #mgp.slice<{dim = 1, parent = #p}>> {
    %s = "mgp.reduce"(%x) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %c: f32):
      %t = arith.maxnumf %a, %c : f32
      mgp.reduce.return %t : f32
    }) : (tensor<16x32xf32, #p>) -> tensor<16xf32, #mgp.slice<{dim = 1, parent = #p}>>
    return %s : tensor<16xf32, #mgp.slice<{dim = 1, parent = #p}>>
  }
}
