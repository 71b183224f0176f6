# Tensor descriptors with a tensor map (`_tensor_map=`, the device address
# of a host-encoded CUtensorMap; mgp.jit passes one for host TensorDescriptors
# that follow TMA's rules on sm_90): desc.load / desc.store become
# mgp.tensor_map_load / _store, lowered to cp.async.bulk.tensor through the
# op's shared scratch with an mbarrier; before sm_90 and for a map that is
# not a pointer, located errors.
# RUN: mgpc %s -k scale --signature "*fp16:16,*i8:16,*fp16:16,*i8:16,i32,i32,i32:16,i32:16,64,128" -emit=mlir | FileCheck %s
# RUN: mgpc %s -k scale --signature "*fp16:16,*i8:16,*fp16:16,*i8:16,i32,i32,i32:16,i32:16,64,128" --arch sm_90a -o %t.ptx
# RUN: FileCheck %s --check-prefix=PTX < %t.ptx
# RUN: mgpc %s -k batched --signature "*bf16:16,*i8:16,i32,i32,i32,i32:16,i32:16,2,16,32" --arch sm_90 -o %t3.ptx
# RUN: FileCheck %s --check-prefix=PTX3 < %t3.ptx
# RUN: not mgpc %s -k scale --signature "*fp16:16,*i8:16,*fp16:16,*i8:16,i32,i32,i32:16,i32:16,64,128" --arch sm_80 -o %t80.ptx 2>&1 | FileCheck %s --check-prefix=SM80
# RUN: mgpc %s -k window --signature "*fp32:16,*i8:16,i32,i32,i32:16,i32,i32" -emit=mlir | FileCheck %s --check-prefix=WINDOW
# RUN: mgpc %s -k rows --signature "*fp32:16,*i8:16,i32,i32,i32:16,16" -emit=mlir | FileCheck %s --check-prefix=ROWS
# RUN: not mgpc %s -k not_a_pointer --signature "*fp16:16,i64,i32,i32,i32" -emit=mlir 2>&1 | FileCheck %s --check-prefix=NOTPTR
# REQUIRES: ptxas
# RUN: %ptxas -arch=sm_90a %t.ptx -o %t.cubin
# RUN: %ptxas -arch=sm_90 %t3.ptx -o %t3.cubin
import triton
import triton.language as tl


@triton.jit
def scale(x, x_map, y, y_map, M, N, sx, sy, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    src = tl.make_tensor_descriptor(x, [M, N], [sx, 1], [BLOCK_M, BLOCK_N], _tensor_map=x_map)
    dst = tl.make_tensor_descriptor(y, [M, N], [sy, 1], [BLOCK_M, BLOCK_N], _tensor_map=y_map)
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    tile = src.load([pid_m * BLOCK_M, pid_n * BLOCK_N])
    dst.store([pid_m * BLOCK_M, pid_n * BLOCK_N], tile * 2)

# CHECK-LABEL: func.func @scale
# CHECK: %[[T:.*]] = mgp.tensor_map_load %arg1[%{{.*}}, %{{.*}}] : !mgp.ptr<i8> -> tensor<64x128xf16>
# CHECK: mgp.tensor_map_store %arg3[%{{.*}}, %{{.*}}], %{{.*}} : !mgp.ptr<i8>, tensor<64x128xf16>
# CHECK-NOT: mgp.load

# PTX: mbarrier.init.shared::cta.b64 [[[BAR:%r[0-9]+]]], 1;
# PTX: bar.sync 0;
# PTX: mbarrier.arrive.expect_tx.shared::cta.b64 _, [[[BAR]]], 16384;
# PTX-NEXT: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%r{{[0-9]+}}], [%rd{{[0-9]+}}, {%r{{[0-9]+}}, %r{{[0-9]+}}}], [[[BAR]]];
# PTX: mbarrier.try_wait.parity.shared::cta.b64
# PTX: ld.shared.v4.b32
# PTX: mbarrier.inval.shared::cta.b64
# PTX: st.shared.v4.b32
# PTX: fence.proxy.async.shared::cta;
# PTX: bar.sync 0;
# PTX: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%rd{{[0-9]+}}, {%r{{[0-9]+}}, %r{{[0-9]+}}}], [%r{{[0-9]+}}];
# PTX-NEXT: cp.async.bulk.commit_group;
# PTX-NEXT: cp.async.bulk.wait_group 0;

# SM80: tensor-map.py:[[@LINE-22]]:12: error: a tensor descriptor with a tensor map (_tensor_map=, TMA) needs sm_90 or newer (compiling for sm_80); without _tensor_map it works everywhere
# SM80-NEXT: tile = src.load([pid_m * BLOCK_M, pid_n * BLOCK_N])


@triton.jit
def batched(x, x_map, B, M, N, sb, sm, BLOCK_B: tl.constexpr, BLOCK_M: tl.constexpr,
            BLOCK_N: tl.constexpr):
    desc = tl.make_tensor_descriptor(x, [B, M, N], [sb, sm, 1], [BLOCK_B, BLOCK_M, BLOCK_N],
                                     _tensor_map=x_map)
    b = tl.program_id(0) * BLOCK_B
    desc.store([b, 0, 0], desc.load([b, 0, 0]) + 1)

# PTX3: cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%r{{[0-9]+}}], [%rd{{[0-9]+}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}]
# PTX3: cp.async.bulk.tensor.3d.global.shared::cta.tile.bulk_group


@triton.jit
def not_a_pointer(x, x_map, M, N, s):
    desc = tl.make_tensor_descriptor(x, [M, N], [s, 1], [16, 16], _tensor_map=x_map)
    desc.load([0, 0])

# NOTPTR: tensor-map.py:[[@LINE-3]]:79: error: _tensor_map needs a scalar pointer (the device address of a CUtensorMap), got


@triton.jit
def window(x, x_map, M, N, s, I, J):
    # TMA faults on a block whose first column is not at a multiple of 16
    # bytes, and a TMA store on one with a negative coordinate: with run-time
    # coordinates a test picks TMA or the masked access.
    desc = tl.make_tensor_descriptor(x, [M, N], [s, 1], [8, 16], _tensor_map=x_map)
    desc.store([I, J], desc.load([I, J]) * 2)

# WINDOW-LABEL: func.func @window
# WINDOW: %[[LOW:.*]] = arith.andi %arg6, %c3_i32 : i32
# WINDOW: %[[OK:.*]] = arith.cmpi eq, %[[LOW]], %c0_i32 : i32
# WINDOW: %[[T:.*]] = scf.if %[[OK]] -> (tensor<8x16xf32>) {
# WINDOW:   mgp.tensor_map_load %arg1[%arg5, %arg6]
# WINDOW: } else {
# WINDOW:   mgp.load
# WINDOW: %[[NI:.*]] = arith.cmpi sge, %arg5, %c0_i32 : i32
# WINDOW: %[[A1:.*]] = arith.andi %[[OK]], %[[NI]] : i1
# WINDOW: %[[NJ:.*]] = arith.cmpi sge, %arg6, %c0_i32 : i32
# WINDOW: %[[A2:.*]] = arith.andi %[[A1]], %[[NJ]] : i1
# WINDOW: scf.if %[[A2]] {
# WINDOW:   mgp.tensor_map_store %arg1[%arg5, %arg6]
# WINDOW: } else {
# WINDOW:   mgp.store


@triton.jit
def rows(x, x_map, M, N, s, BLOCK_N: tl.constexpr):
    # Coordinates known to be at least 0 (a program id times a block, a loop
    # that counts up from 0) store through the map with no test.
    desc = tl.make_tensor_descriptor(x, [M, N], [s, 1], [8, BLOCK_N], _tensor_map=x_map)
    row = tl.program_id(0) * 8
    for k in range(0, N, BLOCK_N):
        desc.store([row, k], desc.load([row, k]) + 1)

# ROWS-LABEL: func.func @rows
# ROWS-NOT: scf.if
# ROWS: mgp.tensor_map_load
# ROWS-NOT: scf.if
# ROWS: mgp.tensor_map_store
# ROWS-NOT: mgp.store
