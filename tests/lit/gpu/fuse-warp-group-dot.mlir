// RUN: mgp-opt %s -split-input-file -mgp-fuse-warp-group-dot -verify-diagnostics | FileCheck %s

// A version-3 dot reading two local_loads becomes mgp.warp_group_dot on the
// memdescs. In a loop the pipeliner gave a spare buffer
// (mgp.wgmma_spare_buffer), a dot reading two pipeline slots (subviews of
// multi-buffers allocated before the loop) whose accumulator is only
// loop-carried becomes asynchronous, waited for right after the loop.
// CHECK-LABEL: func.func @pipelined
// CHECK: scf.for
// CHECK-NOT: mgp.local_load
// CHECK: mgp.warp_group_dot %{{.*}}, %{{.*}}, %{{.*}} {inputPrecision = tf32} {isAsync}
// CHECK: scf.yield
// CHECK: } {mgp.wgmma_spare_buffer}
// CHECK-NEXT: %[[W:.*]] = mgp.warp_group_dot_wait %{{.*}} {pendings = 0 : i32}
// CHECK-NEXT: return %[[W]]
#a = #mgp.shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#b = #mgp.shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [0, 1]}>
#v3 = #mgp.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 8]}>
#da = #mgp.dot_op<{opIdx = 0, parent = #v3, kWidth = 1}>
#db = #mgp.dot_op<{opIdx = 1, parent = #v3, kWidth = 1}>
module attributes {mgp.num_warps = 4 : i32, mgp.threads_per_warp = 32 : i32} {
func.func @pipelined(%c: tensor<64x64xf32, #v3>, %n: i32) -> tensor<64x64xf32, #v3> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %bufa = mgp.local_alloc : () -> !mgp.memdesc<4x64x32xf32, #a, mutable>
  %bufb = mgp.local_alloc : () -> !mgp.memdesc<4x32x64xf32, #b, mutable>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c) -> (tensor<64x64xf32, #v3>) : i32 {
    %sa = mgp.memdesc_subview %bufa[%i] : !mgp.memdesc<4x64x32xf32, #a, mutable> -> !mgp.memdesc<64x32xf32, #a, mutable>
    %sb = mgp.memdesc_subview %bufb[%i] : !mgp.memdesc<4x32x64xf32, #b, mutable> -> !mgp.memdesc<32x64xf32, #b, mutable>
    %x = mgp.local_load %sa : !mgp.memdesc<64x32xf32, #a, mutable> -> tensor<64x32xf32, #da>
    %y = mgp.local_load %sb : !mgp.memdesc<32x64xf32, #b, mutable> -> tensor<32x64xf32, #db>
    %d = mgp.dot %x, %y, %acc {inputPrecision = tf32} : tensor<64x32xf32, #da> * tensor<32x64xf32, #db> -> tensor<64x64xf32, #v3>
    scf.yield %d : tensor<64x64xf32, #v3>
  } {mgp.wgmma_spare_buffer}
  return %r : tensor<64x64xf32, #v3>
}
}

// -----

// With a spare buffer but an operand that is not a pipeline slot (a buffer
// the next iteration may rewrite), the wgmma completes inside its iteration.
// CHECK-LABEL: func.func @unpipelined_operand
// CHECK: mgp.warp_group_dot %{{.*}}, %arg0, %{{.*}} {inputPrecision = tf32} :
// CHECK-NOT: isAsync
// CHECK-NOT: mgp.warp_group_dot_wait
#a = #mgp.shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#b = #mgp.shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [0, 1]}>
#v3 = #mgp.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 8]}>
#da = #mgp.dot_op<{opIdx = 0, parent = #v3, kWidth = 1}>
#db = #mgp.dot_op<{opIdx = 1, parent = #v3, kWidth = 1}>
module attributes {mgp.num_warps = 4 : i32, mgp.threads_per_warp = 32 : i32} {
func.func @unpipelined_operand(%b: !mgp.memdesc<32x64xf32, #b>, %c: tensor<64x64xf32, #v3>, %n: i32) -> tensor<64x64xf32, #v3> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %bufa = mgp.local_alloc : () -> !mgp.memdesc<4x64x32xf32, #a, mutable>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c) -> (tensor<64x64xf32, #v3>) : i32 {
    %sa = mgp.memdesc_subview %bufa[%i] : !mgp.memdesc<4x64x32xf32, #a, mutable> -> !mgp.memdesc<64x32xf32, #a, mutable>
    %x = mgp.local_load %sa : !mgp.memdesc<64x32xf32, #a, mutable> -> tensor<64x32xf32, #da>
    %y = mgp.local_load %b : !mgp.memdesc<32x64xf32, #b> -> tensor<32x64xf32, #db>
    %d = mgp.dot %x, %y, %acc {inputPrecision = tf32} : tensor<64x32xf32, #da> * tensor<32x64xf32, #db> -> tensor<64x64xf32, #v3>
    scf.yield %d : tensor<64x64xf32, #v3>
  } {mgp.wgmma_spare_buffer}
  return %r : tensor<64x64xf32, #v3>
}
}

// -----

// Without the spare buffer the wgmma completes inside its iteration.
// CHECK-LABEL: func.func @unpipelined
// CHECK: mgp.warp_group_dot %arg0, %arg1, %{{.*}} {inputPrecision = tf32} :
// CHECK-NOT: isAsync
// CHECK-NOT: mgp.warp_group_dot_wait
#a = #mgp.shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#b = #mgp.shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [0, 1]}>
#v3 = #mgp.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 8]}>
#da = #mgp.dot_op<{opIdx = 0, parent = #v3, kWidth = 1}>
#db = #mgp.dot_op<{opIdx = 1, parent = #v3, kWidth = 1}>
module attributes {mgp.num_warps = 4 : i32, mgp.threads_per_warp = 32 : i32} {
func.func @unpipelined(%a: !mgp.memdesc<64x32xf32, #a>, %b: !mgp.memdesc<32x64xf32, #b>, %c: tensor<64x64xf32, #v3>, %n: i32) -> tensor<64x64xf32, #v3> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c) -> (tensor<64x64xf32, #v3>) : i32 {
    %x = mgp.local_load %a : !mgp.memdesc<64x32xf32, #a> -> tensor<64x32xf32, #da>
    %y = mgp.local_load %b : !mgp.memdesc<32x64xf32, #b> -> tensor<32x64xf32, #db>
    %d = mgp.dot %x, %y, %acc {inputPrecision = tf32} : tensor<64x32xf32, #da> * tensor<32x64xf32, #db> -> tensor<64x64xf32, #v3>
    scf.yield %d : tensor<64x64xf32, #v3>
  }
  return %r : tensor<64x64xf32, #v3>
}
}

// -----

// An operand that is not read from shared memory cannot feed wgmma.
#v3 = #mgp.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 8]}>
#da = #mgp.dot_op<{opIdx = 0, parent = #v3, kWidth = 1}>
#db = #mgp.dot_op<{opIdx = 1, parent = #v3, kWidth = 1}>
module attributes {mgp.num_warps = 4 : i32, mgp.threads_per_warp = 32 : i32} {
func.func @registers(%x: tensor<64x32xf32, #da>, %y: tensor<32x64xf32, #db>, %c: tensor<64x64xf32, #v3>) -> tensor<64x64xf32, #v3> {
  // expected-error @+1 {{a version-3 mma dot needs both operands read from shared memory by mgp.local_load in its block}}
  %d = mgp.dot %x, %y, %c {inputPrecision = tf32} : tensor<64x32xf32, #da> * tensor<32x64xf32, #db> -> tensor<64x64xf32, #v3>
  return %d : tensor<64x64xf32, #v3>
}
}

// -----

// A write of the operand's buffer between its local_load and the dot: the
// wgmma would read the new contents.
#a = #mgp.shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#b = #mgp.shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [0, 1]}>
#bl = #mgp.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#v3 = #mgp.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 8]}>
#da = #mgp.dot_op<{opIdx = 0, parent = #v3, kWidth = 1}>
#db = #mgp.dot_op<{opIdx = 1, parent = #v3, kWidth = 1}>
module attributes {mgp.num_warps = 4 : i32, mgp.threads_per_warp = 32 : i32} {
func.func @overwritten(%a: !mgp.memdesc<64x32xf32, #a, mutable>, %b: !mgp.memdesc<32x64xf32, #b>, %t: tensor<64x32xf32, #bl>, %c: tensor<64x64xf32, #v3>) -> tensor<64x64xf32, #v3> {
  %x = mgp.local_load %a : !mgp.memdesc<64x32xf32, #a, mutable> -> tensor<64x32xf32, #da>
  mgp.local_store %t, %a : tensor<64x32xf32, #bl> -> !mgp.memdesc<64x32xf32, #a, mutable>
  %y = mgp.local_load %b : !mgp.memdesc<32x64xf32, #b> -> tensor<32x64xf32, #db>
  // expected-error @+1 {{a version-3 mma dot's operand load is separated from it by mgp.local_store, which may write shared memory}}
  %d = mgp.dot %x, %y, %c {inputPrecision = tf32} : tensor<64x32xf32, #da> * tensor<32x64xf32, #db> -> tensor<64x64xf32, #v3>
  return %d : tensor<64x64xf32, #v3>
}
}

// -----

// Dots chained through their accumulators (a split-precision dot's three
// products): the operands the later dots stage from registers are staged
// before the first dot, and each dot followed by register ops alone before
// the next is mgp.wgmma_chained (no wait; the last dot's wait covers the
// chain). A dot whose next one is preceded by a staging of a value computed
// after it (%late: from the first product) is not chained, and that staging
// stays where it is.
// CHECK-LABEL: func.func @chain
// CHECK: %[[S0:.*]] = mgp.local_alloc %arg0
// CHECK: %[[S1:.*]] = mgp.local_alloc %arg1
// CHECK: %[[S2:.*]] = mgp.local_alloc %arg2
// CHECK: %[[S3:.*]] = mgp.local_alloc %arg3
// CHECK: %[[D0:.*]] = mgp.warp_group_dot %[[S0]], %[[S1]], %arg4 {inputPrecision = tf32} {mgp.wgmma_chained}
// CHECK-NEXT: %[[D1:.*]] = mgp.warp_group_dot %[[S2]], %[[S3]], %[[D0]] {inputPrecision = tf32} {mgp.wgmma_chained}
// CHECK-NEXT: %[[D2:.*]] = mgp.warp_group_dot %[[S2]], %[[S1]], %[[D1]] {inputPrecision = tf32} :
// CHECK-NEXT: return %[[D2]]
// CHECK-LABEL: func.func @late_operand
// CHECK: %[[D0:.*]] = mgp.warp_group_dot
// CHECK-NOT: mgp.wgmma_chained
// CHECK: mgp.local_alloc %{{.*}} : (tensor<32x64xf32, #{{.*}}>)
// CHECK: mgp.warp_group_dot %{{.*}}, %{{.*}}, %[[D0]] {inputPrecision = tf32} :
#bl = #mgp.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#a = #mgp.shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#b = #mgp.shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [0, 1]}>
#v3 = #mgp.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 8]}>
#da = #mgp.dot_op<{opIdx = 0, parent = #v3, kWidth = 1}>
#db = #mgp.dot_op<{opIdx = 1, parent = #v3, kWidth = 1}>
module attributes {mgp.num_warps = 4 : i32, mgp.threads_per_warp = 32 : i32} {
func.func @chain(%as: tensor<64x32xf32, #bl>, %bb: tensor<32x64xf32, #bl>, %ab: tensor<64x32xf32, #bl>, %bs: tensor<32x64xf32, #bl>, %c: tensor<64x64xf32, #v3>) -> tensor<64x64xf32, #v3> {
  %s0 = mgp.local_alloc %as : (tensor<64x32xf32, #bl>) -> !mgp.memdesc<64x32xf32, #a>
  %x0 = mgp.local_load %s0 : !mgp.memdesc<64x32xf32, #a> -> tensor<64x32xf32, #da>
  %s1 = mgp.local_alloc %bb : (tensor<32x64xf32, #bl>) -> !mgp.memdesc<32x64xf32, #b>
  %y0 = mgp.local_load %s1 : !mgp.memdesc<32x64xf32, #b> -> tensor<32x64xf32, #db>
  %d0 = mgp.dot %x0, %y0, %c {inputPrecision = tf32} : tensor<64x32xf32, #da> * tensor<32x64xf32, #db> -> tensor<64x64xf32, #v3>
  %s2 = mgp.local_alloc %ab : (tensor<64x32xf32, #bl>) -> !mgp.memdesc<64x32xf32, #a>
  %x1 = mgp.local_load %s2 : !mgp.memdesc<64x32xf32, #a> -> tensor<64x32xf32, #da>
  %s3 = mgp.local_alloc %bs : (tensor<32x64xf32, #bl>) -> !mgp.memdesc<32x64xf32, #b>
  %y1 = mgp.local_load %s3 : !mgp.memdesc<32x64xf32, #b> -> tensor<32x64xf32, #db>
  %d1 = mgp.dot %x1, %y1, %d0 {inputPrecision = tf32} : tensor<64x32xf32, #da> * tensor<32x64xf32, #db> -> tensor<64x64xf32, #v3>
  %y2 = mgp.local_load %s1 : !mgp.memdesc<32x64xf32, #b> -> tensor<32x64xf32, #db>
  %d2 = mgp.dot %x1, %y2, %d1 {inputPrecision = tf32} : tensor<64x32xf32, #da> * tensor<32x64xf32, #db> -> tensor<64x64xf32, #v3>
  return %d2 : tensor<64x64xf32, #v3>
}

func.func @late_operand(%as: tensor<64x32xf32, #bl>, %bb: tensor<32x64xf32, #bl>, %c: tensor<64x64xf32, #v3>) -> tensor<64x64xf32, #v3> {
  %s0 = mgp.local_alloc %as : (tensor<64x32xf32, #bl>) -> !mgp.memdesc<64x32xf32, #a>
  %x0 = mgp.local_load %s0 : !mgp.memdesc<64x32xf32, #a> -> tensor<64x32xf32, #da>
  %s1 = mgp.local_alloc %bb : (tensor<32x64xf32, #bl>) -> !mgp.memdesc<32x64xf32, #b>
  %y0 = mgp.local_load %s1 : !mgp.memdesc<32x64xf32, #b> -> tensor<32x64xf32, #db>
  %d0 = mgp.dot %x0, %y0, %c {inputPrecision = tf32} : tensor<64x32xf32, #da> * tensor<32x64xf32, #db> -> tensor<64x64xf32, #v3>
  %late = arith.addf %bb, %bb : tensor<32x64xf32, #bl>
  %s2 = mgp.local_alloc %late : (tensor<32x64xf32, #bl>) -> !mgp.memdesc<32x64xf32, #b>
  %y1 = mgp.local_load %s2 : !mgp.memdesc<32x64xf32, #b> -> tensor<32x64xf32, #db>
  %d1 = mgp.dot %x0, %y1, %d0 {inputPrecision = tf32} : tensor<64x32xf32, #da> * tensor<32x64xf32, #db> -> tensor<64x64xf32, #v3>
  return %d1 : tensor<64x64xf32, #v3>
}
}

// -----

// A loop whose copies the pipeliner issued after the dot
// (mgp.wgmma_copies_after_dot) makes the dot asynchronous too.
// CHECK-LABEL: func.func @copies_after_dot
// CHECK: mgp.warp_group_dot %{{.*}}, %{{.*}}, %{{.*}} {inputPrecision = tf32} {isAsync}
// CHECK: } {mgp.wgmma_copies_after_dot}
// CHECK-NEXT: %[[W:.*]] = mgp.warp_group_dot_wait %{{.*}} {pendings = 0 : i32}
// CHECK-NEXT: return %[[W]]
#a = #mgp.shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#b = #mgp.shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [0, 1]}>
#v3 = #mgp.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 8]}>
#da = #mgp.dot_op<{opIdx = 0, parent = #v3, kWidth = 1}>
#db = #mgp.dot_op<{opIdx = 1, parent = #v3, kWidth = 1}>
module attributes {mgp.num_warps = 4 : i32, mgp.threads_per_warp = 32 : i32} {
func.func @copies_after_dot(%c: tensor<64x64xf32, #v3>, %n: i32) -> tensor<64x64xf32, #v3> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %bufa = mgp.local_alloc : () -> !mgp.memdesc<3x64x32xf32, #a, mutable>
  %bufb = mgp.local_alloc : () -> !mgp.memdesc<3x32x64xf32, #b, mutable>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c) -> (tensor<64x64xf32, #v3>) : i32 {
    %sa = mgp.memdesc_subview %bufa[%i] : !mgp.memdesc<3x64x32xf32, #a, mutable> -> !mgp.memdesc<64x32xf32, #a, mutable>
    %sb = mgp.memdesc_subview %bufb[%i] : !mgp.memdesc<3x32x64xf32, #b, mutable> -> !mgp.memdesc<32x64xf32, #b, mutable>
    %x = mgp.local_load %sa : !mgp.memdesc<64x32xf32, #a, mutable> -> tensor<64x32xf32, #da>
    %y = mgp.local_load %sb : !mgp.memdesc<32x64xf32, #b, mutable> -> tensor<32x64xf32, #db>
    %d = mgp.dot %x, %y, %acc {inputPrecision = tf32} : tensor<64x32xf32, #da> * tensor<32x64xf32, #db> -> tensor<64x64xf32, #v3>
    scf.yield %d : tensor<64x64xf32, #v3>
  } {mgp.wgmma_copies_after_dot}
  return %r : tensor<64x64xf32, #v3>
}
}

// -----

// The persistent style's accumulator reset: after the dot, the loop carries
// select(last, 0, d) and an scf.if on `last` stores d. The loop carries d
// itself instead, a new i1 iter arg (true on entry, then !last) is the
// dot's useC, and the epilogue waits for the dot before reading d and
// yields the waited value: the dot is asynchronous. After the loop, its
// result is selected against zero by the last flag.
// CHECK-LABEL: func.func @reset_in_epilogue
// CHECK: %[[TRUE:.*]] = arith.constant true
// CHECK: scf.for {{.*}} iter_args(%[[ACC:.*]] = %{{.*}}, %[[USE:.*]] = %[[TRUE]])
// CHECK: %[[D:.*]] = mgp.warp_group_dot %{{.*}}, %{{.*}}, %[[ACC]] useC %[[USE]] {inputPrecision = tf32} {isAsync}
// CHECK-NOT: arith.select
// CHECK: %[[E:.*]] = scf.if %[[LAST:.*]] -> (tensor<64x64xf32, #{{.*}}>) {
// CHECK-NEXT: %[[W:.*]] = mgp.warp_group_dot_wait %[[D]] {pendings = 0 : i32}
// CHECK-NEXT: mgp.store %{{.*}}, %[[W]]
// CHECK-NEXT: scf.yield %[[W]]
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %[[D]]
// CHECK: %[[NEXT:.*]] = arith.xori %[[LAST]], %true
// CHECK: scf.yield %[[E]], %[[NEXT]]
// CHECK: } {mgp.wgmma_spare_buffer}
// CHECK-NEXT: %[[R:.*]] = mgp.warp_group_dot_wait %[[LOOP:.*]]#0 {pendings = 0 : i32}
// CHECK-NEXT: %[[K:.*]] = arith.select %[[LOOP]]#1, %[[R]], %{{.*}}
// CHECK-NEXT: return %[[K]]
#a = #mgp.shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#b = #mgp.shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [0, 1]}>
#v3 = #mgp.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 8]}>
#da = #mgp.dot_op<{opIdx = 0, parent = #v3, kWidth = 1}>
#db = #mgp.dot_op<{opIdx = 1, parent = #v3, kWidth = 1}>
module attributes {mgp.num_warps = 4 : i32, mgp.threads_per_warp = 32 : i32} {
func.func @reset_in_epilogue(%p: tensor<64x64x!mgp.ptr<f32>, #v3>, %n: i32, %k: i32) -> tensor<64x64xf32, #v3> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<64x64xf32, #v3>
  %bufa = mgp.local_alloc : () -> !mgp.memdesc<4x64x32xf32, #a, mutable>
  %bufb = mgp.local_alloc : () -> !mgp.memdesc<4x32x64xf32, #b, mutable>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32, #v3>) : i32 {
    %sa = mgp.memdesc_subview %bufa[%i] : !mgp.memdesc<4x64x32xf32, #a, mutable> -> !mgp.memdesc<64x32xf32, #a, mutable>
    %sb = mgp.memdesc_subview %bufb[%i] : !mgp.memdesc<4x32x64xf32, #b, mutable> -> !mgp.memdesc<32x64xf32, #b, mutable>
    %x = mgp.local_load %sa : !mgp.memdesc<64x32xf32, #a, mutable> -> tensor<64x32xf32, #da>
    %y = mgp.local_load %sb : !mgp.memdesc<32x64xf32, #b, mutable> -> tensor<32x64xf32, #db>
    %d = mgp.dot %x, %y, %acc {inputPrecision = tf32} : tensor<64x32xf32, #da> * tensor<32x64xf32, #db> -> tensor<64x64xf32, #v3>
    %ki = arith.remsi %i, %k : i32
    %km1 = arith.subi %k, %c1 : i32
    %last = arith.cmpi eq, %ki, %km1 : i32
    %next = arith.select %last, %zero, %d : tensor<64x64xf32, #v3>
    scf.if %last {
      mgp.store %p, %d : tensor<64x64x!mgp.ptr<f32>, #v3>
    }
    scf.yield %next : tensor<64x64xf32, #v3>
  } {mgp.wgmma_spare_buffer}
  return %r : tensor<64x64xf32, #v3>
}
}

// -----

// select(keep, d, 0): the flag is `keep` itself. Nothing reads the loop's
// result, so no select follows it.
// CHECK-LABEL: func.func @reset_keep_form
// CHECK: scf.for {{.*}} iter_args(%[[ACC:.*]] = %{{.*}}, %[[USE:.*]] = %true)
// CHECK: mgp.warp_group_dot %{{.*}}, %{{.*}}, %[[ACC]] useC %[[USE]] {inputPrecision = tf32} {isAsync}
// CHECK-NOT: arith.xori
// CHECK: scf.yield %{{.*}}, %[[KEEP:.*]] :
// CHECK: } {mgp.wgmma_spare_buffer}
// CHECK-NEXT: mgp.warp_group_dot_wait
// CHECK-NOT: arith.select
// CHECK: return
#a = #mgp.shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#b = #mgp.shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [0, 1]}>
#v3 = #mgp.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 8]}>
#da = #mgp.dot_op<{opIdx = 0, parent = #v3, kWidth = 1}>
#db = #mgp.dot_op<{opIdx = 1, parent = #v3, kWidth = 1}>
module attributes {mgp.num_warps = 4 : i32, mgp.threads_per_warp = 32 : i32} {
func.func @reset_keep_form(%p: tensor<64x64x!mgp.ptr<f32>, #v3>, %n: i32, %k: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<64x64xf32, #v3>
  %bufa = mgp.local_alloc : () -> !mgp.memdesc<4x64x32xf32, #a, mutable>
  %bufb = mgp.local_alloc : () -> !mgp.memdesc<4x32x64xf32, #b, mutable>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32, #v3>) : i32 {
    %sa = mgp.memdesc_subview %bufa[%i] : !mgp.memdesc<4x64x32xf32, #a, mutable> -> !mgp.memdesc<64x32xf32, #a, mutable>
    %sb = mgp.memdesc_subview %bufb[%i] : !mgp.memdesc<4x32x64xf32, #b, mutable> -> !mgp.memdesc<32x64xf32, #b, mutable>
    %x = mgp.local_load %sa : !mgp.memdesc<64x32xf32, #a, mutable> -> tensor<64x32xf32, #da>
    %y = mgp.local_load %sb : !mgp.memdesc<32x64xf32, #b, mutable> -> tensor<32x64xf32, #db>
    %d = mgp.dot %x, %y, %acc {inputPrecision = tf32} : tensor<64x32xf32, #da> * tensor<32x64xf32, #db> -> tensor<64x64xf32, #v3>
    %ki = arith.remsi %i, %k : i32
    %keep = arith.cmpi ne, %ki, %c0 : i32
    %next = arith.select %keep, %d, %zero : tensor<64x64xf32, #v3>
    scf.yield %next : tensor<64x64xf32, #v3>
  } {mgp.wgmma_spare_buffer}
  return
}
}

// -----

// A reset by a select on a tensor of conditions (elementwise), or a reset to
// a nonzero value, keeps the dot synchronous.
// CHECK-LABEL: func.func @reset_not_matched
// CHECK-NOT: isAsync
// CHECK-NOT: useC
// CHECK: return
#a = #mgp.shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#b = #mgp.shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [0, 1]}>
#v3 = #mgp.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 8]}>
#da = #mgp.dot_op<{opIdx = 0, parent = #v3, kWidth = 1}>
#db = #mgp.dot_op<{opIdx = 1, parent = #v3, kWidth = 1}>
module attributes {mgp.num_warps = 4 : i32, mgp.threads_per_warp = 32 : i32} {
func.func @reset_not_matched(%n: i32, %k: i32, %m: tensor<64x64xi1, #v3>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<64x64xf32, #v3>
  %one = arith.constant dense<1.0> : tensor<64x64xf32, #v3>
  %bufa = mgp.local_alloc : () -> !mgp.memdesc<4x64x32xf32, #a, mutable>
  %bufb = mgp.local_alloc : () -> !mgp.memdesc<4x32x64xf32, #b, mutable>
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %acc2 = %zero) -> (tensor<64x64xf32, #v3>, tensor<64x64xf32, #v3>) : i32 {
    %sa = mgp.memdesc_subview %bufa[%i] : !mgp.memdesc<4x64x32xf32, #a, mutable> -> !mgp.memdesc<64x32xf32, #a, mutable>
    %sb = mgp.memdesc_subview %bufb[%i] : !mgp.memdesc<4x32x64xf32, #b, mutable> -> !mgp.memdesc<32x64xf32, #b, mutable>
    %x = mgp.local_load %sa : !mgp.memdesc<64x32xf32, #a, mutable> -> tensor<64x32xf32, #da>
    %y = mgp.local_load %sb : !mgp.memdesc<32x64xf32, #b, mutable> -> tensor<32x64xf32, #db>
    %d = mgp.dot %x, %y, %acc {inputPrecision = tf32} : tensor<64x32xf32, #da> * tensor<32x64xf32, #db> -> tensor<64x64xf32, #v3>
    %next = arith.select %m, %zero, %d : tensor<64x64xi1, #v3>, tensor<64x64xf32, #v3>
    %x2 = mgp.local_load %sa : !mgp.memdesc<64x32xf32, #a, mutable> -> tensor<64x32xf32, #da>
    %y2 = mgp.local_load %sb : !mgp.memdesc<32x64xf32, #b, mutable> -> tensor<32x64xf32, #db>
    %d2 = mgp.dot %x2, %y2, %acc2 {inputPrecision = tf32} : tensor<64x32xf32, #da> * tensor<32x64xf32, #db> -> tensor<64x64xf32, #v3>
    %ki = arith.remsi %i, %k : i32
    %last = arith.cmpi eq, %ki, %c0 : i32
    %next2 = arith.select %last, %one, %d2 : tensor<64x64xf32, #v3>
    scf.yield %next, %next2 : tensor<64x64xf32, #v3>, tensor<64x64xf32, #v3>
  } {mgp.wgmma_spare_buffer}
  return
}
}
