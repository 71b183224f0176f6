// RUN: mgp-opt %s | mgp-opt | FileCheck %s

// CHECK-LABEL: func @pid
func.func @pid() -> i32 {
  // CHECK: mgp.program_id 1 : i32
  %0 = mgp.program_id 1 : i32
  return %0 : i32
}
