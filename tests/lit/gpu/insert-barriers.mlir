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

// -----

// wgmma reads its operands through the async proxy. Operands that only
// cp.async writes are ordered by the wait and the barrier after it, with no
// proxy fence (as in Triton); an operand stored from registers (here B, an
// initialised local_alloc) gets fence.proxy.async after the store, before
// the barrier that orders it, and so does an operand whose bytes an op's
// scratch (a convert_layout before the dot) shares. A loop-invariant operand
// stored before a loop is fenced once, after its store, not in every
// iteration; one stored in the loop is fenced before the loop's barrier.
#sa = #mgp.shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#sb = #mgp.shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [0, 1]}>
#v3 = #mgp.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 8]}>
#pa = #mgp.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#pb = #mgp.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {mgp.num_warps = 4 : i32, mgp.threads_per_warp = 32 : i32, mgp.shared = 65536 : i32} {
  // CHECK-LABEL: func.func @copied_operands
  // CHECK: mgp.async_wait 0
  // CHECK-NEXT: mgp.barrier
  // CHECK-NEXT: mgp.warp_group_dot
  // CHECK-NOT: mgp.fence_async_shared
  // CHECK: return
  func.func @copied_operands(%pa: tensor<64x32x!mgp.ptr<f32>, #pa>, %pb: tensor<32x64x!mgp.ptr<f32>, #pb>, %c: tensor<64x64xf32, #v3>) -> tensor<64x64xf32, #v3> {
    %a = mgp.local_alloc {mgp.allocation.offset = 0 : i32} : () -> !mgp.memdesc<64x32xf32, #sa, mutable>
    %b = mgp.local_alloc {mgp.allocation.offset = 8192 : i32} : () -> !mgp.memdesc<32x64xf32, #sb, mutable>
    mgp.async_copy_global_to_local %pa, %a : tensor<64x32x!mgp.ptr<f32>, #pa> -> !mgp.memdesc<64x32xf32, #sa, mutable>
    mgp.async_copy_global_to_local %pb, %b : tensor<32x64x!mgp.ptr<f32>, #pb> -> !mgp.memdesc<32x64xf32, #sb, mutable>
    mgp.async_commit_group
    mgp.async_wait 0
    %d = mgp.warp_group_dot %a, %b, %c {inputPrecision = tf32} : !mgp.memdesc<64x32xf32, #sa, mutable> * !mgp.memdesc<32x64xf32, #sb, mutable> -> tensor<64x64xf32, #v3>
    return %d : tensor<64x64xf32, #v3>
  }

  // CHECK-LABEL: func.func @stored_operand
  // CHECK: mgp.local_alloc %{{.*}} {mgp.allocation.offset = 8192 : i32}
  // CHECK-NEXT: mgp.fence_async_shared
  // CHECK-NEXT: mgp.async_wait 0
  // CHECK-NEXT: mgp.barrier
  // CHECK-NEXT: mgp.warp_group_dot
  func.func @stored_operand(%pa: tensor<64x32x!mgp.ptr<f32>, #pa>, %x: tensor<32x64xf32, #pb>, %c: tensor<64x64xf32, #v3>) -> tensor<64x64xf32, #v3> {
    %a = mgp.local_alloc {mgp.allocation.offset = 0 : i32} : () -> !mgp.memdesc<64x32xf32, #sa, mutable>
    mgp.async_copy_global_to_local %pa, %a : tensor<64x32x!mgp.ptr<f32>, #pa> -> !mgp.memdesc<64x32xf32, #sa, mutable>
    mgp.async_commit_group
    %b = mgp.local_alloc %x {mgp.allocation.offset = 8192 : i32} : (tensor<32x64xf32, #pb>) -> !mgp.memdesc<32x64xf32, #sb>
    mgp.async_wait 0
    %d = mgp.warp_group_dot %a, %b, %c {inputPrecision = tf32} : !mgp.memdesc<64x32xf32, #sa, mutable> * !mgp.memdesc<32x64xf32, #sb> -> tensor<64x64xf32, #v3>
    return %d : tensor<64x64xf32, #v3>
  }

  // CHECK-LABEL: func.func @shared_scratch
  // CHECK: mgp.convert_layout
  // CHECK-NEXT: mgp.fence_async_shared
  // CHECK: mgp.async_wait 0
  // CHECK-NEXT: mgp.barrier
  // CHECK-NEXT: mgp.warp_group_dot
  func.func @shared_scratch(%pa: tensor<64x32x!mgp.ptr<f32>, #pa>, %pb: tensor<32x64x!mgp.ptr<f32>, #pb>, %y: tensor<64x32xf32, #pa>, %c: tensor<64x64xf32, #v3>) -> (tensor<64x64xf32, #v3>, tensor<64x32xf32, #pb>) {
    %t = mgp.convert_layout %y {mgp.allocation.offset = 0 : i32} : tensor<64x32xf32, #pa> -> tensor<64x32xf32, #pb>
    %a = mgp.local_alloc {mgp.allocation.offset = 0 : i32} : () -> !mgp.memdesc<64x32xf32, #sa, mutable>
    %b = mgp.local_alloc {mgp.allocation.offset = 8192 : i32} : () -> !mgp.memdesc<32x64xf32, #sb, mutable>
    mgp.async_copy_global_to_local %pa, %a : tensor<64x32x!mgp.ptr<f32>, #pa> -> !mgp.memdesc<64x32xf32, #sa, mutable>
    mgp.async_copy_global_to_local %pb, %b : tensor<32x64x!mgp.ptr<f32>, #pb> -> !mgp.memdesc<32x64xf32, #sb, mutable>
    mgp.async_commit_group
    mgp.async_wait 0
    %d = mgp.warp_group_dot %a, %b, %c {inputPrecision = tf32} : !mgp.memdesc<64x32xf32, #sa, mutable> * !mgp.memdesc<32x64xf32, #sb, mutable> -> tensor<64x64xf32, #v3>
    return %d, %t : tensor<64x64xf32, #v3>, tensor<64x32xf32, #pb>
  }
  // CHECK-LABEL: func.func @hoisted_operand
  // CHECK: mgp.local_alloc %{{.*}} {mgp.allocation.offset = 8192 : i32}
  // CHECK-NEXT: mgp.fence_async_shared
  // CHECK: scf.for
  // CHECK-NOT: mgp.fence_async_shared
  // CHECK: mgp.warp_group_dot
  // CHECK: scf.yield
  func.func @hoisted_operand(%pa: tensor<64x32x!mgp.ptr<f32>, #pa>, %x: tensor<32x64xf32, #pb>, %c: tensor<64x64xf32, #v3>, %n: i32) -> tensor<64x64xf32, #v3> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %a = mgp.local_alloc {mgp.allocation.offset = 0 : i32} : () -> !mgp.memdesc<64x32xf32, #sa, mutable>
    %b = mgp.local_alloc %x {mgp.allocation.offset = 8192 : i32} : (tensor<32x64xf32, #pb>) -> !mgp.memdesc<32x64xf32, #sb>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c) -> (tensor<64x64xf32, #v3>) : i32 {
      mgp.async_copy_global_to_local %pa, %a : tensor<64x32x!mgp.ptr<f32>, #pa> -> !mgp.memdesc<64x32xf32, #sa, mutable>
      mgp.async_commit_group
      mgp.async_wait 0
      %d = mgp.warp_group_dot %a, %b, %acc {inputPrecision = tf32} : !mgp.memdesc<64x32xf32, #sa, mutable> * !mgp.memdesc<32x64xf32, #sb> -> tensor<64x64xf32, #v3>
      scf.yield %d : tensor<64x64xf32, #v3>
    }
    return %r : tensor<64x64xf32, #v3>
  }

  // CHECK-LABEL: func.func @stored_in_loop
  // CHECK: scf.for
  // CHECK: mgp.local_store
  // CHECK-NEXT: mgp.fence_async_shared
  // CHECK-NEXT: mgp.barrier
  // CHECK-NEXT: mgp.warp_group_dot
  func.func @stored_in_loop(%x: tensor<64x32xf32, #pa>, %b: !mgp.memdesc<32x64xf32, #sb>, %c: tensor<64x64xf32, #v3>, %n: i32) -> tensor<64x64xf32, #v3> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %a = mgp.local_alloc {mgp.allocation.offset = 0 : i32} : () -> !mgp.memdesc<64x32xf32, #sa, mutable>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c) -> (tensor<64x64xf32, #v3>) : i32 {
      mgp.local_store %x, %a : tensor<64x32xf32, #pa> -> !mgp.memdesc<64x32xf32, #sa, mutable>
      %d = mgp.warp_group_dot %a, %b, %acc {inputPrecision = tf32} : !mgp.memdesc<64x32xf32, #sa, mutable> * !mgp.memdesc<32x64xf32, #sb> -> tensor<64x64xf32, #v3>
      scf.yield %d : tensor<64x64xf32, #v3>
    }
    return %r : tensor<64x64xf32, #v3>
  }
}
