// RUN: mgp-opt %s -split-input-file -mgp-assign-layouts=compute-capability=90 | FileCheck %s
// RUN: mgp-opt %s -split-input-file -mgp-assign-layouts="compute-capability=80 num-warps=8" | FileCheck %s --check-prefix=WARPS8
// RUN: mgp-opt %s -split-input-file -mgp-assign-layouts=compute-capability=75 | FileCheck %s --check-prefix=SM75

// tf32 dot on sm_80+: an mma v2 result (warpsPerTileV2: 64x64 with 4 warps
// is 2x2, with 8 warps 4x2) and dot_op operands with kWidth 1.
// CHECK-DAG: #[[M:.*]] = #mgp.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
// CHECK-DAG: #[[A:.*]] = #mgp.dot_op<{opIdx = 0, parent = #[[M]], kWidth = 1}>
// CHECK-DAG: #[[B:.*]] = #mgp.dot_op<{opIdx = 1, parent = #[[M]], kWidth = 1}>
// CHECK: func.func @tf32
// CHECK: mgp.convert_layout {{.*}} -> tensor<64x32xf32, #[[A]]>
// CHECK: mgp.convert_layout {{.*}} -> tensor<32x64xf32, #[[B]]>
// CHECK: mgp.convert_layout {{.*}} -> tensor<64x64xf32, #[[M]]>
// CHECK: mgp.dot {{.*}} -> tensor<64x64xf32, #[[M]]>
// WARPS8: #mgp.mma<{version = 2, warpsPerCTA = [4, 2], instrShape = [16, 8]}>
// SM75-NOT: #mgp.mma
// SM75: #mgp.dot_op<{opIdx = 0, parent = #{{.*}}, kWidth = 1}>
func.func @tf32(%a: tensor<64x32xf32>, %b: tensor<32x64xf32>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %d = mgp.dot %a, %b, %c {inputPrecision = tf32} : tensor<64x32xf32> * tensor<32x64xf32> -> tensor<64x64xf32>
  return %d : tensor<64x64xf32>
}

// -----

// f16 and bf16 operands with an f32 accumulator: kWidth 2. A 128x32 result
// splits warps along M first (warpsPerTileV2: [4, 1]).
// CHECK-DAG: #[[M:.*]] = #mgp.mma<{version = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
// CHECK-DAG: #[[A:.*]] = #mgp.dot_op<{opIdx = 0, parent = #[[M]], kWidth = 2}>
// CHECK: func.func @f16
// CHECK: mgp.dot {{.*}} : tensor<128x16xf16, #[[A]]> * {{.*}} -> tensor<128x32xf32, #[[M]]>
// CHECK: func.func @bf16
// CHECK: mgp.dot {{.*}} : tensor<128x16xbf16, #[[A]]> * {{.*}} -> tensor<128x32xf32, #[[M]]>
func.func @f16(%a: tensor<128x16xf16>, %b: tensor<16x32xf16>, %c: tensor<128x32xf32>) -> tensor<128x32xf32> {
  %d = mgp.dot %a, %b, %c {inputPrecision = tf32} : tensor<128x16xf16> * tensor<16x32xf16> -> tensor<128x32xf32>
  return %d : tensor<128x32xf32>
}
func.func @bf16(%a: tensor<128x16xbf16>, %b: tensor<16x32xbf16>, %c: tensor<128x32xf32>) -> tensor<128x32xf32> {
  %d = mgp.dot %a, %b, %c {inputPrecision = tf32} : tensor<128x16xbf16> * tensor<16x32xbf16> -> tensor<128x32xf32>
  return %d : tensor<128x32xf32>
}

// -----

// Not eligible, so the FMA path: ieee f32, K = 8 with 16-bit operands, and
// M = 8.
// CHECK-NOT: #mgp.mma
// CHECK: func.func @ieee
// CHECK: func.func @f16_k8
// CHECK: func.func @m8
func.func @ieee(%a: tensor<64x32xf32>, %b: tensor<32x64xf32>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %d = mgp.dot %a, %b, %c {inputPrecision = ieee} : tensor<64x32xf32> * tensor<32x64xf32> -> tensor<64x64xf32>
  return %d : tensor<64x64xf32>
}
func.func @f16_k8(%a: tensor<32x8xf16>, %b: tensor<8x32xf16>, %c: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %d = mgp.dot %a, %b, %c {inputPrecision = tf32} : tensor<32x8xf16> * tensor<8x32xf16> -> tensor<32x32xf32>
  return %d : tensor<32x32xf32>
}
func.func @m8(%a: tensor<8x32xf32>, %b: tensor<32x32xf32>, %c: tensor<8x32xf32>) -> tensor<8x32xf32> {
  %d = mgp.dot %a, %b, %c {inputPrecision = tf32} : tensor<8x32xf32> * tensor<32x32xf32> -> tensor<8x32xf32>
  return %d : tensor<8x32xf32>
}
