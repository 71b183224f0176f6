# A None signature entry is an absent optional pointer, as Triton specializes
# None: `b_ptr is not None` folds, so the kernel loads only x (two scalar loads
# a thread) and with a pointer x and the bias. None where the
# kernel dereferences it is a located error.
# RUN: mgpc %s -k bias_add --signature "*fp32:16,None,*fp32:16,i32,256" -o %t.none.ptx
# RUN: %ptxas -arch=sm_90 %t.none.ptx -o %t.none.cubin
# RUN: FileCheck %s --check-prefix=NONE --input-file %t.none.ptx
# RUN: mgpc %s -k bias_add --signature "*fp32:16,*fp32:16,*fp32:16,i32,256" -o %t.bias.ptx
# RUN: FileCheck %s --check-prefix=BIAS --input-file %t.bias.ptx
# RUN: not mgpc %s -k always_loads --signature "*fp32:16,None,*fp32:16,i32,256" 2>&1 | FileCheck %s --check-prefix=ERR
# NONE: .visible .entry bias_add(
# NONE-COUNT-2: ld.global
# NONE-NOT: ld.global
# BIAS: .visible .entry bias_add(
# BIAS-COUNT-4: ld.global
# BIAS-NOT: ld.global
# ERR: none-constexpr-ptx.py:[[@LINE+20]]:{{[0-9]+}}: error:
import triton
import triton.language as tl


@triton.jit
def bias_add(x_ptr, b_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    if b_ptr is not None:
        x += tl.load(b_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x, mask=mask)


@triton.jit
def always_loads(x_ptr, b_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    x += tl.load(b_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x, mask=mask)
