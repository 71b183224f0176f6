// RUN: mgp-opt %s -split-input-file -mgp-allocate-shared | FileCheck %s

#shared = #mgp.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#a = #mgp.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>

// Buffers live at the same time get disjoint offsets, largest first; a
// buffer allocated after another died reuses its bytes.
// CHECK: module attributes {mgp.shared = 12288 : i32}
// CHECK: func.func @buffers
// CHECK: mgp.local_alloc %{{.*}} {mgp.allocation.offset = 0 : i32} : (tensor<64x32xf32, #{{.*}}>)
// CHECK: mgp.local_alloc %{{.*}} {mgp.allocation.offset = 8192 : i32} : (tensor<32x32xf32, #{{.*}}>)
// CHECK: mgp.local_alloc %{{.*}} {mgp.allocation.offset = 0 : i32} : (tensor<32x32xf32, #{{.*}}>)
func.func @buffers(%x: tensor<64x32xf32, #a>, %y: tensor<32x32xf32, #a>) -> (tensor<64x32xf32, #a>, tensor<32x32xf32, #a>, tensor<32x32xf32, #a>) {
  %m0 = mgp.local_alloc %x : (tensor<64x32xf32, #a>) -> !mgp.memdesc<64x32xf32, #shared>
  %m1 = mgp.local_alloc %y : (tensor<32x32xf32, #a>) -> !mgp.memdesc<32x32xf32, #shared>
  %v0 = mgp.local_load %m0 : !mgp.memdesc<64x32xf32, #shared> -> tensor<64x32xf32, #a>
  %m2 = mgp.local_alloc %y : (tensor<32x32xf32, #a>) -> !mgp.memdesc<32x32xf32, #shared>
  %v1 = mgp.local_load %m1 : !mgp.memdesc<32x32xf32, #shared> -> tensor<32x32xf32, #a>
  %v2 = mgp.local_load %m2 : !mgp.memdesc<32x32xf32, #shared> -> tensor<32x32xf32, #a>
  return %v0, %v1, %v2 : tensor<64x32xf32, #a>, tensor<32x32xf32, #a>, tensor<32x32xf32, #a>
}

// -----

#rows = #mgp.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#cols = #mgp.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#flat = #mgp.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#sliced = #mgp.slice<{dim = 1, parent = #mgp.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>}>

// A transposing convert goes through shared memory: 32 rows of 32 + 4
// (padding) floats = 4608 bytes. A convert between encodings that give every
// thread the same elements needs none; neither does a reduce whose axis lies
// within a warp. A reduce across 4 warps needs 4 partials x 4 bytes.
// CHECK: module attributes {mgp.shared = 4608 : i32}
// CHECK: func.func @scratch
// CHECK: mgp.convert_layout %{{.*}} {mgp.allocation.offset = 0 : i32} : tensor<32x32xf32, #{{.*}}> -> tensor<32x32xf32, #{{.*}}>
// CHECK: mgp.convert_layout %{{.*}} : tensor<128xf32, #{{.*}}> -> tensor<128xf32, #{{.*}}>
// CHECK: "mgp.reduce"
// CHECK: }) : (tensor<32x32xf32, #{{.*}}>) -> tensor<32xf32
// CHECK: "mgp.reduce"
// CHECK: }) {mgp.allocation.offset = 0 : i32} : (tensor<128xf32, #{{.*}}>) -> f32
func.func @scratch(%x: tensor<32x32xf32, #rows>, %y: tensor<128xf32, #flat>) -> (tensor<32x32xf32, #cols>, tensor<128xf32, #sliced>, tensor<32xf32, #mgp.slice<{dim = 1, parent = #rows}>>, f32) {
  %t = mgp.convert_layout %x : tensor<32x32xf32, #rows> -> tensor<32x32xf32, #cols>
  %s = mgp.convert_layout %y : tensor<128xf32, #flat> -> tensor<128xf32, #sliced>
  %r = "mgp.reduce"(%x) <{axis = 1 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %sum = arith.addf %a, %b : f32
    mgp.reduce.return %sum : f32
  }) : (tensor<32x32xf32, #rows>) -> tensor<32xf32, #mgp.slice<{dim = 1, parent = #rows}>>
  %total = "mgp.reduce"(%y) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %sum = arith.addf %a, %b : f32
    mgp.reduce.return %sum : f32
  }) : (tensor<128xf32, #flat>) -> f32
  return %t, %s, %r, %total : tensor<32x32xf32, #cols>, tensor<128xf32, #sliced>, tensor<32xf32, #mgp.slice<{dim = 1, parent = #rows}>>, f32
}
