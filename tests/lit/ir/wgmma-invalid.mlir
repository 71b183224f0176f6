// RUN: mgp-opt %s -split-input-file -verify-diagnostics
// One case per verifier rule of mgp.warp_group_dot (docs/wgmma.md).

#a = #mgp.shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#b = #mgp.shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [0, 1]}>
#v2 = #mgp.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
func.func @not_version3(%a: !mgp.memdesc<64x32xf32, #a>, %b: !mgp.memdesc<32x64xf32, #b>, %c: tensor<64x64xf32, #v2>) {
  // expected-error @+1 {{the accumulator must have an #mgp.mma version 3 encoding}}
  %d = mgp.warp_group_dot %a, %b, %c {inputPrecision = tf32} : !mgp.memdesc<64x32xf32, #a> * !mgp.memdesc<32x64xf32, #b> -> tensor<64x64xf32, #v2>
  return
}

// -----

#a = #mgp.shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#b = #mgp.shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [0, 1]}>
#v3 = #mgp.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 8]}>
func.func @shapes(%a: !mgp.memdesc<64x32xf32, #a>, %b: !mgp.memdesc<16x64xf32, #b>, %c: tensor<64x64xf32, #v3>) {
  // expected-error @+1 {{shapes must be a [M, K], b [K, N], d [M, N]}}
  %d = mgp.warp_group_dot %a, %b, %c {inputPrecision = tf32} : !mgp.memdesc<64x32xf32, #a> * !mgp.memdesc<16x64xf32, #b> -> tensor<64x64xf32, #v3>
  return
}

// -----

#a = #mgp.shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#b = #mgp.shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [0, 1]}>
#v3 = #mgp.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 8]}>
func.func @ieee(%a: !mgp.memdesc<64x32xf32, #a>, %b: !mgp.memdesc<32x64xf32, #b>, %c: tensor<64x64xf32, #v3>) {
  // expected-error @+1 {{operands must be f32 with input precision tf32, f16, bf16 or i8}}
  %d = mgp.warp_group_dot %a, %b, %c {inputPrecision = ieee} : !mgp.memdesc<64x32xf32, #a> * !mgp.memdesc<32x64xf32, #b> -> tensor<64x64xf32, #v3>
  return
}

// -----

#a = #mgp.shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#b = #mgp.shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [0, 1]}>
#v3 = #mgp.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 8]}>
func.func @partial_warp_group(%a: !mgp.memdesc<32x32xf32, #a>, %b: !mgp.memdesc<32x64xf32, #b>, %c: tensor<32x64xf32, #v3>) {
  // expected-error @+1 {{needs M % 64 == 0, N % 8 == 0 and K a multiple of 8}}
  %d = mgp.warp_group_dot %a, %b, %c {inputPrecision = tf32} : !mgp.memdesc<32x32xf32, #a> * !mgp.memdesc<32x64xf32, #b> -> tensor<32x64xf32, #v3>
  return
}

// -----

// B with N contiguous (order [1, 0]): wgmma reads K-contiguous tiles only.
#a = #mgp.shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#v3 = #mgp.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 8]}>
func.func @n_major_b(%a: !mgp.memdesc<64x32xf32, #a>, %b: !mgp.memdesc<32x64xf32, #a>, %c: tensor<64x64xf32, #v3>) {
  // expected-error @+1 {{a and b must be K-contiguous shared buffers with rows of 32, 64 or 128 bytes, or 128-byte column blocks, in the matching swizzle}}
  %d = mgp.warp_group_dot %a, %b, %c {inputPrecision = tf32} : !mgp.memdesc<64x32xf32, #a> * !mgp.memdesc<32x64xf32, #a> -> tensor<64x64xf32, #v3>
  return
}

// -----

// A 128-byte row swizzled as if it were 64 bytes wide.
#a = #mgp.shared<{vec = 4, perPhase = 2, maxPhase = 4, order = [1, 0]}>
#b = #mgp.shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [0, 1]}>
#v3 = #mgp.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 8]}>
func.func @wrong_swizzle(%a: !mgp.memdesc<64x32xf32, #a>, %b: !mgp.memdesc<32x64xf32, #b>, %c: tensor<64x64xf32, #v3>) {
  // expected-error @+1 {{in the matching swizzle}}
  %d = mgp.warp_group_dot %a, %b, %c {inputPrecision = tf32} : !mgp.memdesc<64x32xf32, #a> * !mgp.memdesc<32x64xf32, #b> -> tensor<64x64xf32, #v3>
  return
}

// -----

// The valid form, synchronous and asynchronous, and the wait.
#a = #mgp.shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#b = #mgp.shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [0, 1]}>
#v3 = #mgp.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 8]}>
func.func @valid(%a: !mgp.memdesc<64x32xf32, #a>, %b: !mgp.memdesc<32x64xf32, #b>, %c: tensor<64x64xf32, #v3>) -> tensor<64x64xf32, #v3> {
  %d = mgp.warp_group_dot %a, %b, %c {inputPrecision = tf32} : !mgp.memdesc<64x32xf32, #a> * !mgp.memdesc<32x64xf32, #b> -> tensor<64x64xf32, #v3>
  %e = mgp.warp_group_dot %a, %b, %d {inputPrecision = tf32} {isAsync} : !mgp.memdesc<64x32xf32, #a> * !mgp.memdesc<32x64xf32, #b> -> tensor<64x64xf32, #v3>
  %f = mgp.warp_group_dot_wait %e {pendings = 0 : i32} : tensor<64x64xf32, #v3>
  mgp.fence_async_shared
  return %f : tensor<64x64xf32, #v3>
}

// -----

// 256-byte rows without column blocks: the hardware's 128-byte swizzle reads
// rows 128 bytes apart.
#a = #mgp.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#b = #mgp.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [0, 1], blockCols = 64}>
#v3 = #mgp.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
func.func @wide_rows_unblocked(%a: !mgp.memdesc<64x128xf16, #a>, %b: !mgp.memdesc<128x64xf16, #b>, %c: tensor<64x64xf32, #v3>) {
  // expected-error @+1 {{a and b must be K-contiguous shared buffers with rows of 32, 64 or 128 bytes, or 128-byte column blocks, in the matching swizzle}}
  %d = mgp.warp_group_dot %a, %b, %c {inputPrecision = tf32} : !mgp.memdesc<64x128xf16, #a> * !mgp.memdesc<128x64xf16, #b> -> tensor<64x64xf32, #v3>
  return
}

// -----

// Column blocks of 64 bytes under a 128-byte swizzle.
#a = #mgp.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], blockCols = 32}>
#b = #mgp.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [0, 1], blockCols = 64}>
#v3 = #mgp.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
func.func @blocks_of_64_bytes(%a: !mgp.memdesc<64x128xf16, #a>, %b: !mgp.memdesc<128x64xf16, #b>, %c: tensor<64x64xf32, #v3>) {
  // expected-error @+1 {{a and b must be K-contiguous shared buffers with rows of 32, 64 or 128 bytes, or 128-byte column blocks, in the matching swizzle}}
  %d = mgp.warp_group_dot %a, %b, %c {inputPrecision = tf32} : !mgp.memdesc<64x128xf16, #a> * !mgp.memdesc<128x64xf16, #b> -> tensor<64x64xf32, #v3>
  return
}

// -----

// An N-contiguous fp16 B in 128-byte rows read by a wgmma of N = 32: half a
// column block per instruction.
#a = #mgp.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#v3 = #mgp.mma<{version = 3, warpsPerCTA = [4, 2], instrShape = [16, 32, 16]}>
func.func @n_major_b_narrow_n(%a: !mgp.memdesc<64x64xf16, #a>, %b: !mgp.memdesc<64x64xf16, #a>, %c: tensor<64x64xf32, #v3>) {
  // expected-error @+1 {{an N-contiguous b needs a wgmma N that is a multiple of 64}}
  %d = mgp.warp_group_dot %a, %b, %c {inputPrecision = tf32} : !mgp.memdesc<64x64xf16, #a> * !mgp.memdesc<64x64xf16, #a> -> tensor<64x64xf32, #v3>
  return
}

// -----

// An N-contiguous fp16 B of 32 columns: not a whole 128-byte atom.
#a = #mgp.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#b = #mgp.shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>
#v3 = #mgp.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 32, 16]}>
func.func @n_major_b_half_atom(%a: !mgp.memdesc<64x64xf16, #a>, %b: !mgp.memdesc<64x32xf16, #b>, %c: tensor<64x32xf32, #v3>) {
  // expected-error @+1 {{16-bit ones may be M- or N-contiguous in 128-byte column blocks}}
  %d = mgp.warp_group_dot %a, %b, %c {inputPrecision = tf32} : !mgp.memdesc<64x64xf16, #a> * !mgp.memdesc<64x32xf16, #b> -> tensor<64x32xf32, #v3>
  return
}

// -----

// An A in registers must be the wgmma A fragment: 16-bit, #mgp.dot_op
// (opIdx 0, kWidth 2) of the accumulator's encoding.
#b = #mgp.shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [0, 1]}>
#v3 = #mgp.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 8]}>
#a = #mgp.dot_op<{opIdx = 0, parent = #v3, kWidth = 1}>
func.func @tf32_a_in_registers(%a: tensor<64x32xf32, #a>, %b: !mgp.memdesc<32x64xf32, #b>, %c: tensor<64x64xf32, #v3>) {
  // expected-error @+1 {{an a in registers must be 16-bit in the #mgp.dot_op layout (opIdx 0, kWidth 2) of the accumulator's encoding}}
  %d = mgp.warp_group_dot %a, %b, %c {inputPrecision = tf32} : tensor<64x32xf32, #a> * !mgp.memdesc<32x64xf32, #b> -> tensor<64x64xf32, #v3>
  return
}
