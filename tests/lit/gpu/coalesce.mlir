// RUN: mgp-opt %s -split-input-file -mgp-assign-layouts -mgp-coalesce | FileCheck %s

// A contiguous load from a `*fp32:16` pointer: 4 floats (16 bytes) per
// thread and a 4-wide vector access.
// CHECK: #[[V4:.*]] = #mgp.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK: func.func @aligned
// CHECK: %[[P:.*]] = mgp.convert_layout %{{.*}} -> tensor<1024x!mgp.ptr<f32>, #[[V4]]>
// CHECK: mgp.load %[[P]] {mgp.vector_width = 4 : i32} : tensor<1024x!mgp.ptr<f32>, #[[V4]]>
// CHECK: mgp.store {{.*}} {mgp.vector_width = 4 : i32} : tensor<1024x!mgp.ptr<f32>, #[[V4]]>
func.func @aligned(%x: !mgp.ptr<f32> {mgp.divisibility = 16 : i32}) {
  %r = mgp.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32>
  %xs = mgp.splat %x : !mgp.ptr<f32> -> tensor<1024x!mgp.ptr<f32>>
  %p = mgp.addptr %xs, %r : tensor<1024x!mgp.ptr<f32>>, tensor<1024xi32>
  %v = mgp.load %p : tensor<1024x!mgp.ptr<f32>>
  mgp.store %p, %v : tensor<1024x!mgp.ptr<f32>>
  return
}

// -----

// Without the divisibility hint the base may be any address: scalar accesses.
// CHECK: #[[V1:.*]] = #mgp.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK: func.func @unaligned
// CHECK: mgp.load %{{.*}} {mgp.vector_width = 1 : i32} : tensor<1024x!mgp.ptr<f32>, #[[V1]]>
func.func @unaligned(%x: !mgp.ptr<f32>) -> tensor<1024xf32> {
  %r = mgp.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32>
  %xs = mgp.splat %x : !mgp.ptr<f32> -> tensor<1024x!mgp.ptr<f32>>
  %p = mgp.addptr %xs, %r : tensor<1024x!mgp.ptr<f32>>, tensor<1024xi32>
  %v = mgp.load %p : tensor<1024x!mgp.ptr<f32>>
  return %v : tensor<1024xf32>
}

// -----

// relu's masked load: `offs < n` with n divisible by 16 is constant over
// aligned runs of 16, so the vector stays 4 wide; without the hint on n the
// layout still holds 4 elements per thread but the access is scalar.
// CHECK: #[[M4:.*]] = #mgp.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK: func.func @masked
// CHECK: mgp.load %{{.*}}, %{{.*}} {mgp.vector_width = 4 : i32}
// CHECK: func.func @masked_unknown_bound
// CHECK: mgp.load %{{.*}}, %{{.*}} {mgp.vector_width = 1 : i32} : tensor<1024x!mgp.ptr<f32>, #[[M4]]>
func.func @masked(%x: !mgp.ptr<f32> {mgp.divisibility = 16 : i32},
                  %n: i32 {mgp.divisibility = 16 : i32}) -> tensor<1024xf32> {
  %pid = mgp.program_id 0 : i32
  %c1024 = arith.constant 1024 : i32
  %base = arith.muli %pid, %c1024 : i32
  %r = mgp.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32>
  %bases = mgp.splat %base : i32 -> tensor<1024xi32>
  %offs = arith.addi %bases, %r : tensor<1024xi32>
  %ns = mgp.splat %n : i32 -> tensor<1024xi32>
  %mask = arith.cmpi slt, %offs, %ns : tensor<1024xi32>
  %xs = mgp.splat %x : !mgp.ptr<f32> -> tensor<1024x!mgp.ptr<f32>>
  %p = mgp.addptr %xs, %offs : tensor<1024x!mgp.ptr<f32>>, tensor<1024xi32>
  %v = mgp.load %p, %mask : tensor<1024x!mgp.ptr<f32>>
  return %v : tensor<1024xf32>
}
func.func @masked_unknown_bound(%x: !mgp.ptr<f32> {mgp.divisibility = 16 : i32},
                                %n: i32) -> tensor<1024xf32> {
  %r = mgp.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32>
  %ns = mgp.splat %n : i32 -> tensor<1024xi32>
  %mask = arith.cmpi slt, %r, %ns : tensor<1024xi32>
  %xs = mgp.splat %x : !mgp.ptr<f32> -> tensor<1024x!mgp.ptr<f32>>
  %p = mgp.addptr %xs, %r : tensor<1024x!mgp.ptr<f32>>, tensor<1024xi32>
  %v = mgp.load %p, %mask : tensor<1024x!mgp.ptr<f32>>
  return %v : tensor<1024xf32>
}

// -----

// f16: 16 bytes are 8 elements.
// CHECK: #[[H:.*]] = #mgp.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK: func.func @half
// CHECK: mgp.load %{{.*}} {mgp.vector_width = 8 : i32} : tensor<1024x!mgp.ptr<f16>, #[[H]]>
func.func @half(%x: !mgp.ptr<f16> {mgp.divisibility = 16 : i32}) -> tensor<1024xf16> {
  %r = mgp.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32>
  %xs = mgp.splat %x : !mgp.ptr<f16> -> tensor<1024x!mgp.ptr<f16>>
  %p = mgp.addptr %xs, %r : tensor<1024x!mgp.ptr<f16>>, tensor<1024xi32>
  %v = mgp.load %p : tensor<1024x!mgp.ptr<f16>>
  return %v : tensor<1024xf16>
}

// -----

// A row-major 2-D tile with a row stride divisible by 16: 4 consecutive
// columns per thread, lanes along the rows (Triton's [1,4]/[2,16]/[4,1]).
// CHECK: #[[T:.*]] = #mgp.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK: func.func @tile
// CHECK: mgp.load %{{.*}} {mgp.vector_width = 4 : i32} : tensor<64x64x!mgp.ptr<f32>, #[[T]]>
func.func @tile(%x: !mgp.ptr<f32> {mgp.divisibility = 16 : i32},
                %stride: i32 {mgp.divisibility = 16 : i32}) -> tensor<64x64xf32> {
  %r = mgp.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %m = mgp.expand_dims %r {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %strides = mgp.splat %stride : i32 -> tensor<64x1xi32>
  %rows = arith.muli %m, %strides : tensor<64x1xi32>
  %n = mgp.expand_dims %r {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %rowsb = mgp.broadcast %rows : tensor<64x1xi32> -> tensor<64x64xi32>
  %colsb = mgp.broadcast %n : tensor<1x64xi32> -> tensor<64x64xi32>
  %offs = arith.addi %rowsb, %colsb : tensor<64x64xi32>
  %xs = mgp.splat %x : !mgp.ptr<f32> -> tensor<64x64x!mgp.ptr<f32>>
  %p = mgp.addptr %xs, %offs : tensor<64x64x!mgp.ptr<f32>>, tensor<64x64xi32>
  %v = mgp.load %p : tensor<64x64x!mgp.ptr<f32>>
  return %v : tensor<64x64xf32>
}

// -----

// A column of a column-major matrix: contiguous along dim 0, so order [0, 1].
// CHECK: #[[C:.*]] = #mgp.blocked<{sizePerThread = [4, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]}>
// CHECK: func.func @column_major
// CHECK: mgp.load %{{.*}} {mgp.vector_width = 4 : i32} : tensor<64x16x!mgp.ptr<f32>, #[[C]]>
func.func @column_major(%x: !mgp.ptr<f32> {mgp.divisibility = 16 : i32}) -> tensor<64x16xf32> {
  %r = mgp.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %c = mgp.make_range {start = 0 : i32, end = 16 : i32} : tensor<16xi32>
  %m = mgp.expand_dims %r {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %n = mgp.expand_dims %c {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
  %c64 = arith.constant dense<64> : tensor<1x16xi32>
  %cols = arith.muli %n, %c64 : tensor<1x16xi32>
  %mb = mgp.broadcast %m : tensor<64x1xi32> -> tensor<64x16xi32>
  %cb = mgp.broadcast %cols : tensor<1x16xi32> -> tensor<64x16xi32>
  %offs = arith.addi %mb, %cb : tensor<64x16xi32>
  %xs = mgp.splat %x : !mgp.ptr<f32> -> tensor<64x16x!mgp.ptr<f32>>
  %p = mgp.addptr %xs, %offs : tensor<64x16x!mgp.ptr<f32>>, tensor<64x16xi32>
  %v = mgp.load %p : tensor<64x16x!mgp.ptr<f32>>
  return %v : tensor<64x16xf32>
}

// -----

// mgp.hint (tl.multiple_of) makes an unknown offset aligned; a loop
// induction variable stepping by 16 from 0 is divisible by 16.
// CHECK: func.func @hinted
// CHECK: mgp.load %{{.*}} {mgp.vector_width = 4 : i32}
// CHECK: func.func @loop_iv
// CHECK: scf.for
// CHECK: mgp.load %{{.*}} {mgp.vector_width = 4 : i32}
func.func @hinted(%x: !mgp.ptr<f32> {mgp.divisibility = 16 : i32}, %k: i32) -> tensor<512xf32> {
  %h = mgp.hint %k {multipleOf = 16 : i64} : i32
  %r = mgp.make_range {start = 0 : i32, end = 512 : i32} : tensor<512xi32>
  %ks = mgp.splat %h : i32 -> tensor<512xi32>
  %offs = arith.addi %ks, %r : tensor<512xi32>
  %xs = mgp.splat %x : !mgp.ptr<f32> -> tensor<512x!mgp.ptr<f32>>
  %p = mgp.addptr %xs, %offs : tensor<512x!mgp.ptr<f32>>, tensor<512xi32>
  %v = mgp.load %p : tensor<512x!mgp.ptr<f32>>
  return %v : tensor<512xf32>
}
func.func @loop_iv(%x: !mgp.ptr<f32> {mgp.divisibility = 16 : i32}, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c512 = arith.constant 512 : i32
  %r = mgp.make_range {start = 0 : i32, end = 512 : i32} : tensor<512xi32>
  %xs = mgp.splat %x : !mgp.ptr<f32> -> tensor<512x!mgp.ptr<f32>>
  scf.for %i = %c0 to %n step %c512 : i32 {
    %is = mgp.splat %i : i32 -> tensor<512xi32>
    %offs = arith.addi %is, %r : tensor<512xi32>
    %p = mgp.addptr %xs, %offs : tensor<512x!mgp.ptr<f32>>, tensor<512xi32>
    %v = mgp.load %p : tensor<512x!mgp.ptr<f32>>
    mgp.store %p, %v : tensor<512x!mgp.ptr<f32>>
  }
  return
}

// -----

// A bound that is the minimum of two multiples of 16 (split-K's
// `tl.minimum(k_start + k_per_split, K)`) is itself a multiple of 16: the
// masked load stays 4 wide.
// CHECK-LABEL: func.func @masked_min_bound
// CHECK: mgp.load %{{.*}}, %{{.*}} {mgp.vector_width = 4 : i32}
func.func @masked_min_bound(%x: !mgp.ptr<f32> {mgp.divisibility = 16 : i32},
                            %n: i32 {mgp.divisibility = 16 : i32},
                            %k: i32 {mgp.divisibility = 16 : i32}) -> tensor<1024xf32> {
  %end = arith.minsi %n, %k : i32
  %r = mgp.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32>
  %ends = mgp.splat %end : i32 -> tensor<1024xi32>
  %mask = arith.cmpi slt, %r, %ends : tensor<1024xi32>
  %xs = mgp.splat %x : !mgp.ptr<f32> -> tensor<1024x!mgp.ptr<f32>>
  %p = mgp.addptr %xs, %r : tensor<1024x!mgp.ptr<f32>>, tensor<1024xi32>
  %v = mgp.load %p, %mask : tensor<1024x!mgp.ptr<f32>>
  return %v : tensor<1024xf32>
}

// -----

// A row from an unaligned pointer scaled by weights from an aligned one
// (layer norm's `x * w` with an unspecialized row stride): the x load takes
// the w load's 4 elements per thread (with scalar accesses), so both values
// share a layout; the store to the unaligned output keeps 1 element per
// thread, its own width.
// CHECK-DAG: #[[W4:.*]] = #mgp.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[W1:.*]] = #mgp.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: func.func @unaligned_row_aligned_weights
// CHECK: mgp.load %{{.*}} {mgp.vector_width = 1 : i32} : tensor<1024x!mgp.ptr<f32>, #[[W4]]>
// CHECK: mgp.load %{{.*}} {mgp.vector_width = 4 : i32} : tensor<1024x!mgp.ptr<f32>, #[[W4]]>
// CHECK: mgp.store %{{.*}} {mgp.vector_width = 1 : i32} : tensor<1024x!mgp.ptr<f32>, #[[W1]]>
func.func @unaligned_row_aligned_weights(%x: !mgp.ptr<f32>,
                                         %w: !mgp.ptr<f32> {mgp.divisibility = 16 : i32},
                                         %y: !mgp.ptr<f32>) {
  %r = mgp.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32>
  %xs = mgp.splat %x : !mgp.ptr<f32> -> tensor<1024x!mgp.ptr<f32>>
  %xp = mgp.addptr %xs, %r : tensor<1024x!mgp.ptr<f32>>, tensor<1024xi32>
  %ws = mgp.splat %w : !mgp.ptr<f32> -> tensor<1024x!mgp.ptr<f32>>
  %wp = mgp.addptr %ws, %r : tensor<1024x!mgp.ptr<f32>>, tensor<1024xi32>
  %xv = mgp.load %xp : tensor<1024x!mgp.ptr<f32>>
  %wv = mgp.load %wp : tensor<1024x!mgp.ptr<f32>>
  %prod = arith.mulf %xv, %wv : tensor<1024xf32>
  %ys = mgp.splat %y : !mgp.ptr<f32> -> tensor<1024x!mgp.ptr<f32>>
  %yp = mgp.addptr %ys, %r : tensor<1024x!mgp.ptr<f32>>, tensor<1024xi32>
  mgp.store %yp, %prod : tensor<1024x!mgp.ptr<f32>>
  return
}
