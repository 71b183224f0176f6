// RUN: mgp-opt %s -mgp-to-llvm | FileCheck %s

// A reshape whose result layout wants elements other threads hold (thread l
// holds rows 2l and 2l+1 of the source, elements l, l+32, l+64, l+96 of the
// result) goes through its scratch: every register stored at its row-major
// index, a barrier, the result's registers loaded by theirs.
#a = #mgp.blocked<{sizePerThread = [2, 2], threadsPerWarp = [32, 1], warpsPerCTA = [1, 1], order = [1, 0]}>
#b = #mgp.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {mgp.num_warps = 1 : i32, mgp.shared = 512 : i32} {
// CHECK-LABEL: llvm.func @interleave_like
// CHECK: llvm.getelementptr %{{.*}}[256] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK-COUNT-4: llvm.store %{{.*}}, %{{.*}} {{.*}}: f32, !llvm.ptr<3>
// CHECK-NOT: llvm.store
// CHECK: nvvm.barrier0
// CHECK-COUNT-4: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
// CHECK-NOT: llvm.load
// CHECK: llvm.return
  func.func @interleave_like(%x: tensor<64x2xf32, #a>) -> tensor<128xf32, #b> {
    %y = mgp.reshape %x {mgp.allocation.offset = 256 : i32} : tensor<64x2xf32, #a> -> tensor<128xf32, #b>
    return %y : tensor<128xf32, #b>
  }
}
