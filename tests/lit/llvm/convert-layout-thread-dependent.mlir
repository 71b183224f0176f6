// RUN: mgp-opt %s -split-input-file -mgp-allocate-shared -mgp-to-llvm | FileCheck %s

// Every thread holds its destination element, but lane 0 finds it in
// register 0 and lane 1 in register 1: no single register permutation, so
// the allocator gives the op scratch and the lowering goes through it.
#a = #mgp.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
#b = #mgp.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {mgp.num_warps = 1 : i32} {
// CHECK-LABEL: llvm.func @thread_dependent
// CHECK: llvm.intr.masked.store
// CHECK: nvvm.barrier0
// CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
// CHECK: llvm.return
  func.func @thread_dependent(%x: tensor<2xf32, #a>) -> tensor<2xf32, #b> {
    %y = mgp.convert_layout %x : tensor<2xf32, #a> -> tensor<2xf32, #b>
    return %y : tensor<2xf32, #b>
  }
}
