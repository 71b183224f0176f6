// RUN: mgp-opt %s -split-input-file -mgp-to-llvm | FileCheck %s

// expand_dims of a slice and broadcast along the new dim move no data:
// only struct extracts and inserts.
#p = #mgp.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#s = #mgp.slice<{dim = 0, parent = #p}>
module attributes {mgp.num_warps = 4 : i32} {
// CHECK-LABEL: llvm.func @outer
// CHECK-NOT: nvvm.barrier0
// CHECK-NOT: nvvm.shfl.sync
// CHECK: llvm.return
  func.func @outer(%x: tensor<32xi32, #s>) -> tensor<16x32xi32, #p> {
    %e = mgp.expand_dims %x {axis = 0 : i32} : tensor<32xi32, #s> -> tensor<1x32xi32, #p>
    %b = mgp.broadcast %e : tensor<1x32xi32, #p> -> tensor<16x32xi32, #p>
    return %b : tensor<16x32xi32, #p>
  }
}
