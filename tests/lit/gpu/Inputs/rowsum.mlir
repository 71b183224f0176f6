// Row sums of a 64x64 tile (reduce along axis 1) and the total of a
// 1024-element block (reduce of a 1-D tensor to a scalar).
module {
  func.func @rowsum(%x: !mgp.ptr<f32> {mgp.divisibility = 16 : i32},
                    %y: !mgp.ptr<f32> {mgp.divisibility = 16 : i32}) attributes {mgp.kernel} {
    %rm = mgp.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
    %m = mgp.expand_dims %rm {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
    %c64 = arith.constant dense<64> : tensor<64x1xi32>
    %rows = arith.muli %m, %c64 : tensor<64x1xi32>
    %n = mgp.expand_dims %rm {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %rowsb = mgp.broadcast %rows : tensor<64x1xi32> -> tensor<64x64xi32>
    %colsb = mgp.broadcast %n : tensor<1x64xi32> -> tensor<64x64xi32>
    %offs = arith.addi %rowsb, %colsb : tensor<64x64xi32>
    %xs = mgp.splat %x : !mgp.ptr<f32> -> tensor<64x64x!mgp.ptr<f32>>
    %xp = mgp.addptr %xs, %offs : tensor<64x64x!mgp.ptr<f32>>, tensor<64x64xi32>
    %v = mgp.load %xp : tensor<64x64x!mgp.ptr<f32>>
    %s = "mgp.reduce"(%v) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %t = arith.addf %a, %b : f32
      mgp.reduce.return %t : f32
    }) : (tensor<64x64xf32>) -> tensor<64xf32>
    %ys = mgp.splat %y : !mgp.ptr<f32> -> tensor<64x!mgp.ptr<f32>>
    %yp = mgp.addptr %ys, %rm : tensor<64x!mgp.ptr<f32>>, tensor<64xi32>
    mgp.store %yp, %s : tensor<64x!mgp.ptr<f32>>
    return
  }

  func.func @total(%x: !mgp.ptr<f32> {mgp.divisibility = 16 : i32},
                   %y: !mgp.ptr<f32>) attributes {mgp.kernel} {
    %r = mgp.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32>
    %xs = mgp.splat %x : !mgp.ptr<f32> -> tensor<1024x!mgp.ptr<f32>>
    %xp = mgp.addptr %xs, %r : tensor<1024x!mgp.ptr<f32>>, tensor<1024xi32>
    %v = mgp.load %xp : tensor<1024x!mgp.ptr<f32>>
    %s = "mgp.reduce"(%v) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %t = arith.addf %a, %b : f32
      mgp.reduce.return %t : f32
    }) : (tensor<1024xf32>) -> f32
    mgp.store %y, %s : !mgp.ptr<f32>
    return
  }
}
