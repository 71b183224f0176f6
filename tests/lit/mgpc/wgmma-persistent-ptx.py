# The persistent style on sm_90a (the Triton suite's
# _flat_persistent_matmul_kernel, tests/triton/kernels/matmul.py, at a Hopper
# tile with unit strides): one loop over a program's (tile, K step) pairs,
# whose `if ki == 0:` moves the offsets to the next tile and whose
# `if ki == k_tiles - 1:` stores the tile and resets the accumulator.
# mgp-pipeline runs the offset update ahead with the copies (an scf.if of
# register ops), so the loads become cp.async into three slots plus the
# wgmma's spare one; the reset becomes the dot's useC (wgmma's scale-d, false
# on the first K step of a tile) and the dot stays in flight across
# iterations: the store waits for it inside the epilogue only. ptxas keeps
# the wgmma asynchronous.
# REQUIRES: ptxas
# DEFINE: %{sig} = *fp16:16,*fp16:16,*fp16:16,i32:16,i32:16,i32:16,i32:16,1,i32:16,1,i32:16,1,128,128,64,132
# DEFINE: %{src} = %S/../../triton/kernels/matmul.py -k _flat_persistent_matmul_kernel
# RUN: mgpc %{src} --arch=sm_90a --num-warps=8 --num-stages=3 --signature "%{sig}" -emit=mlir-gpu -o - | FileCheck %s --check-prefix=IR
# RUN: mgpc %{src} --arch=sm_90a --num-warps=8 --num-stages=3 --signature "%{sig}" -o %t.ptx
# RUN: %ptxas -arch=sm_90a -v %t.ptx -o %t.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
# RUN: FileCheck %s --check-prefix=PTX --input-file %t.ptx
# fp32 operands at BLOCK_K 64 take 64 KiB a stage, and the epilogue's
# conversion of the tile (64 KiB of scratch, inside the loop) is live while
# every slot is: two stages and the spare slot would need 256 KiB, more than
# an SM has (Triton's build of this configuration fails to launch). The
# pipeliner's budget counts that scratch, so the loop stays synchronous and
# the kernel needs the scratch alone.
# DEFINE: %{sig32} = *fp32:16,*fp32:16,*fp32:16,i32:16,i32:16,i32:16,i32:16,1,i32:16,1,i32:16,1,128,128,64,132
# RUN: mgpc %{src} --arch=sm_90a --num-warps=8 --num-stages=3 --signature "%{sig32}" -emit=mlir-gpu -o - | FileCheck %s --check-prefix=FP32

# FP32: mgp.shared = 65536
# FP32-NOT: mgp.async_copy_global_to_local

# IR: mgp.local_alloc {{.*}} () -> !mgp.memdesc<4x128x64xf16
# IR: mgp.local_alloc {{.*}} () -> !mgp.memdesc<4x64x128xf16
# IR: scf.for
# IR: scf.if
# IR: mgp.async_copy_global_to_local
# IR: mgp.async_copy_global_to_local
# IR: mgp.async_commit_group
# IR: mgp.warp_group_dot {{.*}} useC %{{.*}} {inputPrecision = tf32} {isAsync}
# IR-NEXT: arith.cmpi eq
# IR-NEXT: scf.if %{{.*}} -> (tensor<128x128xf32, #{{.*}}>) {
# IR-NEXT: mgp.warp_group_dot_wait %{{.*}} {pendings = 0 : i32}
# IR: mgp.store
# IR: } {mgp.wgmma_spare_buffer}
# PTX: cp.async.wait_group 1;
# PTX: selp.b32 [[FLAG:%r[0-9]+]], 1, 0,
# PTX: setp.ne.b32 p, [[FLAG]], 0;
# PTX-NEXT: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16
# PTX: wgmma.commit_group.sync.aligned;
# PTX: wgmma.wait_group.sync.aligned 1;
# PTX: wgmma.wait_group.sync.aligned 0;
# PTX: st.global.v4.b32
# PTXAS-NOT: serialized
# PTXAS: Used {{[0-9]+}} registers
# PTXAS-NOT: serialized
