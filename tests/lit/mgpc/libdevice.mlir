// REQUIRES: ptxas
// RUN: mgpc %s -emit=llvm | FileCheck %s --check-prefix=LLVM
// RUN: mgpc %s -o %t.ptx
// RUN: FileCheck %s --check-prefixes=CHECK,FTZ < %t.ptx
// RUN: %ptxas -arch=sm_90 %t.ptx -o %t.cubin
// RUN: mgpc %s --enable-reflect-ftz=false -emit=llvm | FileCheck %s --check-prefix=LLVM-NOFTZ
// RUN: mgpc %s --enable-reflect-ftz=false -o %t.noftz.ptx
// RUN: FileCheck %s --check-prefixes=CHECK,NOFTZ < %t.noftz.ptx
// RUN: not grep -n '\.ftz' %t.noftz.ptx

// math.log goes to libdevice's __nv_logf, which emitPTX links from the copy
// embedded in mgpc and inlines: the PTX has no call and no extern function.
// libdevice flushes f32 denormals as in Triton (the module's
// nvvm-reflect-ftz, 1 by default; --enable-reflect-ftz=false keeps them).
// An fp32 math.exp needs no libdevice: ex2.approx.f32 of x * log2(e), the
// instructions Triton emits for tl.exp, with or without ftz.
// LLVM: declare float @__nv_logf(float)
// LLVM-NOT: __nv_expf
// LLVM: !{i32 4, !"nvvm-reflect-ftz", i32 1}
// LLVM-NOFTZ: !{i32 4, !"nvvm-reflect-ftz", i32 0}
// CHECK-NOT: __nv_logf
// FTZ: fma.rn.ftz.f32
// NOFTZ: fma.rn.f32
// CHECK: mul.f32 {{%r[0-9]+}}, {{%r[0-9]+}}, 0f3FB8AA3B;
// CHECK: ex2.approx.f32
// CHECK-NOT: __nv_logf
module {
  func.func @exp(%x: !mgp.ptr<f32> {mgp.divisibility = 16 : i32}) attributes {mgp.kernel} {
    %r = mgp.make_range {start = 0 : i32, end = 512 : i32} : tensor<512xi32>
    %xs = mgp.splat %x : !mgp.ptr<f32> -> tensor<512x!mgp.ptr<f32>>
    %xp = mgp.addptr %xs, %r : tensor<512x!mgp.ptr<f32>>, tensor<512xi32>
    %v = mgp.load %xp : tensor<512x!mgp.ptr<f32>>
    %l = math.log %v : tensor<512xf32>
    %e = math.exp %l : tensor<512xf32>
    mgp.store %xp, %e : tensor<512x!mgp.ptr<f32>>
    return
  }
}
