// RUN: not mgp-opt %s -mgp-to-llvm 2>&1 | FileCheck %s

// Fewer than 4 bytes per copy (f16 without a vector width) cannot be a
// cp.async.
#b = #mgp.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#s = #mgp.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
module attributes {mgp.num_warps = 4 : i32, mgp.shared = 1024 : i32} {
  func.func @too_narrow(%q: tensor<16x32x!mgp.ptr<f16>, #b>) {
    %buf = mgp.local_alloc {mgp.allocation.offset = 0 : i32} : () -> !mgp.memdesc<16x32xf16, #s, mutable>
    // CHECK: error: 'mgp.async_copy_global_to_local' op cp.async needs groups of 4, 8 or 16 bytes
    mgp.async_copy_global_to_local %q, %buf : tensor<16x32x!mgp.ptr<f16>, #b> -> !mgp.memdesc<16x32xf16, #s, mutable>
    return
  }
}
