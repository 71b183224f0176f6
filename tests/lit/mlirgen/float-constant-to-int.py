# A float constant stored through an integer or bool pointer is converted at
# compile time as Triton's store converts it (fptosi; a bool pointer is
# stored as i8, so 0.5 stores 0): toward zero, truncated to the width; a value
# outside int64, which C++ cannot convert (the mlirgen fuzzer's 1e+50 into a
# bool pointer), saturates to the width's signed range as PTX's cvt.rzi does
# at run time (Triton: fptosi of the f64 constant, poison in LLVM).
# RUN: mgpc %s -k float_constants --signature "*i1,*i32,*i64" -emit=mlir | FileCheck %s
import triton
import triton.language as tl


@triton.jit
def float_constants(b_ptr, i_ptr, l_ptr):
    tl.store(b_ptr, 1e+50)
    tl.store(b_ptr + 1, 0.5)
    tl.store(b_ptr + 2, 0.0)
    tl.store(i_ptr, 1e+50)
    tl.store(i_ptr + 1, -1e+50)
    tl.store(i_ptr + 2, -2.75)
    tl.store(l_ptr, 1e+50)
    tl.store(l_ptr + 1, -1e+300)
    tl.store(l_ptr + 2, 3e+9)

# CHECK-LABEL: func.func @float_constants
# CHECK: mgp.store %{{.*}}, %true : !mgp.ptr<i1>
# CHECK: mgp.store %{{.*}}, %false : !mgp.ptr<i1>
# CHECK: mgp.store %{{.*}}, %false : !mgp.ptr<i1>
# CHECK: mgp.store %{{.*}}, %c2147483647_i32 : !mgp.ptr<i32>
# CHECK: mgp.store %{{.*}}, %c-2147483648_i32 : !mgp.ptr<i32>
# CHECK: mgp.store %{{.*}}, %c-2_i32 : !mgp.ptr<i32>
# CHECK: mgp.store %{{.*}}, %c9223372036854775807_i64 : !mgp.ptr<i64>
# CHECK: mgp.store %{{.*}}, %c-9223372036854775808_i64 : !mgp.ptr<i64>
# CHECK: mgp.store %{{.*}}, %c3000000000_i64 : !mgp.ptr<i64>
