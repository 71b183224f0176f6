"""Kernels of the Python tests, written with mgp's own names (no Triton):
``@mgp.jit``, ``mgp.*`` and ``import mgp.language as tl``. The vector add uses
``mgp.*`` names only; the others are Triton tutorial-style kernels."""
import mgp
import mgp.language as tl

EPS_SCALE = 1.0  # a module constant the layer norm reads


def _host_setting(name):
    """Host code a kernel's constants are computed with (as real kernels read
    environment variables or the device's capability at import)."""
    return {"scale": 3.0, "half": True}[name]


# Constexpr globals whose values only the running module knows.
HOST_SCALE = tl.constexpr(_host_setting("scale"))
HOST_HALF = tl.constexpr(_host_setting("half"))
HOST_DTYPE = tl.float16 if _host_setting("half") else tl.float32
HOST_LABEL = "float16"  # a plain string, not a kernel constant: left as written


@mgp.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: mgp.constexpr):
    offs = mgp.program_id(0) * BLOCK + mgp.arange(0, BLOCK)
    mask = offs < n
    x = mgp.load(x_ptr + offs, mask=mask)
    y = mgp.load(y_ptr + offs, mask=mask)
    mgp.store(out_ptr + offs, x + y, mask=mask)


@mgp.jit
def softmax_kernel(out_ptr, in_ptr, in_row_stride, out_row_stride, n_cols,
                   BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    x = tl.load(in_ptr + row * in_row_stride + offs, mask=mask,
                other=-float("inf"))
    x = x - tl.max(x, axis=0)
    num = tl.exp(x)
    den = tl.sum(num, axis=0)
    tl.store(out_ptr + row * out_row_stride + offs, num / den, mask=mask)


@mgp.jit
def _row_mean(X, N, BLOCK_SIZE: tl.constexpr):
    acc = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        acc += tl.load(X + cols, mask=cols < N, other=0.0).to(tl.float32)
    return tl.sum(acc, axis=0) / N


@mgp.jit
def layer_norm_kernel(X, Y, W, B, Mean, Rstd, stride, N, eps,
                      BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    X += row * stride
    Y += row * stride
    mean = _row_mean(X, N, BLOCK_SIZE)
    acc = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        x = tl.load(X + cols, mask=cols < N, other=0.0).to(tl.float32)
        x = tl.where(cols < N, x - mean, 0.0)
        acc += x * x
    var = tl.sum(acc, axis=0) / N
    rstd = 1 / tl.sqrt(var + eps * EPS_SCALE)
    tl.store(Mean + row, mean)
    tl.store(Rstd + row, rstd)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        mask = cols < N
        w = tl.load(W + cols, mask=mask)
        b = tl.load(B + cols, mask=mask)
        x = tl.load(X + cols, mask=mask, other=0.0).to(tl.float32)
        tl.store(Y + cols, (x - mean) * rstd * w + b, mask=mask)


@mgp.autotune(configs=[mgp.Config({"BLOCK": 64}, num_warps=2),
                       mgp.Config({"BLOCK": 256}, num_warps=4)],
              key=["n"])
@mgp.jit
def scale_kernel(x_ptr, out_ptr, alpha, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) * alpha, mask=mask)


@mgp.autotune(configs=[mgp.Config({"BLOCK": 32}), mgp.Config({"BLOCK": 128})],
              key=["n"], reset_to_zero=["out_ptr"])
@mgp.jit
def accumulate_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    # out += x: run twice without the reset it would double.
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    prev = tl.load(out_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, prev + tl.load(x_ptr + offs, mask=mask), mask=mask)


@mgp.heuristics({"EVEN": lambda args: args["n"] % args["BLOCK"] == 0})
@mgp.jit
def copy_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr, EVEN: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    if EVEN:
        tl.store(out_ptr + offs, tl.load(x_ptr + offs))
    else:
        mask = offs < n
        tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask), mask=mask)


@mgp.jit
def typed_kernel(ints_ptr, floats_ptr, flag, small, big, huge, value):
    # Every scalar type Python arguments take: u1, i32, i64, u64, fp32.
    tl.store(ints_ptr + 0, flag.to(tl.int64))
    tl.store(ints_ptr + 1, small.to(tl.int64))
    tl.store(ints_ptr + 2, big)
    tl.store(ints_ptr + 3, huge.to(tl.int64, bitcast=True))
    tl.store(floats_ptr, value)


@mgp.jit
def hash_kernel(out_ptr, n, SEED: tl.constexpr, BLOCK: tl.constexpr):
    # splitmix64's finalizer: uint64 literals and a uint64 constexpr.
    offs = tl.arange(0, BLOCK)
    z = offs.to(tl.uint64) + SEED
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
    z = (z ^ (z >> 27)) * 0x94D049BB133111EB
    z = z ^ (z >> 31)
    tl.store(out_ptr + offs, z.to(tl.int64, bitcast=True), mask=offs < n)


@mgp.jit
def stride_kernel(x_ptr, out_ptr, stride, n, BLOCK: tl.constexpr):
    # out[i] = x[i * stride]: stride == 1 is Triton's constexpr 1.
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs * stride, mask=mask), mask=mask)


@mgp.jit
def broken_kernel(x_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, not_defined_anywhere)


@mgp.jit
def inline_asm_kernel(x_ptr, y_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    y = tl.inline_asm_elementwise("tanh.approx.f32 $0, $1;", "=f,f", [x],
                                  dtype=tl.float32, is_pure=True, pack=1)
    tl.store(y_ptr + offs, y)


@mgp.jit
def bias_act_kernel(x_ptr, b_ptr, out_ptr, n, ACTIVATION: tl.constexpr,
                    OUT_DTYPE: tl.constexpr, BLOCK: tl.constexpr):
    # An optional pointer (None folds the branch away), a string and a dtype
    # constexpr, as Triton kernels take them.
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    if b_ptr is not None:
        x += tl.load(b_ptr + offs, mask=mask)
    if ACTIVATION == "relu":
        x = tl.maximum(x, 0.0)
    elif ACTIVATION == "square":
        x = x * x
    tl.store(out_ptr + offs, x.to(OUT_DTYPE), mask=mask)


@mgp.jit
def host_constants_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    # Reads constants computed by host code at import (HOST_*).
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask) * HOST_SCALE
    if HOST_HALF:
        x = x + 0.5
    tl.store(out_ptr + offs, x.to(HOST_DTYPE), mask=mask)


if __name__ == "__main__":
    print("host code: mgp compiles only the kernels")


@mgp.jit
def nan_minmax_kernel(a_ptr, b_ptr, out_ptr, n, FUNC: tl.constexpr, PROPAGATE: tl.constexpr,
                      BLOCK: tl.constexpr):
    # tl.maximum / tl.minimum / tl.clamp with a tl.PropagateNan member picked by name.
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    a = tl.load(a_ptr + offs, mask=mask)
    b = tl.load(b_ptr + offs, mask=mask)
    mode = getattr(tl.PropagateNan, PROPAGATE)
    if FUNC == "clamp":
        r = tl.clamp(a, -tl.abs(b), tl.abs(b), propagate_nan=mode)
    else:
        r = getattr(tl, FUNC)(a, b, propagate_nan=mode)
    tl.store(out_ptr + offs, r, mask=mask)


@mgp.jit
def byte_view_kernel(x_ptr, out_ptr, n_bytes, BLOCK: tl.constexpr):
    # The bytes of an fp32 array, through a pointer cast to uint8.
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_bytes
    b = tl.load(x_ptr.to(tl.pointer_type(tl.uint8)) + offs, mask=mask)
    tl.store(out_ptr + offs, b, mask=mask)


@mgp.jit
def descriptor_scale_kernel(x_desc, y_desc, alpha, BLOCK_M: tl.constexpr,
                            BLOCK_N: tl.constexpr):
    # Host TensorDescriptors, as the persistent-matmul tutorial makes them.
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    tile = x_desc.load([pid_m * BLOCK_M, pid_n * BLOCK_N])
    y_desc.store([pid_m * BLOCK_M, pid_n * BLOCK_N], (tile * alpha).to(y_desc.dtype))


@mgp.jit
def descriptor_corner_kernel(x_desc, out_ptr, BLOCK_M: tl.constexpr,
                             BLOCK_N: tl.constexpr):
    # One block from (-2, -4): elements outside the tensor read its padding.
    tile = x_desc.load([-2, -4])
    rm = tl.arange(0, BLOCK_M)
    rn = tl.arange(0, BLOCK_N)
    tl.store(out_ptr + rm[:, None] * BLOCK_N + rn[None, :], tile)


@mgp.jit
def descriptor_batched_copy_kernel(x_desc, y_desc, BLOCK_B: tl.constexpr,
                                   BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    # 3-D descriptors: a block of BLOCK_B matrices' tiles.
    b = tl.program_id(0) * BLOCK_B
    m = tl.program_id(1) * BLOCK_M
    for n in range(0, tl.cdiv(x_desc.shape[2], BLOCK_N)):
        y_desc.store([b, m, n * BLOCK_N], x_desc.load([b, m, n * BLOCK_N]))


@mgp.jit
def descriptor_matmul_kernel(a_desc, b_desc, c_desc, K, BLOCK_M: tl.constexpr,
                             BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    # C = A @ B with every operand a host descriptor (ragged edges padded).
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        a = a_desc.load([pid_m * BLOCK_M, k * BLOCK_K])
        b = b_desc.load([k * BLOCK_K, pid_n * BLOCK_N])
        acc = tl.dot(a, b, acc)
    c_desc.store([pid_m * BLOCK_M, pid_n * BLOCK_N], acc.to(c_desc.dtype))


@mgp.jit
def descriptor_window_kernel(x_desc, y_desc, out_ptr, I, J, BLOCK_M: tl.constexpr,
                             BLOCK_N: tl.constexpr):
    # A block at run-time coordinates (any alignment): read it out, and write
    # it doubled through y_desc at the same place.
    tile = x_desc.load([I, J])
    rm = tl.arange(0, BLOCK_M)
    rn = tl.arange(0, BLOCK_N)
    tl.store(out_ptr + rm[:, None] * BLOCK_N + rn[None, :], tile)
    y_desc.store([I, J], tile * 2)
