// RUN: mgp-opt %s -split-input-file -mgp-to-llvm | FileCheck %s

// tf32: a 32x16 accumulator over 2x2 warps is one 16x8 tile per warp; K = 16
// is two m16n8k8 steps, each taking 4 A, 2 B and 4 C registers.
#mma = #mgp.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#a = #mgp.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>
#b = #mgp.dot_op<{opIdx = 1, parent = #mma, kWidth = 1}>
module attributes {mgp.num_warps = 4 : i32} {
// CHECK-LABEL: llvm.func @tf32
// CHECK-COUNT-2: llvm.inline_asm "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, {$10, $11, $12, $13};", "=f,=f,=f,=f,r,r,r,r,r,r,0,1,2,3" {{.*}} : (i32, i32, i32, i32, i32, i32, f32, f32, f32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NOT: mma.sync
// CHECK: llvm.return
  func.func @tf32(%a: tensor<32x16xf32, #a>, %b: tensor<16x16xf32, #b>, %c: tensor<32x16xf32, #mma>) -> tensor<32x16xf32, #mma> {
    %d = mgp.dot %a, %b, %c {inputPrecision = tf32} : tensor<32x16xf32, #a> * tensor<16x16xf32, #b> -> tensor<32x16xf32, #mma>
    return %d : tensor<32x16xf32, #mma>
  }
}

// -----

// f16 and bf16: 64x32 over 2x2 warps is 2x2 tiles per warp, K = 32 two
// m16n8k16 steps: 8 instructions; operands are pairs of K neighbours packed
// into i32.
#mma = #mgp.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#a = #mgp.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
#b = #mgp.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>
module attributes {mgp.num_warps = 4 : i32} {
// CHECK-LABEL: llvm.func @f16
// CHECK: llvm.bitcast {{.*}} : vector<2xf16> to i32
// CHECK-COUNT-8: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// CHECK-NOT: mma.sync
// CHECK-LABEL: llvm.func @bf16
// CHECK: llvm.bitcast {{.*}} : vector<2xbf16> to i32
// CHECK-COUNT-8: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// CHECK-NOT: mma.sync
  func.func @f16(%a: tensor<64x32xf16, #a>, %b: tensor<32x32xf16, #b>, %c: tensor<64x32xf32, #mma>) -> tensor<64x32xf32, #mma> {
    %d = mgp.dot %a, %b, %c {inputPrecision = tf32} : tensor<64x32xf16, #a> * tensor<32x32xf16, #b> -> tensor<64x32xf32, #mma>
    return %d : tensor<64x32xf32, #mma>
  }
  func.func @bf16(%a: tensor<64x32xbf16, #a>, %b: tensor<32x32xbf16, #b>, %c: tensor<64x32xf32, #mma>) -> tensor<64x32xf32, #mma> {
    %d = mgp.dot %a, %b, %c {inputPrecision = tf32} : tensor<64x32xbf16, #a> * tensor<32x32xbf16, #b> -> tensor<64x32xf32, #mma>
    return %d : tensor<64x32xf32, #mma>
  }
}
