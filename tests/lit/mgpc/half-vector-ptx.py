# 16-bit and 8-bit elements vectorise to 16-byte accesses like fp32: a
# thread's 8 f16/bf16 (or 16 i8) consecutive elements move as one
# ld/st.global.v4.b32, masked (inline PTX under a predicate) or not (LLVM
# vector loads), and ptxas accepts the PTX for sm_90. The vector width needs
# the mask to be constant over the group, i.e. n divisible by the width
# (the runtime specializes `i32:16`); with an `i32` n of unknown divisibility
# every dtype, fp32 included, falls back to one access per element, as in
# Triton.
# REQUIRES: ptxas
# RUN: mgpc %s -k scale_relu --signature "*fp16:16,*fp16:16,i32:16,1024" -o %t.f16.ptx
# RUN: %ptxas -arch=sm_90 %t.f16.ptx -o %t.f16.cubin
# RUN: FileCheck %s --check-prefix=HALF --input-file %t.f16.ptx
# RUN: mgpc %s -k scale_relu --signature "*bf16:16,*bf16:16,i32:16,1024" -o %t.bf16.ptx
# RUN: %ptxas -arch=sm_90 %t.bf16.ptx -o %t.bf16.cubin
# RUN: FileCheck %s --check-prefix=HALF --input-file %t.bf16.ptx
# RUN: mgpc %s -k scale_relu --signature "*i8:16,*i8:16,i32:16,2048" -o %t.i8.ptx
# RUN: %ptxas -arch=sm_90 %t.i8.ptx -o %t.i8.cubin
# RUN: FileCheck %s --check-prefix=BYTE --input-file %t.i8.ptx
# RUN: mgpc %s -k copy_exact --signature "*fp16:16,*fp16:16,1024" -o %t.exact.ptx
# RUN: %ptxas -arch=sm_90 %t.exact.ptx -o %t.exact.cubin
# RUN: FileCheck %s --check-prefix=EXACT --input-file %t.exact.ptx
# RUN: mgpc %s -k scale_relu --signature "*fp16:16,*fp16:16,i32,1024" | FileCheck %s --check-prefix=SCALAR
# RUN: mgpc %s -k scale_relu --signature "*fp32:16,*fp32:16,i32,1024" | FileCheck %s --check-prefix=SCALAR

# 1024 elements over 128 threads: 8 per thread, one 16-byte vector each way.
# HALF: .visible .entry scale_relu(
# HALF-NOT: ld.global.b16
# HALF: @%p{{[0-9]+}} ld.global.v4.b32 { %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}} }
# HALF-NOT: ld.global
# HALF: cvt.rn.{{b?f16}}x2.f32
# HALF: @%p{{[0-9]+}} st.global.v4.b32 [ %rd{{[0-9]+}} + 0 ], { %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}} }
# HALF-NOT: st.global

# BYTE: .visible .entry scale_relu(
# BYTE-NOT: ld.global.u8
# BYTE: @%p{{[0-9]+}} ld.global.v4.b32
# BYTE-NOT: ld.global
# BYTE: @%p{{[0-9]+}} st.global.v4.b32
# BYTE-NOT: st.global

# EXACT: .visible .entry copy_exact(
# EXACT: ld.global.v4.b32 {{.*}}[%rd
# EXACT-NOT: ld.global
# EXACT: st.global.v4.b32
# EXACT-NOT: st.global

# SCALAR: .visible .entry scale_relu(
# SCALAR-COUNT-8: @%p{{[0-9]+}} ld.global.b{{16|32}} %r
# SCALAR-NOT: ld.global.v

import mgp

@mgp.jit
def scale_relu(x_ptr, y_ptr, n, BLOCK: mgp.constexpr):
    offs = mgp.program_id(0) * BLOCK + mgp.arange(0, BLOCK)
    m = offs < n
    x = mgp.load(x_ptr + offs, mask=m, other=0.0)
    y = mgp.maximum(x.to(mgp.float32) * 2.0, 0.0)
    mgp.store(y_ptr + offs, y, mask=m)

@mgp.jit
def copy_exact(x_ptr, y_ptr, BLOCK: mgp.constexpr):
    offs = mgp.program_id(0) * BLOCK + mgp.arange(0, BLOCK)
    mgp.store(y_ptr + offs, mgp.load(x_ptr + offs) * 2)
