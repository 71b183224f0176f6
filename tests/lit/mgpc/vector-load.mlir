// RUN: mgpc %s -emit=ptx | FileCheck %s

// A contiguous, unmasked load from a mgp.divisibility = 16 pointer: the GPU
// passes give it mgp.vector_width = 4 and the lowering emits 16-byte vectors.
// CHECK: ld.global.v4.{{f32|b32}}
// CHECK: st.global.v4.{{f32|b32}}
module {
  func.func @copy(%x: !mgp.ptr<f32> {mgp.divisibility = 16 : i32},
                  %y: !mgp.ptr<f32> {mgp.divisibility = 16 : i32}) attributes {mgp.kernel} {
    %pid = mgp.program_id 0 : i32
    %c = arith.constant 1024 : i32
    %base = arith.muli %pid, %c : i32
    %r = mgp.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32>
    %bs = mgp.splat %base : i32 -> tensor<1024xi32>
    %offs = arith.addi %bs, %r : tensor<1024xi32>
    %xs = mgp.splat %x : !mgp.ptr<f32> -> tensor<1024x!mgp.ptr<f32>>
    %xp = mgp.addptr %xs, %offs : tensor<1024x!mgp.ptr<f32>>, tensor<1024xi32>
    %v = mgp.load %xp : tensor<1024x!mgp.ptr<f32>>
    %ys = mgp.splat %y : !mgp.ptr<f32> -> tensor<1024x!mgp.ptr<f32>>
    %yp = mgp.addptr %ys, %offs : tensor<1024x!mgp.ptr<f32>>, tensor<1024xi32>
    mgp.store %yp, %v : tensor<1024x!mgp.ptr<f32>>
    return
  }
}
