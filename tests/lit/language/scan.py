# tl.cumsum / tl.cumprod / tl.associative_scan with a @jit combine function:
# mgp.scan with its combiner region, lowered with in-thread scans, lane
# shuffles and (several warps along the axis) shared memory.
# RUN: mgpc %s -k scans --signature "*fp32:16,*i32:16,1024" -emit=mlir | FileCheck %s
# RUN: mgpc %s -k scans --signature "*fp32:16,*i32:16,1024" -emit=mlir-gpu | FileCheck %s --check-prefix=GPU
# REQUIRES: ptxas
# RUN: mgpc %s -k scans --signature "*fp32:16,*i32:16,1024" -o %t.ptx
# RUN: %ptxas -arch=sm_90 %t.ptx -o %t.cubin
# RUN: FileCheck %s --check-prefix=PTX --input-file %t.ptx
# RUN: mgpc %s -k scans --signature "*fp32:16,*i32:16,16" --num-warps 1 -o %t1.ptx
# RUN: %ptxas -arch=sm_90 %t1.ptx -o %t1.cubin
# RUN: mgpc %s -k rows --signature "*fp32:16,64,128" -o %t2.ptx
# RUN: %ptxas -arch=sm_90 %t2.ptx -o %t2.cubin
import triton
import triton.language as tl


@triton.jit
def _combine_max(a, ia, b, ib):
    take = b > a
    return tl.where(take, b, a), tl.where(take, ib, ia)


@triton.jit
def scans(x_ptr, i_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    c = tl.cumsum(x, axis=0)
    r = tl.cumsum(x, axis=0, reverse=True)
    p = tl.cumprod(x, 0)
    m, i = tl.associative_scan((x, offs), 0, _combine_max)
    tl.store(x_ptr + offs, c + r + p + m)
    tl.store(i_ptr + offs, i + tl.cumsum(offs.to(tl.int8), 0))


@triton.jit
def rows(x_ptr, R: tl.constexpr, C: tl.constexpr):
    offs = tl.arange(0, R)[:, None] * C + tl.arange(0, C)[None, :]
    x = tl.load(x_ptr + offs)
    tl.store(x_ptr + offs, tl.cumsum(x, axis=1) + tl.cumsum(x, axis=0))

# CHECK-LABEL: func.func @scans
# CHECK: "mgp.scan"(%{{.*}}) <{axis = 0 : i32, reverse = false}>
# CHECK: arith.addf
# CHECK: mgp.scan.return
# CHECK: "mgp.scan"(%{{.*}}) <{axis = 0 : i32, reverse = true}>
# CHECK: arith.mulf
# CHECK: "mgp.scan"(%{{.*}}, %{{.*}}) <{axis = 0 : i32, reverse = false}>
# CHECK: arith.cmpf ogt
# CHECK: arith.select
# CHECK: arith.extsi {{.*}} : tensor<1024xi8> to tensor<1024xi32>
# GPU: #[[SCAN:.*]] = #mgp.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
# GPU: "mgp.scan"
# GPU: }) {{.*}}: (tensor<1024xf32, #[[SCAN]]>) -> tensor<1024xf32, #[[SCAN]]>
# PTX: .visible .entry scans(
# PTX: shfl.sync.idx.b32
# PTX: bar.sync 0
