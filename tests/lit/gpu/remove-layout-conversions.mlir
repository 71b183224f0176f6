// RUN: mgp-opt %s -split-input-file -mgp-remove-layout-conversions | FileCheck %s

#a = #mgp.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b = #mgp.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#c = #mgp.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// convert(convert(x)) becomes one convert; a convert to the same type goes.
// CHECK: func.func @chain(%[[X:.*]]: tensor<256xf32, #[[A:.*]]>)
// CHECK-NEXT: %[[C:.*]] = mgp.convert_layout %[[X]] : tensor<256xf32, #[[A]]> -> tensor<256xf32, #[[C2:.*]]>
// CHECK-NEXT: return %[[C]]
func.func @chain(%x: tensor<256xf32, #a>) -> tensor<256xf32, #c> {
  %0 = mgp.convert_layout %x : tensor<256xf32, #a> -> tensor<256xf32, #b>
  %1 = mgp.convert_layout %0 : tensor<256xf32, #b> -> tensor<256xf32, #c>
  %2 = mgp.convert_layout %1 : tensor<256xf32, #c> -> tensor<256xf32, #c>
  return %2 : tensor<256xf32, #c>
}

// Splats, make_range and splat constants are produced in the target layout.
// CHECK: func.func @sources
// CHECK-NOT: mgp.convert_layout
// CHECK-DAG: mgp.splat %{{.*}} : f32 -> tensor<256xf32, #[[B:.*]]>
// CHECK-DAG: mgp.make_range {{.*}} : tensor<256xi32, #[[B]]>
// CHECK-DAG: arith.constant dense<1.000000e+00> : tensor<256xf32, #[[B]]>
// CHECK-NOT: mgp.convert_layout
// CHECK: return
func.func @sources(%s: f32) -> (tensor<256xf32, #b>, tensor<256xi32, #b>, tensor<256xf32, #b>) {
  %0 = mgp.splat %s : f32 -> tensor<256xf32, #a>
  %1 = mgp.convert_layout %0 : tensor<256xf32, #a> -> tensor<256xf32, #b>
  %2 = mgp.make_range {start = 0 : i32, end = 256 : i32} : tensor<256xi32, #a>
  %3 = mgp.convert_layout %2 : tensor<256xi32, #a> -> tensor<256xi32, #b>
  %4 = arith.constant dense<1.0> : tensor<256xf32, #a>
  %5 = mgp.convert_layout %4 : tensor<256xf32, #a> -> tensor<256xf32, #b>
  return %1, %3, %5 : tensor<256xf32, #b>, tensor<256xi32, #b>, tensor<256xf32, #b>
}

// A cheap chain (offsets and pointers) is recomputed in the layout a load
// wants; the convert of the loaded value itself stays.
// CHECK: func.func @remat
// CHECK: %[[R:.*]] = mgp.make_range {{.*}} : tensor<256xi32, #[[B:.*]]>
// CHECK: %[[O:.*]] = arith.addi %{{.*}}, %[[R]] : tensor<256xi32, #[[B]]>
// CHECK: %[[P:.*]] = mgp.addptr %{{.*}}, %[[O]] : tensor<256x!mgp.ptr<f32>, #[[B]]>
// CHECK: %[[V:.*]] = mgp.load %[[P]] : tensor<256x!mgp.ptr<f32>, #[[B]]>
// CHECK: mgp.convert_layout %[[V]] : tensor<256xf32, #[[B]]> -> tensor<256xf32, #{{.*}}>
func.func @remat(%x: !mgp.ptr<f32>, %n: i32) -> tensor<256xf32, #a> {
  %r = mgp.make_range {start = 0 : i32, end = 256 : i32} : tensor<256xi32, #a>
  %ns = mgp.splat %n : i32 -> tensor<256xi32, #a>
  %offs = arith.addi %ns, %r : tensor<256xi32, #a>
  %xs = mgp.splat %x : !mgp.ptr<f32> -> tensor<256x!mgp.ptr<f32>, #a>
  %p = mgp.addptr %xs, %offs : tensor<256x!mgp.ptr<f32>, #a>, tensor<256xi32, #a>
  %pb = mgp.convert_layout %p : tensor<256x!mgp.ptr<f32>, #a> -> tensor<256x!mgp.ptr<f32>, #b>
  %v = mgp.load %pb : tensor<256x!mgp.ptr<f32>, #b>
  %va = mgp.convert_layout %v : tensor<256xf32, #b> -> tensor<256xf32, #a>
  return %va : tensor<256xf32, #a>
}

// -----

#p = #mgp.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
#l = #mgp.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>

// reduce(convert(x)) reduces in x's layout and converts the smaller result.
// CHECK: #[[L:.*]] = #mgp.blocked<{sizePerThread = [1, 4]
// CHECK: #[[SL:.*]] = #mgp.slice<{dim = 1, parent = #[[L]]}>
// CHECK: func.func @reduce_first(%[[X:.*]]: tensor<64x64xf32, #[[L]]>)
// CHECK: %[[R:.*]] = "mgp.reduce"(%[[X]])
// CHECK: (tensor<64x64xf32, #[[L]]>) -> tensor<64xf32, #[[SL]]>
// CHECK: mgp.convert_layout %[[R]] : tensor<64xf32, #[[SL]]> -> tensor<64xf32, #{{.*}}>
func.func @reduce_first(%x: tensor<64x64xf32, #l>) -> tensor<64xf32, #mgp.slice<{dim = 1, parent = #p}>> {
  %c = mgp.convert_layout %x : tensor<64x64xf32, #l> -> tensor<64x64xf32, #p>
  %s = "mgp.reduce"(%c) <{axis = 1 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %t = arith.addf %a, %b : f32
    mgp.reduce.return %t : f32
  }) : (tensor<64x64xf32, #p>) -> tensor<64xf32, #mgp.slice<{dim = 1, parent = #p}>>
  return %s : tensor<64xf32, #mgp.slice<{dim = 1, parent = #p}>>
}

// -----

#a = #mgp.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b = #mgp.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// A pointer advanced each iteration and converted for its load inside the
// loop is carried in the load's layout instead.
// CHECK: #[[B:.*]] = #mgp.blocked<{sizePerThread = [4]
// CHECK: func.func @loop_pointer
// CHECK: scf.for {{.*}} iter_args(%[[P:.*]] = %{{.*}}, %{{.*}} = %{{.*}}) -> (tensor<256x!mgp.ptr<f32>, #[[B]]>, tensor<256xf32, #[[B]]>)
// CHECK-NOT: mgp.convert_layout
// CHECK: mgp.load %[[P]] : tensor<256x!mgp.ptr<f32>, #[[B]]>
// CHECK: %[[NEXT:.*]] = mgp.addptr %[[P]], %{{.*}} : tensor<256x!mgp.ptr<f32>, #[[B]]>
// CHECK: scf.yield %[[NEXT]]
func.func @loop_pointer(%x: !mgp.ptr<f32>, %n: i32) -> tensor<256xf32, #b> {
  %r = mgp.make_range {start = 0 : i32, end = 256 : i32} : tensor<256xi32, #a>
  %xs = mgp.splat %x : !mgp.ptr<f32> -> tensor<256x!mgp.ptr<f32>, #a>
  %p0 = mgp.addptr %xs, %r : tensor<256x!mgp.ptr<f32>, #a>, tensor<256xi32, #a>
  %step = arith.constant dense<256> : tensor<256xi32, #a>
  %zero = arith.constant dense<0.0> : tensor<256xf32, #b>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %res:2 = scf.for %i = %c0 to %n step %c1 iter_args(%p = %p0, %acc = %zero)
      -> (tensor<256x!mgp.ptr<f32>, #a>, tensor<256xf32, #b>) : i32 {
    %pb = mgp.convert_layout %p : tensor<256x!mgp.ptr<f32>, #a> -> tensor<256x!mgp.ptr<f32>, #b>
    %v = mgp.load %pb : tensor<256x!mgp.ptr<f32>, #b>
    %sum = arith.addf %acc, %v : tensor<256xf32, #b>
    %next = mgp.addptr %p, %step : tensor<256x!mgp.ptr<f32>, #a>, tensor<256xi32, #a>
    scf.yield %next, %sum : tensor<256x!mgp.ptr<f32>, #a>, tensor<256xf32, #b>
  }
  return %res#1 : tensor<256xf32, #b>
}

// -----

// A dot's epilogue: the accumulator (mma) plus a broadcast bias and a loaded
// residual, both converted into mma, then converted back for the store. The
// chain is recomputed in the store's layout: one convert of the accumulator
// and one of the 64-element bias vector instead of three 128x64 converts.
#bl = #mgp.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [8, 1], order = [1, 0]}>
#bv = #mgp.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>
#bb = #mgp.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 2], order = [1, 0]}>
#mma = #mgp.mma<{version = 2, warpsPerCTA = [4, 2], instrShape = [16, 8]}>
// CHECK-LABEL: func.func @epilogue
// CHECK-NOT: -> tensor<128x64xf32, #mma>
// CHECK-DAG: mgp.convert_layout %arg0 : tensor<128x64xf32, #mma> -> tensor<128x64xf32, #[[BL:blocked[0-9]*]]>
// CHECK-DAG: mgp.convert_layout %arg1 : tensor<64xf32, #{{.*}}> -> tensor<64xf32, #{{.*}}>
// CHECK-NOT: mgp.convert_layout
// CHECK: arith.maximumf {{.*}} : tensor<128x64xf32, #[[BL]]>
// CHECK-NEXT: return
func.func @epilogue(%acc: tensor<128x64xf32, #mma>, %bias: tensor<64xf32, #bv>,
                    %res: tensor<128x64xf32, #bl>) -> tensor<128x64xf32, #bl> {
  %0 = mgp.convert_layout %bias : tensor<64xf32, #bv> -> tensor<64xf32, #mgp.slice<{dim = 0, parent = #bb}>>
  %1 = mgp.expand_dims %0 {axis = 0 : i32} : tensor<64xf32, #mgp.slice<{dim = 0, parent = #bb}>> -> tensor<1x64xf32, #bb>
  %2 = mgp.broadcast %1 : tensor<1x64xf32, #bb> -> tensor<128x64xf32, #bb>
  %3 = mgp.convert_layout %2 : tensor<128x64xf32, #bb> -> tensor<128x64xf32, #mma>
  %4 = arith.addf %acc, %3 : tensor<128x64xf32, #mma>
  %5 = mgp.convert_layout %res : tensor<128x64xf32, #bl> -> tensor<128x64xf32, #mma>
  %6 = arith.addf %4, %5 : tensor<128x64xf32, #mma>
  %zero = arith.constant dense<0.0> : tensor<128x64xf32, #mma>
  %7 = arith.maximumf %6, %zero : tensor<128x64xf32, #mma>
  %8 = mgp.convert_layout %7 : tensor<128x64xf32, #mma> -> tensor<128x64xf32, #bl>
  return %8 : tensor<128x64xf32, #bl>
}

// A convert of the dot result alone stays (nothing to look through).
// CHECK-LABEL: func.func @plain
// CHECK: mgp.convert_layout %arg0 : tensor<128x64xf32, #mma> -> tensor<128x64xf32, #{{.*}}>
// CHECK-NEXT: return
func.func @plain(%acc: tensor<128x64xf32, #mma>) -> tensor<128x64xf32, #bl> {
  %0 = mgp.convert_layout %acc : tensor<128x64xf32, #mma> -> tensor<128x64xf32, #bl>
  return %0 : tensor<128x64xf32, #bl>
}

// -----

// Side-effect-free inline asm (two results) between 4-wide loads and stores
// is computed in the loads' layout: no convert is left. Asm with side
// effects is never duplicated: its converts stay.
#a = #mgp.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b = #mgp.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: func.func @asm_two_results
// CHECK-NOT: mgp.convert_layout
// CHECK: mgp.inline_asm_elementwise {{.*}} : (tensor<512xi8, #[[B:blocked[0-9]*]]>, tensor<512xf32, #[[B]]>) -> (tensor<512xi32, #[[B]]>, tensor<512xf32, #[[B]]>)
// CHECK-NOT: mgp.convert_layout
// CHECK: return
func.func @asm_two_results(%x: tensor<512xi8, #b>, %y: tensor<512xf32, #b>)
    -> (tensor<512xi32, #b>, tensor<512xf32, #b>) {
  %0 = mgp.convert_layout %x : tensor<512xi8, #b> -> tensor<512xi8, #a>
  %1 = mgp.convert_layout %y : tensor<512xf32, #b> -> tensor<512xf32, #a>
  %2:2 = mgp.inline_asm_elementwise "mov.b32 $0, 0; mov.b32 $1, 0;"(%0, %1) {constraints = "=r,=r,r,r", pack = 1 : i32, pure = true} : (tensor<512xi8, #a>, tensor<512xf32, #a>) -> (tensor<512xi32, #a>, tensor<512xf32, #a>)
  %3 = mgp.convert_layout %2#0 : tensor<512xi32, #a> -> tensor<512xi32, #b>
  %4 = mgp.convert_layout %2#1 : tensor<512xf32, #a> -> tensor<512xf32, #b>
  return %3, %4 : tensor<512xi32, #b>, tensor<512xf32, #b>
}

// CHECK-LABEL: func.func @asm_side_effects
// CHECK: mgp.convert_layout
// CHECK: mgp.inline_asm_elementwise {{.*}} : (tensor<512xi32, #{{.*}}>) -> tensor<512xi32, #[[A:blocked[0-9]*]]>
// CHECK: mgp.convert_layout {{.*}} : tensor<512xi32, #[[A]]> -> tensor<512xi32, #{{.*}}>
func.func @asm_side_effects(%x: tensor<512xi32, #b>) -> tensor<512xi32, #b> {
  %0 = mgp.convert_layout %x : tensor<512xi32, #b> -> tensor<512xi32, #a>
  %1 = mgp.inline_asm_elementwise "mov.b32 $0, $1;"(%0) {constraints = "=r,r", pack = 1 : i32, pure = false} : (tensor<512xi32, #a>) -> tensor<512xi32, #a>
  %2 = mgp.convert_layout %1 : tensor<512xi32, #a> -> tensor<512xi32, #b>
  return %2 : tensor<512xi32, #b>
}

// -----

// Loads of two widths feeding a store: the elementwise code between them
// is recomputed in the store's layout with one convert of the 8-wide mask
// instead of three converts.
#a = #mgp.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b = #mgp.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#c = #mgp.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: func.func @mixed_widths
// CHECK: mgp.convert_layout %arg1 : tensor<1024xi1, #{{.*}}> -> tensor<1024xi1, #[[B:blocked[0-9]*]]>
// CHECK-NOT: mgp.convert_layout
// CHECK: arith.select {{.*}} : tensor<1024xi1, #[[B]]>, tensor<1024xf32, #[[B]]>
// CHECK-NEXT: return
func.func @mixed_widths(%x: tensor<1024xf32, #b>, %keep: tensor<1024xi1, #c>)
    -> tensor<1024xf32, #b> {
  %0 = mgp.convert_layout %x : tensor<1024xf32, #b> -> tensor<1024xf32, #a>
  %1 = mgp.convert_layout %keep : tensor<1024xi1, #c> -> tensor<1024xi1, #a>
  %zero = arith.constant dense<0.0> : tensor<1024xf32, #a>
  %2 = arith.select %1, %0, %zero : tensor<1024xi1, #a>, tensor<1024xf32, #a>
  %3 = mgp.convert_layout %2 : tensor<1024xf32, #a> -> tensor<1024xf32, #b>
  return %3 : tensor<1024xf32, #b>
}

// -----

// 2-D pointers built from a row vector that comes out of an scf.if: one
// convert of the 32-element vector instead of the 32x16 pointer block.
#v = #mgp.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#p = #mgp.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#q = #mgp.blocked<{sizePerThread = [1, 1], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: func.func @row_vector
// CHECK: scf.if
// CHECK: mgp.convert_layout %{{.*}} : tensor<32xi32, #{{.*}}> -> tensor<32xi32, #slice{{[0-9]*}}>
// CHECK-NOT: mgp.convert_layout
// CHECK: mgp.addptr {{.*}} : tensor<32x16x!mgp.ptr<f16>, #[[Q:blocked[0-9]*]]>
// CHECK-NEXT: return {{.*}} : tensor<32x16x!mgp.ptr<f16>, #[[Q]]>
func.func @row_vector(%c: i1, %r0: tensor<32xi32, #v>, %r1: tensor<32xi32, #v>,
                      %a: !mgp.ptr<f16>) -> tensor<32x16x!mgp.ptr<f16>, #q> {
  %base = mgp.splat %a : !mgp.ptr<f16> -> tensor<32x16x!mgp.ptr<f16>, #p>
  %r = scf.if %c -> (tensor<32xi32, #v>) {
    scf.yield %r0 : tensor<32xi32, #v>
  } else {
    scf.yield %r1 : tensor<32xi32, #v>
  }
  %0 = mgp.convert_layout %r : tensor<32xi32, #v> -> tensor<32xi32, #mgp.slice<{dim = 1, parent = #p}>>
  %1 = mgp.expand_dims %0 {axis = 1 : i32} : tensor<32xi32, #mgp.slice<{dim = 1, parent = #p}>> -> tensor<32x1xi32, #p>
  %2 = mgp.broadcast %1 : tensor<32x1xi32, #p> -> tensor<32x16xi32, #p>
  %3 = mgp.addptr %base, %2 : tensor<32x16x!mgp.ptr<f16>, #p>, tensor<32x16xi32, #p>
  %4 = mgp.convert_layout %3 : tensor<32x16x!mgp.ptr<f16>, #p> -> tensor<32x16x!mgp.ptr<f16>, #q>
  return %4 : tensor<32x16x!mgp.ptr<f16>, #q>
}

// -----

// A reduction of element-wise code on a value converted out of its load's
// layout is computed in the load's layout: the chain and the reduction move
// there, only the 128-element result is converted (not the 128x64 input).
#l = #mgp.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#d = #mgp.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
// CHECK-LABEL: func.func @reduce_in_load_layout
// CHECK-NOT: mgp.convert_layout
// CHECK: math.exp %{{.*}} : tensor<128x64xf32, #[[L:blocked[0-9]*]]>
// CHECK: arith.mulf {{.*}} : tensor<128x64xf32, #[[L]]>
// CHECK: mgp.reduce
// CHECK: (tensor<128x64xf32, #[[L]]>) -> tensor<128xf32, #[[LS:slice[0-9]*]]>
// CHECK-NEXT: mgp.convert_layout %{{.*}} : tensor<128xf32, #[[LS]]> -> tensor<128xf32, #{{slice[0-9]*}}>
// CHECK-NEXT: return
func.func @reduce_in_load_layout(%x: tensor<128x64xf32, #l>) -> tensor<128xf32, #mgp.slice<{dim = 1, parent = #d}>> {
  %0 = mgp.convert_layout %x : tensor<128x64xf32, #l> -> tensor<128x64xf32, #d>
  %1 = math.exp %0 : tensor<128x64xf32, #d>
  %two = arith.constant dense<2.0> : tensor<128x64xf32, #d>
  %2 = arith.mulf %1, %two : tensor<128x64xf32, #d>
  %3 = "mgp.reduce"(%2) <{axis = 1 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    mgp.reduce.return %s : f32
  }) : (tensor<128x64xf32, #d>) -> tensor<128xf32, #mgp.slice<{dim = 1, parent = #d}>>
  return %3 : tensor<128xf32, #mgp.slice<{dim = 1, parent = #d}>>
}

// -----

// An operand staged into a tensor-core dot (any source layout will do) and
// computed from a converted load: the upcast and the scaling run in the
// load's layout, whose rows are then stored to shared memory; the scale
// vector (128 elements, not recomputable) is converted instead of the
// 128x64 operand.
#l = #mgp.blocked<{sizePerThread = [1, 16], threadsPerWarp = [8, 4], warpsPerCTA = [8, 1], order = [1, 0]}>
#d = #mgp.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 4], order = [1, 0]}>
#mma = #mgp.mma<{version = 3, warpsPerCTA = [8, 1], instrShape = [16, 128, 16]}>
// CHECK-LABEL: func.func @staged_operand
// CHECK: mgp.convert_layout %{{.*}} : tensor<128xf16, #{{slice[0-9]*}}> -> tensor<128xf16, #[[LS:slice[0-9]*]]>
// CHECK: arith.extf %{{.*}} : tensor<128x64xf8E4M3FN, #[[L:blocked[0-9]*]]> to tensor<128x64xf16, #[[L]]>
// CHECK: mgp.expand_dims %{{.*}} {axis = 1 : i32} : tensor<128xf16, #[[LS]]> -> tensor<128x1xf16, #[[L]]>
// CHECK: %[[S:.*]] = arith.mulf {{.*}} : tensor<128x64xf16, #[[L]]>
// CHECK-NEXT: mgp.convert_layout %[[S]] : tensor<128x64xf16, #[[L]]> -> tensor<128x64xf16, #dot_op>
func.func @staged_operand(%x: tensor<128x64xi8, #l>, %scale: tensor<128xf16, #mgp.slice<{dim = 1, parent = #d}>>)
    -> tensor<128x64xf16, #mgp.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> {
  %0 = mgp.convert_layout %x : tensor<128x64xi8, #l> -> tensor<128x64xi8, #d>
  %1 = arith.bitcast %0 : tensor<128x64xi8, #d> to tensor<128x64xf8E4M3FN, #d>
  %2 = arith.extf %1 : tensor<128x64xf8E4M3FN, #d> to tensor<128x64xf16, #d>
  %3 = mgp.expand_dims %scale {axis = 1 : i32} : tensor<128xf16, #mgp.slice<{dim = 1, parent = #d}>> -> tensor<128x1xf16, #d>
  %4 = mgp.broadcast %3 : tensor<128x1xf16, #d> -> tensor<128x64xf16, #d>
  %5 = arith.mulf %2, %4 : tensor<128x64xf16, #d>
  %6 = mgp.convert_layout %5 : tensor<128x64xf16, #d> -> tensor<128x64xf16, #mgp.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
  return %6 : tensor<128x64xf16, #mgp.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
}

// -----

// A loop-invariant dot operand is converted into its operand layout once,
// before the loop (an mma.sync operand; a warp-group dot's stays in the loop,
// which reads it from shared memory).
#l = #mgp.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #mgp.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
// CHECK-LABEL: func.func @invariant_operand
// CHECK: %[[Q:.*]] = mgp.convert_layout %{{.*}} : tensor<32x32xf16, #{{blocked[0-9]*}}> -> tensor<32x32xf16, #dot_op>
// CHECK-NEXT: scf.for
// CHECK: mgp.convert_layout %{{.*}} : tensor<32x32xf16, #{{blocked[0-9]*}}> -> tensor<32x32xf16, #dot_op1>
// CHECK-NEXT: mgp.dot %[[Q]]
func.func @invariant_operand(%q: tensor<32x32xf16, #l>, %k: tensor<32x32xf16, #l>, %n: i32)
    -> tensor<32x32xf32, #mma> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<32x32xf32, #mma>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<32x32xf32, #mma>) : i32 {
    %kk = arith.addf %k, %k : tensor<32x32xf16, #l>
    %a = mgp.convert_layout %q : tensor<32x32xf16, #l> -> tensor<32x32xf16, #mgp.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
    %b = mgp.convert_layout %kk : tensor<32x32xf16, #l> -> tensor<32x32xf16, #mgp.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
    %d = mgp.dot %a, %b, %acc {inputPrecision = tf32} : tensor<32x32xf16, #mgp.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x32xf16, #mgp.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<32x32xf32, #mma>
    scf.yield %d : tensor<32x32xf32, #mma>
  }
  return %r : tensor<32x32xf32, #mma>
}

// -----

// Element-wise code between a load and an mma.sync operand (the split of a
// split-precision dot) runs in the operand's layout: the load is converted
// (later read by ldmatrix from its pipelined buffer), not each part.
#l = #mgp.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#d = #mgp.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #mgp.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
// (Each part converts the load; CSE merges the copies.)
// CHECK-LABEL: func.func @split_operand
// CHECK: %[[X:.*]] = mgp.load
// CHECK-NEXT: %[[C:.*]] = mgp.convert_layout %[[X]] : tensor<32x32xf32, #{{blocked[0-9]*}}> -> tensor<32x32xf32, #dot_op>
// CHECK-NEXT: mgp.convert_layout %[[X]] : tensor<32x32xf32, #{{blocked[0-9]*}}> -> tensor<32x32xf32, #dot_op>
// CHECK-NOT: #blocked
// CHECK: arith.subf %[[C]], %{{.*}} : tensor<32x32xf32, #dot_op>
// CHECK-NEXT: return
func.func @split_operand(%p: tensor<32x32x!mgp.ptr<f32>, #l>)
    -> (tensor<32x32xf32, #mgp.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>,
        tensor<32x32xf32, #mgp.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>) {
  %x = mgp.load %p : tensor<32x32x!mgp.ptr<f32>, #l>
  %0 = mgp.convert_layout %x : tensor<32x32xf32, #l> -> tensor<32x32xf32, #d>
  %bits = arith.bitcast %0 : tensor<32x32xf32, #d> to tensor<32x32xi32, #d>
  %mask = arith.constant dense<-8192> : tensor<32x32xi32, #d>
  %hi = arith.andi %bits, %mask : tensor<32x32xi32, #d>
  %big = arith.bitcast %hi : tensor<32x32xi32, #d> to tensor<32x32xf32, #d>
  %small = arith.subf %0, %big : tensor<32x32xf32, #d>
  %1 = mgp.convert_layout %big : tensor<32x32xf32, #d> -> tensor<32x32xf32, #mgp.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>
  %2 = mgp.convert_layout %small : tensor<32x32xf32, #d> -> tensor<32x32xf32, #mgp.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>
  return %1, %2 : tensor<32x32xf32, #mgp.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>, tensor<32x32xf32, #mgp.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>
}

// -----

// `acc += dot(...)` that did not fold into the dot's accumulator: the sum is
// carried in the dot's layout, converted once after the loop.
#d = #mgp.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #mgp.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
// CHECK-LABEL: func.func @carried_sum
// CHECK: scf.for {{.*}} -> (tensor<32x32xf32, #mma>)
// CHECK-NOT: mgp.convert_layout
// CHECK: arith.addf %{{.*}}, %{{.*}} : tensor<32x32xf32, #mma>
// CHECK-NEXT: scf.yield %{{.*}} : tensor<32x32xf32, #mma>
// CHECK: mgp.convert_layout %{{.*}} : tensor<32x32xf32, #mma> -> tensor<32x32xf32, #blocked>
func.func @carried_sum(%a: tensor<32x32xf32, #mgp.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>,
                       %b: tensor<32x32xf32, #mgp.dot_op<{opIdx = 1, parent = #mma, kWidth = 1}>>,
                       %n: i32) -> tensor<32x32xf32, #d> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<32x32xf32, #d>
  %zm = arith.constant dense<0.0> : tensor<32x32xf32, #mma>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<32x32xf32, #d>) : i32 {
    %p = mgp.dot %a, %b, %zm {inputPrecision = tf32} : tensor<32x32xf32, #mgp.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>> * tensor<32x32xf32, #mgp.dot_op<{opIdx = 1, parent = #mma, kWidth = 1}>> -> tensor<32x32xf32, #mma>
    %pc = mgp.convert_layout %p : tensor<32x32xf32, #mma> -> tensor<32x32xf32, #d>
    %s = arith.addf %acc, %pc : tensor<32x32xf32, #d>
    scf.yield %s : tensor<32x32xf32, #d>
  }
  return %r : tensor<32x32xf32, #d>
}

// -----

// A transpose of a converted tile is taken in the tile's own layout (a
// register relabelling); the convert moves after it, where it merges with the
// convert into the dot operand: one trip through shared memory, not two.
#l = #mgp.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#d = #mgp.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#t = #mgp.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #mgp.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
// CHECK-LABEL: func.func @transpose_before_convert
// CHECK-NEXT: %[[T:.*]] = mgp.trans %{{.*}} {order = array<i32: 1, 0>} : tensor<16x32xf16, #{{blocked[0-9]*}}> -> tensor<32x16xf16, #[[TL:blocked[0-9]*]]>
// CHECK-NEXT: %[[C:.*]] = mgp.convert_layout %[[T]] : tensor<32x16xf16, #[[TL]]> -> tensor<32x16xf16, #dot_op>
// CHECK-NEXT: return %[[C]]
func.func @transpose_before_convert(%x: tensor<16x32xf16, #l>)
    -> tensor<32x16xf16, #mgp.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> {
  %0 = mgp.convert_layout %x : tensor<16x32xf16, #l> -> tensor<16x32xf16, #d>
  %1 = mgp.trans %0 {order = array<i32: 1, 0>} : tensor<16x32xf16, #d> -> tensor<32x16xf16, #t>
  %2 = mgp.convert_layout %1 : tensor<32x16xf16, #t> -> tensor<32x16xf16, #mgp.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
  return %2 : tensor<32x16xf16, #mgp.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
}

// -----

#a = #mgp.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b = #mgp.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// Offsets updated by an scf.if at a tile's first step and carried on (a
// persistent kernel's flattened loop), converted for a load each iteration:
// the if also yields them in the load's layout (recomputed in the then
// branch, carried by the loop in the else branch), and nothing is converted
// in the loop.
// CHECK: #[[B:.*]] = #mgp.blocked<{sizePerThread = [4]
// CHECK: func.func @if_updated_offsets
// CHECK: scf.for {{.*}} iter_args({{.*}}%[[OB:[a-z0-9]+]] = %{{.*}}) -> ({{.*}}tensor<256xi32, #[[B]]>)
// CHECK-NOT: mgp.convert_layout
// CHECK: %[[IF:.*]]:3 = scf.if {{.*}}, tensor<256xi32, #[[B]]>) {
// CHECK: %[[ON:.*]] = arith.addi {{.*}} : tensor<256xi32, #[[B]]>
// CHECK: scf.yield {{.*}}, %[[ON]] :
// CHECK: } else {
// CHECK: scf.yield {{.*}}, %[[OB]] :
// CHECK-NOT: mgp.convert_layout
// CHECK: mgp.addptr {{.*}}, %[[IF]]#2
// CHECK: mgp.load {{.*}} : tensor<256x!mgp.ptr<f32>, #[[B]]>
// CHECK-NOT: mgp.convert_layout
// CHECK: scf.yield
func.func @if_updated_offsets(%x: !mgp.ptr<f32>, %n: i32, %k: i32) -> tensor<256xf32, #b> {
  %r = mgp.make_range {start = 0 : i32, end = 256 : i32} : tensor<256xi32, #a>
  %xs = mgp.splat %x : !mgp.ptr<f32> -> tensor<256x!mgp.ptr<f32>, #b>
  %zero = arith.constant dense<0.0> : tensor<256xf32, #b>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c256 = arith.constant 256 : i32
  %res:3 = scf.for %i = %c0 to %n step %c1 iter_args(%tile = %c0, %o = %r, %acc = %zero)
      -> (i32, tensor<256xi32, #a>, tensor<256xf32, #b>) : i32 {
    %ki = arith.remsi %i, %k : i32
    %first = arith.cmpi eq, %ki, %c0 : i32
    %upd:2 = scf.if %first -> (i32, tensor<256xi32, #a>) {
      %t = arith.addi %tile, %c1 : i32
      %base = arith.muli %t, %c256 : i32
      %bs = mgp.splat %base : i32 -> tensor<256xi32, #a>
      %on = arith.addi %bs, %r : tensor<256xi32, #a>
      scf.yield %t, %on : i32, tensor<256xi32, #a>
    } else {
      scf.yield %tile, %o : i32, tensor<256xi32, #a>
    }
    %ob = mgp.convert_layout %upd#1 : tensor<256xi32, #a> -> tensor<256xi32, #b>
    %p = mgp.addptr %xs, %ob : tensor<256x!mgp.ptr<f32>, #b>, tensor<256xi32, #b>
    %v = mgp.load %p : tensor<256x!mgp.ptr<f32>, #b>
    %sum = arith.addf %acc, %v : tensor<256xf32, #b>
    scf.yield %upd#0, %upd#1, %sum : i32, tensor<256xi32, #a>, tensor<256xf32, #b>
  }
  return %res#2 : tensor<256xf32, #b>
}

// -----

#a = #mgp.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b = #mgp.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// Running values summed from loads (an online softmax's max m and sum d; d
// reads m): both are carried in the load's layout, where the loop body then
// runs with no convert; the result is converted once after the loop.
// CHECK: #[[B:.*]] = #mgp.blocked<{sizePerThread = [4]
// CHECK: func.func @running_max_and_sum
// CHECK: scf.for {{.*}} -> (tensor<256xf32, #[[B]]>, tensor<256xf32, #[[B]]>)
// CHECK-NOT: mgp.convert_layout
// CHECK: mgp.load {{.*}} : tensor<256x!mgp.ptr<f32>, #[[B]]>
// CHECK-NOT: mgp.convert_layout
// CHECK: scf.yield
// CHECK: mgp.convert_layout
func.func @running_max_and_sum(%x: !mgp.ptr<f32>, %n: i32) -> tensor<256xf32, #a> {
  %r = mgp.make_range {start = 0 : i32, end = 256 : i32} : tensor<256xi32, #b>
  %xs = mgp.splat %x : !mgp.ptr<f32> -> tensor<256x!mgp.ptr<f32>, #b>
  %ninf = arith.constant dense<0xFF800000> : tensor<256xf32, #a>
  %zero = arith.constant dense<0.0> : tensor<256xf32, #a>
  %c0 = arith.constant 0 : i32
  %c256 = arith.constant 256 : i32
  %res:2 = scf.for %i = %c0 to %n step %c256 iter_args(%d = %zero, %m = %ninf)
      -> (tensor<256xf32, #a>, tensor<256xf32, #a>) : i32 {
    %is = mgp.splat %i : i32 -> tensor<256xi32, #b>
    %cols = arith.addi %is, %r : tensor<256xi32, #b>
    %p = mgp.addptr %xs, %cols : tensor<256x!mgp.ptr<f32>, #b>, tensor<256xi32, #b>
    %v = mgp.load %p : tensor<256x!mgp.ptr<f32>, #b>
    %va = mgp.convert_layout %v : tensor<256xf32, #b> -> tensor<256xf32, #a>
    %mn = arith.maxnumf %m, %va : tensor<256xf32, #a>
    %dm = arith.subf %m, %mn : tensor<256xf32, #a>
    %alpha = math.exp %dm : tensor<256xf32, #a>
    %dx = arith.subf %va, %mn : tensor<256xf32, #a>
    %e = math.exp %dx : tensor<256xf32, #a>
    %ds = arith.mulf %d, %alpha : tensor<256xf32, #a>
    %dn = arith.addf %ds, %e : tensor<256xf32, #a>
    scf.yield %dn, %mn : tensor<256xf32, #a>, tensor<256xf32, #a>
  }
  %out = arith.mulf %res#0, %res#1 : tensor<256xf32, #a>
  return %out : tensor<256xf32, #a>
}

// -----

#a = #mgp.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b = #mgp.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// Three loads in a wider layout than their store's (layer norm's
// `(x - mean) * w + b` stored through an unaligned pointer): the element-wise
// code runs in the loads' layout and only its result is converted.
// CHECK: #[[B:.*]] = #mgp.blocked<{sizePerThread = [2]
// CHECK-LABEL: func.func @store_of_loads
// CHECK-COUNT-3: mgp.load {{.*}} : tensor<256x!mgp.ptr<f32>, #[[B]]>
// CHECK-NOT: mgp.convert_layout
// CHECK: %[[V:.*]] = arith.addf {{.*}} : tensor<256xf32, #[[B]]>
// CHECK: %[[R:.*]] = mgp.convert_layout %[[V]] : tensor<256xf32, #[[B]]>
// CHECK-NEXT: mgp.store %{{.*}}, %[[R]]
func.func @store_of_loads(%x: !mgp.ptr<f32>, %w: !mgp.ptr<f32>, %c: !mgp.ptr<f32>, %y: !mgp.ptr<f32>, %mean: f32) {
  %r = mgp.make_range {start = 0 : i32, end = 256 : i32} : tensor<256xi32, #b>
  %xs = mgp.splat %x : !mgp.ptr<f32> -> tensor<256x!mgp.ptr<f32>, #b>
  %xp = mgp.addptr %xs, %r : tensor<256x!mgp.ptr<f32>, #b>, tensor<256xi32, #b>
  %ws = mgp.splat %w : !mgp.ptr<f32> -> tensor<256x!mgp.ptr<f32>, #b>
  %wp = mgp.addptr %ws, %r : tensor<256x!mgp.ptr<f32>, #b>, tensor<256xi32, #b>
  %cs = mgp.splat %c : !mgp.ptr<f32> -> tensor<256x!mgp.ptr<f32>, #b>
  %cp = mgp.addptr %cs, %r : tensor<256x!mgp.ptr<f32>, #b>, tensor<256xi32, #b>
  %xv = mgp.load %xp : tensor<256x!mgp.ptr<f32>, #b>
  %wv = mgp.load %wp : tensor<256x!mgp.ptr<f32>, #b>
  %cv = mgp.load %cp : tensor<256x!mgp.ptr<f32>, #b>
  %xa = mgp.convert_layout %xv : tensor<256xf32, #b> -> tensor<256xf32, #a>
  %wa = mgp.convert_layout %wv : tensor<256xf32, #b> -> tensor<256xf32, #a>
  %ca = mgp.convert_layout %cv : tensor<256xf32, #b> -> tensor<256xf32, #a>
  %ms = mgp.splat %mean : f32 -> tensor<256xf32, #a>
  %d = arith.subf %xa, %ms : tensor<256xf32, #a>
  %p = arith.mulf %d, %wa : tensor<256xf32, #a>
  %v = arith.addf %p, %ca : tensor<256xf32, #a>
  %ra = mgp.make_range {start = 0 : i32, end = 256 : i32} : tensor<256xi32, #a>
  %ys = mgp.splat %y : !mgp.ptr<f32> -> tensor<256x!mgp.ptr<f32>, #a>
  %yp = mgp.addptr %ys, %ra : tensor<256x!mgp.ptr<f32>, #a>, tensor<256xi32, #a>
  mgp.store %yp, %v : tensor<256x!mgp.ptr<f32>, #a>
  return
}
