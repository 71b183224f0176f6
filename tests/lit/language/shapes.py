# join / split / interleave / cat / flip / histogram compose from reshape,
# trans, expand_dims and reductions; a reshape whose result layout wants
# elements other threads hold goes through shared memory (a scratch buffer,
# a barrier), so every block size compiles and passes ptxas. The join's
# [64, 2] keeps each pair in lanes that its flattening to [128] can relabel
# (its default is built for its own shape, not for the [64, 8] of the
# histogram's comparisons), so interleave's reshape needs no scratch.
# RUN: mgpc %s -k shapes --signature "*fp32:16,*fp32:16,*fp32:16,64" -emit=mlir | FileCheck %s
# RUN: mgpc %s -k shapes --signature "*fp32:16,*fp32:16,*fp32:16,64" -emit=mlir-gpu | FileCheck %s --check-prefix=GPU
# REQUIRES: ptxas
# RUN: mgpc %s -k shapes --signature "*fp32:16,*fp32:16,*fp32:16,64" -o %t64.ptx
# RUN: %ptxas -arch=sm_90a %t64.ptx -o %t64.cubin
# RUN: mgpc %s -k shapes --signature "*fp32:16,*fp32:16,*fp32:16,1024" --num-warps 8 -o %t1024.ptx
# RUN: %ptxas -arch=sm_90a %t1024.ptx -o %t1024.cubin
# RUN: mgpc %s -k flip2d --signature "*fp32:16,16,32" -o %tflip.ptx
# RUN: %ptxas -arch=sm_90 %tflip.ptx -o %tflip.cubin
import triton
import triton.language as tl


# CHECK-LABEL: func.func @shapes
# CHECK: mgp.reshape %{{.*}} : tensor<64x2xf32> -> tensor<128xf32>
# GPU-LABEL: func.func @shapes
# GPU: mgp.reshape %{{[0-9]+}} : tensor<64x2xf32, #{{.*}}> -> tensor<128xf32, #{{.*}}>
@triton.jit
def shapes(x_ptr, y_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    y = tl.load(y_ptr + offs)
    j = tl.join(x, y)
    a, b = tl.split(j)
    tl.store(out_ptr + offs, a - x + b)
    il = tl.interleave(x, y)
    tl.store(out_ptr + BLOCK + tl.arange(0, 2 * BLOCK), il)
    c = tl.cat(x, y, can_reorder=True)
    tl.store(out_ptr + 3 * BLOCK + tl.arange(0, 2 * BLOCK), c)
    tl.store(out_ptr + 5 * BLOCK + offs, tl.flip(x, 0))
    h = tl.histogram((tl.abs(x) * 3.0).to(tl.int32) % 8, 8)
    tl.store(out_ptr + 6 * BLOCK + tl.arange(0, 8), h.to(tl.float32))


@triton.jit
def flip2d(x_ptr, R: tl.constexpr, C: tl.constexpr):
    offs = tl.arange(0, R)[:, None] * C + tl.arange(0, C)[None, :]
    x = tl.load(x_ptr + offs)
    tl.store(x_ptr + offs, tl.flip(x, 1) + tl.flip(x, 0))
