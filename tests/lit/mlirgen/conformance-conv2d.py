# RUN: mgpc %conformance/conv2d.py -emit=mlir --signature "*fp32,*fp32,*fp32,*fp32,i32,3,224,224,64,7,7,112,112,2,2,3,3,1,1,0,128" | FileCheck %s
# conv2d: three nested constant-bound loops; bias_exist = 0 compiles the bias
# branch away, so b_ptr (%arg2) is never used.
# CHECK-LABEL: func.func @_conv2d_kernel(%arg0: !mgp.ptr<f32>, %arg1: !mgp.ptr<f32>, %arg2: !mgp.ptr<f32>, %arg3: !mgp.ptr<f32>, %arg4: i32) attributes {mgp.kernel}
# CHECK-NOT: %arg2
# CHECK: scf.for {{.*}} -> (tensor<128xf32>)
# CHECK: scf.for {{.*}} -> (tensor<128xf32>)
# CHECK: scf.for {{.*}} -> (tensor<128xf32>)
# CHECK-COUNT-2: mgp.load
# CHECK-NOT: mgp.load
# CHECK-NOT: scf.if
# CHECK: mgp.store
