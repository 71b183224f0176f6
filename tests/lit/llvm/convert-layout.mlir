// RUN: mgp-opt %s -split-input-file -mgp-to-llvm | FileCheck %s

// Through shared scratch: every register stored, a barrier, every register
// of the new layout loaded.
#a = #mgp.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#c = #mgp.blocked<{sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {mgp.num_warps = 4 : i32, mgp.shared = 2560 : i32} {
// CHECK-LABEL: llvm.func @transpose_layout
// CHECK-COUNT-4: llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr<3>
// CHECK: nvvm.barrier0
// CHECK-COUNT-4: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
  func.func @transpose_layout(%x: tensor<16x32xf32, #a>) -> tensor<16x32xf32, #c> {
    %y = mgp.convert_layout %x {mgp.allocation.offset = 0 : i32} : tensor<16x32xf32, #a> -> tensor<16x32xf32, #c>
    return %y : tensor<16x32xf32, #c>
  }
}

// -----

// Same elements in the same registers of every thread: no shared memory.
#a = #mgp.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#s = #mgp.slice<{dim = 1, parent = #mgp.blocked<{sizePerThread = [4, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>}>
module attributes {mgp.num_warps = 4 : i32} {
// CHECK-LABEL: llvm.func @same_owners
// CHECK-NOT: nvvm.barrier0
// CHECK-NOT: !llvm.ptr<3>
// CHECK: llvm.return
  func.func @same_owners(%x: tensor<512xf32, #a>) -> tensor<512xf32, #s> {
    %y = mgp.convert_layout %x : tensor<512xf32, #a> -> tensor<512xf32, #s>
    return %y : tensor<512xf32, #s>
  }
}
