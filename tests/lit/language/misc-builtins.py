# tl.debug_barrier, tl.static_print, tl.assume, triton.next_power_of_2 on
# constexprs, gdc_wait / gdc_launch_dependents (no-ops), min/max on scalars.
# RUN: mgpc %s -k misc --signature "*fp32:16,i32,100" -emit=mlir 2>%t.err | FileCheck %s
# RUN: FileCheck %s --check-prefix=PRINT --input-file %t.err
# REQUIRES: ptxas
# RUN: mgpc %s -k misc --signature "*fp32:16,i32,100" -o %t.ptx
# RUN: %ptxas -arch=sm_90 %t.ptx -o %t.cubin
# RUN: FileCheck %s --check-prefix=PTX --input-file %t.ptx
import triton
import triton.language as tl


@triton.jit
def misc(x_ptr, n, N: tl.constexpr):
    BLOCK: tl.constexpr = triton.next_power_of_2(N)
    tl.static_print("BLOCK =", BLOCK, 0.5, (1, 2))
    tl.static_assert(BLOCK == 128)
    tl.extra.cuda.gdc_wait()
    tl.assume(n > 0)
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < min(n, N), other=0.0)
    tl.debug_barrier()
    hi = max(n, 1, N // 4)
    tl.store(x_ptr + offs, x + hi, mask=offs < N)
    tl.extra.cuda.gdc_launch_dependents()

# PRINT: BLOCK = 128 0.5 (1, 2)
# CHECK-LABEL: func.func @misc
# CHECK: arith.minsi %{{.*}}, %{{.*}} : i32
# CHECK: mgp.load
# CHECK: mgp.barrier
# CHECK: arith.maxsi
# CHECK: arith.maxsi
# PTX: bar.sync 0
