// A 64x64 tile copy with row stride: offsets from expand_dims and broadcast,
// y[m, n] = x[m * stride + n].
module {
  func.func @tile2d(%x: !mgp.ptr<f32> {mgp.divisibility = 16 : i32},
                    %y: !mgp.ptr<f32> {mgp.divisibility = 16 : i32},
                    %stride: i32 {mgp.divisibility = 16 : i32}) attributes {mgp.kernel} {
    %rm = mgp.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
    %rn = mgp.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
    %m = mgp.expand_dims %rm {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
    %strides = mgp.splat %stride : i32 -> tensor<64x1xi32>
    %rows = arith.muli %m, %strides : tensor<64x1xi32>
    %n = mgp.expand_dims %rn {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %rowsb = mgp.broadcast %rows : tensor<64x1xi32> -> tensor<64x64xi32>
    %colsb = mgp.broadcast %n : tensor<1x64xi32> -> tensor<64x64xi32>
    %offs = arith.addi %rowsb, %colsb : tensor<64x64xi32>
    %xs = mgp.splat %x : !mgp.ptr<f32> -> tensor<64x64x!mgp.ptr<f32>>
    %xp = mgp.addptr %xs, %offs : tensor<64x64x!mgp.ptr<f32>>, tensor<64x64xi32>
    %v = mgp.load %xp : tensor<64x64x!mgp.ptr<f32>>
    %ys = mgp.splat %y : !mgp.ptr<f32> -> tensor<64x64x!mgp.ptr<f32>>
    %yp = mgp.addptr %ys, %offs : tensor<64x64x!mgp.ptr<f32>>, tensor<64x64xi32>
    mgp.store %yp, %v : tensor<64x64x!mgp.ptr<f32>>
    return
  }
}
