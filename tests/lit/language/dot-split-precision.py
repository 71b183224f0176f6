# tl.dot's split-precision fp32 algorithms (Triton's input_precision values):
# "tf32x3" splits each operand into a tf32-rounded big part and the rest and
# adds three tf32 products, small parts first, NaNs of the small sum zeroed;
# "bf16x3" / "bf16x6" split into 2 / 3 bf16 parts and add 3 / 6 products.
# The parts share operands, so at sm_90a several wgmma dots read one shared
# buffer. An unknown precision is a located error.
# RUN: mgpc %s -k dot_split --signature "*fp32,*fp32,*fp32" -D PRECISION=tf32x3 -D BLOCK=32 -emit=mlir | FileCheck %s --check-prefix=TF32X3
# RUN: mgpc %s -k dot_split --signature "*fp32,*fp32,*fp32" -D PRECISION=bf16x3 -D BLOCK=32 -emit=mlir | FileCheck %s --check-prefix=BF16X3
# RUN: mgpc %s -k dot_split --signature "*fp32,*fp32,*fp32" -D PRECISION=bf16x6 -D BLOCK=32 -emit=mlir | FileCheck %s --check-prefix=BF16X6
# RUN: not mgpc %s -k dot_split --signature "*fp32,*fp32,*fp32" -D PRECISION=tf64 -D BLOCK=32 -emit=mlir 2>&1 | FileCheck %s --check-prefix=ERR
# REQUIRES: ptxas
# RUN: mgpc %s -k dot_split --signature "*fp32,*fp32,*fp32" -D PRECISION=bf16x6 -D BLOCK=64 --arch sm_90a -o %t6.ptx && %ptxas -arch=sm_90a %t6.ptx -o %t6.cubin
# RUN: FileCheck %s --check-prefix=WGMMA < %t6.ptx
# RUN: mgpc %s -k dot_split --signature "*fp32,*fp32,*fp32" -D PRECISION=tf32x3 -D BLOCK=64 --arch sm_90a -o %t3.ptx && %ptxas -arch=sm_90a %t3.ptx -o %t3.cubin
# RUN: mgpc %s -k dot_split --signature "*fp32,*fp32,*fp32" -D PRECISION=bf16x3 -D BLOCK=64 --arch sm_80 -o %t8.ptx && %ptxas -arch=sm_80 %t8.ptx -o %t8.cubin
import triton
import triton.language as tl


@triton.jit
def dot_split(a_ptr, b_ptr, c_ptr, PRECISION: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    a = tl.load(a_ptr + offs[:, None] * BLOCK + offs[None, :])
    b = tl.load(b_ptr + offs[:, None] * BLOCK + offs[None, :])
    c = tl.dot(a, b, input_precision=PRECISION)
    # ERR: dot-split-precision.py:[[@LINE-1]]:38: error: input_precision must be one of "tf32", "tf32x3", "ieee", "bf16x3" or "bf16x6", got string 'tf64'
    tl.store(c_ptr + offs[:, None] * BLOCK + offs[None, :], c)

# TF32X3-LABEL: func.func @dot_split
# TF32X3: %[[A:.*]] = mgp.load
# TF32X3: %[[B:.*]] = mgp.load
# TF32X3: %[[ABITS:.*]] = arith.bitcast %[[A]] : tensor<32x32xf32> to tensor<32x32xi32>
# TF32X3: arith.addi %[[ABITS]], %{{.*}} : tensor<32x32xi32>
# TF32X3: arith.andi
# TF32X3: %[[ABIG:.*]] = arith.select
# TF32X3: %[[ASMALL:.*]] = arith.subf %[[A]], %[[ABIG]]
# TF32X3: %[[BBIG:.*]] = arith.select
# TF32X3: %[[BSMALL:.*]] = arith.subf %[[B]], %[[BBIG]]
# TF32X3: %[[D1:.*]] = mgp.dot %[[ASMALL]], %[[BBIG]], %{{.*}} {inputPrecision = tf32}
# TF32X3: %[[D2:.*]] = mgp.dot %[[ABIG]], %[[BSMALL]], %[[D1]] {inputPrecision = tf32}
# TF32X3: %[[NAN:.*]] = arith.cmpf uno, %[[D2]], %[[D2]]
# TF32X3: %[[Z:.*]] = arith.select %[[NAN]], %{{.*}}, %[[D2]]
# TF32X3: %[[D3:.*]] = mgp.dot %[[ABIG]], %[[BBIG]], %[[Z]] {inputPrecision = tf32}
# TF32X3: arith.addf %[[D3]]

# BF16X3-LABEL: func.func @dot_split
# BF16X3: %[[AHI:.*]] = arith.truncf %{{.*}} : tensor<32x32xf32> to tensor<32x32xbf16>
# BF16X3: %[[AHI32:.*]] = arith.extf %[[AHI]]
# BF16X3: %[[AREST:.*]] = arith.subf %{{.*}}, %[[AHI32]]
# BF16X3: %[[AMID:.*]] = arith.truncf %[[AREST]]
# BF16X3: %[[BHI:.*]] = arith.truncf
# BF16X3: %[[BMID:.*]] = arith.truncf
# BF16X3: %[[D1:.*]] = mgp.dot %[[AMID]], %[[BHI]]
# BF16X3: %[[D2:.*]] = mgp.dot %[[AHI]], %[[BMID]], %[[D1]]
# BF16X3: arith.cmpf uno, %[[D2]], %[[D2]]
# BF16X3: mgp.dot %[[AHI]], %[[BHI]]
# BF16X3-NOT: mgp.dot

# BF16X6-COUNT-6: mgp.dot {{.*}} : tensor<32x32xbf16> * tensor<32x32xbf16> -> tensor<32x32xf32>
# BF16X6-NOT: mgp.dot

# WGMMA-COUNT-24: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16
