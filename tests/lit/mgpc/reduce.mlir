// REQUIRES: ptxas
// RUN: mgpc %s -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: %ptxas -arch=sm_90 %t.ptx -o %t.cubin

// Sum of each 1024-element block: shuffles within warps, shared memory across.
// CHECK: .extern .shared .align 1024 .b8 global_smem[];
// CHECK: shfl.sync.bfly.b32
// CHECK: bar.sync 0
// CHECK: st.global.b32
module {
  func.func @block_sum(%x: !mgp.ptr<f32> {mgp.divisibility = 16 : i32},
                       %y: !mgp.ptr<f32>) attributes {mgp.kernel} {
    %pid = mgp.program_id 0 : i32
    %c = arith.constant 1024 : i32
    %base = arith.muli %pid, %c : i32
    %r = mgp.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32>
    %bs = mgp.splat %base : i32 -> tensor<1024xi32>
    %offs = arith.addi %bs, %r : tensor<1024xi32>
    %xs = mgp.splat %x : !mgp.ptr<f32> -> tensor<1024x!mgp.ptr<f32>>
    %xp = mgp.addptr %xs, %offs : tensor<1024x!mgp.ptr<f32>>, tensor<1024xi32>
    %v = mgp.load %xp : tensor<1024x!mgp.ptr<f32>>
    %s = "mgp.reduce"(%v) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %t = arith.addf %a, %b : f32
      mgp.reduce.return %t : f32
    }) : (tensor<1024xf32>) -> f32
    %yp = mgp.addptr %y, %pid : !mgp.ptr<f32>, i32
    mgp.store %yp, %s : !mgp.ptr<f32>
    return
  }
}
