// REQUIRES: ptxas
// RUN: mgpc %s -emit=mlir-gpu | FileCheck %s --check-prefix=GPU
// RUN: mgpc %s -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: %ptxas -arch=sm_90 %t.ptx -o %t.cubin

// y[i, j] = x[i, j] - max_j x[i, j] and z[i] = max_j x[i, j] on a 16x64
// tile: the row maxima (a slice of the load's layout, replicated over the
// lanes along j) are broadcast back, and stored as a 1-D vector in the
// store's own layout, a conversion through shared memory.
// GPU: mgp.reduce
// GPU: mgp.convert_layout {{.*}}mgp.allocation.offset
// CHECK: .visible .entry row_shift(
// CHECK: max{{.*}}.f32
// CHECK: st.shared
// CHECK: bar.sync 0
// CHECK: ld.shared
// CHECK: st.global
module {
  func.func @row_shift(%x: !mgp.ptr<f32> {mgp.divisibility = 16 : i32},
                       %y: !mgp.ptr<f32> {mgp.divisibility = 16 : i32},
                       %z: !mgp.ptr<f32> {mgp.divisibility = 16 : i32}) attributes {mgp.kernel} {
    %ri = mgp.make_range {start = 0 : i32, end = 16 : i32} : tensor<16xi32>
    %rj = mgp.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
    %c64 = arith.constant dense<64> : tensor<16x1xi32>
    %i2 = mgp.expand_dims %ri {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
    %irow = arith.muli %i2, %c64 : tensor<16x1xi32>
    %irowb = mgp.broadcast %irow : tensor<16x1xi32> -> tensor<16x64xi32>
    %j2 = mgp.expand_dims %rj {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %jb = mgp.broadcast %j2 : tensor<1x64xi32> -> tensor<16x64xi32>
    %off = arith.addi %irowb, %jb : tensor<16x64xi32>
    %xs = mgp.splat %x : !mgp.ptr<f32> -> tensor<16x64x!mgp.ptr<f32>>
    %xp = mgp.addptr %xs, %off : tensor<16x64x!mgp.ptr<f32>>, tensor<16x64xi32>
    %v = mgp.load %xp : tensor<16x64x!mgp.ptr<f32>>
    %m = "mgp.reduce"(%v) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %t = arith.maximumf %a, %b : f32
      mgp.reduce.return %t : f32
    }) : (tensor<16x64xf32>) -> tensor<16xf32>
    %m2 = mgp.expand_dims %m {axis = 1 : i32} : tensor<16xf32> -> tensor<16x1xf32>
    %mb = mgp.broadcast %m2 : tensor<16x1xf32> -> tensor<16x64xf32>
    %d = arith.subf %v, %mb : tensor<16x64xf32>
    %ys = mgp.splat %y : !mgp.ptr<f32> -> tensor<16x64x!mgp.ptr<f32>>
    %yp = mgp.addptr %ys, %off : tensor<16x64x!mgp.ptr<f32>>, tensor<16x64xi32>
    mgp.store %yp, %d : tensor<16x64x!mgp.ptr<f32>>
    %zs = mgp.splat %z : !mgp.ptr<f32> -> tensor<16x!mgp.ptr<f32>>
    %zp = mgp.addptr %zs, %ri : tensor<16x!mgp.ptr<f32>>, tensor<16xi32>
    mgp.store %zp, %m : tensor<16x!mgp.ptr<f32>>
    return
  }
}
