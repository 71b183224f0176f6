# Kernels of Language2Test.cpp: scans, reductions with combine functions,
# atomics, fp8 conversions, Philox random numbers, the composed shape
# builtins (join/split/interleave/flip/histogram) and sort/topk on the
# interpreter. tests/unit/jit/LanguageGpuTest.cpp runs them (and
# attn_bwd_dkdv) on the GPU against the interpreter.
import triton
import triton.language as tl


@triton.jit
def cumsum_rows(x_ptr, y_ptr, z_ptr, n, R: tl.constexpr, BLOCK: tl.constexpr):
    rows = tl.arange(0, R)[:, None]
    cols = tl.arange(0, BLOCK)[None, :]
    m = (cols < n) & (rows < R)
    x = tl.load(x_ptr + rows * n + cols, mask=m, other=0.0)
    tl.store(y_ptr + rows * n + cols, tl.cumsum(x, axis=1), mask=m)
    tl.store(z_ptr + rows * n + cols, tl.cumsum(x, axis=1, reverse=True), mask=m)


@triton.jit
def _max_with_index(v1, i1, v2, i2):
    take = (v2 > v1) | ((v2 == v1) & (i2 < i1))
    return tl.where(take, v2, v1), tl.where(take, i2, i1)


@triton.jit
def _mul(a, b):
    return a * b


@triton.jit
def running_max(x_ptr, v_ptr, i_ptr, p_ptr, c_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    v, i = tl.associative_scan((x, offs), 0, _max_with_index)
    tl.store(v_ptr + offs, v)
    tl.store(i_ptr + offs, i)
    prod = tl.reduce(x * 0.01 + 1.0, 0, _mul)
    tl.store(p_ptr, prod)
    tl.store(p_ptr + 1, tl.sum(x, axis=0))
    tl.store(c_ptr + offs, tl.cumprod(x * 0.01 + 1.0, 0))


@triton.jit
def atomics(x_ptr, sum_ptr, max_ptr, hist_ptr, old_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0.0)
    tl.atomic_add(sum_ptr, tl.sum(x, axis=0))
    tl.atomic_max(max_ptr + offs % 4, x, mask=m)
    bins = (tl.abs(x) * 4.0).to(tl.int32) % 8
    old = tl.atomic_add(hist_ptr + bins, 1, mask=m, sem="relaxed")
    tl.store(old_ptr + offs, old, mask=m)


@triton.jit
def cas_counter(lock_ptr, count_ptr):
    # Every program takes a spin lock with atomic_cas, bumps the counter and
    # releases it with atomic_xchg.
    while tl.atomic_cas(lock_ptr, 0, 1) == 1:
        pass
    tl.store(count_ptr, tl.load(count_ptr) + 1)
    tl.atomic_xchg(lock_ptr, 0)


@triton.jit
def fp8_quantize(x_ptr, q_ptr, s_ptr, deq_ptr, n, BLOCK: tl.constexpr,
                 FP8: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0.0)
    amax = tl.max(tl.abs(x), axis=0)
    if FP8 == tl.float8e4nv:
        scale = 448.0 / tl.maximum(amax, 1e-12)
    else:
        scale = 57344.0 / tl.maximum(amax, 1e-12)
    q = (x * scale).to(FP8)
    tl.store(q_ptr + offs, q, mask=m)
    tl.store(s_ptr + tl.program_id(0), scale)
    tl.store(deq_ptr + offs, q.to(tl.float32) / scale, mask=m)


@triton.jit
def random(out_i_ptr, out_f_ptr, out_n_ptr, seed, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(out_i_ptr + offs, tl.randint(seed, offs), mask=m)
    tl.store(out_f_ptr + offs, tl.rand(seed, offs), mask=m)
    tl.store(out_n_ptr + offs, tl.randn(seed, offs), mask=m)


@triton.jit
def shapes(x_ptr, y_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    y = tl.load(y_ptr + offs)
    j = tl.join(x, y)                       # [BLOCK, 2]
    a, b = tl.split(j)
    tl.store(out_ptr + offs, a - x + b)     # = y
    il = tl.interleave(x, y)                # [2 * BLOCK]: x0 y0 x1 y1 ...
    tl.store(out_ptr + BLOCK + tl.arange(0, 2 * BLOCK), il)
    tl.store(out_ptr + 3 * BLOCK + offs, tl.flip(x, 0))
    h = tl.histogram((tl.abs(x) * 3.0).to(tl.int32) % 8, 8)
    tl.store(out_ptr + 4 * BLOCK + tl.arange(0, 8), h.to(tl.float32))


@triton.jit
def gathers(x_ptr, i_ptr, out_ptr, R: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    # tl.gather along rows: loaded indices (some outside [0, N): 0 there), a
    # constant index block, and a constant source.
    rows = tl.arange(0, R)[:, None]
    x = tl.load(x_ptr + rows * N + tl.arange(0, N)[None, :])
    idx = tl.load(i_ptr + rows * K + tl.arange(0, K)[None, :])
    o = rows * K + tl.arange(0, K)[None, :]
    tl.store(out_ptr + o, tl.gather(x, idx, axis=1))
    two = tl.full((R, K), 2, tl.int32)
    tl.store(out_ptr + R * K + o, tl.gather(x, two, axis=1))
    tl.store(out_ptr + 2 * R * K + o, tl.gather(tl.full((R, N), 7.0, tl.float32), idx, axis=1))


@triton.jit
def sort_rows(x_ptr, asc_ptr, desc_ptr, top_ptr, R: tl.constexpr,
              N: tl.constexpr, K: tl.constexpr):
    offs = tl.arange(0, R)[:, None] * N + tl.arange(0, N)[None, :]
    x = tl.load(x_ptr + offs)
    tl.store(asc_ptr + offs, tl.sort(x))
    tl.store(desc_ptr + offs, tl.sort(x, dim=1, descending=True))
    top_offs = tl.arange(0, R)[:, None] * K + tl.arange(0, K)[None, :]
    tl.store(top_ptr + top_offs, tl.topk(x, K))


@triton.jit
def sort_keys_i32(x_ptr, out_ptr, N: tl.constexpr):
    # argsort by packing (value, index) into one int64 key.
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    key = (x.to(tl.int64) << 32) | offs.to(tl.int64)
    s = tl.sort(key)
    tl.store(out_ptr + offs, (s & 0xFFFFFFFF).to(tl.int32))


@triton.jit
def sort16(x_ptr, asc_ptr, desc_ptr, top_ptr):
    offs = tl.arange(0, 16)
    x = tl.load(x_ptr + offs)
    tl.store(asc_ptr + offs, tl.sort(x))
    tl.store(desc_ptr + offs, tl.sort(x, descending=True))
    tl.store(top_ptr + tl.arange(0, 4), tl.topk(x, 4))


@triton.jit
def attn_bwd_dkdv(Q, K, V, DO, M, D, DK, DV, stride_tok, N_CTX,
                  BLOCK_M1: tl.constexpr, BLOCK_N1: tl.constexpr,
                  HEAD_DIM: tl.constexpr):
    # The fused-attention backward's dk/dv step (tests/lit/kernels/
    # attn-bwd-dot.py): `dv += tl.dot(ppT, do)` with A computed in registers.
    start_n = tl.program_id(0) * BLOCK_N1
    offs_n = start_n + tl.arange(0, BLOCK_N1)
    offs_k = tl.arange(0, HEAD_DIM)
    k = tl.load(K + offs_n[:, None] * stride_tok + offs_k[None, :])
    v = tl.load(V + offs_n[:, None] * stride_tok + offs_k[None, :])
    dv = tl.zeros([BLOCK_N1, HEAD_DIM], dtype=tl.float32)
    dk = tl.zeros([BLOCK_N1, HEAD_DIM], dtype=tl.float32)
    offs_m = tl.arange(0, BLOCK_M1)
    qT_ptrs = Q + offs_m[None, :] * stride_tok + offs_k[:, None]
    do_ptrs = DO + offs_m[:, None] * stride_tok + offs_k[None, :]
    curr_m = 0
    for blk in range(0, N_CTX // BLOCK_M1):
        qT = tl.load(qT_ptrs)
        offs_m = curr_m + tl.arange(0, BLOCK_M1)
        m = tl.load(M + offs_m)
        qkT = tl.dot(k, qT)
        pT = tl.math.exp2(qkT - m[None, :])
        do = tl.load(do_ptrs)
        ppT = pT.to(tl.float16)
        dv += tl.dot(ppT, do)
        Di = tl.load(D + offs_m)
        dpT = tl.dot(v, tl.trans(do)).to(tl.float32)
        dsT = pT * (dpT - Di[None, :])
        dsT = dsT.to(tl.float16)
        dk += tl.dot(dsT, tl.trans(qT))
        curr_m += BLOCK_M1
        qT_ptrs += BLOCK_M1 * stride_tok
        do_ptrs += BLOCK_M1 * stride_tok
    tl.store(DV + offs_n[:, None] * stride_tok + offs_k[None, :], dv)
    tl.store(DK + offs_n[:, None] * stride_tok + offs_k[None, :], dk)
