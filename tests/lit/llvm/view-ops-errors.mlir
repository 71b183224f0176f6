// RUN: mgp-opt %s -mgp-to-llvm -verify-diagnostics

// A broadcast whose source layout is not the result's slice needs a
// convert_layout first.
#p = #mgp.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#q = #mgp.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>
module attributes {mgp.num_warps = 4 : i32} {
  func.func @bad(%x: tensor<1x32xi32, #q>) -> tensor<16x32xi32, #p> {
    // expected-error @+2 {{layouts of source and result need data movement between threads}}
    // expected-error @+1 {{failed to legalize operation 'mgp.broadcast'}}
    %b = mgp.broadcast %x : tensor<1x32xi32, #q> -> tensor<16x32xi32, #p>
    return %b : tensor<16x32xi32, #p>
  }
}
