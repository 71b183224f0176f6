// RUN: mgp-opt %s -split-input-file -verify-diagnostics
// One case per verifier rule of the mgp dialect.

func.func @program_id_axis() {
  // expected-error @+1 {{attribute 'axis' failed to satisfy constraint}}
  %0 = mgp.program_id 3 : i32
  return
}

// -----

func.func @make_range_length() {
  // expected-error @+1 {{result length 64 must equal end - start = 128}}
  %0 = mgp.make_range {start = 0 : i32, end = 128 : i32} : tensor<64xi32>
  return
}

// -----

func.func @make_range_pow2() {
  // expected-error @+1 {{length 96 (end - start) must be a power of two}}
  %0 = mgp.make_range {start = 0 : i32, end = 96 : i32} : tensor<96xi32>
  return
}

// -----

func.func @make_range_empty() {
  // expected-error @+1 {{end must be greater than start}}
  %0 = mgp.make_range {start = 8 : i32, end = 8 : i32} : tensor<1xi32>
  return
}

// -----

func.func @make_range_i32(%x: tensor<128xi64>) {
  // expected-error @+1 {{result #0 must be ranked tensor of 32-bit signless integer values}}
  %0 = mgp.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi64>
  return
}

// -----

func.func @splat_type(%x: f32) {
  // expected-error @+1 {{result element type 'f16' must be the operand type 'f32'}}
  %0 = mgp.splat %x : f32 -> tensor<128xf16>
  return
}

// -----

func.func @broadcast_non_unit(%x: tensor<2x128xf32>) {
  // expected-error @+1 {{can only broadcast size-1 dimensions: 2x128 -> 64x128}}
  %0 = mgp.broadcast %x : tensor<2x128xf32> -> tensor<64x128xf32>
  return
}

// -----

func.func @broadcast_rank(%x: tensor<128xf32>) {
  // expected-error @+1 {{operand rank 1 must equal result rank 2}}
  %0 = mgp.broadcast %x : tensor<128xf32> -> tensor<64x128xf32>
  return
}

// -----

func.func @broadcast_element(%x: tensor<1x128xf32>) {
  // expected-error @+1 {{operand and result element types differ}}
  %0 = mgp.broadcast %x : tensor<1x128xf32> -> tensor<64x128xf16>
  return
}

// -----

func.func @expand_dims_shape(%x: tensor<128xi32>) {
  // expected-error @+1 {{result shape must be 128x1, got 1x128}}
  %0 = mgp.expand_dims %x {axis = 1 : i32} : tensor<128xi32> -> tensor<1x128xi32>
  return
}

// -----

func.func @expand_dims_axis(%x: tensor<128xi32>) {
  // expected-error @+1 {{axis 2 out of range for rank 1}}
  %0 = mgp.expand_dims %x {axis = 2 : i32} : tensor<128xi32> -> tensor<128x1xi32>
  return
}

// -----

func.func @reshape_count(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{element count changes: 4x8 -> 64}}
  %0 = mgp.reshape %x : tensor<4x8xf32> -> tensor<64xf32>
  return
}

// -----

func.func @trans_permutation(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{order must be a permutation}}
  %0 = mgp.trans %x {order = array<i32: 1, 1>} : tensor<4x8xf32> -> tensor<8x4xf32>
  return
}

// -----

func.func @trans_shape(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{result dim 0 must be operand dim 1 (size 8)}}
  %0 = mgp.trans %x {order = array<i32: 1, 0>} : tensor<4x8xf32> -> tensor<4x8xf32>
  return
}

// -----

func.func @addptr_shape(%p: tensor<128x!mgp.ptr<f32>>, %o: tensor<64xi32>) {
  // expected-error @+1 {{offset shape 64 must match pointer shape 128}}
  %0 = mgp.addptr %p, %o : tensor<128x!mgp.ptr<f32>>, tensor<64xi32>
  return
}

// -----

func.func @addptr_mixed(%p: tensor<128x!mgp.ptr<f32>>, %o: i32) {
  // expected-error @+1 {{pointer and offset must both be scalars or both be blocks}}
  %0 = mgp.addptr %p, %o : tensor<128x!mgp.ptr<f32>>, i32
  return
}

// -----

func.func @addptr_float_offset(%p: !mgp.ptr<f32>, %o: f32) {
  // expected-error @+1 {{operand #1 must be}}
  %0 = mgp.addptr %p, %o : !mgp.ptr<f32>, f32
  return
}

// -----

// expected-note @+1 {{prior use here}}
func.func @load_mask_type(%p: tensor<128x!mgp.ptr<f32>>, %m: tensor<64xi1>) {
  // expected-error @+1 {{use of value '%m' expects different type than prior uses: 'tensor<128xi1>' vs 'tensor<64xi1>'}}
  %0 = mgp.load %p, %m : tensor<128x!mgp.ptr<f32>>
  return
}

// -----

// expected-note @+1 {{prior use here}}
func.func @load_other_type(%p: tensor<128x!mgp.ptr<f32>>, %m: tensor<128xi1>, %o: tensor<128xf16>) {
  // expected-error @+1 {{expects different type than prior uses: 'tensor<128xf32>' vs 'tensor<128xf16>'}}
  %0 = mgp.load %p, %m, %o : tensor<128x!mgp.ptr<f32>>
  return
}

// -----

func.func @load_result_type(%p: !mgp.ptr<f32>) {
  // expected-error @+1 {{failed to verify that result matches the pointee type of ptr}}
  %0 = "mgp.load"(%p) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (!mgp.ptr<f32>) -> f16
  return
}

// -----

func.func @load_other_without_mask(%p: !mgp.ptr<f32>, %o: f32) {
  // expected-error @+1 {{'other' needs a mask}}
  %0 = "mgp.load"(%p, %o) <{operandSegmentSizes = array<i32: 1, 0, 1>}> : (!mgp.ptr<f32>, f32) -> f32
  return
}

// -----

// expected-note @+1 {{prior use here}}
func.func @store_value_type(%p: !mgp.ptr<f32>, %v: f16) {
  // expected-error @+1 {{expects different type than prior uses: 'f32' vs 'f16'}}
  mgp.store %p, %v : !mgp.ptr<f32>
  return
}

// -----

func.func @dot_k(%a: tensor<16x32xf32>, %b: tensor<16x16xf32>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{K mismatch: a is 16x32, b is 16x16}}
  %0 = mgp.dot %a, %b, %c {inputPrecision = tf32} : tensor<16x32xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
  return
}

// -----

func.func @dot_result(%a: tensor<16x32xf32>, %b: tensor<32x16xf32>, %c: tensor<32x16xf32>) {
  // expected-error @+1 {{result shape must be [M, N] = [16, 16], got 32x16}}
  %0 = mgp.dot %a, %b, %c {inputPrecision = tf32} : tensor<16x32xf32> * tensor<32x16xf32> -> tensor<32x16xf32>
  return
}

// -----

func.func @dot_operand_types(%a: tensor<16x32xf32>, %b: tensor<32x16xf16>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{a and b must have the same element type}}
  %0 = mgp.dot %a, %b, %c {inputPrecision = tf32} : tensor<16x32xf32> * tensor<32x16xf16> -> tensor<16x16xf32>
  return
}

// -----

func.func @dot_acc(%a: tensor<16x32xf32>, %b: tensor<32x16xf32>, %c: tensor<16x16xf16>) {
  // expected-error @+1 {{accumulator must be f32 or the operand type 'f32', got 'f16'}}
  %0 = mgp.dot %a, %b, %c {inputPrecision = tf32} : tensor<16x32xf32> * tensor<32x16xf32> -> tensor<16x16xf16>
  return
}

// -----

func.func @dot_precision(%a: tensor<16x32xf32>, %b: tensor<32x16xf32>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{inputPrecision must be tf32 or ieee, got 'tf32x3'}}
  %0 = mgp.dot %a, %b, %c {inputPrecision = tf32x3} : tensor<16x32xf32> * tensor<32x16xf32> -> tensor<16x16xf32>
  return
}

// -----

#bl = #mgp.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#bad = #mgp.dot_op<{opIdx = 1, parent = #bl, kWidth = 1}>
func.func @dot_operand_encoding(%a: tensor<16x32xf32, #bad>, %b: tensor<32x16xf32, #bad>, %c: tensor<16x16xf32, #bl>) {
  // expected-error @+1 {{operand 0 encoding must be #mgp.dot_op<{opIdx = 0, parent = <result encoding>, ...}>}}
  %0 = mgp.dot %a, %b, %c {inputPrecision = ieee} : tensor<16x32xf32, #bad> * tensor<32x16xf32, #bad> -> tensor<16x16xf32, #bl>
  return
}

// -----

func.func @reduce_axis(%x: tensor<128xf32>) {
  // expected-error @+1 {{axis 1 out of range for rank 1}}
  %0 = "mgp.reduce"(%x) <{axis = 1 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    mgp.reduce.return %s : f32
  }) : (tensor<128xf32>) -> f32
  return
}

// -----

func.func @reduce_result(%x: tensor<16x8xf32>) {
  // expected-error @+1 {{result 0 must have type 'tensor<8xf32>', got 'tensor<16xf32>'}}
  %0 = "mgp.reduce"(%x) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    mgp.reduce.return %s : f32
  }) : (tensor<16x8xf32>) -> tensor<16xf32>
  return
}

// -----

func.func @reduce_arity(%x: tensor<128xf32>) {
  // expected-error @+1 {{combiner must take 2 arguments, got 3}}
  %0 = "mgp.reduce"(%x) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %b: f32, %c: f32):
    mgp.reduce.return %a : f32
  }) : (tensor<128xf32>) -> f32
  return
}

// -----

func.func @reduce_arg_type(%x: tensor<128xf32>) {
  // expected-error @+1 {{combiner argument 1 must have type 'f32'}}
  %0 = "mgp.reduce"(%x) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %b: i32):
    mgp.reduce.return %a : f32
  }) : (tensor<128xf32>) -> f32
  return
}

// -----

func.func @reduce_return(%x: tensor<128xf32>) {
  // expected-error @+1 {{combiner must return 1 values}}
  %0 = "mgp.reduce"(%x) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    mgp.reduce.return %a, %b : f32, f32
  }) : (tensor<128xf32>) -> f32
  return
}

// -----

func.func @reduce_shapes(%x: tensor<128xf32>, %i: tensor<64xi32>) {
  // expected-error @+1 {{operands must all have the same shape}}
  %0:2 = "mgp.reduce"(%x, %i) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %j: i32, %b: f32, %k: i32):
    mgp.reduce.return %a, %j : f32, i32
  }) : (tensor<128xf32>, tensor<64xi32>) -> (f32, i32)
  return
}

// -----

#bl = #mgp.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
func.func @reduce_encoding(%x: tensor<16x8xf32, #bl>) {
  // expected-error @+1 {{result 0 must have type 'tensor<16xf32, #mgp.slice<{dim = 1, parent = #mgp.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>}>>', got 'tensor<16xf32>'}}
  %0 = "mgp.reduce"(%x) <{axis = 1 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    mgp.reduce.return %s : f32
  }) : (tensor<16x8xf32, #bl>) -> tensor<16xf32>
  return
}

// -----

func.func @hint_pow2(%x: tensor<128xi32>) {
  // expected-error @+1 {{hints must be positive powers of two}}
  %0 = mgp.hint %x {multipleOf = 12 : i64} : tensor<128xi32>
  return
}

// -----

#a = #mgp.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b = #mgp.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
func.func @convert_shape(%x: tensor<128xf32, #a>) {
  // expected-error @+1 {{must keep the shape and element type}}
  %0 = mgp.convert_layout %x : tensor<128xf32, #a> -> tensor<256xf32, #b>
  return
}

// -----

#bl = #mgp.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#sh = #mgp.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
func.func @local_alloc_shape(%x: tensor<16x8xf32, #bl>) {
  // expected-error @+1 {{must have the shape and element type of}}
  %0 = mgp.local_alloc %x : (tensor<16x8xf32, #bl>) -> !mgp.memdesc<16x16xf32, #sh>
  return
}

// -----

#sh = #mgp.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
func.func @local_alloc_immutable() {
  // expected-error @+1 {{without a source the buffer must be mutable}}
  %0 = mgp.local_alloc : () -> !mgp.memdesc<16x16xf32, #sh>
  return
}

// -----

#bl = #mgp.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#sh = #mgp.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
func.func @local_store_immutable(%x: tensor<16x8xf32, #bl>, %m: !mgp.memdesc<16x8xf32, #sh>) {
  // expected-error @+1 {{destination buffer must be mutable}}
  mgp.local_store %x, %m : tensor<16x8xf32, #bl> -> !mgp.memdesc<16x8xf32, #sh>
  return
}

// -----

#bl = #mgp.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#sh = #mgp.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
func.func @local_load_type(%m: !mgp.memdesc<16x8xf32, #sh>) {
  // expected-error @+1 {{must have the shape and element type of}}
  %0 = mgp.local_load %m : !mgp.memdesc<16x8xf32, #sh> -> tensor<16x8xf16, #bl>
  return
}

// -----

// expected-error @+1 {{address space must be 1 (global) or 3 (shared), got 5}}
func.func @ptr_space(%p: !mgp.ptr<f32, 5>)

// -----

// expected-error @+1 {{blocked: order must be a permutation of 0..1}}
func.func @blocked_order(%x: tensor<4x4xf32, #mgp.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [0, 0]}>>)

// -----

// expected-error @+1 {{blocked: sizePerThread, threadsPerWarp, warpsPerCTA and order must have the same non-zero rank}}
func.func @blocked_rank(%x: tensor<4x4xf32, #mgp.blocked<{sizePerThread = [1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>)

// -----

// expected-error @+1 {{unknown field 'size'}}
func.func @blocked_field(%x: tensor<4xf32, #mgp.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0], size = 3}>>)

// -----

// expected-error @+1 {{slice: dim 2 out of range for a parent of rank 2}}
func.func @slice_dim(%x: tensor<4xf32, #mgp.slice<{dim = 2, parent = #mgp.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>}>>)

// -----

// expected-error @+1 {{mma: version 2 needs instrShape = [16, 8]}}
func.func @mma_shape(%x: tensor<16x16xf32, #mgp.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 16]}>>)

// -----

// expected-error @+1 {{dot_op: parent must be #mgp.blocked or #mgp.mma}}
func.func @dot_op_parent(%x: tensor<16x16xf32, #mgp.dot_op<{opIdx = 0, parent = #mgp.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>, kWidth = 1}>>)

// -----

// expected-error @+1 {{memdesc encoding must be #mgp.shared}}
func.func @memdesc_encoding(%m: !mgp.memdesc<16x16xf32, #mgp.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>)

// -----

func.func @map_elementwise_arg_count(%x: tensor<16xf32>) {
  // expected-error @+1 {{region must take 2 arguments (pack 2 per operand), got 1}}
  %y = "mgp.map_elementwise"(%x) <{pack = 2 : i32}> ({
  ^bb0(%a: f32):
    mgp.map_elementwise.return %a, %a : f32, f32
  }) : (tensor<16xf32>) -> tensor<16xf32>
  return
}

// -----

func.func @map_elementwise_return_type(%x: tensor<16xf32>) {
  // expected-error @+1 {{returned value 0 must have type 'i32'}}
  %y = "mgp.map_elementwise"(%x) <{pack = 1 : i32}> ({
  ^bb0(%a: f32):
    mgp.map_elementwise.return %a : f32
  }) : (tensor<16xf32>) -> tensor<16xi32>
  return
}

// -----

func.func @map_elementwise_shape(%x: tensor<16xf32>) {
  // expected-error @+1 {{every operand must have the results' shape}}
  %y = "mgp.map_elementwise"(%x) <{pack = 1 : i32}> ({
  ^bb0(%a: f32):
    mgp.map_elementwise.return %a : f32
  }) : (tensor<16xf32>) -> tensor<32xf32>
  return
}

// -----

func.func @gather_rank(%x: tensor<16x32xf32>, %i: tensor<16xi32>) {
  // expected-error @+1 {{expects indices of the source's rank 2, got 1}}
  %r = mgp.gather %x[%i] {axis = 1 : i32} : (tensor<16x32xf32>, tensor<16xi32>) -> tensor<16xf32>
  return
}

// -----

func.func @gather_other_dim(%x: tensor<16x32xf32>, %i: tensor<8x4xi32>) {
  // expected-error @+1 {{expects indices matching the source in every dimension but the axis}}
  %r = mgp.gather %x[%i] {axis = 1 : i32} : (tensor<16x32xf32>, tensor<8x4xi32>) -> tensor<8x4xf32>
  return
}

// -----

func.func @gather_result(%x: tensor<16x32xf32>, %i: tensor<16x4xi32>) {
  // expected-error @+1 {{expects a result of the indices' shape and the source's element type}}
  %r = mgp.gather %x[%i] {axis = 1 : i32} : (tensor<16x32xf32>, tensor<16x4xi32>) -> tensor<16x4xf16>
  return
}

// -----

func.func @gather_axis(%x: tensor<16x32xf32>, %i: tensor<16x4xi32>) {
  // expected-error @+1 {{axis 2 is outside [0, 2)}}
  %r = mgp.gather %x[%i] {axis = 2 : i32} : (tensor<16x32xf32>, tensor<16x4xi32>) -> tensor<16x4xf32>
  return
}

// -----

// expected-error @+1 {{shared: blockCols must be 0 or a power of two of at least vec}}
func.func @shared_block_cols(%m: !mgp.memdesc<64x128xf16, #mgp.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], blockCols = 4}>>)

// -----

#sh = #mgp.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
func.func @memdesc_trans_order(%m: !mgp.memdesc<64x128xf16, #sh>) {
  // expected-error @+1 {{result must be the source transposed: expected '!mgp.memdesc<128x64xf16, #mgp.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [0, 1]}>>'}}
  %t = mgp.memdesc_trans %m : !mgp.memdesc<64x128xf16, #sh> -> !mgp.memdesc<128x64xf16, #sh>
  return
}

// -----

#sh = #mgp.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
func.func @memdesc_trans_leading_dim(%m: !mgp.memdesc<2x64x128xf16, #sh>) {
  // expected-error @+1 {{source must be a 2-D buffer without a leading buffer dimension}}
  %t = mgp.memdesc_trans %m : !mgp.memdesc<2x64x128xf16, #sh> -> !mgp.memdesc<128x64x2xf16, #sh>
  return
}
