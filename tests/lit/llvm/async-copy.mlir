// RUN: mgp-opt %s -split-input-file -mgp-to-llvm | FileCheck %s
// RUN: mgp-opt %s -split-input-file -mgp-to-llvm=compute-capability=80 | FileCheck %s --check-prefix=SM80

// 16 bytes per copy (vector_width 4 of f32, swizzle vec 4): cp.async .cg with
// the mask as its ignore-src predicate (zeros where the mask is false: the
// predicate is its negation), a PTX 7.5 operand; on sm_80 (PTX 7.4) src-size
// = mask ? 16 : 0. The subview advances the base by index * 512 elements;
// commit and wait groups.
#b = #mgp.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#s = #mgp.shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}>
module attributes {mgp.num_warps = 4 : i32, mgp.shared = 6144 : i32} {
// CHECK-LABEL: llvm.func @copy16
// CHECK: llvm.mul %{{.*}}, %{{.*}} : i32
// CHECK: llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// CHECK: %[[TRUE:.*]] = llvm.mlir.constant(true) : i1
// CHECK: %[[IGNORE:.*]] = llvm.xor %[[MASK:.*]], %[[TRUE]] : i1
// CHECK: %[[DST:.*]] = llvm.ptrtoint %{{.*}} : !llvm.ptr<3> to i32
// CHECK: llvm.inline_asm has_side_effects "cp.async.cg.shared.global [ $0 + 0 ], [ $1 + 0 ], 16, $2;", "r,l,b" %[[DST]], %{{.*}}, %[[IGNORE]] : (i32, !llvm.ptr<1>, i1) -> ()
// CHECK-NOT: cp.async.cg.shared.global
// CHECK: nvvm.cp.async.commit.group
// SM80-LABEL: llvm.func @copy16
// SM80: %[[SIZE:.*]] = llvm.select %{{.*}}, %{{.*}}, %{{.*}} : i1, i32
// SM80: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache = cg, %[[SIZE]] : !llvm.ptr<3>, !llvm.ptr<1>, i32
// SM80-NOT: cp.async.cg.shared.global
// SM80-NOT: nvvm.cp.async.shared.global
// SM80: nvvm.cp.async.commit.group
// CHECK: nvvm.cp.async.wait.group 1
// CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
  func.func @copy16(%p: tensor<16x32x!mgp.ptr<f32>, #b>, %m: tensor<16x32xi1, #b>, %i: i32) -> tensor<16x32xf32, #b> {
    %buf = mgp.local_alloc {mgp.allocation.offset = 0 : i32} : () -> !mgp.memdesc<3x16x32xf32, #s, mutable>
    %v = mgp.memdesc_subview %buf[%i] : !mgp.memdesc<3x16x32xf32, #s, mutable> -> !mgp.memdesc<16x32xf32, #s, mutable>
    mgp.async_copy_global_to_local %p, %v mask %m {mgp.vector_width = 4 : i32} : tensor<16x32x!mgp.ptr<f32>, #b> -> !mgp.memdesc<16x32xf32, #s, mutable>
    mgp.async_commit_group
    mgp.async_wait 1
    mgp.barrier
    %y = mgp.local_load %v : !mgp.memdesc<16x32xf32, #s, mutable> -> tensor<16x32xf32, #b>
    return %y : tensor<16x32xf32, #b>
  }
}

// -----

// No vector width: one 4-byte .ca copy per f32 register, no src-size without
// a mask; f16 pairs (8 bytes when vector_width is 4 but the swizzle vec is 2:
// 2 halves = 4 bytes per copy).
#b = #mgp.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#s = #mgp.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#h = #mgp.shared<{vec = 2, perPhase = 1, maxPhase = 4, order = [1, 0]}>
module attributes {mgp.num_warps = 4 : i32, mgp.shared = 8192 : i32} {
// CHECK-LABEL: llvm.func @copy4
// CHECK-COUNT-4: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 4, cache = ca : !llvm.ptr<3>, !llvm.ptr<1>
// CHECK-NOT: nvvm.cp.async.shared.global
// CHECK-COUNT-2: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 4, cache = ca : !llvm.ptr<3>, !llvm.ptr<1>
// CHECK-NOT: nvvm.cp.async.shared.global
// CHECK: nvvm.cp.async.wait.group 0
  func.func @copy4(%p: tensor<16x32x!mgp.ptr<f32>, #b>, %q: tensor<16x32x!mgp.ptr<f16>, #b>, %i: i32) {
    %buf = mgp.local_alloc {mgp.allocation.offset = 0 : i32} : () -> !mgp.memdesc<2x16x32xf32, #s, mutable>
    %v = mgp.memdesc_subview %buf[%i] : !mgp.memdesc<2x16x32xf32, #s, mutable> -> !mgp.memdesc<16x32xf32, #s, mutable>
    mgp.async_copy_global_to_local %p, %v : tensor<16x32x!mgp.ptr<f32>, #b> -> !mgp.memdesc<16x32xf32, #s, mutable>
    %hbuf = mgp.local_alloc {mgp.allocation.offset = 4096 : i32} : () -> !mgp.memdesc<16x32xf16, #h, mutable>
    mgp.async_copy_global_to_local %q, %hbuf {mgp.vector_width = 4 : i32} : tensor<16x32x!mgp.ptr<f16>, #b> -> !mgp.memdesc<16x32xf16, #h, mutable>
    mgp.async_commit_group
    mgp.async_wait 0
    return
  }
}
