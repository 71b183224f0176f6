// RUN: mgp-opt %s -split-input-file -mgp-to-llvm | FileCheck %s

// local_alloc with a source stores every element once at its swizzled offset
// (col' = ((col / vec) ^ ((row / perPhase) % maxPhase)) * vec + col % vec),
// local_load reads the new layout back; the memdesc is {ptr<3>, i32, i32}.
#b = #mgp.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#c = #mgp.blocked<{sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>
#s = #mgp.shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}>
module attributes {mgp.num_warps = 4 : i32, mgp.shared = 4096 : i32} {
// CHECK-LABEL: llvm.func @alloc_and_load
// CHECK: llvm.getelementptr %{{.*}}[2048] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK: llvm.udiv
// CHECK: llvm.urem
// CHECK: llvm.xor
// CHECK-COUNT-4: llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr<3>
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.insertvalue {{.*}} : !llvm.struct<(ptr<3>, i32, i32)>
// CHECK: nvvm.barrier0
// CHECK: llvm.xor
// CHECK-COUNT-4: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
  func.func @alloc_and_load(%x: tensor<16x32xf32, #b>) -> tensor<16x32xf32, #c> {
    %m = mgp.local_alloc %x {mgp.allocation.offset = 2048 : i32} : (tensor<16x32xf32, #b>) -> !mgp.memdesc<16x32xf32, #s>
    mgp.barrier
    %y = mgp.local_load %m : !mgp.memdesc<16x32xf32, #s> -> tensor<16x32xf32, #c>
    return %y : tensor<16x32xf32, #c>
  }
}

// -----

// A mutable buffer without a source, written by local_store from a layout
// that replicates over warps (16 rows on 4 warps x 8 rows): only warps with
// bit 1 clear store.
#b = #mgp.blocked<{sizePerThread = [1, 1], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#s = #mgp.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
module attributes {mgp.num_warps = 4 : i32, mgp.shared = 256 : i32} {
// CHECK-LABEL: llvm.func @store_then_load
// CHECK: llvm.mlir.addressof @global_smem
// CHECK: llvm.intr.masked.store %{{.*}} : vector<1xi8>, vector<1xi1> into !llvm.ptr<3>
// CHECK: nvvm.barrier0
// CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> i8
// CHECK: llvm.trunc %{{.*}} : i8 to i1
  func.func @store_then_load(%x: tensor<4x16xi1, #b>) -> tensor<4x16xi1, #b> {
    %m = mgp.local_alloc {mgp.allocation.offset = 0 : i32} : () -> !mgp.memdesc<4x16xi1, #s, mutable>
    mgp.local_store %x, %m : tensor<4x16xi1, #b> -> !mgp.memdesc<4x16xi1, #s, mutable>
    mgp.barrier
    %y = mgp.local_load %m : !mgp.memdesc<4x16xi1, #s, mutable> -> tensor<4x16xi1, #b>
    return %y : tensor<4x16xi1, #b>
  }
}
