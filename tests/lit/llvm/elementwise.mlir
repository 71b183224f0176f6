// RUN: mgp-opt %s -split-input-file -mgp-to-llvm | FileCheck %s

// Tensor arith/math become one scalar op per register; C division is sdiv;
// fp32 exp is ex2.approx of x * log2(e), as in Triton; log goes to
// libdevice; program_id reads ctaid.
#b = #mgp.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>
module attributes {mgp.num_warps = 2 : i32} {
// CHECK-LABEL: llvm.func @math
// CHECK: nvvm.read.ptx.sreg.ctaid.x
// CHECK-COUNT-2: llvm.sdiv
// CHECK-COUNT-2: llvm.srem
// CHECK-COUNT-2: llvm.call @__nv_logf
// CHECK: llvm.mlir.constant(1.44269502 : f32)
// CHECK: llvm.fmul
// CHECK: llvm.call_intrinsic "llvm.nvvm.ex2.approx.f32"
// CHECK-NOT: __nv_expf
// CHECK: llvm.fadd
  func.func @math(%x: !mgp.ptr<f32>) attributes {mgp.kernel} {
    %pid = mgp.program_id 0 : i32
    %r = mgp.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32, #b>
    %p = mgp.splat %pid : i32 -> tensor<128xi32, #b>
    %q = arith.divsi %r, %p : tensor<128xi32, #b>
    %s = arith.remsi %q, %p : tensor<128xi32, #b>
    %f = arith.sitofp %s : tensor<128xi32, #b> to tensor<128xf32, #b>
    %l = math.log %f : tensor<128xf32, #b>
    %e = math.exp %l : tensor<128xf32, #b>
    %g = arith.addf %e, %f : tensor<128xf32, #b>
    %xs = mgp.splat %x : !mgp.ptr<f32> -> tensor<128x!mgp.ptr<f32>, #b>
    %xp = mgp.addptr %xs, %r : tensor<128x!mgp.ptr<f32>, #b>, tensor<128xi32, #b>
    mgp.store %xp, %g : tensor<128x!mgp.ptr<f32>, #b>
    return
  }
}

// -----

// make_range: register i holds start + lane*2 + warp*64 + (i%2), masked to
// the shape; the warp id is made uniform with a shuffle. The lane's five
// bits (bases 2, 4, ..., 32) are one field, (lane & 31) * 2, and the warp's
// bit (base 64) another, (warp & 1) * 64.
#b = #mgp.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>
module attributes {mgp.num_warps = 2 : i32} {
// CHECK-LABEL: llvm.func @range
// CHECK: nvvm.read.ptx.sreg.tid.x
// CHECK: %[[WARP:.*]] = nvvm.shfl.sync idx
// CHECK: %[[LANE:.*]] = llvm.urem
// CHECK: %[[START:.*]] = llvm.mlir.constant(16 : i32)
// CHECK: %[[M31:.*]] = llvm.mlir.constant(31 : i32)
// CHECK-NEXT: %[[LF:.*]] = llvm.and %[[LANE]], %[[M31]]
// CHECK-NEXT: %[[TWO:.*]] = llvm.mlir.constant(2 : i32)
// CHECK-NEXT: %[[LT:.*]] = llvm.mul %[[LF]], %[[TWO]]
// CHECK-NEXT: %[[M1:.*]] = llvm.mlir.constant(1 : i32)
// CHECK-NEXT: %[[WF:.*]] = llvm.and %[[WARP]], %[[M1]]
// CHECK-NEXT: %[[B64:.*]] = llvm.mlir.constant(64 : i32)
// CHECK-NEXT: %[[WT:.*]] = llvm.mul %[[WF]], %[[B64]]
// CHECK-NEXT: llvm.add %[[LT]], %[[WT]]
// CHECK-NOT: llvm.lshr
// CHECK: llvm.add %[[START]], %{{.*}}
// CHECK: llvm.add %[[START]], %{{.*}}
// CHECK: llvm.return
  func.func @range() -> tensor<128xi32, #b> {
    %r = mgp.make_range {start = 16 : i32, end = 144 : i32} : tensor<128xi32, #b>
    return %r : tensor<128xi32, #b>
  }
}

// -----

// arith.select with a scalar i1 condition over tensors (an `if` that yields a
// block, folded): the condition is every register's.
#b = #mgp.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {mgp.num_warps = 1 : i32} {
// CHECK-LABEL: llvm.func @scalar_select
// CHECK-SAME: (%[[C:.*]]: i1,
// CHECK-COUNT-4: llvm.select %[[C]], %{{.*}}, %{{.*}} : i1, f32
// CHECK-NOT: llvm.select
  func.func @scalar_select(%c: i1, %x: !mgp.ptr<f32>) attributes {mgp.kernel} {
    %r = mgp.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32, #b>
    %f = arith.sitofp %r : tensor<128xi32, #b> to tensor<128xf32, #b>
    %z = arith.constant dense<0.0> : tensor<128xf32, #b>
    %s = arith.select %c, %z, %f : tensor<128xf32, #b>
    %xs = mgp.splat %x : !mgp.ptr<f32> -> tensor<128x!mgp.ptr<f32>, #b>
    %xp = mgp.addptr %xs, %r : tensor<128x!mgp.ptr<f32>, #b>, tensor<128xi32, #b>
    mgp.store %xp, %s : tensor<128x!mgp.ptr<f32>, #b>
    return
  }
}
