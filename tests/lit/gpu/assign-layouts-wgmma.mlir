// RUN: mgp-opt %s -split-input-file -mgp-assign-layouts="compute-capability=90 wgmma=true" | FileCheck %s
// RUN: mgp-opt %s -split-input-file -mgp-assign-layouts="compute-capability=90 wgmma=true num-warps=8" | FileCheck %s --check-prefix=WARPS8
// RUN: mgp-opt %s -split-input-file -mgp-assign-layouts="compute-capability=90" | FileCheck %s --check-prefix=SM90

// sm_90a (wgmma=true): a tf32 dot with 64-row warp groups and a 128-byte K
// tile gets #mgp.mma version 3, instrShape [16, n, 8] with n the warp
// group's share of N (warpsPerTileV3: 4 warps [4, 1]; 8 warps on 128 rows
// [8, 1]). Plain sm_90 keeps version 2.
// CHECK: #mgp.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 128, 8]}>
// CHECK: func.func @tf32
// WARPS8: #mgp.mma<{version = 3, warpsPerCTA = [8, 1], instrShape = [16, 128, 8]}>
// SM90: #mgp.mma<{version = 2,
// SM90-NOT: version = 3
func.func @tf32(%a: tensor<128x32xf32>, %b: tensor<32x128xf32>, %c: tensor<128x128xf32>) -> tensor<128x128xf32> {
  %d = mgp.dot %a, %b, %c {inputPrecision = tf32} : tensor<128x32xf32> * tensor<32x128xf32> -> tensor<128x128xf32>
  return %d : tensor<128x128xf32>
}

// -----

// 64 rows: with 8 warps the second warp group goes along N ([4, 2]), each
// group taking 128 of the 256 columns; f16 with a 64-byte K tile.
// CHECK: #mgp.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 256, 16]}>
// WARPS8: #mgp.mma<{version = 3, warpsPerCTA = [4, 2], instrShape = [16, 128, 16]}>
func.func @f16(%a: tensor<64x32xf16>, %b: tensor<32x256xf16>, %c: tensor<64x256xf32>) -> tensor<64x256xf32> {
  %d = mgp.dot %a, %b, %c {inputPrecision = tf32} : tensor<64x32xf16> * tensor<32x256xf16> -> tensor<64x256xf32>
  return %d : tensor<64x256xf32>
}

// -----

// Not for wgmma, so mma.sync (version 2): 32 rows (no whole warp group).
// CHECK: #mgp.mma<{version = 2, warpsPerCTA = [1, 4], instrShape = [16, 8]}>
// CHECK: func.func @small_m
func.func @small_m(%a: tensor<32x32xf32>, %b: tensor<32x64xf32>, %c: tensor<32x64xf32>) -> tensor<32x64xf32> {
  %d = mgp.dot %a, %b, %c {inputPrecision = tf32} : tensor<32x32xf32> * tensor<32x64xf32> -> tensor<32x64xf32>
  return %d : tensor<32x64xf32>
}

// -----

// A 256-byte tf32 K tile (two 128-byte swizzle atoms, staged in column
// blocks) is a wgmma dot too.
// CHECK: #mgp.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 8]}>
// CHECK: func.func @wide_k
func.func @wide_k(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %d = mgp.dot %a, %b, %c {inputPrecision = tf32} : tensor<64x64xf32> * tensor<64x64xf32> -> tensor<64x64xf32>
  return %d : tensor<64x64xf32>
}

// -----

// A 96-byte fp16 K tile is neither one atom nor whole 128-byte blocks:
// mma.sync.
// CHECK: #mgp.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
// CHECK: func.func @ragged_k
func.func @ragged_k(%a: tensor<64x48xf16>, %b: tensor<48x64xf16>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %d = mgp.dot %a, %b, %c {inputPrecision = tf32} : tensor<64x48xf16> * tensor<48x64xf16> -> tensor<64x64xf32>
  return %d : tensor<64x64xf32>
}
