// RUN: mgp-opt %s -split-input-file -mgp-pipeline=num-stages=3 | FileCheck %s
// RUN: mgp-opt %s -split-input-file -mgp-pipeline=num-stages=3 -mgp-allocate-shared -mgp-insert-barriers | FileCheck %s --check-prefix=BAR
// RUN: mgp-opt %s -split-input-file -mgp-pipeline=num-stages=2 | FileCheck %s --check-prefix=TWO
// RUN: mgp-opt %s -split-input-file -mgp-pipeline=num-stages=1 | FileCheck %s --check-prefix=OFF
// RUN: mgp-opt %s -split-input-file -mgp-pipeline=num-stages=4 | FileCheck %s --check-prefix=BUDGET
// RUN: mgp-opt %s -split-input-file -mgp-pipeline="num-stages=3 shared-budget=196608" | FileCheck %s --check-prefix=HOPPER
// RUN: mgp-opt %s -split-input-file -mgp-pipeline="num-stages=3 shared-budget=196608" -mgp-allocate-shared -mgp-insert-barriers | FileCheck %s --check-prefix=HOPPERBAR

// The form mgp-stage-dot-operands produces (load -> local_alloc ->
// local_load -> dot), pointers advanced through iter_args, a dynamic trip
// count: 3 buffers per load; the prologue copies iterations 0 and 1
// (predicated on lb + k * step < ub); the kernel waits with 1 group pending,
// copies iteration i + 2 (pointer updates run ahead with it, masked off past
// the end), then reads slot i % 3; async_wait 0 after the loop.

#bla = #mgp.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#blb = #mgp.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#acc = #mgp.blocked<{sizePerThread = [2, 2], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#a = #mgp.dot_op<{opIdx = 0, parent = #acc, kWidth = 1}>
#b = #mgp.dot_op<{opIdx = 1, parent = #acc, kWidth = 1}>
#sh = #mgp.shared<{vec = 4, perPhase = 1, maxPhase = 4, order = [1, 0]}>
module attributes {mgp.num_warps = 4 : i32, mgp.threads_per_warp = 32 : i32} {
  // CHECK-LABEL: func @staged
  // CHECK-DAG: %[[BA:.*]] = mgp.local_alloc : () -> !mgp.memdesc<3x32x16xf32, #{{.*}}, mutable>
  // CHECK-DAG: %[[BB:.*]] = mgp.local_alloc : () -> !mgp.memdesc<3x16x32xf32, #{{.*}}, mutable>
  // Prologue: iterations 0 and 1, each a predicated copy pair and a commit.
  // CHECK: arith.cmpi slt
  // CHECK: mgp.memdesc_subview %[[BA]]
  // CHECK: mgp.async_copy_global_to_local {{.*}} mask {{.*}} {mgp.vector_width = 4 : i32}
  // CHECK: mgp.async_copy_global_to_local
  // CHECK: mgp.async_commit_group
  // CHECK: arith.cmpi slt
  // CHECK: mgp.async_copy_global_to_local
  // CHECK: mgp.async_copy_global_to_local
  // CHECK: mgp.async_commit_group
  // CHECK: scf.for
  // CHECK: mgp.async_wait 1
  // CHECK: arith.remui
  // CHECK: mgp.async_copy_global_to_local {{.*}} mask
  // CHECK: mgp.async_copy_global_to_local {{.*}} mask
  // CHECK: mgp.async_commit_group
  // CHECK: mgp.addptr
  // CHECK: mgp.memdesc_subview %[[BA]]
  // CHECK: mgp.local_load
  // CHECK: mgp.memdesc_subview %[[BB]]
  // CHECK: mgp.local_load
  // CHECK: mgp.dot
  // CHECK: scf.yield
  // CHECK: mgp.async_wait 0
  // CHECK-NOT: mgp.load

  // BAR-LABEL: func @staged
  // BAR: scf.for
  // BAR: mgp.async_wait 1
  // BAR-NEXT: mgp.barrier
  // BAR-NOT: mgp.barrier
  // BAR: scf.yield
  // BAR-NEXT: }
  // BAR-NEXT: mgp.async_wait 0
  // BAR-NEXT: mgp.barrier

  // TWO-LABEL: func @staged
  // TWO: mgp.local_alloc : () -> !mgp.memdesc<2x32x16xf32
  // TWO: mgp.async_commit_group
  // TWO: scf.for
  // TWO: mgp.async_wait 0

  // OFF-LABEL: func @staged
  // OFF-NOT: mgp.async
  // OFF: mgp.local_alloc %{{.*}} : (tensor<32x16xf32
  func.func @staged(%a0: tensor<32x16x!mgp.ptr<f32>, #bla>, %b0: tensor<16x32x!mgp.ptr<f32>, #blb>,
                    %ma: tensor<32x16xi1, #bla>, %n: i32) -> tensor<32x32xf32, #acc> {
    %c0 = arith.constant 0 : i32
    %c16 = arith.constant 16 : i32
    %sa = arith.constant dense<16> : tensor<32x16xi32, #bla>
    %sb = arith.constant dense<512> : tensor<16x32xi32, #blb>
    %za = arith.constant dense<0.0> : tensor<32x16xf32, #bla>
    %zero = arith.constant dense<0.0> : tensor<32x32xf32, #acc>
    %r:3 = scf.for %k = %c0 to %n step %c16 iter_args(%acc = %zero, %ap = %a0, %bp = %b0)
        -> (tensor<32x32xf32, #acc>, tensor<32x16x!mgp.ptr<f32>, #bla>, tensor<16x32x!mgp.ptr<f32>, #blb>) : i32 {
      %a = mgp.load %ap, %ma, %za {mgp.vector_width = 4 : i32} : tensor<32x16x!mgp.ptr<f32>, #bla>
      %am = mgp.local_alloc %a : (tensor<32x16xf32, #bla>) -> !mgp.memdesc<32x16xf32, #sh>
      %av = mgp.local_load %am : !mgp.memdesc<32x16xf32, #sh> -> tensor<32x16xf32, #a>
      %b = mgp.load %bp {mgp.vector_width = 4 : i32} : tensor<16x32x!mgp.ptr<f32>, #blb>
      %bm = mgp.local_alloc %b : (tensor<16x32xf32, #blb>) -> !mgp.memdesc<16x32xf32, #sh>
      %bv = mgp.local_load %bm : !mgp.memdesc<16x32xf32, #sh> -> tensor<16x32xf32, #b>
      %d = mgp.dot %av, %bv, %acc {inputPrecision = ieee} : tensor<32x16xf32, #a> * tensor<16x32xf32, #b> -> tensor<32x32xf32, #acc>
      %ap2 = mgp.addptr %ap, %sa : tensor<32x16x!mgp.ptr<f32>, #bla>, tensor<32x16xi32, #bla>
      %bp2 = mgp.addptr %bp, %sb : tensor<16x32x!mgp.ptr<f32>, #blb>, tensor<16x32xi32, #blb>
      scf.yield %d, %ap2, %bp2 : tensor<32x32xf32, #acc>, tensor<32x16x!mgp.ptr<f32>, #bla>, tensor<16x32x!mgp.ptr<f32>, #blb>
    }
    return %r#0 : tensor<32x32xf32, #acc>
  }
}

// -----

// A mask that is a conjunction of broadcasts (rows ok & columns ok, as a
// convolution's padding and channel tests): the pipeline's predicate is anded
// into the operand with fewer distinct values, the columns' (16 against 32),
// before the rows' are anded in, in the prologue and in the loop alike.

#bl = #mgp.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#acc = #mgp.blocked<{sizePerThread = [2, 2], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#a = #mgp.dot_op<{opIdx = 0, parent = #acc, kWidth = 1}>
#b = #mgp.dot_op<{opIdx = 1, parent = #acc, kWidth = 1}>
#sh = #mgp.shared<{vec = 4, perPhase = 1, maxPhase = 4, order = [1, 0]}>
module attributes {mgp.num_warps = 4 : i32, mgp.threads_per_warp = 32 : i32} {
  // CHECK-LABEL: func @conjunction
  // CHECK: %[[V0:.*]] = arith.cmpi slt
  // CHECK: %[[C0:.*]] = mgp.broadcast %{{.*}} : tensor<1x16xi1, #blocked> -> tensor<32x16xi1, #blocked>
  // CHECK: %[[P0:.*]] = mgp.splat %[[V0]] : i1 -> tensor<32x16xi1, #blocked>
  // CHECK: %[[CP0:.*]] = arith.andi %[[C0]], %[[P0]] : tensor<32x16xi1, #blocked>
  // CHECK: %[[M0:.*]] = arith.andi %{{.*}}, %[[CP0]] : tensor<32x16xi1, #blocked>
  // CHECK: mgp.async_copy_global_to_local {{.*}} mask %[[M0]]
  // CHECK: scf.for
  // CHECK: %[[C:.*]] = mgp.broadcast %{{.*}} : tensor<1x16xi1, #blocked> -> tensor<32x16xi1, #blocked>
  // CHECK: %[[P:.*]] = mgp.splat %{{.*}} : i1 -> tensor<32x16xi1, #blocked>
  // CHECK: %[[CP:.*]] = arith.andi %[[C]], %[[P]] : tensor<32x16xi1, #blocked>
  // CHECK: %[[M:.*]] = arith.andi %{{.*}}, %[[CP]] : tensor<32x16xi1, #blocked>
  // CHECK-NOT: arith.andi %[[M]]
  // CHECK: mgp.async_copy_global_to_local {{.*}} mask %[[M]]
  func.func @conjunction(%a0: tensor<32x16x!mgp.ptr<f32>, #bl>, %b0: tensor<16x32x!mgp.ptr<f32>, #bl>,
                         %rows: tensor<32x1xi1, #bl>, %cols: tensor<1x16xi32, #bl>, %n: i32) -> tensor<32x32xf32, #acc> {
    %c0 = arith.constant 0 : i32
    %c16 = arith.constant 16 : i32
    %sa = arith.constant dense<16> : tensor<32x16xi32, #bl>
    %za = arith.constant dense<0.0> : tensor<32x16xf32, #bl>
    %zero = arith.constant dense<0.0> : tensor<32x32xf32, #acc>
    %r:2 = scf.for %k = %c0 to %n step %c16 iter_args(%acc = %zero, %ap = %a0)
        -> (tensor<32x32xf32, #acc>, tensor<32x16x!mgp.ptr<f32>, #bl>) : i32 {
      %ks = mgp.splat %k : i32 -> tensor<1x16xi32, #bl>
      %ch = arith.addi %cols, %ks : tensor<1x16xi32, #bl>
      %ns = mgp.splat %n : i32 -> tensor<1x16xi32, #bl>
      %chok = arith.cmpi slt, %ch, %ns : tensor<1x16xi32, #bl>
      %rb = mgp.broadcast %rows : tensor<32x1xi1, #bl> -> tensor<32x16xi1, #bl>
      %cb = mgp.broadcast %chok : tensor<1x16xi1, #bl> -> tensor<32x16xi1, #bl>
      %ma = arith.andi %rb, %cb : tensor<32x16xi1, #bl>
      %a = mgp.load %ap, %ma, %za {mgp.vector_width = 4 : i32} : tensor<32x16x!mgp.ptr<f32>, #bl>
      %am = mgp.local_alloc %a : (tensor<32x16xf32, #bl>) -> !mgp.memdesc<32x16xf32, #sh>
      %av = mgp.local_load %am : !mgp.memdesc<32x16xf32, #sh> -> tensor<32x16xf32, #a>
      %b = mgp.load %b0 {mgp.vector_width = 4 : i32} : tensor<16x32x!mgp.ptr<f32>, #bl>
      %bm = mgp.local_alloc %b : (tensor<16x32xf32, #bl>) -> !mgp.memdesc<16x32xf32, #sh>
      %bv = mgp.local_load %bm : !mgp.memdesc<16x32xf32, #sh> -> tensor<16x32xf32, #b>
      %d = mgp.dot %av, %bv, %acc {inputPrecision = ieee} : tensor<32x16xf32, #a> * tensor<16x32xf32, #b> -> tensor<32x32xf32, #acc>
      %ap2 = mgp.addptr %ap, %sa : tensor<32x16x!mgp.ptr<f32>, #bl>, tensor<32x16xi32, #bl>
      scf.yield %d, %ap2 : tensor<32x32xf32, #acc>, tensor<32x16x!mgp.ptr<f32>, #bl>
    }
    return %r#0 : tensor<32x32xf32, #acc>
  }
  // A conjunction computed before the loop is left as it is: the predicate
  // of each iteration is anded onto the whole mask at the copy.
  // CHECK-LABEL: func @invariant_conjunction
  // CHECK: %[[INV:.*]] = arith.andi %{{.*}}, %{{.*}} : tensor<32x16xi1, #blocked>
  // CHECK: scf.for
  // CHECK: %[[PI:.*]] = mgp.splat %{{.*}} : i1 -> tensor<32x16xi1, #blocked>
  // CHECK-NEXT: %[[MI:.*]] = arith.andi %[[INV]], %[[PI]] : tensor<32x16xi1, #blocked>
  // CHECK-NEXT: mgp.async_copy_global_to_local {{.*}} mask %[[MI]]
  func.func @invariant_conjunction(%a0: tensor<32x16x!mgp.ptr<f32>, #bl>, %b0: tensor<16x32x!mgp.ptr<f32>, #bl>,
                                   %rows: tensor<32x1xi1, #bl>, %cols: tensor<1x16xi1, #bl>, %n: i32) -> tensor<32x32xf32, #acc> {
    %c0 = arith.constant 0 : i32
    %c16 = arith.constant 16 : i32
    %sa = arith.constant dense<16> : tensor<32x16xi32, #bl>
    %za = arith.constant dense<0.0> : tensor<32x16xf32, #bl>
    %zero = arith.constant dense<0.0> : tensor<32x32xf32, #acc>
    %rb = mgp.broadcast %rows : tensor<32x1xi1, #bl> -> tensor<32x16xi1, #bl>
    %cb = mgp.broadcast %cols : tensor<1x16xi1, #bl> -> tensor<32x16xi1, #bl>
    %ma = arith.andi %rb, %cb : tensor<32x16xi1, #bl>
    %r:2 = scf.for %k = %c0 to %n step %c16 iter_args(%acc = %zero, %ap = %a0)
        -> (tensor<32x32xf32, #acc>, tensor<32x16x!mgp.ptr<f32>, #bl>) : i32 {
      %a = mgp.load %ap, %ma, %za {mgp.vector_width = 4 : i32} : tensor<32x16x!mgp.ptr<f32>, #bl>
      %am = mgp.local_alloc %a : (tensor<32x16xf32, #bl>) -> !mgp.memdesc<32x16xf32, #sh>
      %av = mgp.local_load %am : !mgp.memdesc<32x16xf32, #sh> -> tensor<32x16xf32, #a>
      %b = mgp.load %b0 {mgp.vector_width = 4 : i32} : tensor<16x32x!mgp.ptr<f32>, #bl>
      %bm = mgp.local_alloc %b : (tensor<16x32xf32, #bl>) -> !mgp.memdesc<16x32xf32, #sh>
      %bv = mgp.local_load %bm : !mgp.memdesc<16x32xf32, #sh> -> tensor<16x32xf32, #b>
      %d = mgp.dot %av, %bv, %acc {inputPrecision = ieee} : tensor<32x16xf32, #a> * tensor<16x32xf32, #b> -> tensor<32x32xf32, #acc>
      %ap2 = mgp.addptr %ap, %sa : tensor<32x16x!mgp.ptr<f32>, #bl>, tensor<32x16xi32, #bl>
      scf.yield %d, %ap2 : tensor<32x32xf32, #acc>, tensor<32x16x!mgp.ptr<f32>, #bl>
    }
    return %r#0 : tensor<32x32xf32, #acc>
  }
}

// -----

// The FMA form (load -> convert_layout to #mgp.dot_op): an unswizzled buffer
// in the load's order, and a local_load of the slot instead of the convert.
// A nonzero `other` (b) comes back as a select on the slot read in the load's
// layout, which the convert then takes. A load whose address needs another
// load stays synchronous.

#bl = #mgp.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#a = #mgp.dot_op<{opIdx = 0, parent = #bl, kWidth = 1}>
#b = #mgp.dot_op<{opIdx = 1, parent = #bl, kWidth = 1}>
module attributes {mgp.num_warps = 4 : i32, mgp.threads_per_warp = 32 : i32} {
  // CHECK: #[[SH:.*]] = #mgp.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
  // CHECK-LABEL: func @fma
  // CHECK: mgp.local_alloc : () -> !mgp.memdesc<3x32x32xf32, #[[SH]], mutable>
  // CHECK: scf.for
  // CHECK: mgp.async_wait 1
  // CHECK: mgp.async_copy_global_to_local
  // CHECK: mgp.local_load %{{.*}} : !mgp.memdesc<32x32xf32, {{.*}}> -> tensor<32x32xf32, #dot_op>
  // CHECK: %[[B:.*]] = mgp.local_load %{{.*}} : !mgp.memdesc<32x32xf32, {{.*}}> -> tensor<32x32xf32, #blocked>
  // CHECK: %[[SEL:.*]] = arith.select %{{.*}}, %[[B]], %{{.*}} : tensor<32x32xi1, #blocked>, tensor<32x32xf32, #blocked>
  // CHECK: mgp.convert_layout %[[SEL]] : tensor<32x32xf32, #blocked> -> tensor<32x32xf32, #dot_op1>
  // CHECK: mgp.dot
  // An operand computed from the block in registers (a split into a tf32
  // part, as tl.dot's tf32x3 does): the block is copied asynchronously and
  // read back in the load's layout for the ops that compute the operand.
  // CHECK-LABEL: func @computed
  // CHECK: mgp.local_alloc : () -> !mgp.memdesc<3x32x32xf32, #[[SH]], mutable>
  // CHECK: scf.for
  // CHECK: mgp.async_wait 1
  // CHECK: mgp.async_copy_global_to_local
  // CHECK: %[[A:.*]] = mgp.local_load %{{.*}} : !mgp.memdesc<32x32xf32, {{.*}}> -> tensor<32x32xf32, #blocked>
  // CHECK: arith.bitcast %[[A]]
  // CHECK: arith.subf %[[A]]
  // CHECK: mgp.dot
  // CHECK-NOT: mgp.load
  // CHECK: scf.yield
  // CHECK-LABEL: func @not_pipelined
  // CHECK-NOT: mgp.async
  // CHECK: return
  func.func @fma(%a0: tensor<32x32x!mgp.ptr<f32>, #bl>, %b0: tensor<32x32x!mgp.ptr<f32>, #bl>, %n: i32) -> tensor<32x32xf32, #bl> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %one = arith.constant dense<1.0> : tensor<32x32xf32, #bl>
    %true = arith.constant dense<true> : tensor<32x32xi1, #bl>
    %zero = arith.constant dense<0.0> : tensor<32x32xf32, #bl>
    %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<32x32xf32, #bl>) : i32 {
      %ks = mgp.splat %k : i32 -> tensor<32x32xi32, #bl>
      %ap = mgp.addptr %a0, %ks : tensor<32x32x!mgp.ptr<f32>, #bl>, tensor<32x32xi32, #bl>
      %a = mgp.load %ap : tensor<32x32x!mgp.ptr<f32>, #bl>
      %av = mgp.convert_layout %a : tensor<32x32xf32, #bl> -> tensor<32x32xf32, #a>
      // other = 1.0: a select after the slot is read
      %bp = mgp.addptr %b0, %ks : tensor<32x32x!mgp.ptr<f32>, #bl>, tensor<32x32xi32, #bl>
      %b = mgp.load %bp, %true, %one : tensor<32x32x!mgp.ptr<f32>, #bl>
      %bv = mgp.convert_layout %b : tensor<32x32xf32, #bl> -> tensor<32x32xf32, #b>
      %d = mgp.dot %av, %bv, %acc {inputPrecision = ieee} : tensor<32x32xf32, #a> * tensor<32x32xf32, #b> -> tensor<32x32xf32, #bl>
      scf.yield %d : tensor<32x32xf32, #bl>
    }
    return %r : tensor<32x32xf32, #bl>
  }

  func.func @computed(%a0: tensor<32x32x!mgp.ptr<f32>, #bl>, %b: tensor<32x32xf32, #b>, %n: i32) -> tensor<32x32xf32, #bl> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.0> : tensor<32x32xf32, #bl>
    %round = arith.constant dense<4096> : tensor<32x32xi32, #bl>
    %keep = arith.constant dense<-8192> : tensor<32x32xi32, #bl>
    %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<32x32xf32, #bl>) : i32 {
      %ks = mgp.splat %k : i32 -> tensor<32x32xi32, #bl>
      %ap = mgp.addptr %a0, %ks : tensor<32x32x!mgp.ptr<f32>, #bl>, tensor<32x32xi32, #bl>
      %a = mgp.load %ap : tensor<32x32x!mgp.ptr<f32>, #bl>
      %bits = arith.bitcast %a : tensor<32x32xf32, #bl> to tensor<32x32xi32, #bl>
      %up = arith.addi %bits, %round : tensor<32x32xi32, #bl>
      %hi = arith.andi %up, %keep : tensor<32x32xi32, #bl>
      %big = arith.bitcast %hi : tensor<32x32xi32, #bl> to tensor<32x32xf32, #bl>
      %small = arith.subf %a, %big : tensor<32x32xf32, #bl>
      %sv = mgp.convert_layout %small : tensor<32x32xf32, #bl> -> tensor<32x32xf32, #a>
      %d = mgp.dot %sv, %b, %acc {inputPrecision = ieee} : tensor<32x32xf32, #a> * tensor<32x32xf32, #b> -> tensor<32x32xf32, #bl>
      scf.yield %d : tensor<32x32xf32, #bl>
    }
    return %r : tensor<32x32xf32, #bl>
  }

  func.func @not_pipelined(%a0: tensor<32x32x!mgp.ptr<f32>, #bl>, %idx: tensor<32x32x!mgp.ptr<i32>, #bl>, %n: i32) -> tensor<32x32xf32, #bl> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.0> : tensor<32x32xf32, #bl>
    %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<32x32xf32, #bl>) : i32 {
      // The address needs a load: it cannot run ahead.
      %off = mgp.load %idx : tensor<32x32x!mgp.ptr<i32>, #bl>
      %ap = mgp.addptr %a0, %off : tensor<32x32x!mgp.ptr<f32>, #bl>, tensor<32x32xi32, #bl>
      %a = mgp.load %ap : tensor<32x32x!mgp.ptr<f32>, #bl>
      %av = mgp.convert_layout %a : tensor<32x32xf32, #bl> -> tensor<32x32xf32, #a>
      %bv = mgp.convert_layout %a : tensor<32x32xf32, #bl> -> tensor<32x32xf32, #b>
      %d = mgp.dot %av, %bv, %acc {inputPrecision = ieee} : tensor<32x32xf32, #a> * tensor<32x32xf32, #b> -> tensor<32x32xf32, #bl>
      scf.yield %d : tensor<32x32xf32, #bl>
    }
    return %r : tensor<32x32xf32, #bl>
  }
}

// -----

// A static trip count below the pipeline depth (one iteration, 3 stages):
// the prologue's second iteration is predicated off (16 < 16 is false),
// and so are the kernel's copies.
#bl = #mgp.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#a = #mgp.dot_op<{opIdx = 0, parent = #bl, kWidth = 1}>
#b = #mgp.dot_op<{opIdx = 1, parent = #bl, kWidth = 1}>
module attributes {mgp.num_warps = 4 : i32, mgp.threads_per_warp = 32 : i32} {
  // CHECK-LABEL: func @short
  // CHECK: arith.cmpi slt
  // CHECK: mgp.async_copy_global_to_local
  // CHECK: mgp.async_copy_global_to_local
  // CHECK: mgp.async_commit_group
  // CHECK: arith.cmpi slt
  // CHECK: mgp.async_copy_global_to_local {{.*}} mask
  // CHECK: mgp.async_copy_global_to_local {{.*}} mask
  // CHECK: mgp.async_commit_group
  // CHECK: scf.for
  // CHECK: mgp.async_wait 1
  // CHECK: scf.yield
  // CHECK: mgp.async_wait 0
  func.func @short(%a0: tensor<32x32x!mgp.ptr<f32>, #bl>, %b0: tensor<32x32x!mgp.ptr<f32>, #bl>) -> tensor<32x32xf32, #bl> {
    %c0 = arith.constant 0 : i32
    %c16 = arith.constant 16 : i32
    %zero = arith.constant dense<0.0> : tensor<32x32xf32, #bl>
    %r = scf.for %k = %c0 to %c16 step %c16 iter_args(%acc = %zero) -> (tensor<32x32xf32, #bl>) : i32 {
      %ks = mgp.splat %k : i32 -> tensor<32x32xi32, #bl>
      %ap = mgp.addptr %a0, %ks : tensor<32x32x!mgp.ptr<f32>, #bl>, tensor<32x32xi32, #bl>
      %a = mgp.load %ap : tensor<32x32x!mgp.ptr<f32>, #bl>
      %av = mgp.convert_layout %a : tensor<32x32xf32, #bl> -> tensor<32x32xf32, #a>
      %bp = mgp.addptr %b0, %ks : tensor<32x32x!mgp.ptr<f32>, #bl>, tensor<32x32xi32, #bl>
      %b = mgp.load %bp : tensor<32x32x!mgp.ptr<f32>, #bl>
      %bv = mgp.convert_layout %b : tensor<32x32xf32, #bl> -> tensor<32x32xf32, #b>
      %d = mgp.dot %av, %bv, %acc {inputPrecision = ieee} : tensor<32x32xf32, #a> * tensor<32x32xf32, #b> -> tensor<32x32xf32, #bl>
      scf.yield %d : tensor<32x32xf32, #bl>
    }
    return %r : tensor<32x32xf32, #bl>
  }
}

// -----

// The shared-memory budget (96 KiB of multi-buffers per loop): 32 KiB per
// stage gets 3 buffers when 4 are asked for; 64 KiB per stage is not
// pipelined.
#bl = #mgp.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#a = #mgp.dot_op<{opIdx = 0, parent = #bl, kWidth = 1}>
#b = #mgp.dot_op<{opIdx = 1, parent = #bl, kWidth = 1}>
module attributes {mgp.num_warps = 4 : i32, mgp.threads_per_warp = 32 : i32} {
  // BUDGET-LABEL: func @budget
  // BUDGET: mgp.local_alloc : () -> !mgp.memdesc<3x128x32xf32
  // BUDGET: mgp.local_alloc : () -> !mgp.memdesc<3x32x128xf32
  // BUDGET: scf.for
  // BUDGET: mgp.async_wait 1
  // BUDGET-LABEL: func @too_big
  // BUDGET-NOT: mgp.async
  // BUDGET: return
  func.func @budget(%a0: tensor<128x32x!mgp.ptr<f32>, #bl>, %b0: tensor<32x128x!mgp.ptr<f32>, #bl>, %n: i32) -> tensor<128x128xf32, #bl> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.0> : tensor<128x128xf32, #bl>
    %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<128x128xf32, #bl>) : i32 {
      %a = mgp.load %a0 {mgp.vector_width = 4 : i32} : tensor<128x32x!mgp.ptr<f32>, #bl>
      %av = mgp.convert_layout %a : tensor<128x32xf32, #bl> -> tensor<128x32xf32, #a>
      %b = mgp.load %b0 {mgp.vector_width = 4 : i32} : tensor<32x128x!mgp.ptr<f32>, #bl>
      %bv = mgp.convert_layout %b : tensor<32x128xf32, #bl> -> tensor<32x128xf32, #b>
      %d = mgp.dot %av, %bv, %acc {inputPrecision = ieee} : tensor<128x32xf32, #a> * tensor<32x128xf32, #b> -> tensor<128x128xf32, #bl>
      scf.yield %d : tensor<128x128xf32, #bl>
    }
    return %r : tensor<128x128xf32, #bl>
  }

  func.func @too_big(%a0: tensor<128x64x!mgp.ptr<f32>, #bl>, %b0: tensor<64x128x!mgp.ptr<f32>, #bl>, %n: i32) -> tensor<128x128xf32, #bl> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.0> : tensor<128x128xf32, #bl>
    %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<128x128xf32, #bl>) : i32 {
      %a = mgp.load %a0 {mgp.vector_width = 4 : i32} : tensor<128x64x!mgp.ptr<f32>, #bl>
      %av = mgp.convert_layout %a : tensor<128x64xf32, #bl> -> tensor<128x64xf32, #a>
      %b = mgp.load %b0 {mgp.vector_width = 4 : i32} : tensor<64x128x!mgp.ptr<f32>, #bl>
      %bv = mgp.convert_layout %b : tensor<64x128xf32, #bl> -> tensor<64x128xf32, #b>
      %d = mgp.dot %av, %bv, %acc {inputPrecision = ieee} : tensor<128x64xf32, #a> * tensor<64x128xf32, #b> -> tensor<128x128xf32, #bl>
      scf.yield %d : tensor<128x128xf32, #bl>
    }
    return %r : tensor<128x128xf32, #bl>
  }
}

// -----

// A dot that becomes a warp-group dot (an #mgp.mma version 3 accumulator)
// gets a spare slot per load, so that its asynchronous wgmma may still read
// iteration i's slot while iteration i + 1 copies (mgp.wgmma_spare_buffer).
// When that spare slot is what keeps a second block off an sm_90 SM (here
// 32 KiB per stage: 4 slots take 128 KiB, two blocks need more than 228
// KiB; 3 slots fit twice) and the dot will be asynchronous (its accumulator
// only carried to the next iteration, both operands read from pipelined
// buffers), the loop takes Triton's order instead: 3 slots, the wait for
// iteration i's copies, the dot reading slot i % 3, then the copies of
// iteration i + 2 into the slot iteration i - 1 read, after a barrier
// (mgp.wgmma_copies_after_dot; mgp-fuse-warp-group-dot makes the dot wait
// for iteration i - 1's group before that barrier). A smaller tile (16 KiB
// per stage) keeps the spare slot.

#bla = #mgp.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>
#blb = #mgp.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [8, 1], order = [1, 0]}>
#v3 = #mgp.mma<{version = 3, warpsPerCTA = [8, 1], instrShape = [16, 128, 16]}>
#a = #mgp.dot_op<{opIdx = 0, parent = #v3, kWidth = 2}>
#b = #mgp.dot_op<{opIdx = 1, parent = #v3, kWidth = 2}>
#sh = #mgp.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#v3s = #mgp.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#as = #mgp.dot_op<{opIdx = 0, parent = #v3s, kWidth = 2}>
#bs = #mgp.dot_op<{opIdx = 1, parent = #v3s, kWidth = 2}>
#bls = #mgp.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {mgp.num_warps = 8 : i32, mgp.threads_per_warp = 32 : i32} {
  // HOPPER-LABEL: func @wgmma_two_blocks
  // HOPPER-DAG: mgp.local_alloc : () -> !mgp.memdesc<3x128x64xf16, #{{.*}}, mutable>
  // HOPPER-DAG: mgp.local_alloc : () -> !mgp.memdesc<3x64x128xf16, #{{.*}}, mutable>
  // HOPPER: scf.for
  // HOPPER: mgp.async_wait 1
  // HOPPER-NOT: mgp.async_copy_global_to_local
  // HOPPER: mgp.dot
  // HOPPER: mgp.async_copy_global_to_local {{.*}} mask
  // HOPPER: mgp.async_copy_global_to_local {{.*}} mask
  // HOPPER: mgp.async_commit_group
  // HOPPER: scf.yield
  // HOPPER-NEXT: } {mgp.wgmma_copies_after_dot}

  // HOPPERBAR-LABEL: func @wgmma_two_blocks
  // HOPPERBAR: scf.for
  // HOPPERBAR: mgp.async_wait 1
  // HOPPERBAR-NEXT: mgp.barrier
  // HOPPERBAR: mgp.dot
  // HOPPERBAR: mgp.barrier
  // HOPPERBAR-NEXT: mgp.async_copy_global_to_local
  func.func @wgmma_two_blocks(%a0: tensor<128x64x!mgp.ptr<f16>, #bla>, %b0: tensor<64x128x!mgp.ptr<f16>, #blb>,
                              %n: i32) -> tensor<128x128xf32, #v3> {
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %sa = arith.constant dense<64> : tensor<128x64xi32, #bla>
    %sb = arith.constant dense<8192> : tensor<64x128xi32, #blb>
    %zero = arith.constant dense<0.0> : tensor<128x128xf32, #v3>
    %r:3 = scf.for %k = %c0 to %n step %c64 iter_args(%acc = %zero, %ap = %a0, %bp = %b0)
        -> (tensor<128x128xf32, #v3>, tensor<128x64x!mgp.ptr<f16>, #bla>, tensor<64x128x!mgp.ptr<f16>, #blb>) : i32 {
      %a = mgp.load %ap {mgp.vector_width = 8 : i32} : tensor<128x64x!mgp.ptr<f16>, #bla>
      %am = mgp.local_alloc %a : (tensor<128x64xf16, #bla>) -> !mgp.memdesc<128x64xf16, #sh>
      %av = mgp.local_load %am : !mgp.memdesc<128x64xf16, #sh> -> tensor<128x64xf16, #a>
      %b = mgp.load %bp {mgp.vector_width = 8 : i32} : tensor<64x128x!mgp.ptr<f16>, #blb>
      %bm = mgp.local_alloc %b : (tensor<64x128xf16, #blb>) -> !mgp.memdesc<64x128xf16, #sh>
      %bv = mgp.local_load %bm : !mgp.memdesc<64x128xf16, #sh> -> tensor<64x128xf16, #b>
      %d = mgp.dot %av, %bv, %acc {inputPrecision = tf32} : tensor<128x64xf16, #a> * tensor<64x128xf16, #b> -> tensor<128x128xf32, #v3>
      %ap2 = mgp.addptr %ap, %sa : tensor<128x64x!mgp.ptr<f16>, #bla>, tensor<128x64xi32, #bla>
      %bp2 = mgp.addptr %bp, %sb : tensor<64x128x!mgp.ptr<f16>, #blb>, tensor<64x128xi32, #blb>
      scf.yield %d, %ap2, %bp2 : tensor<128x128xf32, #v3>, tensor<128x64x!mgp.ptr<f16>, #bla>, tensor<64x128x!mgp.ptr<f16>, #blb>
    }
    return %r#0 : tensor<128x128xf32, #v3>
  }

  // HOPPER-LABEL: func @wgmma_spare
  // HOPPER: mgp.local_alloc : () -> !mgp.memdesc<4x64x64xf16
  // HOPPER: scf.for
  // HOPPER: mgp.async_wait 1
  // HOPPER: mgp.async_copy_global_to_local
  // HOPPER: mgp.async_commit_group
  // HOPPER: mgp.dot
  // HOPPER: scf.yield
  // HOPPER-NEXT: } {mgp.wgmma_spare_buffer}
  func.func @wgmma_spare(%a0: tensor<64x64x!mgp.ptr<f16>, #bls>, %b0: tensor<64x64x!mgp.ptr<f16>, #bls>,
                         %n: i32) -> tensor<64x64xf32, #v3s> attributes {mgp.num_warps = 4 : i32} {
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %s = arith.constant dense<64> : tensor<64x64xi32, #bls>
    %zero = arith.constant dense<0.0> : tensor<64x64xf32, #v3s>
    %r:3 = scf.for %k = %c0 to %n step %c64 iter_args(%acc = %zero, %ap = %a0, %bp = %b0)
        -> (tensor<64x64xf32, #v3s>, tensor<64x64x!mgp.ptr<f16>, #bls>, tensor<64x64x!mgp.ptr<f16>, #bls>) : i32 {
      %a = mgp.load %ap {mgp.vector_width = 8 : i32} : tensor<64x64x!mgp.ptr<f16>, #bls>
      %am = mgp.local_alloc %a : (tensor<64x64xf16, #bls>) -> !mgp.memdesc<64x64xf16, #sh>
      %av = mgp.local_load %am : !mgp.memdesc<64x64xf16, #sh> -> tensor<64x64xf16, #as>
      %b = mgp.load %bp {mgp.vector_width = 8 : i32} : tensor<64x64x!mgp.ptr<f16>, #bls>
      %bm = mgp.local_alloc %b : (tensor<64x64xf16, #bls>) -> !mgp.memdesc<64x64xf16, #sh>
      %bv = mgp.local_load %bm : !mgp.memdesc<64x64xf16, #sh> -> tensor<64x64xf16, #bs>
      %d = mgp.dot %av, %bv, %acc {inputPrecision = tf32} : tensor<64x64xf16, #as> * tensor<64x64xf16, #bs> -> tensor<64x64xf32, #v3s>
      %ap2 = mgp.addptr %ap, %s : tensor<64x64x!mgp.ptr<f16>, #bls>, tensor<64x64xi32, #bls>
      %bp2 = mgp.addptr %bp, %s : tensor<64x64x!mgp.ptr<f16>, #bls>, tensor<64x64xi32, #bls>
      scf.yield %d, %ap2, %bp2 : tensor<64x64xf32, #v3s>, tensor<64x64x!mgp.ptr<f16>, #bls>, tensor<64x64x!mgp.ptr<f16>, #bls>
    }
    return %r#0 : tensor<64x64xf32, #v3s>
  }
}

// -----

// The same rule at three blocks against two: a 128x64x64 fp16 tile on one
// warp group (24 KiB per stage) fits three blocks per SM with 3 slots and
// two with 4, and its registers (64 accumulator registers per thread) allow
// three, so the loop takes Triton's order. On two warp groups (the module
// below) the registers allow only two blocks (256 threads, estimated 96
// each), and the spare slot costs nothing: it stays.

#bla = #mgp.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blb = #mgp.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#v3 = #mgp.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#a = #mgp.dot_op<{opIdx = 0, parent = #v3, kWidth = 2}>
#b = #mgp.dot_op<{opIdx = 1, parent = #v3, kWidth = 2}>
#sh = #mgp.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
module attributes {mgp.num_warps = 4 : i32, mgp.threads_per_warp = 32 : i32} {
  // HOPPER-LABEL: func @wgmma_three_blocks
  // HOPPER-DAG: mgp.local_alloc : () -> !mgp.memdesc<3x128x64xf16, #{{.*}}, mutable>
  // HOPPER-DAG: mgp.local_alloc : () -> !mgp.memdesc<3x64x64xf16, #{{.*}}, mutable>
  // HOPPER: scf.for
  // HOPPER: mgp.async_wait 1
  // HOPPER-NOT: mgp.async_copy_global_to_local
  // HOPPER: mgp.dot
  // HOPPER: mgp.async_copy_global_to_local {{.*}} mask
  // HOPPER: scf.yield
  // HOPPER-NEXT: } {mgp.wgmma_copies_after_dot}
  func.func @wgmma_three_blocks(%a0: tensor<128x64x!mgp.ptr<f16>, #bla>, %b0: tensor<64x64x!mgp.ptr<f16>, #blb>,
                                %n: i32) -> tensor<128x64xf32, #v3> {
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %sa = arith.constant dense<64> : tensor<128x64xi32, #bla>
    %sb = arith.constant dense<4096> : tensor<64x64xi32, #blb>
    %zero = arith.constant dense<0.0> : tensor<128x64xf32, #v3>
    %r:3 = scf.for %k = %c0 to %n step %c64 iter_args(%acc = %zero, %ap = %a0, %bp = %b0)
        -> (tensor<128x64xf32, #v3>, tensor<128x64x!mgp.ptr<f16>, #bla>, tensor<64x64x!mgp.ptr<f16>, #blb>) : i32 {
      %a = mgp.load %ap {mgp.vector_width = 8 : i32} : tensor<128x64x!mgp.ptr<f16>, #bla>
      %am = mgp.local_alloc %a : (tensor<128x64xf16, #bla>) -> !mgp.memdesc<128x64xf16, #sh>
      %av = mgp.local_load %am : !mgp.memdesc<128x64xf16, #sh> -> tensor<128x64xf16, #a>
      %b = mgp.load %bp {mgp.vector_width = 8 : i32} : tensor<64x64x!mgp.ptr<f16>, #blb>
      %bm = mgp.local_alloc %b : (tensor<64x64xf16, #blb>) -> !mgp.memdesc<64x64xf16, #sh>
      %bv = mgp.local_load %bm : !mgp.memdesc<64x64xf16, #sh> -> tensor<64x64xf16, #b>
      %d = mgp.dot %av, %bv, %acc {inputPrecision = tf32} : tensor<128x64xf16, #a> * tensor<64x64xf16, #b> -> tensor<128x64xf32, #v3>
      %ap2 = mgp.addptr %ap, %sa : tensor<128x64x!mgp.ptr<f16>, #bla>, tensor<128x64xi32, #bla>
      %bp2 = mgp.addptr %bp, %sb : tensor<64x64x!mgp.ptr<f16>, #blb>, tensor<64x64xi32, #blb>
      scf.yield %d, %ap2, %bp2 : tensor<128x64xf32, #v3>, tensor<128x64x!mgp.ptr<f16>, #bla>, tensor<64x64x!mgp.ptr<f16>, #blb>
    }
    return %r#0 : tensor<128x64xf32, #v3>
  }
}

// -----

#bla = #mgp.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>
#blb = #mgp.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [8, 1], order = [1, 0]}>
#v3 = #mgp.mma<{version = 3, warpsPerCTA = [8, 1], instrShape = [16, 64, 16]}>
#a = #mgp.dot_op<{opIdx = 0, parent = #v3, kWidth = 2}>
#b = #mgp.dot_op<{opIdx = 1, parent = #v3, kWidth = 2}>
#sh = #mgp.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
module attributes {mgp.num_warps = 8 : i32, mgp.threads_per_warp = 32 : i32} {
  // HOPPER-LABEL: func @wgmma_register_bound
  // HOPPER-DAG: mgp.local_alloc : () -> !mgp.memdesc<4x128x64xf16, #{{.*}}, mutable>
  // HOPPER-DAG: mgp.local_alloc : () -> !mgp.memdesc<4x64x64xf16, #{{.*}}, mutable>
  // HOPPER: scf.yield
  // HOPPER-NEXT: } {mgp.wgmma_spare_buffer}
  func.func @wgmma_register_bound(%a0: tensor<128x64x!mgp.ptr<f16>, #bla>, %b0: tensor<64x64x!mgp.ptr<f16>, #blb>,
                                  %n: i32) -> tensor<128x64xf32, #v3> {
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %sa = arith.constant dense<64> : tensor<128x64xi32, #bla>
    %sb = arith.constant dense<4096> : tensor<64x64xi32, #blb>
    %zero = arith.constant dense<0.0> : tensor<128x64xf32, #v3>
    %r:3 = scf.for %k = %c0 to %n step %c64 iter_args(%acc = %zero, %ap = %a0, %bp = %b0)
        -> (tensor<128x64xf32, #v3>, tensor<128x64x!mgp.ptr<f16>, #bla>, tensor<64x64x!mgp.ptr<f16>, #blb>) : i32 {
      %a = mgp.load %ap {mgp.vector_width = 8 : i32} : tensor<128x64x!mgp.ptr<f16>, #bla>
      %am = mgp.local_alloc %a : (tensor<128x64xf16, #bla>) -> !mgp.memdesc<128x64xf16, #sh>
      %av = mgp.local_load %am : !mgp.memdesc<128x64xf16, #sh> -> tensor<128x64xf16, #a>
      %b = mgp.load %bp {mgp.vector_width = 8 : i32} : tensor<64x64x!mgp.ptr<f16>, #blb>
      %bm = mgp.local_alloc %b : (tensor<64x64xf16, #blb>) -> !mgp.memdesc<64x64xf16, #sh>
      %bv = mgp.local_load %bm : !mgp.memdesc<64x64xf16, #sh> -> tensor<64x64xf16, #b>
      %d = mgp.dot %av, %bv, %acc {inputPrecision = tf32} : tensor<128x64xf16, #a> * tensor<64x64xf16, #b> -> tensor<128x64xf32, #v3>
      %ap2 = mgp.addptr %ap, %sa : tensor<128x64x!mgp.ptr<f16>, #bla>, tensor<128x64xi32, #bla>
      %bp2 = mgp.addptr %bp, %sb : tensor<64x64x!mgp.ptr<f16>, #blb>, tensor<64x64xi32, #blb>
      scf.yield %d, %ap2, %bp2 : tensor<128x64xf32, #v3>, tensor<128x64x!mgp.ptr<f16>, #bla>, tensor<64x64x!mgp.ptr<f16>, #blb>
    }
    return %r#0 : tensor<128x64xf32, #v3>
  }
}
