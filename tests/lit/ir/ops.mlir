// RUN: mgp-opt %s | mgp-opt | FileCheck %s
// Round trip of every mgp op, type and layout attribute.

// CHECK-DAG: #[[BL:.*]] = #mgp.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[SL:.*]] = #mgp.slice<{dim = 1, parent = #[[BL]]}>
// CHECK-DAG: #[[MMA:.*]] = #mgp.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
// CHECK-DAG: #[[DOT:.*]] = #mgp.dot_op<{opIdx = 0, parent = #[[MMA]], kWidth = 1}>
// CHECK-DAG: #[[FMA_A:.*]] = #mgp.dot_op<{opIdx = 0, parent = #[[BL]], kWidth = 1}>
// CHECK-DAG: #[[FMA_B:.*]] = #mgp.dot_op<{opIdx = 1, parent = #[[BL]], kWidth = 1}>
// CHECK-DAG: #{{.*}} = #mgp.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 8]}>
// CHECK-DAG: #[[SH:.*]] = #mgp.shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}>
// CHECK-DAG: #{{.*}} = #mgp.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], blockCols = 64}>
#bl = #mgp.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#sl = #mgp.slice<{dim = 1, parent = #bl}>
#mma = #mgp.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#mma3 = #mgp.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 8]}>
#dot = #mgp.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>
#fma = #mgp.dot_op<{opIdx = 1, parent = #bl, kWidth = 1}>
#sh = #mgp.shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#shblocks = #mgp.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], blockCols = 64}>

// CHECK-LABEL: func @indices
func.func @indices() -> (i32, i32, tensor<128xi32>) attributes {mgp.kernel} {
  // CHECK: mgp.program_id 0 : i32
  %0 = mgp.program_id 0 : i32
  // CHECK: mgp.num_programs 2 : i32
  %1 = mgp.num_programs 2 : i32
  // CHECK: mgp.make_range {end = 192 : i32, start = 64 : i32} : tensor<128xi32>
  %2 = mgp.make_range {start = 64 : i32, end = 192 : i32} : tensor<128xi32>
  return %0, %1, %2 : i32, i32, tensor<128xi32>
}

// CHECK-LABEL: func @shapes
func.func @shapes(%x: f32, %p: !mgp.ptr<f16>, %r: tensor<128xi32>, %m: tensor<4x8xf32>,
                  %i: tensor<4x2xi32>) {
  // CHECK: mgp.splat %{{.*}} : f32 -> tensor<128xf32>
  %0 = mgp.splat %x : f32 -> tensor<128xf32>
  // CHECK: mgp.splat %{{.*}} : !mgp.ptr<f16> -> tensor<128x!mgp.ptr<f16>>
  %1 = mgp.splat %p : !mgp.ptr<f16> -> tensor<128x!mgp.ptr<f16>>
  // CHECK: mgp.expand_dims %{{.*}} {axis = 0 : i32} : tensor<128xi32> -> tensor<1x128xi32>
  %2 = mgp.expand_dims %r {axis = 0 : i32} : tensor<128xi32> -> tensor<1x128xi32>
  // CHECK: mgp.broadcast %{{.*}} : tensor<1x128xi32> -> tensor<64x128xi32>
  %3 = mgp.broadcast %2 : tensor<1x128xi32> -> tensor<64x128xi32>
  // CHECK: mgp.reshape %{{.*}} : tensor<4x8xf32> -> tensor<32xf32>
  %4 = mgp.reshape %m : tensor<4x8xf32> -> tensor<32xf32>
  // CHECK: mgp.trans %{{.*}} {order = array<i32: 1, 0>} : tensor<4x8xf32> -> tensor<8x4xf32>
  %5 = mgp.trans %m {order = array<i32: 1, 0>} : tensor<4x8xf32> -> tensor<8x4xf32>
  // CHECK: mgp.hint %{{.*}} {maxContiguous = 16 : i64, multipleOf = 16 : i64} : tensor<128xi32>
  %6 = mgp.hint %r {multipleOf = 16 : i64, maxContiguous = 16 : i64} : tensor<128xi32>
  // CHECK: mgp.gather %{{.*}}[%{{.*}}] {axis = 1 : i32} : (tensor<4x8xf32>, tensor<4x2xi32>) -> tensor<4x2xf32>
  %7 = mgp.gather %m[%i] {axis = 1 : i32} : (tensor<4x8xf32>, tensor<4x2xi32>) -> tensor<4x2xf32>
  return
}

// CHECK-LABEL: func @memory
func.func @memory(%p: !mgp.ptr<f32>, %q: !mgp.ptr<f32, 3>, %off: tensor<128xi32>, %n: i32) {
  %ps = mgp.splat %p : !mgp.ptr<f32> -> tensor<128x!mgp.ptr<f32>>
  // CHECK: mgp.addptr %{{.*}}, %{{.*}} : tensor<128x!mgp.ptr<f32>>, tensor<128xi32>
  %a = mgp.addptr %ps, %off : tensor<128x!mgp.ptr<f32>>, tensor<128xi32>
  // CHECK: mgp.addptr %{{.*}}, %{{.*}} : !mgp.ptr<f32>, i32
  %s = mgp.addptr %p, %n : !mgp.ptr<f32>, i32
  %ns = mgp.splat %n : i32 -> tensor<128xi32>
  %mask = arith.cmpi slt, %off, %ns : tensor<128xi32>
  %other = arith.constant dense<1.0> : tensor<128xf32>
  // CHECK: mgp.load %{{.*}} : tensor<128x!mgp.ptr<f32>>
  %v0 = mgp.load %a : tensor<128x!mgp.ptr<f32>>
  // CHECK: mgp.load %{{.*}}, %{{.*}} : tensor<128x!mgp.ptr<f32>>
  %v1 = mgp.load %a, %mask : tensor<128x!mgp.ptr<f32>>
  // CHECK: mgp.load %{{.*}}, %{{.*}}, %{{.*}} : tensor<128x!mgp.ptr<f32>>
  %v2 = mgp.load %a, %mask, %other : tensor<128x!mgp.ptr<f32>>
  // CHECK: mgp.load %{{.*}} : !mgp.ptr<f32>
  %v3 = mgp.load %s : !mgp.ptr<f32>
  // CHECK: mgp.load %{{.*}} : !mgp.ptr<f32, 3>
  %v4 = mgp.load %q : !mgp.ptr<f32, 3>
  // CHECK: mgp.store %{{.*}}, %{{.*}} : tensor<128x!mgp.ptr<f32>>
  mgp.store %a, %v1 : tensor<128x!mgp.ptr<f32>>
  // CHECK: mgp.store %{{.*}}, %{{.*}}, %{{.*}} : tensor<128x!mgp.ptr<f32>>
  mgp.store %a, %v2, %mask : tensor<128x!mgp.ptr<f32>>
  // CHECK: mgp.store %{{.*}}, %{{.*}} : !mgp.ptr<f32>
  mgp.store %s, %v3 : !mgp.ptr<f32>
  return
}

// CHECK-LABEL: func @compute
func.func @compute(%a: tensor<16x32xf32>, %b: tensor<32x16xf32>, %c: tensor<16x16xf32>,
                   %h: tensor<16x32xf16>, %g: tensor<32x16xf16>, %x: tensor<128xf32>,
                   %i: tensor<128xi32>, %y: tensor<16x16xf32>) {
  // CHECK: mgp.dot %{{.*}}, %{{.*}}, %{{.*}} {inputPrecision = tf32} : tensor<16x32xf32> * tensor<32x16xf32> -> tensor<16x16xf32>
  %0 = mgp.dot %a, %b, %c {inputPrecision = tf32} : tensor<16x32xf32> * tensor<32x16xf32> -> tensor<16x16xf32>
  // CHECK: mgp.dot %{{.*}}, %{{.*}}, %{{.*}} {inputPrecision = ieee} : tensor<16x32xf16> * tensor<32x16xf16> -> tensor<16x16xf32>
  %1 = mgp.dot %h, %g, %c {inputPrecision = ieee} : tensor<16x32xf16> * tensor<32x16xf16> -> tensor<16x16xf32>
  // CHECK: mgp.dot %{{.*}} {inputPrecision = ieee} : tensor<16x32xi8> * tensor<32x16xi8> -> tensor<16x16xi32>
  %i8a = arith.constant dense<1> : tensor<16x32xi8>
  %i8b = arith.constant dense<2> : tensor<32x16xi8>
  %i32c = arith.constant dense<0> : tensor<16x16xi32>
  %q = mgp.dot %i8a, %i8b, %i32c {inputPrecision = ieee} : tensor<16x32xi8> * tensor<32x16xi8> -> tensor<16x16xi32>
  // CHECK: "mgp.reduce"(%{{.*}}) <{axis = 0 : i32}> ({
  // CHECK: ^bb0(%{{.*}}: f32, %{{.*}}: f32):
  // CHECK:   mgp.reduce.return %{{.*}} : f32
  // CHECK: }) : (tensor<128xf32>) -> f32
  %2 = "mgp.reduce"(%x) <{axis = 0 : i32}> ({
  ^bb0(%l: f32, %r: f32):
    %s = arith.addf %l, %r : f32
    mgp.reduce.return %s : f32
  }) : (tensor<128xf32>) -> f32
  // Argmax: value and index reduced together.
  // CHECK: "mgp.reduce"(%{{.*}}, %{{.*}}) <{axis = 0 : i32}>
  // CHECK: (tensor<128xf32>, tensor<128xi32>) -> (f32, i32)
  %3:2 = "mgp.reduce"(%x, %i) <{axis = 0 : i32}> ({
  ^bb0(%v0: f32, %i0: i32, %v1: f32, %i1: i32):
    %gt = arith.cmpf ogt, %v1, %v0 : f32
    %v = arith.select %gt, %v1, %v0 : f32
    %k = arith.select %gt, %i1, %i0 : i32
    mgp.reduce.return %v, %k : f32, i32
  }) : (tensor<128xf32>, tensor<128xi32>) -> (f32, i32)
  // CHECK: (tensor<16x16xf32>) -> tensor<16xf32>
  %4 = "mgp.reduce"(%y) <{axis = 1 : i32}> ({
  ^bb0(%l: f32, %r: f32):
    %s = arith.maxnumf %l, %r : f32
    mgp.reduce.return %s : f32
  }) : (tensor<16x16xf32>) -> tensor<16xf32>
  return
}

// CHECK-LABEL: func @gpu_stage
func.func @gpu_stage(%x: tensor<64x64xf32, #bl>, %r: tensor<64xi32, #sl>,
                     %acc: tensor<32x32xf32, #mma>, %a: tensor<32x16xf32, #dot>,
                     %w: tensor<64x128xf32, #mma3>) {
  // CHECK: mgp.convert_layout %{{.*}} : tensor<64x64xf32, #[[BL]]> -> tensor<64x64xf32, #[[MMA]]>
  %0 = mgp.convert_layout %x : tensor<64x64xf32, #bl> -> tensor<64x64xf32, #mma>
  // CHECK: mgp.expand_dims %{{.*}} {axis = 1 : i32} : tensor<64xi32, #[[SL]]> -> tensor<64x1xi32, #[[BL]]>
  %1 = mgp.expand_dims %r {axis = 1 : i32} : tensor<64xi32, #sl> -> tensor<64x1xi32, #bl>
  // CHECK: mgp.local_alloc %{{.*}} : (tensor<64x64xf32, #[[BL]]>) -> !mgp.memdesc<64x64xf32, #[[SH]]>
  %2 = mgp.local_alloc %x : (tensor<64x64xf32, #bl>) -> !mgp.memdesc<64x64xf32, #sh>
  // CHECK: mgp.local_alloc : () -> !mgp.memdesc<3x64x64xf32, #[[SH]], mutable>
  %3 = mgp.local_alloc : () -> !mgp.memdesc<3x64x64xf32, #sh, mutable>
  // CHECK: mgp.local_alloc : () -> !mgp.memdesc<3x64x128xf16, #{{.*}}, mutable>
  %blocks = mgp.local_alloc : () -> !mgp.memdesc<3x64x128xf16, #shblocks, mutable>
  // CHECK: mgp.local_alloc %{{.*}} : (tensor<64x64xf32, #[[BL]]>) -> !mgp.memdesc<64x64xf32, #[[SH]]>
  %plain = mgp.local_alloc %x : (tensor<64x64xf32, #bl>) -> !mgp.memdesc<64x64xf32, #sh>
  // CHECK: mgp.memdesc_trans %{{.*}} : !mgp.memdesc<64x64xf32, #[[SH]]> -> !mgp.memdesc<64x64xf32, #{{.*}}>
  %t = mgp.memdesc_trans %plain : !mgp.memdesc<64x64xf32, #sh> -> !mgp.memdesc<64x64xf32, #mgp.shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [0, 1]}>>
  // CHECK: mgp.local_alloc : () -> !mgp.memdesc<64x64xf32, #[[SH]], mutable>
  %4 = mgp.local_alloc : () -> !mgp.memdesc<64x64xf32, #sh, mutable>
  // CHECK: mgp.local_store %{{.*}}, %{{.*}} : tensor<64x64xf32, #[[BL]]> -> !mgp.memdesc<64x64xf32, #[[SH]], mutable>
  mgp.local_store %x, %4 : tensor<64x64xf32, #bl> -> !mgp.memdesc<64x64xf32, #sh, mutable>
  // CHECK: mgp.barrier
  mgp.barrier
  // CHECK: mgp.local_load %{{.*}} : !mgp.memdesc<64x64xf32, #[[SH]]> -> tensor<64x64xf32, #[[BL]]>
  %5 = mgp.local_load %2 : !mgp.memdesc<64x64xf32, #sh> -> tensor<64x64xf32, #bl>
  // CHECK: "mgp.reduce"
  // CHECK: (tensor<64x64xf32, #[[BL]]>) -> tensor<64xf32, #[[SL]]>
  %6 = "mgp.reduce"(%x) <{axis = 1 : i32}> ({
  ^bb0(%l: f32, %q: f32):
    %s = arith.addf %l, %q : f32
    mgp.reduce.return %s : f32
  }) : (tensor<64x64xf32, #bl>) -> tensor<64xf32, #sl>
  return
}

// CHECK-LABEL: func @dot_layouts
func.func @dot_layouts(%a: tensor<64x16xf32, #mgp.dot_op<{opIdx = 0, parent = #bl, kWidth = 1}>>,
                       %b: tensor<16x64xf32, #fma>, %c: tensor<64x64xf32, #bl>,
                       %w: tensor<64x128xf32, #mma3>) -> tensor<64x64xf32, #bl> {
  // CHECK: mgp.dot %{{.*}} {inputPrecision = ieee} : tensor<64x16xf32, #[[FMA_A]]> * tensor<16x64xf32, #[[FMA_B]]> -> tensor<64x64xf32, #[[BL]]>
  %d = mgp.dot %a, %b, %c {inputPrecision = ieee} : tensor<64x16xf32, #mgp.dot_op<{opIdx = 0, parent = #bl, kWidth = 1}>> * tensor<16x64xf32, #fma> -> tensor<64x64xf32, #bl>
  return %d : tensor<64x64xf32, #bl>
}
