# fp8 conversions by target: PTX's cvt from sm_89 on (PTX ISA 8.1 there);
# before, float8e5 in integer arithmetic (the byte is the top of an fp16:
# a shift widens it, rounding to nearest even with saturation narrows to
# it, from fp32 directly), and float8e4nv a located error, as Triton rejects
# the type there. sm_80 code is PTX ISA 7.4 (loads with an eviction
# priority).
# REQUIRES: ptxas
# RUN: mgpc %s -k narrow --signature "*fp32:16,*fp8e5:16" -DDST=tl.float8e5 --arch sm_80 -o %t.80.ptx
# RUN: %ptxas -arch=sm_80 %t.80.ptx -o %t.80.cubin
# RUN: FileCheck %s --check-prefix=SOFT --input-file %t.80.ptx
# RUN: mgpc %s -k narrow --signature "*fp16:16,*fp8e5:16" -DDST=tl.float8e5 --arch sm_86 -o %t.86.ptx
# RUN: %ptxas -arch=sm_86 %t.86.ptx -o %t.86.cubin
# RUN: FileCheck %s --check-prefix=SOFT16 --input-file %t.86.ptx
# RUN: mgpc %s -k widen --signature "*fp8e5:16,*fp32:16" --arch sm_80 -o %t.w80.ptx
# RUN: %ptxas -arch=sm_80 %t.w80.ptx -o %t.w80.cubin
# RUN: FileCheck %s --check-prefix=WIDEN --input-file %t.w80.ptx
# RUN: mgpc %s -k narrow --signature "*fp32:16,*fp8e4nv:16" -DDST=tl.float8e4nv --arch sm_89 -o %t.89.ptx
# RUN: %ptxas -arch=sm_89 %t.89.ptx -o %t.89.cubin
# RUN: FileCheck %s --check-prefix=ADA --input-file %t.89.ptx
# RUN: mgpc %s -k widen --signature "*fp8e4nv:16,*fp32:16" --arch sm_89 -o %t.w89.ptx
# RUN: %ptxas -arch=sm_89 %t.w89.ptx -o %t.w89.cubin
# RUN: FileCheck %s --check-prefix=ADAWIDEN --input-file %t.w89.ptx
# RUN: not mgpc %s -k widen --signature "*fp8e4nv:16,*fp32:16" --arch sm_80 -o %t.none.ptx 2>&1 | FileCheck %s --check-prefix=E4NV
# RUN: not test -e %t.none.ptx
# RUN: not mgpc %s -k scaled --signature "*u8:16,*u8:16,*fp32:16" --arch sm_86 -o %t.s.ptx 2>&1 | FileCheck %s --check-prefix=SCALED
import triton
import triton.language as tl


@triton.jit
def narrow(x_ptr, y_ptr, DST: tl.constexpr):
    o = tl.arange(0, 128)
    tl.store(y_ptr + o, tl.load(x_ptr + o).to(DST))

# SOFT: .version 7.4
# SOFT: .target sm_80
# SOFT-NOT: e5m2x2
# SOFT: bfe.u32 {{.*}}, 21, 1;
# SOFT: cvt.rni.f32.f32
# SOFT: min.u32 {{.*}}, 123;
# SOFT: selp.b16 {{.*}}, 127,
# SOFT16-NOT: e5m2x2
# SOFT16: and.b32 {{.*}}, 32767;
# SOFT16: min.u32 {{.*}}, 123;
# ADA: .version 8.1
# ADA: .target sm_89
# ADA: cvt.rn.satfinite.e4m3x2.f32


@triton.jit
def widen(x_ptr, y_ptr):
    o = tl.arange(0, 128)
    tl.store(y_ptr + o, tl.load(x_ptr + o).to(tl.float32))

# WIDEN-NOT: e5m2x2
# WIDEN: shl.b16 {{.*}}, 8;
# WIDEN: cvt.f32.f16
# ADAWIDEN: cvt.rn.f16x2.e4m3x2
# E4NV: fp8-by-target.py:[[@LINE-8]]:11: error: float8e4nv needs sm_89 or newer (compiling for sm_80): older GPUs have no e4m3 conversions, and Triton rejects the type there too; float8e5 works on every GPU
# E4NV-NEXT: def widen(x_ptr, y_ptr):
# E4NV-NEXT: {{^          \^}}


@triton.jit
def scaled(a_ptr, b_ptr, c_ptr):
    r = tl.arange(0, 32)
    a = tl.load(a_ptr + r[:, None] * 32 + r[None, :])
    b = tl.load(b_ptr + r[:, None] * 32 + r[None, :])
    c = tl.dot_scaled(a, None, "e4m3", b, None, "e5m2")
    tl.store(c_ptr + r[:, None] * 32 + r[None, :], c)
# SCALED: fp8-by-target.py:[[@LINE-2]]:32: error: dot_scaled's "e4m3" format needs sm_89 or newer (compiling for sm_86): older GPUs have no e4m3 conversions
