# tl.inline_asm_elementwise: one asm per element (three operands, a scalar
# broadcast), four uint8 packed in one 32-bit register, two fp16 per
# register, two results (a tuple of dtypes), pointers with side effects,
# and the located errors of misuse.
# RUN: mgpc %s -k shift --signature "*i32:16,*i32:16,i32" -emit=mlir | FileCheck %s
# RUN: mgpc %s -k nibbles --signature "*u8:16,*u8:16" -emit=llvm | FileCheck %s --check-prefix=LLVM
# RUN: not mgpc %s -k too_few_outputs --signature "*u8:16" -emit=mlir 2>&1 | FileCheck %s --check-prefix=COUNT
# RUN: not mgpc %s -k runtime_asm --signature "*i32:16" -emit=mlir 2>&1 | FileCheck %s --check-prefix=STRING
# RUN: not mgpc %s -k bad_pack --signature "*i32:16" -emit=mlir 2>&1 | FileCheck %s --check-prefix=PACK
# RUN: not mgpc %s -k not_dtype --signature "*i32:16" -emit=mlir 2>&1 | FileCheck %s --check-prefix=DTYPE
# REQUIRES: ptxas
# RUN: mgpc %s -k shift --signature "*i32:16,*i32:16,i32" -o %t1.ptx
# RUN: %ptxas -arch=sm_90 %t1.ptx -o %t1.cubin
# RUN: FileCheck %s --check-prefix=PTX1 --input-file %t1.ptx
# RUN: mgpc %s -k nibbles --signature "*u8:16,*u8:16" -o %t2.ptx
# RUN: %ptxas -arch=sm_90 %t2.ptx -o %t2.cubin
# RUN: FileCheck %s --check-prefix=PTX2 --input-file %t2.ptx
# RUN: mgpc %s -k half2 --signature "*fp16:16,*fp16:16" --num-warps 4 -o %t3.ptx
# RUN: %ptxas -arch=sm_90 %t3.ptx -o %t3.cubin
# RUN: FileCheck %s --check-prefix=PTX3 --input-file %t3.ptx
# RUN: mgpc %s -k two_results --signature "*fp32:16,*fp32:16,*fp32:16" -o %t4.ptx
# RUN: %ptxas -arch=sm_90 %t4.ptx -o %t4.cubin
# RUN: FileCheck %s --check-prefix=PTX4 --input-file %t4.ptx
# RUN: mgpc %s -k store_in_asm --signature "*i8:16,*i8:16" -o %t5.ptx
# RUN: %ptxas -arch=sm_90 %t5.ptx -o %t5.cubin
# RUN: FileCheck %s --check-prefix=PTX5 --input-file %t5.ptx
import triton
import triton.language as tl


@triton.jit
def shift(x_ptr, y_ptr, n):
    offs = tl.arange(0, 128)
    x = tl.load(x_ptr + offs)
    y = tl.load(y_ptr + offs)
    z = tl.inline_asm_elementwise("shf.l.wrap.b32 $0, $1, $2, $3;", "=r, r, r, r",
                                  [x, y, n], dtype=tl.int32, is_pure=True, pack=1)
    tl.store(y_ptr + offs, z)

# CHECK-LABEL: func.func @shift
# CHECK: %[[N:.*]] = mgp.splat %arg2 : i32 -> tensor<128xi32>
# CHECK: mgp.inline_asm_elementwise "shf.l.wrap.b32 $0, $1, $2, $3;"(%{{.*}}, %{{.*}}, %[[N]]) {constraints = "=r, r, r, r", pack = 1 : i32, pure = true} : (tensor<128xi32>, tensor<128xi32>, tensor<128xi32>) -> tensor<128xi32>
# PTX1: shf.l.wrap.b32


@triton.jit
def nibbles(x_ptr, y_ptr):
    offs = tl.arange(0, 1024)
    x = tl.load(x_ptr + offs)
    y = tl.inline_asm_elementwise("and.b32 $0, $1, 0x0F0F0F0F;", "=r,r", [x],
                                  dtype=tl.uint8, is_pure=True, pack=4)
    tl.store(y_ptr + offs, y)

# Four bytes go in as one i32 and come back as one.
# LLVM-LABEL: define ptx_kernel void @nibbles
# LLVM: bitcast <4 x i8> %{{.*}} to i32
# LLVM: call i32 asm "and.b32 $0, $1, 0x0F0F0F0F;", "=r,r"(i32
# LLVM: bitcast i32 %{{.*}} to <4 x i8>
# PTX2: and.b32 {{.*}}, 0x0F0F0F0F;


@triton.jit
def half2(x_ptr, y_ptr):
    offs = tl.arange(0, 64)   # half a register pair per thread: padded
    x = tl.load(x_ptr + offs)
    y = tl.inline_asm_elementwise("add.rn.f16x2 $0, $1, $1;", "=r,r", [x],
                                  dtype=tl.float16, is_pure=True, pack=2)
    tl.store(y_ptr + offs, y)

# PTX3: add.rn.f16x2


@triton.jit
def two_results(x_ptr, s_ptr, c_ptr):
    offs = tl.arange(0, 256)
    x = tl.load(x_ptr + offs)
    s, c = tl.inline_asm_elementwise("sin.approx.f32 $0, $2; cos.approx.f32 $1, $2;",
                                     "=f,=f,f", [x], dtype=(tl.float32, tl.float32),
                                     is_pure=True, pack=1)
    tl.store(s_ptr + offs, s)
    tl.store(c_ptr + offs, c)

# PTX4: sin.approx.f32
# PTX4: cos.approx.f32


@triton.jit
def store_in_asm(x_ptr, y_ptr):
    offs = tl.arange(0, 128)
    # The result is unused: an asm with side effects stays.
    tl.inline_asm_elementwise("ld.global.b8 $0, [$1]; shl.b32 $0, $0, 3; st.global.b8 [$2], $0;",
                              "=r,l,l", [x_ptr + offs, y_ptr + offs], dtype=tl.int8,
                              is_pure=False, pack=1)

# PTX5: ld.global.b8
# PTX5: st.global.b8


@triton.jit
def too_few_outputs(x_ptr):
    offs = tl.arange(0, 128)
    x = tl.load(x_ptr + offs)
    y = tl.inline_asm_elementwise("mov.b32 $0, $1;", "=r,r,r", [x], dtype=tl.uint8,
                                  is_pure=True, pack=4)
# COUNT: inline-asm.py:[[@LINE-2]]:54: error: the constraints name 1 outputs and 2 inputs; with pack=4 these results and arguments take 1 output and 1 input registers (elements narrower than 32 bits share one)


@triton.jit
def runtime_asm(x_ptr):
    offs = tl.arange(0, 128)
    x = tl.load(x_ptr + offs)
    y = tl.inline_asm_elementwise(x, "=r,r", [x], dtype=tl.int32, is_pure=True, pack=1)
# STRING: inline-asm.py:[[@LINE-1]]:35: error: the asm of inline_asm_elementwise must be a constant string, got block <128xint32>


@triton.jit
def bad_pack(x_ptr):
    offs = tl.arange(0, 128)
    x = tl.load(x_ptr + offs)
    y = tl.inline_asm_elementwise("mov.b32 $0, $1;", "=r,r", [x], dtype=tl.int32,
                                  is_pure=True, pack=3)
# PACK: inline-asm.py:[[@LINE-1]]:54: error: pack must be 1, 2, 4, 8 or 16, got 3


@triton.jit
def not_dtype(x_ptr):
    offs = tl.arange(0, 128)
    x = tl.load(x_ptr + offs)
    y = tl.inline_asm_elementwise("mov.b32 $0, $1;", "=r,r", [x], dtype=(tl.int32, 3),
                                  is_pure=True, pack=1)
# DTYPE: inline-asm.py:[[@LINE-2]]:73: error: expected a dtype such as tl.int32, got constexpr int 3
