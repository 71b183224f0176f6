# RUN: mgpc %s -emit=ast | FileCheck %s
# Host code in a .py file: imports and module constants are recorded; host
# code that the kernel language cannot express is skipped by indentation and
# listed with the reason, and the kernels around it still parse.
import triton
import triton.language as tl
from mgp import empty, zeros as z

BLOCK: tl.constexpr = 256
SCALE = 0.5


class Launcher:
    def __call__(self, *args):
        return {k: v for k, v in args}


def host(x, **kwargs):
    y = empty(x.shape)
    return y


@triton.jit
def kernel(x_ptr, n):
    pid = tl.program_id(0)


def main():
    with open("log") as f:
        print("""
unindented text ( inside a string
""", file=f)


if __name__ == "__main__":
    main()

# CHECK:      Import triton @5:8
# CHECK-NEXT: Import triton.language as tl @6:8
# CHECK-NEXT: ImportFrom mgp import empty @7:17
# CHECK-NEXT: ImportFrom mgp import zeros as z @7:24
# CHECK-NEXT: ModuleConstant BLOCK @9:1
# CHECK-NEXT:   annotation: Attribute constexpr @9:8
# CHECK-NEXT:     Name tl @9:8
# CHECK-NEXT:   value: Constant int 256 @9:23
# CHECK-NEXT: ModuleConstant SCALE @10:1
# CHECK-NEXT:   value: Constant float 0.5 @10:9
# CHECK-NEXT: FunctionDef kernel kernel @24:1
# CHECK:      Skipped @13:1
# CHECK-NEXT:   reason: {{.*}}ast-host-code.py:13:1: error: 'class' statements are not supported
# CHECK-NEXT: Skipped function host @18:1
# CHECK-NEXT:   reason: {{.*}}ast-host-code.py:18:13: error: '*args', '**kwargs' and '/' or '*' parameter markers are not supported
# CHECK-NEXT: Skipped function main @28:1
# CHECK-NEXT:   reason: {{.*}}ast-host-code.py:29:5: error: 'with' statements are not supported
# CHECK-NOT:  Skipped
