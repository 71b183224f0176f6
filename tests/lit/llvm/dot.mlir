// RUN: mgp-opt %s -split-input-file -mgp-to-llvm | FileCheck %s

// FMA dot: 16x16 accumulator over 4 warps is 2 registers per thread, K = 8
// fused multiply-adds per accumulator register.
#p = #mgp.blocked<{sizePerThread = [1, 2], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#a = #mgp.dot_op<{opIdx = 0, parent = #p, kWidth = 1}>
#b = #mgp.dot_op<{opIdx = 1, parent = #p, kWidth = 1}>
module attributes {mgp.num_warps = 4 : i32} {
// CHECK-LABEL: llvm.func @fma
// CHECK-COUNT-16: llvm.intr.fma
// CHECK-NOT: llvm.intr.fma
// CHECK: llvm.return
  func.func @fma(%a: tensor<16x8xf32, #a>, %b: tensor<8x16xf32, #b>, %c: tensor<16x16xf32, #p>) -> tensor<16x16xf32, #p> {
    %d = mgp.dot %a, %b, %c {inputPrecision = ieee} : tensor<16x8xf32, #a> * tensor<8x16xf32, #b> -> tensor<16x16xf32, #p>
    return %d : tensor<16x16xf32, #p>
  }
}
