// relu over n floats, BLOCK = 1024, as MLIRGen would emit it.
module {
  func.func @relu(%x: !mgp.ptr<f32> {mgp.divisibility = 16 : i32},
                  %y: !mgp.ptr<f32> {mgp.divisibility = 16 : i32},
                  %n: i32 {mgp.divisibility = 16 : i32}) attributes {mgp.kernel} {
    %pid = mgp.program_id 0 : i32
    %c1024 = arith.constant 1024 : i32
    %base = arith.muli %pid, %c1024 : i32
    %r = mgp.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32>
    %bs = mgp.splat %base : i32 -> tensor<1024xi32>
    %offs = arith.addi %bs, %r : tensor<1024xi32>
    %ns = mgp.splat %n : i32 -> tensor<1024xi32>
    %mask = arith.cmpi slt, %offs, %ns : tensor<1024xi32>
    %xs = mgp.splat %x : !mgp.ptr<f32> -> tensor<1024x!mgp.ptr<f32>>
    %xp = mgp.addptr %xs, %offs : tensor<1024x!mgp.ptr<f32>>, tensor<1024xi32>
    %v = mgp.load %xp, %mask : tensor<1024x!mgp.ptr<f32>>
    %zero = arith.constant dense<0.0> : tensor<1024xf32>
    %out = arith.maximumf %v, %zero : tensor<1024xf32>
    %ys = mgp.splat %y : !mgp.ptr<f32> -> tensor<1024x!mgp.ptr<f32>>
    %yp = mgp.addptr %ys, %offs : tensor<1024x!mgp.ptr<f32>>, tensor<1024xi32>
    mgp.store %yp, %out, %mask : tensor<1024x!mgp.ptr<f32>>
    return
  }
}
