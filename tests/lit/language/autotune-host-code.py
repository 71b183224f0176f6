# Host code around kernels that the front end must parse and ignore:
# comprehensions in autotune configs, heuristics with a dict of lambdas,
# `**` arguments, module-level try/with/raise, configs built at module level.
# RUN: mgpc %s -emit=ast | FileCheck %s --check-prefix=AST
# RUN: mgpc %s -k scale_kernel --signature "*fp32:16,*fp32:16,i32:16,1024,True" -emit=mlir | FileCheck %s
import itertools

import triton
import triton.language as tl

try:
    import torch
except ImportError:
    raise RuntimeError("needs torch")

CONFIGS = [
    triton.Config({"BLOCK": b}, num_warps=w, num_stages=s)
    for b, w in itertools.product([256, 512, 1024], [4, 8])
    for s in (1, 2) if b * w <= 8192
]
EXTRA = {"num_ctas": 1}
BLOCKS = {k: 2 * v for k, v in {"a": 1}.items()}
SEEN = {b for b in (1, 2)}


@triton.autotune(
    configs=[triton.Config({"BLOCK": 2**i}, num_warps=4, **EXTRA) for i in range(8, 11)],
    key=["n"],
)
@triton.heuristics({
    "EVEN": lambda args: args["n"] % args["BLOCK"] == 0,
    "NUM": lambda args: triton.next_power_of_2(args["n"]),
})
@triton.jit
def scale_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr, EVEN: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    if EVEN:
        tl.store(y_ptr + offs, tl.load(x_ptr + offs) * 2.0)
    else:
        tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) * 2.0, mask=offs < n)


def launch(x, y):
    with torch.cuda.device(x.device):
        scale_kernel[(triton.cdiv(x.numel(), 1024),)](x, y, x.numel())

# AST: ModuleConstant CONFIGS
# AST-NEXT: value: ListComp
# AST: FunctionDef scale_kernel kernel
# AST-NEXT: Decorator
# AST-NEXT: Call
# AST: ListComp
# AST: DoubleStarred
# AST: Decorator
# AST: Dict
# AST: Lambda
# AST: Decorator jit
# AST-NOT: Skipped function scale_kernel

# CHECK-LABEL: func.func @scale_kernel
# CHECK-NOT: arith.cmpi
# CHECK: mgp.store
