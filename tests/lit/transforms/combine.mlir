// RUN: mgp-opt %s -split-input-file -mgp-combine | FileCheck %s

// CHECK-LABEL: func @select_of_masked_load
// CHECK-SAME: (%[[P:.*]]: tensor<128x!mgp.ptr<f32>>, %[[M:.*]]: tensor<128xi1>, %[[O:.*]]: tensor<128xf32>)
// CHECK-NEXT: %[[V:.*]] = mgp.load %[[P]], %[[M]], %[[O]] : tensor<128x!mgp.ptr<f32>>
// CHECK-NEXT: return %[[V]]
func.func @select_of_masked_load(%p: tensor<128x!mgp.ptr<f32>>, %m: tensor<128xi1>, %o: tensor<128xf32>) -> tensor<128xf32> {
  %v = mgp.load %p, %m : tensor<128x!mgp.ptr<f32>>
  %s = arith.select %m, %v, %o : tensor<128xi1>, tensor<128xf32>
  return %s : tensor<128xf32>
}

// -----

// A different condition than the mask is not the load's `other`.
// CHECK-LABEL: func @select_other_condition
// CHECK: mgp.load %{{.*}}, %{{.*}} : tensor<128x!mgp.ptr<f32>>
// CHECK: arith.select
func.func @select_other_condition(%p: tensor<128x!mgp.ptr<f32>>, %m: tensor<128xi1>, %c: tensor<128xi1>, %o: tensor<128xf32>) -> tensor<128xf32> {
  %v = mgp.load %p, %m : tensor<128x!mgp.ptr<f32>>
  %s = arith.select %c, %v, %o : tensor<128xi1>, tensor<128xf32>
  return %s : tensor<128xf32>
}

// -----

// `other` computed after the load would have to move the load: left alone.
// CHECK-LABEL: func @select_other_after_load
// CHECK: mgp.load %{{.*}}, %{{.*}} : tensor<128x!mgp.ptr<f32>>
// CHECK: mgp.store
// CHECK: arith.select
func.func @select_other_after_load(%p: tensor<128x!mgp.ptr<f32>>, %m: tensor<128xi1>, %x: f32) -> tensor<128xf32> {
  %v = mgp.load %p, %m : tensor<128x!mgp.ptr<f32>>
  %z = arith.constant dense<0.0> : tensor<128xf32>
  mgp.store %p, %z, %m : tensor<128x!mgp.ptr<f32>>
  %o = mgp.splat %x : f32 -> tensor<128xf32>
  %s = arith.select %m, %v, %o : tensor<128xi1>, tensor<128xf32>
  return %s : tensor<128xf32>
}

// -----

// CHECK-LABEL: func @dot_plus_c
// CHECK-SAME: (%[[A:.*]]: tensor<16x32xf32>, %[[B:.*]]: tensor<32x16xf32>, %[[C:.*]]: tensor<16x16xf32>)
// CHECK-NEXT: %[[D:.*]] = mgp.dot %[[A]], %[[B]], %[[C]] {inputPrecision = ieee}
// CHECK-NEXT: return %[[D]]
func.func @dot_plus_c(%a: tensor<16x32xf32>, %b: tensor<32x16xf32>, %c: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %zero = arith.constant dense<0.0> : tensor<16x16xf32>
  %d = mgp.dot %a, %b, %zero {inputPrecision = ieee} : tensor<16x32xf32> * tensor<32x16xf32> -> tensor<16x16xf32>
  %s = arith.addf %c, %d : tensor<16x16xf32>
  return %s : tensor<16x16xf32>
}

// -----

// A non-zero accumulator stays.
// CHECK-LABEL: func @dot_nonzero_acc
// CHECK: mgp.dot
// CHECK: arith.addf
func.func @dot_nonzero_acc(%a: tensor<16x32xf32>, %b: tensor<32x16xf32>, %c: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %one = arith.constant dense<1.0> : tensor<16x16xf32>
  %d = mgp.dot %a, %b, %one {inputPrecision = tf32} : tensor<16x32xf32> * tensor<32x16xf32> -> tensor<16x16xf32>
  %s = arith.addf %d, %c : tensor<16x16xf32>
  return %s : tensor<16x16xf32>
}

// -----

// CHECK-LABEL: func @int_dot_plus_c
// CHECK-NEXT: %[[D:.*]] = mgp.dot %arg0, %arg1, %arg2
// CHECK-NEXT: return %[[D]]
func.func @int_dot_plus_c(%a: tensor<16x32xi8>, %b: tensor<32x16xi8>, %c: tensor<16x16xi8>) -> tensor<16x16xi8> {
  %zero = arith.constant dense<0> : tensor<16x16xi8>
  %d = mgp.dot %a, %b, %zero {inputPrecision = ieee} : tensor<16x32xi8> * tensor<32x16xi8> -> tensor<16x16xi8>
  %s = arith.addi %d, %c : tensor<16x16xi8>
  return %s : tensor<16x16xi8>
}

// -----

// CHECK-LABEL: func @addptr_chain
// CHECK-SAME: (%[[P:.*]]: tensor<64x!mgp.ptr<f16>>, %[[A:.*]]: tensor<64xi32>, %[[B:.*]]: tensor<64xi32>)
// CHECK-NEXT: %[[S:.*]] = arith.addi %[[A]], %[[B]] : tensor<64xi32>
// CHECK-NEXT: %[[Q:.*]] = mgp.addptr %[[P]], %[[S]]
// CHECK-NEXT: return %[[Q]]
func.func @addptr_chain(%p: tensor<64x!mgp.ptr<f16>>, %a: tensor<64xi32>, %b: tensor<64xi32>) -> tensor<64x!mgp.ptr<f16>> {
  %q = mgp.addptr %p, %a : tensor<64x!mgp.ptr<f16>>, tensor<64xi32>
  %r = mgp.addptr %q, %b : tensor<64x!mgp.ptr<f16>>, tensor<64xi32>
  return %r : tensor<64x!mgp.ptr<f16>>
}

// -----

// CHECK-LABEL: func @splat_constant
// CHECK-NEXT: %[[C:.*]] = arith.constant dense<2.500000e+00> : tensor<4x8xf32>
// CHECK-NEXT: return %[[C]]
func.func @splat_constant() -> tensor<4x8xf32> {
  %c = arith.constant 2.5 : f32
  %s = mgp.splat %c : f32 -> tensor<4x8xf32>
  return %s : tensor<4x8xf32>
}

// -----

// CHECK-LABEL: func @broadcast_of_splat
// CHECK-SAME: (%[[X:.*]]: i32)
// CHECK-NEXT: %[[S:.*]] = mgp.splat %[[X]] : i32 -> tensor<64x128xi32>
// CHECK-NEXT: return %[[S]]
func.func @broadcast_of_splat(%x: i32) -> tensor<64x128xi32> {
  %s = mgp.splat %x : i32 -> tensor<1x128xi32>
  %b = mgp.broadcast %s : tensor<1x128xi32> -> tensor<64x128xi32>
  return %b : tensor<64x128xi32>
}

// -----

// CHECK-LABEL: func @expand_of_splat
// CHECK-NEXT: %[[S:.*]] = mgp.splat %arg0 : f32 -> tensor<128x1xf32>
// CHECK-NEXT: return %[[S]]
func.func @expand_of_splat(%x: f32) -> tensor<128x1xf32> {
  %s = mgp.splat %x : f32 -> tensor<128xf32>
  %e = mgp.expand_dims %s {axis = 1 : i32} : tensor<128xf32> -> tensor<128x1xf32>
  return %e : tensor<128x1xf32>
}

// -----

// CHECK-LABEL: func @broadcast_of_constant
// CHECK-NEXT: arith.constant dense<7> : tensor<16x16xi32>
// CHECK-NEXT: return
func.func @broadcast_of_constant() -> tensor<16x16xi32> {
  %c = arith.constant dense<7> : tensor<1x16xi32>
  %b = mgp.broadcast %c : tensor<1x16xi32> -> tensor<16x16xi32>
  return %b : tensor<16x16xi32>
}
