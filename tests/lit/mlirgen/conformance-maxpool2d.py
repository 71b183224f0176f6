# RUN: mgpc %conformance/maxpool2d.py -emit=mlir --signature "*fp32,*fp32,i32,64,112,112,3,3,2,2,1,1,56,56,256" | FileCheck %s
# maxpool: `tl.full(..., -float("inf"))` is a constant block; the 3x3 window
# loops have constant bounds and carry the running maximum.
# CHECK-LABEL: func.func @_maxpool2d_kernel(%arg0: !mgp.ptr<f32>, %arg1: !mgp.ptr<f32>, %arg2: i32) attributes {mgp.kernel}
# CHECK-DAG: %[[NINF:.*]] = arith.constant dense<0xFF800000> : tensor<256xf32>
# CHECK-DAG: %[[C3:.*]] = arith.constant 3 : i32
# CHECK: scf.for %{{.*}} = %{{.*}} to %[[C3]] step %{{.*}} iter_args(%{{.*}} = %[[NINF]]) -> (tensor<256xf32>)
# CHECK: scf.for %{{.*}} = %{{.*}} to %[[C3]] step %{{.*}} iter_args
# CHECK: %[[V:.*]] = mgp.load %{{.*}}, %{{.*}}, %[[NINF]] : tensor<256x!mgp.ptr<f32>>
# CHECK: arith.maxnumf %{{.*}}, %[[V]] : tensor<256xf32>
# CHECK: mgp.store
