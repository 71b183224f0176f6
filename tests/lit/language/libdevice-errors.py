# Misuse of libdevice functions is a located error.
# RUN: not mgpc %s -k bad_type --signature "*fp32,*i32" -emit=mlir 2>&1 | FileCheck %s --check-prefix=TYPE --strict-whitespace
# RUN: not mgpc %s -k unknown --signature "*fp32" -emit=mlir 2>&1 | FileCheck %s --check-prefix=UNKNOWN --strict-whitespace
# RUN: not mgpc %s -k arity --signature "*fp32" -emit=mlir 2>&1 | FileCheck %s --check-prefix=ARITY
import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def bad_type(x_ptr, y_ptr):
    i = tl.load(y_ptr)
    tl.store(x_ptr, libdevice.clz(tl.load(x_ptr)) + i)
# TYPE: libdevice-errors.py:13:21: error: libdevice.clz takes (int32) or (int64), got (fp32)
# TYPE-NEXT: {{^}}    tl.store(x_ptr, libdevice.clz(tl.load(x_ptr)) + i){{$}}
# TYPE-NEXT: {{^}}                    ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~{{$}}


@triton.jit
def unknown(x_ptr):
    tl.store(x_ptr, libdevice.no_such(tl.load(x_ptr)))
# UNKNOWN: libdevice-errors.py:21:31: error: 'no_such' is not a libdevice function
# UNKNOWN-NEXT: {{^}}    tl.store(x_ptr, libdevice.no_such(tl.load(x_ptr))){{$}}


@triton.jit
def arity(x_ptr):
    tl.store(x_ptr, libdevice.atan2(tl.load(x_ptr)))
# ARITY: libdevice-errors.py:28:21: error: libdevice.atan2 takes 2 arguments, got 1
