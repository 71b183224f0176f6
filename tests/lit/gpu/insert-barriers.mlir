// RUN: mgp-opt %s -split-input-file -mgp-insert-barriers | FileCheck %s

#shared = #mgp.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#a = #mgp.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#t = #mgp.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>

module attributes {mgp.shared = 16384 : i32} {
  // Read after write needs a barrier; two reads do not; a write to another
  // buffer does not.
  // CHECK: func.func @raw
  // CHECK: %[[M:.*]] = mgp.local_alloc
  // CHECK-NEXT: mgp.local_alloc {mgp.allocation.offset = 4096 : i32}
  // CHECK-NEXT: mgp.barrier
  // CHECK-NEXT: mgp.local_load %[[M]]
  // CHECK-NEXT: mgp.local_load %[[M]]
  // CHECK-NEXT: mgp.local_store %{{.*}}, %{{.*}}
  // CHECK-NEXT: return
  func.func @raw(%x: tensor<32x32xf32, #a>) -> (tensor<32x32xf32, #a>, tensor<32x32xf32, #a>) {
    %m = mgp.local_alloc %x {mgp.allocation.offset = 0 : i32} : (tensor<32x32xf32, #a>) -> !mgp.memdesc<32x32xf32, #shared>
    %n = mgp.local_alloc {mgp.allocation.offset = 4096 : i32} : () -> !mgp.memdesc<32x32xf32, #shared, mutable>
    %v = mgp.local_load %m : !mgp.memdesc<32x32xf32, #shared> -> tensor<32x32xf32, #a>
    %w = mgp.local_load %m : !mgp.memdesc<32x32xf32, #shared> -> tensor<32x32xf32, #a>
    mgp.local_store %x, %n : tensor<32x32xf32, #a> -> !mgp.memdesc<32x32xf32, #shared, mutable>
    return %v, %w : tensor<32x32xf32, #a>, tensor<32x32xf32, #a>
  }

  // Scratch ops reusing the same bytes are separated; disjoint ones are not.
  // CHECK: func.func @scratch
  // CHECK: mgp.convert_layout %{{.*}} {mgp.allocation.offset = 0 : i32}
  // CHECK-NEXT: mgp.convert_layout %{{.*}} {mgp.allocation.offset = 8192 : i32}
  // CHECK-NEXT: mgp.barrier
  // CHECK-NEXT: mgp.convert_layout %{{.*}} {mgp.allocation.offset = 0 : i32}
  func.func @scratch(%x: tensor<32x32xf32, #a>) -> (tensor<32x32xf32, #t>, tensor<32x32xf32, #t>, tensor<32x32xf32, #t>) {
    %0 = mgp.convert_layout %x {mgp.allocation.offset = 0 : i32} : tensor<32x32xf32, #a> -> tensor<32x32xf32, #t>
    %1 = mgp.convert_layout %x {mgp.allocation.offset = 8192 : i32} : tensor<32x32xf32, #a> -> tensor<32x32xf32, #t>
    %2 = mgp.convert_layout %x {mgp.allocation.offset = 0 : i32} : tensor<32x32xf32, #a> -> tensor<32x32xf32, #t>
    return %0, %1, %2 : tensor<32x32xf32, #t>, tensor<32x32xf32, #t>, tensor<32x32xf32, #t>
  }

  // In a loop that stores then loads one buffer: a barrier between them and
  // one for the back edge (the next store must wait for this load), placed
  // before the first access of the body that conflicts: the store.
  // CHECK: func.func @loop
  // CHECK: scf.for
  // CHECK-NEXT: mgp.barrier
  // CHECK-NEXT: mgp.local_store
  // CHECK-NEXT: mgp.barrier
  // CHECK-NEXT: mgp.local_load
  // CHECK-NEXT: scf.yield
  func.func @loop(%x: tensor<32x32xf32, #a>, %n: i32) -> tensor<32x32xf32, #a> {
    %m = mgp.local_alloc {mgp.allocation.offset = 0 : i32} : () -> !mgp.memdesc<32x32xf32, #shared, mutable>
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (tensor<32x32xf32, #a>) : i32 {
      mgp.local_store %acc, %m : tensor<32x32xf32, #a> -> !mgp.memdesc<32x32xf32, #shared, mutable>
      %v = mgp.local_load %m : !mgp.memdesc<32x32xf32, #shared, mutable> -> tensor<32x32xf32, #a>
      scf.yield %v : tensor<32x32xf32, #a>
    }
    return %r : tensor<32x32xf32, #a>
  }

  // A store in one branch of an scf.if must be visible to a load after it.
  // CHECK: func.func @branch
  // CHECK: scf.if
  // CHECK: mgp.local_store
  // CHECK: }
  // CHECK-NEXT: mgp.barrier
  // CHECK-NEXT: mgp.local_load
  func.func @branch(%x: tensor<32x32xf32, #a>, %c: i1) -> tensor<32x32xf32, #a> {
    %m = mgp.local_alloc {mgp.allocation.offset = 0 : i32} : () -> !mgp.memdesc<32x32xf32, #shared, mutable>
    scf.if %c {
      mgp.local_store %x, %m : tensor<32x32xf32, #a> -> !mgp.memdesc<32x32xf32, #shared, mutable>
    }
    %v = mgp.local_load %m : !mgp.memdesc<32x32xf32, #shared, mutable> -> tensor<32x32xf32, #a>
    return %v : tensor<32x32xf32, #a>
  }
}
