# RUN: mgpc %conformance/avgpool2d.py -emit=mlir --signature "*fp32,*fp32,i32,512,7,7,7,7,1,1,1,1,256" | FileCheck %s
# avgpool: two constant-bound loops carry the sum; `acc / (kH * kW)` divides
# the f32 block by the folded constant 49.
# CHECK-LABEL: func.func @_avgpool2d_kernel(%arg0: !mgp.ptr<f32>, %arg1: !mgp.ptr<f32>, %arg2: i32) attributes {mgp.kernel}
# CHECK-DAG: %[[C49:.*]] = arith.constant dense<4.900000e+01> : tensor<256xf32>
# CHECK-DAG: %[[C7:.*]] = arith.constant 7 : i32
# CHECK: %[[ACC:.*]] = scf.for %{{.*}} = %{{.*}} to %[[C7]] step %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (tensor<256xf32>)
# CHECK: scf.for
# CHECK: mgp.load
# CHECK: arith.addf
# CHECK: arith.divf %[[ACC]], %[[C49]] : tensor<256xf32>
# CHECK: mgp.store
