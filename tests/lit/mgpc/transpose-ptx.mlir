// REQUIRES: ptxas
// RUN: mgpc %s -emit=mlir-gpu | FileCheck %s --check-prefix=GPU
// RUN: mgpc %s -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: %ptxas -arch=sm_90 %t.ptx -o %t.cubin

// y (64x32) = transpose of x (32x64): the tile is loaded along x's rows and
// stored along y's rows, so a convert_layout moves it between threads through
// shared memory.
// GPU: mgp.convert_layout {{.*}}mgp.allocation.offset
// CHECK: .extern .shared .align 1024 .b8 global_smem[];
// Shared addresses are 32-bit registers (nvptx-short-ptr, as Triton).
// CHECK-NOT: .shared{{.*}}[%rd
// CHECK: st.shared{{.*}} [%r{{[0-9]+}}
// CHECK-NOT: .shared{{.*}}[%rd
// CHECK: bar.sync 0
// CHECK: ld.shared{{.*}} [%r{{[0-9]+}}
// CHECK-NOT: .shared{{.*}}[%rd
// CHECK: st.global
module {
  func.func @transpose(%x: !mgp.ptr<f32> {mgp.divisibility = 16 : i32},
                       %y: !mgp.ptr<f32> {mgp.divisibility = 16 : i32}) attributes {mgp.kernel} {
    %ri = mgp.make_range {start = 0 : i32, end = 32 : i32} : tensor<32xi32>
    %rj = mgp.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
    %c64 = arith.constant dense<64> : tensor<32x1xi32>
    %c32 = arith.constant dense<32> : tensor<64x1xi32>
    // x offsets: i * 64 + j over 32x64.
    %i2 = mgp.expand_dims %ri {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
    %irow = arith.muli %i2, %c64 : tensor<32x1xi32>
    %irowb = mgp.broadcast %irow : tensor<32x1xi32> -> tensor<32x64xi32>
    %j2 = mgp.expand_dims %rj {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %jb = mgp.broadcast %j2 : tensor<1x64xi32> -> tensor<32x64xi32>
    %xoff = arith.addi %irowb, %jb : tensor<32x64xi32>
    %xs = mgp.splat %x : !mgp.ptr<f32> -> tensor<32x64x!mgp.ptr<f32>>
    %xp = mgp.addptr %xs, %xoff : tensor<32x64x!mgp.ptr<f32>>, tensor<32x64xi32>
    %v = mgp.load %xp : tensor<32x64x!mgp.ptr<f32>>
    %t = mgp.trans %v {order = array<i32: 1, 0>} : tensor<32x64xf32> -> tensor<64x32xf32>
    // y offsets: j * 32 + i over 64x32.
    %j3 = mgp.expand_dims %rj {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
    %jrow = arith.muli %j3, %c32 : tensor<64x1xi32>
    %jrowb = mgp.broadcast %jrow : tensor<64x1xi32> -> tensor<64x32xi32>
    %i3 = mgp.expand_dims %ri {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
    %ib = mgp.broadcast %i3 : tensor<1x32xi32> -> tensor<64x32xi32>
    %yoff = arith.addi %jrowb, %ib : tensor<64x32xi32>
    %ys = mgp.splat %y : !mgp.ptr<f32> -> tensor<64x32x!mgp.ptr<f32>>
    %yp = mgp.addptr %ys, %yoff : tensor<64x32x!mgp.ptr<f32>>, tensor<64x32xi32>
    mgp.store %yp, %t : tensor<64x32x!mgp.ptr<f32>>
    return
  }
}
