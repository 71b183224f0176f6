# RUN: mgpc %conformance/relu.py -emit=mlir --signature "*fp32,*fp32,i32,1024" | FileCheck %s
# relu: BLOCK_SIZE=1024 is folded in; the three runtime parameters remain.
# CHECK-LABEL: func.func @_relu_forward_kernel(%arg0: !mgp.ptr<f32>, %arg1: !mgp.ptr<f32>, %arg2: i32) attributes {mgp.kernel}
# CHECK: mgp.program_id 0 : i32
# CHECK: mgp.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>
# CHECK: mgp.splat %arg0 : !mgp.ptr<f32> -> tensor<1024x!mgp.ptr<f32>>
# CHECK: %[[MASK:.*]] = arith.cmpi slt
# CHECK: %[[X:.*]] = mgp.load %{{.*}}, %[[MASK]], %{{.*}} : tensor<1024x!mgp.ptr<f32>>
# CHECK: %[[GT:.*]] = arith.cmpf ogt, %[[X]]
# CHECK: %[[Y:.*]] = arith.select %[[GT]], %[[X]]
# CHECK: mgp.store %{{.*}}, %[[Y]], %[[MASK]] : tensor<1024x!mgp.ptr<f32>>
