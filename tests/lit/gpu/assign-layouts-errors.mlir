// RUN: mgp-opt %s -split-input-file -mgp-assign-layouts -verify-diagnostics

// Block shapes reaching the GPU passes must be powers of two.
func.func @not_pow2(%x: f32) -> tensor<100xf32> {
  // expected-error @+1 {{the GPU passes need power-of-two tensor shapes, got 'tensor<100xf32>'}}
  %t = mgp.splat %x : f32 -> tensor<100xf32>
  return %t : tensor<100xf32>
}
