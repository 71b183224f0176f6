// RUN: not mgp-opt %s -split-input-file -mgp-to-llvm 2>&1 | FileCheck %s

// A buffer the allocator never placed.
#b = #mgp.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#s = #mgp.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
module attributes {mgp.num_warps = 4 : i32, mgp.shared = 2048 : i32} {
  func.func @unplaced(%x: tensor<16x32xf32, #b>) {
    // CHECK: error: needs shared memory but has no 'mgp.allocation.offset' (run the GPU passes first)
    %m = mgp.local_alloc %x : (tensor<16x32xf32, #b>) -> !mgp.memdesc<16x32xf32, #s>
    return
  }
}

// -----

// A conversion that moves data between threads, without scratch.
#a = #mgp.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#c = #mgp.blocked<{sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {mgp.num_warps = 4 : i32} {
  func.func @no_scratch(%x: tensor<16x32xf32, #a>) -> tensor<16x32xf32, #c> {
    // CHECK: error: needs shared memory but has no 'mgp.allocation.offset' (run the GPU passes first)
    %y = mgp.convert_layout %x : tensor<16x32xf32, #a> -> tensor<16x32xf32, #c>
    return %y : tensor<16x32xf32, #c>
  }
}
