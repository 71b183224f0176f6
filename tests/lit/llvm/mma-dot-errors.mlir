// RUN: not mgp-opt %s -split-input-file -mgp-to-llvm 2>&1 | FileCheck %s

// Hand-written IR that puts a dot the tensor cores cannot run in an mma
// layout: i16 operands (mma.sync multiplies 8-bit integers only).
#mma = #mgp.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#a = #mgp.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
#b = #mgp.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>
module attributes {mgp.num_warps = 4 : i32} {
  func.func @int16(%a: tensor<32x32xi16, #a>, %b: tensor<32x16xi16, #b>, %c: tensor<32x16xi32, #mma>) -> tensor<32x16xi32, #mma> {
    // CHECK: error: mma.sync takes f32 (tf32), f16, bf16 or i8 operands
    // CHECK-NOT: FMA lowering
    %d = mgp.dot %a, %b, %c {inputPrecision = tf32} : tensor<32x32xi16, #a> * tensor<32x16xi16, #b> -> tensor<32x16xi32, #mma>
    return %d : tensor<32x16xi32, #mma>
  }
}

// -----

// f16 operands with kWidth 1 (mma.sync packs two f16 per register).
#mma = #mgp.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#a = #mgp.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>
#b = #mgp.dot_op<{opIdx = 1, parent = #mma, kWidth = 1}>
module attributes {mgp.num_warps = 4 : i32} {
  func.func @kwidth(%a: tensor<32x16xf16, #a>, %b: tensor<16x16xf16, #b>, %c: tensor<32x16xf32, #mma>) -> tensor<32x16xf32, #mma> {
    // CHECK: error: mma.sync needs an f32 accumulator (i32 for i8) and operands with kWidth = 32 / element bits
    // CHECK-NOT: FMA lowering
    %d = mgp.dot %a, %b, %c {inputPrecision = tf32} : tensor<32x16xf16, #a> * tensor<16x16xf16, #b> -> tensor<32x16xf32, #mma>
    return %d : tensor<32x16xf32, #mma>
  }
}
