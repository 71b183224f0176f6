// RUN: mgp-opt %s -split-input-file -mgp-stage-dot-operands | FileCheck %s

// Converts to dot_op of an mma parent become local_alloc + local_load with
// the dot-operand swizzle; the accumulator convert stays. tf32 operands are
// stored K-contiguous (A: order [1, 0], B: order [0, 1]); 64x32 f32 rows are
// 128 bytes: vec 4, perPhase 1, maxPhase 8.
#bl = #mgp.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #mgp.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#a = #mgp.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>
#b = #mgp.dot_op<{opIdx = 1, parent = #mma, kWidth = 1}>
module attributes {mgp.num_warps = 4 : i32} {
// CHECK-DAG: #[[SA:.*]] = #mgp.shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}>
// CHECK-DAG: #[[SB:.*]] = #mgp.shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [0, 1]}>
// CHECK-LABEL: func.func @tf32
// CHECK: %[[MA:.*]] = mgp.local_alloc %arg0 : {{.*}} -> !mgp.memdesc<64x32xf32, #[[SA]]>
// CHECK: %[[A:.*]] = mgp.local_load %[[MA]] : !mgp.memdesc<64x32xf32, #[[SA]]> -> tensor<64x32xf32, #dot_op>
// CHECK: %[[MB:.*]] = mgp.local_alloc %arg1 : {{.*}} -> !mgp.memdesc<32x64xf32, #[[SB]]>
// CHECK: %[[B:.*]] = mgp.local_load %[[MB]]
// CHECK: %[[C:.*]] = mgp.convert_layout %arg2
// CHECK: mgp.dot %[[A]], %[[B]], %[[C]]
  func.func @tf32(%a: tensor<64x32xf32, #bl>, %b: tensor<32x64xf32, #bl>, %c: tensor<64x64xf32, #bl>) -> tensor<64x64xf32, #mma> {
    %ca = mgp.convert_layout %a : tensor<64x32xf32, #bl> -> tensor<64x32xf32, #a>
    %cb = mgp.convert_layout %b : tensor<32x64xf32, #bl> -> tensor<32x64xf32, #b>
    %cc = mgp.convert_layout %c : tensor<64x64xf32, #bl> -> tensor<64x64xf32, #mma>
    %d = mgp.dot %ca, %cb, %cc {inputPrecision = tf32} : tensor<64x32xf32, #a> * tensor<32x64xf32, #b> -> tensor<64x64xf32, #mma>
    return %d : tensor<64x64xf32, #mma>
  }
}

// -----

// 16-bit operands keep the source's order (B is N-contiguous here: 64 f16 =
// 128-byte rows, perPhase 1, maxPhase 8; A has 32-byte K rows: perPhase 4,
// maxPhase 2). Inside a loop the staged form is what the pipeliner
// consumes: load -> local_alloc -> local_load -> dot; each buffer is written
// right after its load, the reads stay at the dot.
#bl = #mgp.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #mgp.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#a = #mgp.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
#b = #mgp.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>
module attributes {mgp.num_warps = 4 : i32} {
// CHECK-DAG: #[[SA:.*]] = #mgp.shared<{vec = 8, perPhase = 4, maxPhase = 2, order = [1, 0]}>
// CHECK-DAG: #[[SB:.*]] = #mgp.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
// CHECK-LABEL: func.func @f16_loop
// CHECK: scf.for
// CHECK: %[[LA:.*]] = mgp.load
// CHECK-NEXT: %[[MA:.*]] = mgp.local_alloc %[[LA]] : {{.*}} -> !mgp.memdesc<64x16xf16, #[[SA]]>
// CHECK-NEXT: %[[LB:.*]] = mgp.load
// CHECK-NEXT: %[[MB:.*]] = mgp.local_alloc %[[LB]] : {{.*}} -> !mgp.memdesc<16x64xf16, #[[SB]]>
// CHECK-NEXT: %[[A:.*]] = mgp.local_load %[[MA]]
// CHECK-NEXT: %[[B:.*]] = mgp.local_load %[[MB]]
// CHECK: mgp.dot %[[A]], %[[B]]
// CHECK-NOT: mgp.convert_layout
  func.func @f16_loop(%pa: tensor<64x16x!mgp.ptr<f16>, #bl>, %pb: tensor<16x64x!mgp.ptr<f16>, #bl>, %c: tensor<64x64xf32, #mma>, %n: i32) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c) -> (tensor<64x64xf32, #mma>) : i32 {
      %la = mgp.load %pa : tensor<64x16x!mgp.ptr<f16>, #bl>
      %lb = mgp.load %pb : tensor<16x64x!mgp.ptr<f16>, #bl>
      %ca = mgp.convert_layout %la : tensor<64x16xf16, #bl> -> tensor<64x16xf16, #a>
      %cb = mgp.convert_layout %lb : tensor<16x64xf16, #bl> -> tensor<16x64xf16, #b>
      %d = mgp.dot %ca, %cb, %acc {inputPrecision = tf32} : tensor<64x16xf16, #a> * tensor<16x64xf16, #b> -> tensor<64x64xf32, #mma>
      scf.yield %d : tensor<64x64xf32, #mma>
    }
    return %r : tensor<64x64xf32, #mma>
  }
}

// -----

// FMA operands (dot_op of a blocked parent) are left alone.
#bl = #mgp.blocked<{sizePerThread = [2, 2], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#a = #mgp.dot_op<{opIdx = 0, parent = #bl, kWidth = 1}>
module attributes {mgp.num_warps = 4 : i32} {
// CHECK-LABEL: func.func @fma
// CHECK-NOT: mgp.local_alloc
// CHECK: mgp.convert_layout
  func.func @fma(%a: tensor<32x16xf32, #bl>) -> tensor<32x16xf32, #a> {
    %ca = mgp.convert_layout %a : tensor<32x16xf32, #bl> -> tensor<32x16xf32, #a>
    return %ca : tensor<32x16xf32, #a>
  }
}
