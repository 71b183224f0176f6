# RUN: mgpc %conformance/linear.py -emit=mlir --signature "*fp32,*fp32,*fp32,*fp32,i32,i32,i32,1" | FileCheck %s
# linear: scalar loads and stores through scalar pointers; `acc = 0.0` is an
# f32 loop-carried scalar; the loop bound is the runtime K.
# CHECK-LABEL: func.func @_linear_kernel(%arg0: !mgp.ptr<f32>, %arg1: !mgp.ptr<f32>, %arg2: !mgp.ptr<f32>, %arg3: !mgp.ptr<f32>, %arg4: i32, %arg5: i32, %arg6: i32) attributes {mgp.kernel}
# CHECK: arith.divsi %{{.*}}, %arg5 : i32
# CHECK: arith.remsi %{{.*}}, %arg5 : i32
# CHECK: scf.for %{{.*}} = %{{.*}} to %arg6 step %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (f32)
# CHECK: mgp.addptr %arg0, %{{.*}} : !mgp.ptr<f32>, i32
# CHECK: mgp.load %{{.*}} : !mgp.ptr<f32>
# CHECK: mgp.load %{{.*}} : !mgp.ptr<f32>
# CHECK: arith.mulf %{{.*}} : f32
# CHECK: scf.yield %{{.*}} : f32
# CHECK: mgp.load %{{.*}} : !mgp.ptr<f32>
# CHECK: mgp.store %{{.*}}, %{{.*}} : !mgp.ptr<f32>
