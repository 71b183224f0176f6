# RUN: mgpc %conformance/batchnorm2d.py -emit=mlir --signature "*fp32,*fp32,i32,64,56,56,*fp32,*fp32,*fp32,*fp32,1e-05,1024" | FileCheck %s
# batchnorm: C, H, W, eps and BLOCK_SIZE are folded; `other = 1` of the
# variance load becomes an f32 block of ones; rsqrt on the block.
# CHECK-LABEL: func.func @_bn2d_kernel(%arg0: !mgp.ptr<f32>, %arg1: !mgp.ptr<f32>, %arg2: i32, %arg3: !mgp.ptr<f32>, %arg4: !mgp.ptr<f32>, %arg5: !mgp.ptr<f32>, %arg6: !mgp.ptr<f32>) attributes {mgp.kernel}
# CHECK-DAG: arith.constant dense<1.000000e+00> : tensor<1024xf32>
# CHECK-DAG: arith.constant dense<3136> : tensor<1024xi32>
# CHECK: arith.divsi
# CHECK: arith.remsi
# CHECK-COUNT-5: mgp.load
# CHECK: math.rsqrt %{{.*}} : tensor<1024xf32>
# CHECK: mgp.store
