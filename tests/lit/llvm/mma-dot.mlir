// RUN: mgp-opt %s -split-input-file -mgp-to-llvm | FileCheck %s

// tf32: a 32x16 accumulator over 2x2 warps is one 16x8 tile per warp; K = 16
// is two m16n8k8 steps, each taking 4 A, 2 B and 4 C registers; operands are
// rounded to tf32 first (cvt.rna, as the interpreter rounds).
#mma = #mgp.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#a = #mgp.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>
#b = #mgp.dot_op<{opIdx = 1, parent = #mma, kWidth = 1}>
module attributes {mgp.num_warps = 4 : i32} {
// CHECK-LABEL: llvm.func @tf32
// CHECK: llvm.inline_asm "cvt.rna.tf32.f32 $0, $1;", "=r,f" {{.*}} : (f32) -> i32
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

// -----

// local_load of a K-contiguous buffer into mma operands: ldmatrix.x4. A
// (64x32 f16 over 2x2 warps: 2 M tiles x 2 K steps) is 4 x4 loads; B (32x32,
// K contiguous: 2 N tiles, two K steps per x4) is 2; tf32 A (32x16: 1 M tile
// x 2 K steps of 8) is 2. An N-contiguous 16-bit B uses ldmatrix.trans (the
// same 2 loads); an N-contiguous int8 B keeps element-wise loads.
#mma = #mgp.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#a = #mgp.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
#b = #mgp.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>
#a32 = #mgp.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>
#sa = #mgp.shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>
#sb = #mgp.shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [0, 1]}>
#sn = #mgp.shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>
#s32 = #mgp.shared<{vec = 4, perPhase = 2, maxPhase = 4, order = [1, 0]}>
#b8 = #mgp.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>
#sn8 = #mgp.shared<{vec = 16, perPhase = 2, maxPhase = 4, order = [1, 0]}>
module attributes {mgp.num_warps = 4 : i32} {
// CHECK-LABEL: llvm.func @ldmatrix_a
// CHECK-COUNT-4: nvvm.ldmatrix {{.*}} {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<row>, num = 4 : i32, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>}
// CHECK-NOT: nvvm.ldmatrix
// CHECK-LABEL: llvm.func @ldmatrix_b
// CHECK-COUNT-2: nvvm.ldmatrix {{.*}}num = 4
// CHECK-NOT: nvvm.ldmatrix
// CHECK-LABEL: llvm.func @ldmatrix_b_trans
// CHECK-COUNT-2: nvvm.ldmatrix {{.*}}layout = #nvvm.mma_layout<col>, num = 4
// CHECK-NOT: nvvm.ldmatrix
// CHECK-LABEL: llvm.func @scalar_b_int8
// CHECK-NOT: nvvm.ldmatrix
// CHECK: llvm.load
// CHECK-LABEL: llvm.func @ldmatrix_tf32
// CHECK-COUNT-2: nvvm.ldmatrix {{.*}}num = 4
// CHECK-NOT: nvvm.ldmatrix
  func.func @ldmatrix_a(%m: !mgp.memdesc<64x32xf16, #sa>) -> tensor<64x32xf16, #a> {
    %t = mgp.local_load %m : !mgp.memdesc<64x32xf16, #sa> -> tensor<64x32xf16, #a>
    return %t : tensor<64x32xf16, #a>
  }
  func.func @ldmatrix_b(%m: !mgp.memdesc<32x32xf16, #sb>) -> tensor<32x32xf16, #b> {
    %t = mgp.local_load %m : !mgp.memdesc<32x32xf16, #sb> -> tensor<32x32xf16, #b>
    return %t : tensor<32x32xf16, #b>
  }
  func.func @ldmatrix_b_trans(%m: !mgp.memdesc<32x32xf16, #sn>) -> tensor<32x32xf16, #b> {
    %t = mgp.local_load %m : !mgp.memdesc<32x32xf16, #sn> -> tensor<32x32xf16, #b>
    return %t : tensor<32x32xf16, #b>
  }
  func.func @scalar_b_int8(%m: !mgp.memdesc<32x32xi8, #sn8>) -> tensor<32x32xi8, #b8> {
    %t = mgp.local_load %m : !mgp.memdesc<32x32xi8, #sn8> -> tensor<32x32xi8, #b8>
    return %t : tensor<32x32xi8, #b8>
  }
  func.func @ldmatrix_tf32(%m: !mgp.memdesc<32x16xf32, #s32>) -> tensor<32x16xf32, #a32> {
    %t = mgp.local_load %m : !mgp.memdesc<32x16xf32, #s32> -> tensor<32x16xf32, #a32>
    return %t : tensor<32x16xf32, #a32>
  }
}
