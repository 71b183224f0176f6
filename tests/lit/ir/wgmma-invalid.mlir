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
  // expected-error @+1 {{a and b must be K-contiguous shared buffers with rows of 32, 64 or 128 bytes in the matching swizzle}}
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
