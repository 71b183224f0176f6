// A 32x32 tile of C = A @ B over K in steps of 16 (the 3x3 dot conv's
// shape): loop-carried accumulator and pointers, loads feeding mgp.dot.
module {
  func.func @matmul(%a: !mgp.ptr<f32> {mgp.divisibility = 16 : i32},
                    %b: !mgp.ptr<f32> {mgp.divisibility = 16 : i32},
                    %c: !mgp.ptr<f32> {mgp.divisibility = 16 : i32},
                    %K: i32 {mgp.divisibility = 16 : i32}) attributes {mgp.kernel} {
    %rm = mgp.make_range {start = 0 : i32, end = 32 : i32} : tensor<32xi32>
    %rk = mgp.make_range {start = 0 : i32, end = 16 : i32} : tensor<16xi32>
    %am = mgp.expand_dims %rm {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
    %Ks = mgp.splat %K : i32 -> tensor<32x1xi32>
    %amK = arith.muli %am, %Ks : tensor<32x1xi32>
    %ak = mgp.expand_dims %rk {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
    %amKb = mgp.broadcast %amK : tensor<32x1xi32> -> tensor<32x16xi32>
    %akb = mgp.broadcast %ak : tensor<1x16xi32> -> tensor<32x16xi32>
    %aoffs = arith.addi %amKb, %akb : tensor<32x16xi32>
    %as = mgp.splat %a : !mgp.ptr<f32> -> tensor<32x16x!mgp.ptr<f32>>
    %ap0 = mgp.addptr %as, %aoffs : tensor<32x16x!mgp.ptr<f32>>, tensor<32x16xi32>
    %bk = mgp.expand_dims %rk {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
    %c32 = arith.constant dense<32> : tensor<16x1xi32>
    %bk32 = arith.muli %bk, %c32 : tensor<16x1xi32>
    %bn = mgp.expand_dims %rm {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
    %bkb = mgp.broadcast %bk32 : tensor<16x1xi32> -> tensor<16x32xi32>
    %bnb = mgp.broadcast %bn : tensor<1x32xi32> -> tensor<16x32xi32>
    %boffs = arith.addi %bkb, %bnb : tensor<16x32xi32>
    %bs = mgp.splat %b : !mgp.ptr<f32> -> tensor<16x32x!mgp.ptr<f32>>
    %bp0 = mgp.addptr %bs, %boffs : tensor<16x32x!mgp.ptr<f32>>, tensor<16x32xi32>
    %zero = arith.constant dense<0.0> : tensor<32x32xf32>
    %ainc = arith.constant dense<16> : tensor<32x16xi32>
    %binc = arith.constant dense<512> : tensor<16x32xi32>
    %c0 = arith.constant 0 : i32
    %c16 = arith.constant 16 : i32
    %res:3 = scf.for %k = %c0 to %K step %c16
        iter_args(%acc = %zero, %ap = %ap0, %bp = %bp0)
        -> (tensor<32x32xf32>, tensor<32x16x!mgp.ptr<f32>>, tensor<16x32x!mgp.ptr<f32>>) : i32 {
      %av = mgp.load %ap : tensor<32x16x!mgp.ptr<f32>>
      %bv = mgp.load %bp : tensor<16x32x!mgp.ptr<f32>>
      %d = mgp.dot %av, %bv, %acc {inputPrecision = ieee} : tensor<32x16xf32> * tensor<16x32xf32> -> tensor<32x32xf32>
      %ap2 = mgp.addptr %ap, %ainc : tensor<32x16x!mgp.ptr<f32>>, tensor<32x16xi32>
      %bp2 = mgp.addptr %bp, %binc : tensor<16x32x!mgp.ptr<f32>>, tensor<16x32xi32>
      scf.yield %d, %ap2, %bp2 : tensor<32x32xf32>, tensor<32x16x!mgp.ptr<f32>>, tensor<16x32x!mgp.ptr<f32>>
    }
    %cm = mgp.expand_dims %rm {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
    %c32b = arith.constant dense<32> : tensor<32x1xi32>
    %cm32 = arith.muli %cm, %c32b : tensor<32x1xi32>
    %cmb = mgp.broadcast %cm32 : tensor<32x1xi32> -> tensor<32x32xi32>
    %cnb = mgp.broadcast %bn : tensor<1x32xi32> -> tensor<32x32xi32>
    %coffs = arith.addi %cmb, %cnb : tensor<32x32xi32>
    %cs = mgp.splat %c : !mgp.ptr<f32> -> tensor<32x32x!mgp.ptr<f32>>
    %cp = mgp.addptr %cs, %coffs : tensor<32x32x!mgp.ptr<f32>>, tensor<32x32xi32>
    mgp.store %cp, %res#0 : tensor<32x32x!mgp.ptr<f32>>
    return
  }
}
