// RUN: mgp-opt %s -split-input-file -mgp-to-llvm | FileCheck %s

// A 1-D tensor smaller than both CTA tiles: the source holds each element in
// 2 of every 4 warps (replication), so only warps with bit 1 clear store
// (masked stores); the destination loads one element per thread.
#a = #mgp.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b = #mgp.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {mgp.num_warps = 4 : i32, mgp.shared = 256 : i32} {
// CHECK-LABEL: llvm.func @replicated_1d
// CHECK: llvm.and %{{.*}}, %{{.*}} : i32
// CHECK: llvm.icmp "eq"
// CHECK: llvm.intr.masked.store %{{.*}}, %{{.*}}, %{{.*}} {alignment = 4 : i32} : vector<1xf32>, vector<1xi1> into !llvm.ptr<3>
// CHECK-NOT: llvm.intr.masked.store
// CHECK: nvvm.barrier0
// CHECK-COUNT-2: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
// CHECK-NOT: llvm.load
// CHECK: llvm.return
  func.func @replicated_1d(%x: tensor<64xf32, #a>) -> tensor<64xf32, #b> {
    %y = mgp.convert_layout %x {mgp.allocation.offset = 0 : i32} : tensor<64xf32, #a> -> tensor<64xf32, #b>
    return %y : tensor<64xf32, #b>
  }
}

// -----

// i1 travels as i8, and the scratch starts at the op's offset.
#a = #mgp.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#c = #mgp.blocked<{sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {mgp.num_warps = 4 : i32, mgp.shared = 2048 : i32} {
// CHECK-LABEL: llvm.func @bool_transpose
// CHECK: llvm.getelementptr %{{.*}}[1024] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK-COUNT-4: llvm.zext %{{.*}} : i1 to i8
// CHECK: nvvm.barrier0
// CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> i8
// CHECK: llvm.trunc %{{.*}} : i8 to i1
  func.func @bool_transpose(%x: tensor<16x32xi1, #a>) -> tensor<16x32xi1, #c> {
    %y = mgp.convert_layout %x {mgp.allocation.offset = 1024 : i32} : tensor<16x32xi1, #a> -> tensor<16x32xi1, #c>
    return %y : tensor<16x32xi1, #c>
  }
}

// -----

// Pointers travel as i64.
#a = #mgp.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
#b = #mgp.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {mgp.num_warps = 1 : i32, mgp.shared = 1024 : i32} {
// CHECK-LABEL: llvm.func @pointers
// CHECK-COUNT-4: llvm.ptrtoint %{{.*}} : !llvm.ptr<1> to i64
// CHECK: nvvm.barrier0
// CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> i64
// CHECK: llvm.inttoptr %{{.*}} : i64 to !llvm.ptr<1>
  func.func @pointers(%x: tensor<128x!mgp.ptr<f32>, #a>) -> tensor<128x!mgp.ptr<f32>, #b> {
    %y = mgp.convert_layout %x {mgp.allocation.offset = 0 : i32} : tensor<128x!mgp.ptr<f32>, #a> -> tensor<128x!mgp.ptr<f32>, #b>
    return %y : tensor<128x!mgp.ptr<f32>, #b>
  }
}

// -----

// mma accumulator -> blocked, and a dot operand of a blocked parent.
#mma = #mgp.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#b = #mgp.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#p = #mgp.blocked<{sizePerThread = [2, 2], threadsPerWarp = [4, 8], warpsPerCTA = [2, 2], order = [1, 0]}>
#d = #mgp.dot_op<{opIdx = 0, parent = #p, kWidth = 1}>
module attributes {mgp.num_warps = 4 : i32, mgp.shared = 4096 : i32} {
// CHECK-LABEL: llvm.func @from_mma
// CHECK-COUNT-8: llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr<3>
// CHECK: nvvm.barrier0
// CHECK-COUNT-8: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
  func.func @from_mma(%x: tensor<32x32xf32, #mma>) -> tensor<32x32xf32, #b> {
    %y = mgp.convert_layout %x {mgp.allocation.offset = 0 : i32} : tensor<32x32xf32, #mma> -> tensor<32x32xf32, #b>
    return %y : tensor<32x32xf32, #b>
  }
// The dot operand replicates rows over the warps along N and lanes along N:
// masked stores; every thread loads its 2 rows over all 16 columns of K.
// CHECK-LABEL: llvm.func @to_dot_operand
// CHECK: nvvm.barrier0
// CHECK-COUNT-32: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
// CHECK-NOT: llvm.load
// CHECK-LABEL: llvm.func @from_dot_operand
// CHECK: llvm.intr.masked.store
// CHECK: nvvm.barrier0
  func.func @to_dot_operand(%x: tensor<16x16xf32, #b>) -> tensor<16x16xf32, #d> {
    %y = mgp.convert_layout %x {mgp.allocation.offset = 0 : i32} : tensor<16x16xf32, #b> -> tensor<16x16xf32, #d>
    return %y : tensor<16x16xf32, #d>
  }
  func.func @from_dot_operand(%x: tensor<16x16xf32, #d>) -> tensor<16x16xf32, #b> {
    %y = mgp.convert_layout %x {mgp.allocation.offset = 0 : i32} : tensor<16x16xf32, #d> -> tensor<16x16xf32, #b>
    return %y : tensor<16x16xf32, #b>
  }
}

// -----

// mma -> blocked: accesses promise the alignment the layouts guarantee (rows
// padded to 36 floats): the mma registers are column pairs (8-byte aligned
// first of each pair), the blocked ones runs of 4 (16, 4, 8, 4), so LLVM
// merges them into st.shared.v2 / ld.shared.v4.
#mma = #mgp.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#bl = #mgp.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {mgp.num_warps = 4 : i32, mgp.shared = 16384 : i32} {
// CHECK-LABEL: llvm.func @mma_to_blocked
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 8 : i64} : f32, !llvm.ptr<3>
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : f32, !llvm.ptr<3>
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 8 : i64} : f32, !llvm.ptr<3>
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : f32, !llvm.ptr<3>
// CHECK: nvvm.barrier0
// CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> f32
// CHECK: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<3> -> f32
// CHECK: llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr<3> -> f32
// CHECK: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<3> -> f32
  func.func @mma_to_blocked(%x: tensor<32x32xf32, #mma>) -> tensor<32x32xf32, #bl> {
    %y = mgp.convert_layout %x {mgp.allocation.offset = 0 : i32} : tensor<32x32xf32, #mma> -> tensor<32x32xf32, #bl>
    return %y : tensor<32x32xf32, #bl>
  }
}
