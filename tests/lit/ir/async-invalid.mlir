// RUN: mgp-opt %s -split-input-file -verify-diagnostics
// One case per verifier rule of the software-pipelining ops.

#sh = #mgp.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#sh1 = #mgp.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
func.func @subview_no_buffer_dim(%m: !mgp.memdesc<8x64xf32, #sh, mutable>, %i: i32) {
  // expected-error @+1 {{source must have a leading buffer dimension}}
  %s = mgp.memdesc_subview %m[%i] : !mgp.memdesc<8x64xf32, #sh, mutable> -> !mgp.memdesc<64xf32, #sh1, mutable>
  return
}

// -----

#sh = #mgp.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
func.func @subview_shape(%m: !mgp.memdesc<3x8x64xf32, #sh, mutable>, %i: i32) {
  // expected-error @+1 {{result must be one buffer of the source: expected '!mgp.memdesc<8x64xf32}}
  %s = mgp.memdesc_subview %m[%i] : !mgp.memdesc<3x8x64xf32, #sh, mutable> -> !mgp.memdesc<8x32xf32, #sh, mutable>
  return
}

// -----

#sh = #mgp.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
func.func @subview_mutability(%m: !mgp.memdesc<3x8x64xf32, #sh, mutable>, %i: i32) {
  // expected-error @+1 {{result must be one buffer of the source}}
  %s = mgp.memdesc_subview %m[%i] : !mgp.memdesc<3x8x64xf32, #sh, mutable> -> !mgp.memdesc<8x64xf32, #sh>
  return
}

// -----

#sh = #mgp.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
func.func @copy_immutable(%p: tensor<8x64x!mgp.ptr<f32>>, %m: !mgp.memdesc<8x64xf32, #sh>) {
  // expected-error @+1 {{destination buffer must be mutable}}
  mgp.async_copy_global_to_local %p, %m : tensor<8x64x!mgp.ptr<f32>> -> !mgp.memdesc<8x64xf32, #sh>
  return
}

// -----

#sh = #mgp.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
func.func @copy_shape(%p: tensor<8x32x!mgp.ptr<f32>>, %m: !mgp.memdesc<8x64xf32, #sh, mutable>) {
  // expected-error @+1 {{must have the shape and pointee type of}}
  mgp.async_copy_global_to_local %p, %m : tensor<8x32x!mgp.ptr<f32>> -> !mgp.memdesc<8x64xf32, #sh, mutable>
  return
}

// -----

#sh = #mgp.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
func.func @copy_element(%p: tensor<8x64x!mgp.ptr<f16>>, %m: !mgp.memdesc<8x64xf32, #sh, mutable>) {
  // expected-error @+1 {{must have the shape and pointee type of}}
  mgp.async_copy_global_to_local %p, %m : tensor<8x64x!mgp.ptr<f16>> -> !mgp.memdesc<8x64xf32, #sh, mutable>
  return
}

// -----

#sh = #mgp.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
func.func @copy_mask_shape(%p: tensor<8x64x!mgp.ptr<f32>>, %k: tensor<8x32xi1>, %m: !mgp.memdesc<8x64xf32, #sh, mutable>) {
  // expected-error @+1 {{mask is i1 with the shape of ptr}}
  "mgp.async_copy_global_to_local"(%p, %m, %k) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> : (tensor<8x64x!mgp.ptr<f32>>, !mgp.memdesc<8x64xf32, #sh, mutable>, tensor<8x32xi1>) -> ()
  return
}

// -----

#sh = #mgp.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
func.func @copy_other_without_mask(%p: tensor<8x64x!mgp.ptr<f32>>, %o: tensor<8x64xf32>, %m: !mgp.memdesc<8x64xf32, #sh, mutable>) {
  // expected-error @+1 {{'other' needs a mask}}
  "mgp.async_copy_global_to_local"(%p, %m, %o) <{operandSegmentSizes = array<i32: 1, 1, 0, 1>}> : (tensor<8x64x!mgp.ptr<f32>>, !mgp.memdesc<8x64xf32, #sh, mutable>, tensor<8x64xf32>) -> ()
  return
}

// -----

func.func @wait_negative() {
  // expected-error @+1 {{attribute 'num' failed to satisfy constraint}}
  mgp.async_wait -1
  return
}
