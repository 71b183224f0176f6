# Helpers imported from other modules: a relative import of a sibling module
# (which itself imports a constant relatively), an absolute import of a
# package module found through -I, and a module alias.
# RUN: mgpc %s -k act_kernel -I %S/Inputs --signature "*fp32:16,*fp32:16,i32,512" -emit=mlir | FileCheck %s
# RUN: not mgpc %s -k act_kernel --signature "*fp32:16,*fp32:16,i32,512" -emit=mlir 2>&1 | FileCheck %s --check-prefix=NOPATH
# RUN: not mgpc %s -k missing_name -I %S/Inputs --signature "*fp32" -emit=mlir 2>&1 | FileCheck %s --check-prefix=NONAME
# REQUIRES: ptxas
# RUN: mgpc %s -k act_kernel -I %S/Inputs --signature "*fp32:16,*fp32:16,i32,512" -o %t.ptx
# RUN: %ptxas -arch=sm_90 %t.ptx -o %t.cubin
import triton
import triton.language as tl

from .Inputs.activations import gelu_tanh
from pkg.ops.utils import exp
import pkg.ops.utils as U
from pkg.ops.utils import not_there


@triton.jit
def act_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    y = gelu_tanh(x) + exp(x) + U.silu(x)
    tl.store(y_ptr + offs, y, mask=offs < n)


@triton.jit
def missing_name(x_ptr):
    tl.store(x_ptr, not_there(1.0))

# CHECK-LABEL: func.func @act_kernel
# CHECK-DAG: arith.constant dense<0.797884583> : tensor<512xf32>
# CHECK-DAG: mgp.extern_elementwise "__nv_expf"
# CHECK-DAG: math.exp
# NOPATH: import-helpers.py:23:24: error: cannot find module 'pkg.ops.utils' that 'exp' is imported from (searched {{.*}}; add the folder that holds it with -I)
# NONAME: import-helpers.py:29:21: error: module 'pkg.ops.utils' ({{.*}}utils.py) has no function, constant or import named 'not_there'
