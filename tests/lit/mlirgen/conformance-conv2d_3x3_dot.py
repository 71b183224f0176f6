# RUN: mgpc %conformance/conv2d_3x3_dot.py -emit=mlir --signature "*fp32,*fp32,*fp32,*fp32,401408,64,56,56,64,56,56,1,1,1,1,0,16,16,32" | FileCheck %s
# conv2d 3x3 with tl.dot: `range(0, C * 9, BLOCK_CRS)` folds to constant
# bounds 0..576 step 32; the 16x32 and 32x16 tiles meet in mgp.dot (tf32).
# CHECK-LABEL: func.func @_conv2d_3x3_dot_kernel(%arg0: !mgp.ptr<f32>, %arg1: !mgp.ptr<f32>, %arg2: !mgp.ptr<f32>, %arg3: !mgp.ptr<f32>) attributes {mgp.kernel}
# CHECK-DAG: %[[C576:.*]] = arith.constant 576 : i32
# CHECK-DAG: %[[C32:.*]] = arith.constant 32 : i32
# CHECK: scf.for %{{.*}} = %{{.*}} to %[[C576]] step %[[C32]] iter_args(%{{.*}} = %{{.*}}) -> (tensor<16x16xf32>)
# CHECK: %[[XT:.*]] = mgp.load %{{.*}} : tensor<16x32x!mgp.ptr<f32>>
# CHECK: %[[WT:.*]] = mgp.load %{{.*}} : tensor<32x16x!mgp.ptr<f32>>
# CHECK: mgp.dot %[[XT]], %[[WT]], %{{.*}} {inputPrecision = tf32} : tensor<16x32xf32> * tensor<32x16xf32> -> tensor<16x16xf32>
# CHECK-NOT: scf.if
# CHECK: mgp.store %{{.*}} : tensor<16x16x!mgp.ptr<f32>>
