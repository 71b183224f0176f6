// RUN: mgp-opt %s -split-input-file -mgp-unroll-static -canonicalize -verify-diagnostics | FileCheck %s

// CHECK-LABEL: func @unroll
// CHECK-NOT: scf.for
// x + 0 + 1 + 2, folded by the canonicalizer after unrolling:
// CHECK: %[[C3:.*]] = arith.constant 3 : i32
// CHECK: %[[C:.*]] = arith.addi %arg0, %[[C3]]
// CHECK: return %[[C]]
func.func @unroll(%x: i32) -> i32 {
  %lb = arith.constant 0 : i32
  %ub = arith.constant 3 : i32
  %st = arith.constant 1 : i32
  %r = scf.for %i = %lb to %ub step %st iter_args(%acc = %x) -> (i32) : i32 {
    %n = arith.addi %acc, %i : i32
    scf.yield %n : i32
  } {mgp.static_range}
  return %r : i32
}

// -----

// Loops without the attribute stay.
// CHECK-LABEL: func @keep
// CHECK: scf.for
func.func @keep(%x: i32) -> i32 {
  %lb = arith.constant 0 : i32
  %ub = arith.constant 3 : i32
  %st = arith.constant 1 : i32
  %r = scf.for %i = %lb to %ub step %st iter_args(%acc = %x) -> (i32) : i32 {
    %n = arith.addi %acc, %i : i32
    scf.yield %n : i32
  }
  return %r : i32
}

// -----

func.func @dynamic(%x: i32, %n: i32) -> i32 {
  %lb = arith.constant 0 : i32
  %st = arith.constant 1 : i32
  // expected-error @+1 {{static_range loop needs constant bounds and step}}
  %r = scf.for %i = %lb to %n step %st iter_args(%acc = %x) -> (i32) : i32 {
    %m = arith.addi %acc, %i : i32
    scf.yield %m : i32
  } {mgp.static_range}
  return %r : i32
}
