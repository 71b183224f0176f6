// RUN: mgp-opt %s -split-input-file -mgp-assign-layouts -mgp-coalesce="vector-atomics=true" | FileCheck %s
// RUN: mgp-opt %s -split-input-file -mgp-assign-layouts -mgp-coalesce | FileCheck %s --check-prefix=NOVEC

// An fp16 max on consecutive elements of a pointer that may be any address:
// the layout of the contiguity (8 halves a thread), no provable vector
// (vector_width 1), and a width its lowering checks at run time.
// CHECK: #[[H8:.*]] = #mgp.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: func.func @half_max_unaligned
// CHECK: mgp.atomic_rmw {{.*}} {kind = #mgp<atomic_rmw_kind fmax>, mgp.checked_vector_width = 8 : i32, mgp.vector_width = 1 : i32, {{.*}}} : tensor<1024x!mgp.ptr<f16>, #[[H8]]>
// NOVEC-LABEL: func.func @half_max_unaligned
// NOVEC-NOT: vector_width
// NOVEC: return
func.func @half_max_unaligned(%x: !mgp.ptr<f16>, %v: tensor<1024xf16>) {
  %r = mgp.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32>
  %xs = mgp.splat %x : !mgp.ptr<f16> -> tensor<1024x!mgp.ptr<f16>>
  %p = mgp.addptr %xs, %r : tensor<1024x!mgp.ptr<f16>>, tensor<1024xi32>
  %old = mgp.atomic_rmw %p, %v {kind = #mgp<atomic_rmw_kind fmax>, scope = #mgp<scope gpu>, sem = #mgp<sem relaxed>} : tensor<1024x!mgp.ptr<f16>>
  return
}

// -----

// Aligned and unmasked: the vector is proven, nothing to check.
// CHECK-LABEL: func.func @half_max_aligned
// CHECK: mgp.atomic_rmw {{.*}} {kind = #mgp<atomic_rmw_kind fmax>, mgp.vector_width = 8 : i32, {{.*}}}
// CHECK-NOT: checked_vector_width
// CHECK: return
func.func @half_max_aligned(%x: !mgp.ptr<f16> {mgp.divisibility = 16 : i32}, %v: tensor<1024xf16>) {
  %r = mgp.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32>
  %xs = mgp.splat %x : !mgp.ptr<f16> -> tensor<1024x!mgp.ptr<f16>>
  %p = mgp.addptr %xs, %r : tensor<1024x!mgp.ptr<f16>>, tensor<1024xi32>
  %old = mgp.atomic_rmw %p, %v {kind = #mgp<atomic_rmw_kind fmax>, scope = #mgp<scope gpu>, sem = #mgp<sem relaxed>} : tensor<1024x!mgp.ptr<f16>>
  return
}

// -----

// An aligned bf16 min under a mask whose constancy is unknown (a runtime
// bound): no provable vector, a checked one of 8.
// CHECK-LABEL: func.func @bf16_min_masked
// CHECK: mgp.atomic_rmw {{.*}} {kind = #mgp<atomic_rmw_kind fmin>, mgp.checked_vector_width = 8 : i32, mgp.vector_width = 1 : i32, {{.*}}}
func.func @bf16_min_masked(%x: !mgp.ptr<bf16> {mgp.divisibility = 16 : i32}, %n: i32, %v: tensor<1024xbf16>) {
  %r = mgp.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32>
  %ns = mgp.splat %n : i32 -> tensor<1024xi32>
  %m = arith.cmpi slt, %r, %ns : tensor<1024xi32>
  %xs = mgp.splat %x : !mgp.ptr<bf16> -> tensor<1024x!mgp.ptr<bf16>>
  %p = mgp.addptr %xs, %r : tensor<1024x!mgp.ptr<bf16>>, tensor<1024xi32>
  %old = mgp.atomic_rmw %p, %v, %m {kind = #mgp<atomic_rmw_kind fmin>, scope = #mgp<scope gpu>, sem = #mgp<sem relaxed>} : tensor<1024x!mgp.ptr<bf16>>
  return
}

// -----

// An fp32 add has a scalar atom: unaligned, it stays one element a thread,
// unchecked.
// CHECK: #[[F1:.*]] = #mgp.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: func.func @float_add_unaligned
// CHECK: mgp.atomic_rmw {{.*}} {kind = #mgp<atomic_rmw_kind fadd>, mgp.vector_width = 1 : i32, {{.*}}} : tensor<1024x!mgp.ptr<f32>, #[[F1]]>
// CHECK-NOT: checked_vector_width
// CHECK: return
func.func @float_add_unaligned(%x: !mgp.ptr<f32>, %v: tensor<1024xf32>) {
  %r = mgp.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32>
  %xs = mgp.splat %x : !mgp.ptr<f32> -> tensor<1024x!mgp.ptr<f32>>
  %p = mgp.addptr %xs, %r : tensor<1024x!mgp.ptr<f32>>, tensor<1024xi32>
  %old = mgp.atomic_rmw %p, %v {kind = #mgp<atomic_rmw_kind fadd>, scope = #mgp<scope gpu>, sem = #mgp<sem relaxed>} : tensor<1024x!mgp.ptr<f32>>
  return
}
