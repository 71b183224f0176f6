# Atomics: add/max/min/and/or/xor/xchg/cas with masks, sem and scope, the old
# values used (shared through scratch where the layout replicates), float
# max/min through integer atomics on the bits, and located errors.
# RUN: mgpc %s -k atomics --signature "*fp32:16,*i32:16,*fp32:16,*i32:16,i32,128" -emit=mlir | FileCheck %s
# REQUIRES: ptxas
# RUN: mgpc %s -k atomics --signature "*fp32:16,*i32:16,*fp32:16,*i32:16,i32,128" -o %t.ptx
# RUN: %ptxas -arch=sm_90 %t.ptx -o %t.cubin
# RUN: FileCheck %s --check-prefix=PTX --input-file %t.ptx
# RUN: mgpc %s -k atomics --signature "*fp32:16,*i32:16,*fp32:16,*i32:16,i32,16" -o %t16.ptx
# RUN: %ptxas -arch=sm_90 %t16.ptx -o %t16.cubin
# RUN: mgpc %s -k spin_lock --signature "*i32,*i32" -emit=mlir | FileCheck %s --check-prefix=LOCK
# RUN: mgpc %s -k spin_lock --signature "*i32,*i32" -o %tlock.ptx
# RUN: %ptxas -arch=sm_90 %tlock.ptx -o %tlock.cubin
# RUN: not mgpc %s -k bad_sem --signature "*fp32" -emit=mlir 2>&1 | FileCheck %s --check-prefix=SEM
# RUN: not mgpc %s -k bad_type --signature "*i8" -emit=mlir 2>&1 | FileCheck %s --check-prefix=TYPE
import triton
import triton.language as tl


@triton.jit
def atomics(x_ptr, i_ptr, f_ptr, o_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0.0)
    tl.atomic_add(f_ptr, tl.sum(x, axis=0))
    old = tl.atomic_max(f_ptr + 1 + offs % 2, x, mask=m, sem="relaxed", scope="cta")
    tl.atomic_min(f_ptr + 3, tl.min(x, axis=0), scope="sys")
    k = offs % 7
    tl.atomic_and(i_ptr + k, 0xff, mask=m)
    tl.atomic_or(i_ptr + k, offs, mask=m, sem="release")
    tl.atomic_xor(i_ptr + k, 3, mask=m, sem="acquire")
    prev = tl.atomic_xchg(i_ptr + 8 + offs % 2, offs, mask=m)
    got = tl.atomic_cas(i_ptr + 9, 0, 1)
    tl.store(o_ptr + offs, prev + got + old.to(tl.int32), mask=m)

# CHECK-LABEL: func.func @atomics
# CHECK: mgp.atomic_rmw {{.*}}kind = #mgp<atomic_rmw_kind fadd>, scope = #mgp<scope gpu>, sem = #mgp<sem acq_rel>
# CHECK: mgp.ptr_cast
# CHECK: mgp.atomic_rmw {{.*}}kind = #mgp<atomic_rmw_kind max>, scope = #mgp<scope cta>, sem = #mgp<sem relaxed>
# CHECK: mgp.atomic_rmw {{.*}}kind = #mgp<atomic_rmw_kind umin>
# CHECK: mgp.atomic_rmw {{.*}}kind = #mgp<atomic_rmw_kind min>{{.*}}scope = #mgp<scope sys>
# CHECK: mgp.atomic_rmw {{.*}}kind = #mgp<atomic_rmw_kind umax>
# CHECK: kind = #mgp<atomic_rmw_kind and>
# CHECK: kind = #mgp<atomic_rmw_kind or>{{.*}}sem = #mgp<sem release>
# CHECK: kind = #mgp<atomic_rmw_kind xor>{{.*}}sem = #mgp<sem acquire>
# CHECK: kind = #mgp<atomic_rmw_kind xchg>
# CHECK: mgp.atomic_cas
# PTX-DAG: atom.acq_rel.gpu.global.add.f32
# PTX-DAG: atom.relaxed.cta.global.max.s32
# PTX-DAG: atom.relaxed.cta.global.min.u32
# PTX-DAG: atom.acq_rel.sys.global.min.s32
# PTX-DAG: atom.acq_rel.gpu.global.and.b32
# PTX-DAG: atom.release.gpu.global.or.b32
# PTX-DAG: atom.acquire.gpu.global.xor.b32
# PTX-DAG: atom.acq_rel.gpu.global.exch.b32
# PTX-DAG: atom.acq_rel.gpu.global.cas.b32


@triton.jit
def bad_sem(p):
    tl.atomic_add(p, 1.0, sem="seq_cst")
# SEM: atomics.py:[[@LINE-1]]:31: error: sem must be "acq_rel", "acquire", "release" or "relaxed", got string 'seq_cst'


@triton.jit
def bad_type(p):
    tl.atomic_add(p, 1)
# TYPE: atomics.py:[[@LINE-1]]:5: error: atomic_add does not support integers other than 32- and 64-bit ones (got int8)


# The condition of a while loop is generated once, inside the loop: an atomic
# in it must not also run before the loop (that would take the lock twice).
# LOCK-LABEL: func.func @spin_lock
# LOCK-NOT: mgp.atomic_cas
# LOCK: scf.while
# LOCK-NEXT: mgp.atomic_cas
# LOCK-NOT: mgp.atomic_cas
# LOCK: mgp.atomic_rmw %{{.*}} {kind = #mgp<atomic_rmw_kind xchg>
@triton.jit
def spin_lock(lock_ptr, count_ptr):
    while tl.atomic_cas(lock_ptr, 0, 1) == 1:
        pass
    tl.store(count_ptr, tl.load(count_ptr) + 1)
    tl.atomic_xchg(lock_ptr, 0)
