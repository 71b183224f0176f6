# RUN: not mgpc %s -emit=ast 2>&1 | FileCheck --strict-whitespace %s
# Error: a tab-indented line inside a space-indented block.
# CHECK: {{^.*}}tabs-spaces.py:14:2: error: inconsistent use of tabs and spaces in indentation
# CHECK-NEXT: {{^}}        b = 2{{$}}
# CHECK-NEXT: {{^}}        ^{{$}}
import triton
import triton.language as tl


@triton.jit
def kernel(x_ptr, n, BLOCK: tl.constexpr):
    if n > 0:
        a = 1
	b = 2
