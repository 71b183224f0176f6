# --maxnreg N (Triton's maxnreg) puts `.maxnreg N` after the kernel's
# `.maxntid`; without it there is no limit. ptxas then keeps the kernel
# within N registers. Out-of-range values are refused.
# REQUIRES: ptxas
# RUN: mgpc %s -k add --signature "*fp32:16,*fp32:16,*fp32:16,1024" --num-warps 4 --maxnreg 40 -o %t.ptx
# RUN: FileCheck %s --check-prefix=LIMIT --input-file %t.ptx
# RUN: %ptxas -arch=sm_90 -v %t.ptx -o %t.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
# RUN: mgpc %s -k add --signature "*fp32:16,*fp32:16,*fp32:16,1024" -o %t.free.ptx
# RUN: not grep -n maxnreg %t.free.ptx
# RUN: not mgpc %s -k add --signature "*fp32:16,*fp32:16,*fp32:16,1024" --maxnreg 300 -o %t.bad.ptx 2>&1 | FileCheck %s --check-prefix=BAD
# RUN: not test -e %t.bad.ptx

# LIMIT: .maxntid 128, 1, 1
# LIMIT-NEXT: .maxnreg 40
# PTXAS: Used {{([1-9]|[1-3][0-9]|40)}} registers
# BAD: error: maxnreg must be 0 (no limit) or in 16..255, got 300

import triton
import triton.language as tl


@triton.jit
def add(x_ptr, y_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs) + tl.load(y_ptr + offs))
