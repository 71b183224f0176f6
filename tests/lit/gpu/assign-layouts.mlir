// RUN: mgp-opt %s -split-input-file -mgp-assign-layouts | FileCheck %s
// RUN: mgp-opt %s -split-input-file -mgp-assign-layouts=num-warps=8 | FileCheck %s --check-prefix=WARPS8

// Sources get the default blocked encoding; elementwise ops, loads and stores
// follow their first operand. The module records the warp configuration.
// CHECK-DAG: #[[B1:.*]] = #mgp.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK: module attributes {mgp.num_warps = 4 : i32, mgp.threads_per_warp = 32 : i32}
// CHECK: func.func @elementwise
// CHECK: mgp.make_range {{.*}} : tensor<256xi32, #[[B1]]>
// CHECK: arith.addi {{.*}} : tensor<256xi32, #[[B1]]>
// CHECK: mgp.load {{.*}} : tensor<256x!mgp.ptr<f32>, #[[B1]]>
// CHECK: arith.constant dense<0.000000e+00> : tensor<256xf32, #[[B1]]>
// CHECK-NOT: mgp.convert_layout
// WARPS8: mgp.num_warps = 8 : i32
// WARPS8: func.func @elementwise
// WARPS8: warpsPerCTA = [8]
func.func @elementwise(%x: !mgp.ptr<f32>, %n: i32) {
  %r = mgp.make_range {start = 0 : i32, end = 256 : i32} : tensor<256xi32>
  %ns = mgp.splat %n : i32 -> tensor<256xi32>
  %offs = arith.addi %r, %ns : tensor<256xi32>
  %xs = mgp.splat %x : !mgp.ptr<f32> -> tensor<256x!mgp.ptr<f32>>
  %p = mgp.addptr %xs, %offs : tensor<256x!mgp.ptr<f32>>, tensor<256xi32>
  %v = mgp.load %p : tensor<256x!mgp.ptr<f32>>
  %zero = arith.constant dense<0.0> : tensor<256xf32>
  %m = arith.maximumf %v, %zero : tensor<256xf32>
  mgp.store %p, %m : tensor<256x!mgp.ptr<f32>>
  return
}

// -----

// expand_dims(x, 1) producing P wants x in slice<1, P>; broadcast keeps P.
// The default 2-D encoding comes from the largest 2-D shape (64x64).
// CHECK-DAG: #[[P:.*]] = #mgp.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
// CHECK-DAG: #[[S1:.*]] = #mgp.slice<{dim = 1, parent = #[[P]]}>
// CHECK: func.func @expand
// CHECK: %[[R:.*]] = mgp.make_range
// CHECK: %[[C:.*]] = mgp.convert_layout %[[R]] : {{.*}} -> tensor<64xi32, #[[S1]]>
// CHECK: mgp.expand_dims %[[C]] {axis = 1 : i32} : tensor<64xi32, #[[S1]]> -> tensor<64x1xi32, #[[P]]>
// CHECK: mgp.broadcast {{.*}} : tensor<64x1xi32, #[[P]]> -> tensor<64x64xi32, #[[P]]>
func.func @expand() -> tensor<64x64xi32> {
  %r = mgp.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %e = mgp.expand_dims %r {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %b = mgp.broadcast %e : tensor<64x1xi32> -> tensor<64x64xi32>
  return %b : tensor<64x64xi32>
}

// -----

// reduce along axis 1 of P gives slice<1, P>.
// CHECK-DAG: #[[P:.*]] = #mgp.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
// CHECK-DAG: #[[S:.*]] = #mgp.slice<{dim = 1, parent = #[[P]]}>
// CHECK: func.func @reduce
// CHECK: "mgp.reduce"
// CHECK: (tensor<64x64xf32, #[[P]]>) -> tensor<64xf32, #[[S]]>
func.func @reduce(%x: tensor<64x64xf32>) -> tensor<64xf32> {
  %s = "mgp.reduce"(%x) <{axis = 1 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %t = arith.addf %a, %b : f32
    mgp.reduce.return %t : f32
  }) : (tensor<64x64xf32>) -> tensor<64xf32>
  return %s : tensor<64xf32>
}

// -----

// dot: Triton's FMA configuration (32x32 over 128 threads = 8 per thread:
// sizePerThread 2x2), operands in dot_op; the loop carries the accumulator
// in the dot's layout and converts the zero init before the loop.
// CHECK-DAG: #[[D:.*]] = #mgp.blocked<{sizePerThread = [2, 2], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[A:.*]] = #mgp.dot_op<{opIdx = 0, parent = #[[D]], kWidth = 1}>
// CHECK-DAG: #[[B:.*]] = #mgp.dot_op<{opIdx = 1, parent = #[[D]], kWidth = 1}>
// CHECK: func.func @dot_loop
// CHECK: %[[INIT:.*]] = mgp.convert_layout %{{.*}} : tensor<32x32xf32, #{{.*}}> -> tensor<32x32xf32, #[[D]]>
// CHECK: scf.for {{.*}} iter_args(%[[ACC:.*]] = %[[INIT]]) -> (tensor<32x32xf32, #[[D]]>)
// CHECK: mgp.convert_layout {{.*}} -> tensor<32x16xf32, #[[A]]>
// CHECK: mgp.convert_layout {{.*}} -> tensor<16x32xf32, #[[B]]>
// CHECK: mgp.dot {{.*}} -> tensor<32x32xf32, #[[D]]>
// CHECK: scf.yield {{.*}} : tensor<32x32xf32, #[[D]]>
func.func @dot_loop(%a: tensor<32x16xf32>, %b: tensor<16x32xf32>, %n: i32) -> tensor<32x32xf32> {
  %zero = arith.constant dense<0.0> : tensor<32x32xf32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<32x32xf32>) : i32 {
    %d = mgp.dot %a, %b, %acc {inputPrecision = ieee} : tensor<32x16xf32> * tensor<16x32xf32> -> tensor<32x32xf32>
    scf.yield %d : tensor<32x32xf32>
  }
  return %r : tensor<32x32xf32>
}

// -----

// scf.if results take the then-branch encoding; the else value is converted.
// CHECK: func.func @if_join
// CHECK: scf.if %{{.*}} -> (tensor<128xi32, #[[E:.*]]>)
// CHECK: scf.yield %{{.*}} : tensor<128xi32, #[[E]]>
// CHECK: else
// CHECK: scf.yield %{{.*}} : tensor<128xi32, #[[E]]>
func.func @if_join(%c: i1) -> tensor<128xi32> {
  %r = scf.if %c -> (tensor<128xi32>) {
    %a = mgp.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32>
    scf.yield %a : tensor<128xi32>
  } else {
    %z = arith.constant dense<0> : tensor<128xi32>
    scf.yield %z : tensor<128xi32>
  }
  return %r : tensor<128xi32>
}

// -----

// trans permutes a blocked encoding without moving data.
// CHECK-DAG: #[[SRC:.*]] = #mgp.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
// CHECK-DAG: #[[DST:.*]] = #mgp.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [2, 2], order = [0, 1]}>
// CHECK: func.func @trans
// CHECK: mgp.trans {{.*}} : tensor<16x64xf32, #[[SRC]]> -> tensor<64x16xf32, #[[DST]]>
func.func @trans(%x: tensor<16x64xf32>) -> tensor<64x16xf32> {
  %t = mgp.trans %x {order = array<i32: 1, 0>} : tensor<16x64xf32> -> tensor<64x16xf32>
  return %t : tensor<64x16xf32>
}

// -----

// scf.while: before-region arguments take the init's encoding, after-region
// arguments and results the encoding scf.condition forwards.
// CHECK: #[[W:.*]] = #mgp.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK: func.func @while_loop
// CHECK: scf.while (%{{.*}} = %{{.*}}) : (tensor<128xi32, #[[W]]>) -> tensor<128xi32, #[[W]]>
// CHECK: scf.condition(%{{.*}}) %{{.*}} : tensor<128xi32, #[[W]]>
// CHECK: ^bb0(%{{.*}}: tensor<128xi32, #[[W]]>):
// CHECK: arith.addi {{.*}} : tensor<128xi32, #[[W]]>
func.func @while_loop(%n: i32) -> tensor<128xi32> {
  %r = mgp.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32>
  %res = scf.while (%x = %r) : (tensor<128xi32>) -> tensor<128xi32> {
    %c0 = arith.constant 0 : i32
    %go = arith.cmpi slt, %c0, %n : i32
    scf.condition(%go) %x : tensor<128xi32>
  } do {
  ^bb0(%y: tensor<128xi32>):
    %one = arith.constant dense<1> : tensor<128xi32>
    %z = arith.addi %y, %one : tensor<128xi32>
    scf.yield %z : tensor<128xi32>
  }
  return %res : tensor<128xi32>
}

// -----

// A source whose shape the rank's default (built for the 16x32x32 tensor)
// would spread lanes past: the 2 of a join's 16x32x2 would take all 32 lanes,
// each element held 16 times. It gets the default of its own shape instead
// (2 lanes on the 2, 16 on the 32); a broadcast operand's 1 keeps the rank's.
// CHECK-DAG: #[[BIG:.*]] = #mgp.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [1, 1, 32], warpsPerCTA = [1, 4, 1], order = [2, 1, 0]}>
// CHECK-DAG: #[[PAIR:.*]] = #mgp.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [1, 16, 2], warpsPerCTA = [2, 2, 1], order = [2, 1, 0]}>
// CHECK: func.func @pairs
// CHECK: arith.constant dense<1> : tensor<16x32x2xi32, #[[PAIR]]>
// CHECK: arith.constant dense<2> : tensor<16x32x1xi32, #[[BIG]]>
// CHECK: arith.constant dense<3> : tensor<16x32x32xi32, #[[BIG]]>
func.func @pairs(%p: !mgp.ptr<i32>) {
  %pair = arith.constant dense<1> : tensor<16x32x2xi32>
  %one = arith.constant dense<2> : tensor<16x32x1xi32>
  %big = arith.constant dense<3> : tensor<16x32x32xi32>
  %s = arith.addi %pair, %pair : tensor<16x32x2xi32>
  %b = mgp.broadcast %one : tensor<16x32x1xi32> -> tensor<16x32x32xi32>
  %t = arith.addi %b, %big : tensor<16x32x32xi32>
  %ps = mgp.splat %p : !mgp.ptr<i32> -> tensor<16x32x2x!mgp.ptr<i32>>
  mgp.store %ps, %s : tensor<16x32x2x!mgp.ptr<i32>>
  %pb = mgp.splat %p : !mgp.ptr<i32> -> tensor<16x32x32x!mgp.ptr<i32>>
  mgp.store %pb, %t : tensor<16x32x32x!mgp.ptr<i32>>
  return
}

// -----

// tl.join as the front end writes it (each half broadcast along a new last
// dimension, a select on an iota), tl.permute and a tl.reshape that merges
// the pair into the rows (int4 unpacking): the halves keep their layout with
// the pair in each thread's registers, and the permute and the reshape only
// relabel registers (sizePerThread 2 along the merged rows), so nothing
// converts the reshape's source (tests/unit/codegen/ReshapeEncodingTest.cpp
// has the layouts no reshape can relabel).
// CHECK-DAG: #[[PAIR:.*]] = #mgp.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [1, 32, 1], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]}>
// CHECK-DAG: #[[ROWS:.*]] = #mgp.blocked<{sizePerThread = [2, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: func.func @interleave_rows
// CHECK: mgp.expand_dims {{.*}} -> tensor<16x32x1xi32, #[[PAIR]]>
// CHECK: arith.select {{.*}} : tensor<16x32x2xi1, #[[PAIR]]>, tensor<16x32x2xi32, #[[PAIR]]>
// CHECK-NEXT: %[[T:.*]] = mgp.trans
// CHECK-NEXT: mgp.reshape %[[T]] : tensor<16x2x32xi32, #{{.*}}> -> tensor<32x32xi32, #[[ROWS]]>
func.func @interleave_rows(%p: !mgp.ptr<i32>) {
  %ps = mgp.splat %p : !mgp.ptr<i32> -> tensor<16x32x!mgp.ptr<i32>>
  %lo = mgp.load %ps : tensor<16x32x!mgp.ptr<i32>>
  %hi = arith.addi %lo, %lo : tensor<16x32xi32>
  %le = mgp.expand_dims %lo {axis = 2 : i32} : tensor<16x32xi32> -> tensor<16x32x1xi32>
  %lb = mgp.broadcast %le : tensor<16x32x1xi32> -> tensor<16x32x2xi32>
  %he = mgp.expand_dims %hi {axis = 2 : i32} : tensor<16x32xi32> -> tensor<16x32x1xi32>
  %hb = mgp.broadcast %he : tensor<16x32x1xi32> -> tensor<16x32x2xi32>
  %r = mgp.make_range {start = 0 : i32, end = 2 : i32} : tensor<2xi32>
  %r1 = mgp.expand_dims %r {axis = 0 : i32} : tensor<2xi32> -> tensor<1x2xi32>
  %r2 = mgp.expand_dims %r1 {axis = 1 : i32} : tensor<1x2xi32> -> tensor<1x1x2xi32>
  %iota = mgp.broadcast %r2 : tensor<1x1x2xi32> -> tensor<16x32x2xi32>
  %zero = arith.constant dense<0> : tensor<16x32x2xi32>
  %first = arith.cmpi eq, %iota, %zero : tensor<16x32x2xi32>
  %j = arith.select %first, %lb, %hb : tensor<16x32x2xi1>, tensor<16x32x2xi32>
  %t = mgp.trans %j {order = array<i32: 0, 2, 1>} : tensor<16x32x2xi32> -> tensor<16x2x32xi32>
  %w = mgp.reshape %t : tensor<16x2x32xi32> -> tensor<32x32xi32>
  %qs = mgp.splat %p : !mgp.ptr<i32> -> tensor<32x32x!mgp.ptr<i32>>
  mgp.store %qs, %w : tensor<32x32x!mgp.ptr<i32>>
  return
}
