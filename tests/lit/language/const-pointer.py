# tl.const pointer parameters (Triton's `x: tl.const`, `*kfp32` in a
# signature): loads compile; a store or an atomic through one, directly, after
# pointer arithmetic, inside a helper, or through a block pointer or tensor
# descriptor made from it (store, atomic), is a located error.
# RUN: mgpc %s -k axpy --signature "*fp32:16,*fp32:16,fp32,i32,256" -emit=mlir | FileCheck %s
# RUN: mgpc %s -k copy --signature "*kfp32:16,*fp32:16,i32,256" -emit=mlir | FileCheck %s --check-prefix=SIGK
# RUN: not mgpc %s -k store_const --signature "*fp32,*fp32,i32,128" -emit=mlir 2>&1 | FileCheck %s --check-prefix=STORE
# RUN: not mgpc %s -k copy_back --signature "*kfp32,*fp32,i32,128" -emit=mlir 2>&1 | FileCheck %s --check-prefix=SIGSTORE
# RUN: not mgpc %s -k atomic_const --signature "*i32,*i32" -emit=mlir 2>&1 | FileCheck %s --check-prefix=ATOMIC
# RUN: not mgpc %s -k store_in_helper --signature "*fp32,128" -emit=mlir 2>&1 | FileCheck %s --check-prefix=HELPER
# RUN: not mgpc %s -k block_ptr_store --signature "*kfp32,*fp32" -emit=mlir 2>&1 | FileCheck %s --check-prefix=BLOCKPTR
# RUN: not mgpc %s -k desc_store --signature "*fp32,*fp32" -emit=mlir 2>&1 | FileCheck %s --check-prefix=DESC
# RUN: not mgpc %s -k desc_atomic --signature "*fp32" -emit=mlir 2>&1 | FileCheck %s --check-prefix=DESCATOMIC
# RUN: mgpc %s -k block_ptr_load --signature "*kfp32,*fp32" -emit=mlir | FileCheck %s --check-prefix=BLOCKLOAD
# REQUIRES: ptxas
# RUN: mgpc %s -k axpy --signature "*fp32:16,*fp32:16,fp32,i32,256" -o %t.ptx
# RUN: %ptxas -arch=sm_90 %t.ptx -o %t.cubin
import triton
import triton.language as tl


@triton.jit
def axpy(x_ptr: tl.const, y_ptr, a, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    y = tl.load(y_ptr + offs, mask=m)
    tl.store(y_ptr + offs, a * x + y, mask=m)

# CHECK-LABEL: func.func @axpy
# CHECK: mgp.store


@triton.jit
def copy(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)

# SIGK-LABEL: func.func @copy


@triton.jit
def store_const(x_ptr: tl.const, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(y_ptr + offs, mask=offs < n)
    tl.store(x_ptr + offs, x, mask=offs < n)
# STORE: const-pointer.py:[[@LINE-1]]:14: error: cannot store through 'x_ptr', a tl.const pointer (its data is read-only)


@triton.jit
def copy_back(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    p = x_ptr + 1
    tl.store(p + offs, tl.load(y_ptr + offs), mask=offs < n)
# SIGSTORE: const-pointer.py:[[@LINE-1]]:14: error: cannot store through 'x_ptr', a tl.const pointer (its data is read-only)


@triton.jit
def atomic_const(counts_ptr: tl.const, out_ptr):
    old = tl.atomic_add(counts_ptr, 1)
    tl.store(out_ptr, old)
# ATOMIC: const-pointer.py:[[@LINE-2]]:25: error: cannot atomic_add through 'counts_ptr', a tl.const pointer (its data is read-only)


@triton.jit
def _zero(ptr, BLOCK: tl.constexpr):
    tl.store(ptr + tl.arange(0, BLOCK), tl.zeros([BLOCK], tl.float32))
# HELPER: const-pointer.py:[[@LINE-1]]:14: error: cannot store through 'x_ptr', a tl.const pointer (its data is read-only)


@triton.jit
def store_in_helper(x_ptr: tl.const, BLOCK: tl.constexpr):
    _zero(x_ptr, BLOCK)


@triton.jit
def block_ptr_store(x_ptr, y_ptr):
    src = tl.make_block_ptr(x_ptr, (64, 64), (64, 1), (0, 0), (32, 32), (1, 0))
    x = tl.load(src, boundary_check=(0, 1))
    tl.store(src, x * 2.0, boundary_check=(0, 1))
# BLOCKPTR: const-pointer.py:[[@LINE-1]]:14: error: cannot store through 'x_ptr', a tl.const pointer (its data is read-only)


@triton.jit
def block_ptr_load(x_ptr, y_ptr):
    src = tl.make_block_ptr(x_ptr, (64, 64), (64, 1), (0, 0), (32, 32), (1, 0))
    dst = tl.make_block_ptr(y_ptr, (64, 64), (64, 1), (0, 0), (32, 32), (1, 0))
    tl.store(dst, tl.load(src, boundary_check=(0, 1)), boundary_check=(0, 1))
# BLOCKLOAD-LABEL: func.func @block_ptr_load
# BLOCKLOAD: mgp.store


@triton.jit
def desc_store(x_ptr: tl.const, y_ptr):
    desc = tl.make_tensor_descriptor(x_ptr, [64, 64], [64, 1], [32, 32])
    desc.store([0, 0], desc.load([32, 32]))
# DESC: const-pointer.py:[[@LINE-1]]:5: error: cannot store through 'x_ptr', a tl.const pointer (its data is read-only)


@triton.jit
def desc_atomic(x_ptr: tl.const):
    desc = tl.make_tensor_descriptor(x_ptr, [64, 64], [64, 1], [32, 32])
    desc.atomic_add([0, 0], tl.full((32, 32), 1.0, tl.float32))
# DESCATOMIC: const-pointer.py:[[@LINE-1]]:5: error: cannot atomic_add through 'x_ptr', a tl.const pointer (its data is read-only)
