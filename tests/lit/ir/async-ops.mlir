// RUN: mgp-opt %s | mgp-opt | FileCheck %s
// Round trip of the software-pipelining ops: memdesc_subview,
// async_copy_global_to_local (with and without mask/other),
// async_commit_group and async_wait.

#bl = #mgp.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#sh = #mgp.shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}>

// CHECK-LABEL: func @async_copy
func.func @async_copy(%p: tensor<8x64x!mgp.ptr<f32>, #bl>, %m: tensor<8x64xi1, #bl>,
                      %o: tensor<8x64xf32, #bl>, %i: i32) -> tensor<8x64xf32, #bl> {
  // CHECK: %[[BUF:.*]] = mgp.local_alloc : () -> !mgp.memdesc<3x8x64xf32, #{{.*}}, mutable>
  %buf = mgp.local_alloc : () -> !mgp.memdesc<3x8x64xf32, #sh, mutable>
  // CHECK: %[[S:.*]] = mgp.memdesc_subview %[[BUF]][%{{.*}}] : !mgp.memdesc<3x8x64xf32, #{{.*}}, mutable> -> !mgp.memdesc<8x64xf32, #{{.*}}, mutable>
  %s = mgp.memdesc_subview %buf[%i] : !mgp.memdesc<3x8x64xf32, #sh, mutable> -> !mgp.memdesc<8x64xf32, #sh, mutable>
  // CHECK: mgp.async_copy_global_to_local %{{.*}}, %[[S]] : tensor<8x64x!mgp.ptr<f32>, #{{.*}}> -> !mgp.memdesc<8x64xf32, #{{.*}}, mutable>
  mgp.async_copy_global_to_local %p, %s : tensor<8x64x!mgp.ptr<f32>, #bl> -> !mgp.memdesc<8x64xf32, #sh, mutable>
  // CHECK: mgp.async_copy_global_to_local %{{.*}}, %[[S]] mask %{{.*}} {mgp.vector_width = 4 : i32} : tensor<8x64x!mgp.ptr<f32>, #{{.*}}> -> !mgp.memdesc<8x64xf32, #{{.*}}, mutable>
  mgp.async_copy_global_to_local %p, %s mask %m {mgp.vector_width = 4 : i32} : tensor<8x64x!mgp.ptr<f32>, #bl> -> !mgp.memdesc<8x64xf32, #sh, mutable>
  // CHECK: mgp.async_copy_global_to_local %{{.*}}, %[[S]] mask %{{.*}} other %{{.*}} :
  mgp.async_copy_global_to_local %p, %s mask %m other %o : tensor<8x64x!mgp.ptr<f32>, #bl> -> !mgp.memdesc<8x64xf32, #sh, mutable>
  // CHECK: mgp.async_commit_group
  mgp.async_commit_group
  // CHECK: mgp.async_wait 1
  mgp.async_wait 1
  // CHECK: mgp.local_load %[[S]]
  %v = mgp.local_load %s : !mgp.memdesc<8x64xf32, #sh, mutable> -> tensor<8x64xf32, #bl>
  return %v : tensor<8x64xf32, #bl>
}
