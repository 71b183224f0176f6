// REQUIRES: ptxas
// RUN: mgpc %s -emit=llvm | FileCheck %s --check-prefix=LLVM
// RUN: mgpc %s -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: %ptxas -arch=sm_90 %t.ptx -o %t.cubin

// math.exp goes to libdevice's __nv_expf, which emitPTX links from the copy
// embedded in mgpc and inlines: the PTX has no call and no extern function.
// LLVM: declare float @__nv_expf(float)
// CHECK-NOT: __nv_expf
// CHECK: ex2.approx
// CHECK-NOT: __nv_expf
module {
  func.func @exp(%x: !mgp.ptr<f32> {mgp.divisibility = 16 : i32}) attributes {mgp.kernel} {
    %r = mgp.make_range {start = 0 : i32, end = 512 : i32} : tensor<512xi32>
    %xs = mgp.splat %x : !mgp.ptr<f32> -> tensor<512x!mgp.ptr<f32>>
    %xp = mgp.addptr %xs, %r : tensor<512x!mgp.ptr<f32>>, tensor<512xi32>
    %v = mgp.load %xp : tensor<512x!mgp.ptr<f32>>
    %e = math.exp %v : tensor<512xf32>
    mgp.store %xp, %e : tensor<512x!mgp.ptr<f32>>
    return
  }
}
