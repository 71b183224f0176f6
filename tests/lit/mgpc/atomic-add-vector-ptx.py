# fp32 atomic adds on contiguous, 16-byte aligned elements: for sm_90 one
# `atom.global.add.v4.f32` per 4 elements (PTX ISA 8.1), masked per group;
# for sm_80 (no vector atom) one scalar atom per element. Integer atomics
# stay scalar. ptxas accepts all.
# REQUIRES: ptxas
# RUN: mgpc %s -k add_rows --arch=sm_90a --signature "*fp32:16,*fp32:16,i32:16,1024" -o %t.90.ptx
# RUN: %ptxas -arch=sm_90a %t.90.ptx -o %t.90.cubin
# RUN: FileCheck %s --check-prefix=SM90 --input-file %t.90.ptx
# RUN: mgpc %s -k add_rows --arch=sm_80 --signature "*fp32:16,*fp32:16,i32:16,1024" -o %t.80.ptx
# RUN: %ptxas -arch=sm_80 %t.80.ptx -o %t.80.cubin
# RUN: FileCheck %s --check-prefix=SM80 --input-file %t.80.ptx
# RUN: mgpc %s -k count --arch=sm_90a --signature "*i32:16,*i32:16,i32:16,1024" -o %t.int.ptx
# RUN: FileCheck %s --check-prefix=INT --input-file %t.int.ptx

# SM90: .version 8.1
# SM90: @%p{{[0-9]+}} atom.acq_rel.gpu.global.add.v4.f32 {%{{[a-z]+[0-9]+}}, %{{[a-z]+[0-9]+}}, %{{[a-z]+[0-9]+}}, %{{[a-z]+[0-9]+}}}, [ %rd{{[0-9]+}} + 0 ]
# SM90-NOT: atom.acq_rel.gpu.global.add.f32
# SM80-NOT: .v4.f32
# SM80: atom.acq_rel.gpu.global.add.f32
# INT-NOT: atom{{.*}}.v4
# INT: atom.acq_rel.gpu.global.add.u32

import triton
import triton.language as tl


@triton.jit
def add_rows(X, Out, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(X + tl.program_id(0) * n + offs, mask=mask, other=0.0)
    tl.atomic_add(Out + offs, x, mask=mask)


@triton.jit
def count(X, Out, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(X + tl.program_id(0) * n + offs, mask=mask, other=0)
    tl.atomic_add(Out + offs, x, mask=mask)
