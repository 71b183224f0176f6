# RUN: mgpc %conformance/conv2d_3x3_tiled.py -emit=mlir --signature "*fp32,*fp32,*fp32,*fp32,401408,64,56,56,64,56,56,1,1,1,1,0,16,16" | FileCheck %s
# conv2d 3x3 tiled: 2-D blocks from `x[:, None]` / `x[None, :]`, broadcast
# together; the accumulator is a 16x16 f32 block carried by three loops.
# CHECK-LABEL: func.func @_conv2d_3x3_tiled_kernel(%arg0: !mgp.ptr<f32>, %arg1: !mgp.ptr<f32>, %arg2: !mgp.ptr<f32>, %arg3: !mgp.ptr<f32>) attributes {mgp.kernel}
# CHECK-DAG: mgp.program_id 1 : i32
# CHECK-DAG: mgp.expand_dims %{{.*}} {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
# CHECK-DAG: mgp.expand_dims %{{.*}} {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
# CHECK: scf.for {{.*}} -> (tensor<16x16xf32>)
# CHECK: scf.for {{.*}} -> (tensor<16x16xf32>)
# CHECK: scf.for {{.*}} -> (tensor<16x16xf32>)
# CHECK: mgp.load
# CHECK: mgp.load
# CHECK: mgp.broadcast %{{.*}} -> tensor<16x16xf32>
# CHECK-NOT: scf.if
# CHECK: mgp.store %{{.*}}, %{{.*}}, %{{.*}} : tensor<16x16x!mgp.ptr<f32>>
