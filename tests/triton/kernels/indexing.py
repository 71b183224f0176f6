"""Indexing kernels: strided 2-D tiles, gathers and scatters, block pointers,
padding, flips, one-hot, interleaving."""

import torch
import triton
import triton.language as tl


@triton.jit
def _transpose_kernel(X, Y, M, N, stride_xm, stride_xn, stride_ym, stride_yn,
                      BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    x = tl.load(X + rm[:, None] * stride_xm + rn[None, :] * stride_xn, mask=mask)
    tl.store(Y + rn[None, :] * stride_ym + rm[:, None] * stride_yn, x, mask=mask)


def transpose(x):
    M, N = x.shape
    y = torch.empty((N, M), dtype=x.dtype, device=x.device)
    grid = (triton.cdiv(M, 32), triton.cdiv(N, 32))
    _transpose_kernel[grid](x, y, M, N, x.stride(0), x.stride(1), y.stride(0), y.stride(1),
                            BLOCK_M=32, BLOCK_N=32)
    return y


def transpose_strided(x):
    """The transpose of a non-contiguous view (every other column)."""
    return transpose(x[:, ::2])


@triton.jit
def _embedding_kernel(Ids, Weight, Out, n_ids, vocab, D, stride_w, stride_o,
                      BLOCK_N: tl.constexpr, BLOCK_D: tl.constexpr):
    pid = tl.program_id(0)
    rows = pid * BLOCK_N + tl.arange(0, BLOCK_N)
    row_mask = rows < n_ids
    ids = tl.load(Ids + rows, mask=row_mask, other=0)
    tl.device_assert((ids >= 0) & (ids < vocab), "token id out of range")
    cols = tl.arange(0, BLOCK_D)
    for d in range(0, D, BLOCK_D):
        c = d + cols
        mask = row_mask[:, None] & (c[None, :] < D)
        w = tl.load(Weight + ids[:, None] * stride_w + c[None, :], mask=mask)
        tl.store(Out + rows[:, None].to(tl.int64) * stride_o + c[None, :], w, mask=mask)


def embedding(ids, weight):
    n = ids.numel()
    D = weight.shape[1]
    out = torch.empty((n, D), dtype=weight.dtype, device=weight.device)
    _embedding_kernel[(triton.cdiv(n, 16),)](ids, weight, out, n, weight.shape[0], D,
                                             weight.stride(0), out.stride(0), BLOCK_N=16,
                                             BLOCK_D=32)
    return out


@triton.jit
def _index_add_kernel(Out, Index, Src, n_src, D, stride_out, stride_src,
                      BLOCK_D: tl.constexpr):
    row = tl.program_id(0)
    dst = tl.load(Index + row)
    cols = tl.arange(0, BLOCK_D)
    for d in range(0, D, BLOCK_D):
        c = d + cols
        mask = c < D
        v = tl.load(Src + row * stride_src + c, mask=mask)
        tl.atomic_add(Out + dst * stride_out + c, v, mask=mask)


def index_add(out, index, src):
    out = out.clone()
    n, D = src.shape
    _index_add_kernel[(n,)](out, index, src, n, D, out.stride(0), src.stride(0), BLOCK_D=64)
    return out


@triton.jit
def _block_ptr_copy_kernel(X, Y, M, N, stride_xm, stride_xn, stride_ym, stride_yn,
                           BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid = tl.program_id(0)
    x_block = tl.make_block_ptr(base=X, shape=(M, N), strides=(stride_xm, stride_xn),
                                offsets=(pid * BLOCK_M, 0), block_shape=(BLOCK_M, BLOCK_N),
                                order=(1, 0))
    y_block = tl.make_block_ptr(base=Y, shape=(M, N), strides=(stride_ym, stride_yn),
                                offsets=(pid * BLOCK_M, 0), block_shape=(BLOCK_M, BLOCK_N),
                                order=(1, 0))
    for _ in range(0, tl.cdiv(N, BLOCK_N)):
        x = tl.load(x_block, boundary_check=(0, 1), padding_option="zero")
        tl.store(y_block, x * 2.0, boundary_check=(0, 1))
        x_block = tl.advance(x_block, (0, BLOCK_N))
        y_block = tl.advance(y_block, (0, BLOCK_N))


def block_ptr_double(x):
    M, N = x.shape
    y = torch.empty_like(x)
    _block_ptr_copy_kernel[(triton.cdiv(M, 16),)](x, y, M, N, x.stride(0), x.stride(1),
                                                  y.stride(0), y.stride(1),
                                                  BLOCK_M=16, BLOCK_N=32)
    return y


@triton.jit
def _flip_rows_kernel(X, Y, N, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + row * stride + offs, mask=offs < N, other=0.0)
    # flip(x)[i] = x[BLOCK - 1 - i]: the row's last element lands at BLOCK - N.
    f = tl.flip(x, 0)
    dst = offs - (BLOCK - N)
    tl.store(Y + row * stride + dst, f, mask=dst >= 0)


def flip_rows(x):
    M, N = x.shape
    y = torch.empty_like(x)
    _flip_rows_kernel[(M,)](x, y, N, x.stride(0), BLOCK=triton.next_power_of_2(N))
    return y


@triton.jit
def _pad2d_kernel(X, Y, H, W, OH, OW, pad_top, pad_left, value,
                  BLOCK_H: tl.constexpr, BLOCK_W: tl.constexpr):
    plane = tl.program_id(0)
    pid_h = tl.program_id(1)
    oh = pid_h * BLOCK_H + tl.arange(0, BLOCK_H)
    ow = tl.arange(0, BLOCK_W)
    ih = oh - pad_top
    iw = ow - pad_left
    inside = (ih[:, None] >= 0) & (ih[:, None] < H) & (iw[None, :] >= 0) & (iw[None, :] < W)
    x = tl.load(X + plane * H * W + ih[:, None] * W + iw[None, :], mask=inside, other=value)
    out_mask = (oh[:, None] < OH) & (ow[None, :] < OW)
    tl.store(Y + plane * OH * OW + oh[:, None] * OW + ow[None, :], x, mask=out_mask)


def pad2d(x, top, bottom, left, right, value=0.0):
    C, H, W = x.shape
    OH, OW = H + top + bottom, W + left + right
    y = torch.empty((C, OH, OW), dtype=x.dtype, device=x.device)
    BLOCK_W = triton.next_power_of_2(OW)
    _pad2d_kernel[(C, triton.cdiv(OH, 8))](x, y, H, W, OH, OW, top, left, value,
                                          BLOCK_H=8, BLOCK_W=BLOCK_W)
    return y


@triton.jit
def _causal_fill_kernel(X, Y, N, stride, value, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(X + row * stride + cols, mask=cols < N)
    y = tl.where(cols > row, value, x)
    tl.store(Y + row * stride + cols, y, mask=cols < N)


def causal_fill(x, value=float("-inf")):
    M, N = x.shape
    y = torch.empty_like(x)
    _causal_fill_kernel[(M,)](x, y, N, x.stride(0), value, BLOCK=triton.next_power_of_2(N))
    return y


@triton.jit
def _one_hot_kernel(Labels, Out, n, C, BLOCK_N: tl.constexpr, BLOCK_C: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_N + tl.arange(0, BLOCK_N)
    cols = tl.arange(0, BLOCK_C)
    labels = tl.load(Labels + rows, mask=rows < n, other=-1)
    hot = (labels[:, None] == cols[None, :]).to(tl.int64)
    mask = (rows[:, None] < n) & (cols[None, :] < C)
    tl.store(Out + rows[:, None] * C + cols[None, :], hot, mask=mask)


def one_hot(labels, num_classes):
    n = labels.numel()
    out = torch.empty((n, num_classes), dtype=torch.int64, device=labels.device)
    _one_hot_kernel[(triton.cdiv(n, 32),)](labels, out, n, num_classes, BLOCK_N=32,
                                           BLOCK_C=triton.next_power_of_2(num_classes))
    return out


@triton.jit
def _gather_dim1_kernel(X, Index, Out, K, stride_x, stride_i, stride_o, BLOCK_K: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK_K)
    mask = offs < K
    idx = tl.load(Index + row * stride_i + offs, mask=mask, other=0)
    v = tl.load(X + row * stride_x + idx, mask=mask)
    tl.store(Out + row * stride_o + offs, v, mask=mask)


def gather_dim1(x, index):
    M, K = index.shape
    out = torch.empty((M, K), dtype=x.dtype, device=x.device)
    _gather_dim1_kernel[(M,)](x, index, out, K, x.stride(0), index.stride(0), out.stride(0),
                              BLOCK_K=triton.next_power_of_2(K))
    return out


@triton.jit
def _interleave_kernel(A, B, Out, N, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    a = tl.load(A + offs, mask=offs < N)
    b = tl.load(B + offs, mask=offs < N)
    out = tl.interleave(a, b)
    out_offs = tl.program_id(0) * 2 * BLOCK + tl.arange(0, 2 * BLOCK)
    tl.store(Out + out_offs, out, mask=out_offs < 2 * N)


def interleave(a, b):
    N = a.numel()
    out = torch.empty(2 * N, dtype=a.dtype, device=a.device)
    _interleave_kernel[(triton.cdiv(N, 128),)](a, b, out, N, BLOCK=128)
    return out


@triton.jit
def _deinterleave_kernel(X, Even, Odd, N, BLOCK: tl.constexpr):
    # X holds N (re, im) pairs; tl.split separates the last dimension of 2.
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    pairs = offs[:, None] * 2 + tl.arange(0, 2)[None, :]
    x = tl.load(X + pairs, mask=pairs < 2 * N)
    even, odd = tl.split(x)
    tl.store(Even + offs, even, mask=offs < N)
    tl.store(Odd + offs, odd, mask=offs < N)


def deinterleave(x):
    N = x.numel() // 2
    even = torch.empty(N, dtype=x.dtype, device=x.device)
    odd = torch.empty(N, dtype=x.dtype, device=x.device)
    _deinterleave_kernel[(triton.cdiv(N, 64),)](x, even, odd, N, BLOCK=64)
    return even, odd


@triton.jit
def _join_kernel(Re, Im, Out, N, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    re = tl.load(Re + offs, mask=offs < N)
    im = tl.load(Im + offs, mask=offs < N)
    z = tl.join(re * re - im * im, 2.0 * re * im)     # (re + i im)^2, [BLOCK, 2]
    pairs = offs[:, None] * 2 + tl.arange(0, 2)[None, :]
    tl.store(Out + pairs, z, mask=pairs < 2 * N)


def complex_square(re, im):
    N = re.numel()
    out = torch.empty((N, 2), dtype=re.dtype, device=re.device)
    _join_kernel[(triton.cdiv(N, 64),)](re, im, out, N, BLOCK=64)
    return out


@triton.jit
def _desc_add_rows_kernel(X, Bias, Y, M, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid = tl.program_id(0)
    x_desc = tl.make_tensor_descriptor(X, shape=[M, N], strides=[N, 1],
                                       block_shape=[BLOCK_M, BLOCK_N])
    y_desc = tl.make_tensor_descriptor(Y, shape=[M, N], strides=[N, 1],
                                       block_shape=[BLOCK_M, BLOCK_N])
    for j in range(0, tl.cdiv(N, BLOCK_N)):
        cols = j * BLOCK_N + tl.arange(0, BLOCK_N)
        bias = tl.load(Bias + cols, mask=cols < N, other=0.0)
        x = x_desc.load([pid * BLOCK_M, j * BLOCK_N])
        y_desc.store([pid * BLOCK_M, j * BLOCK_N], x + bias[None, :])


def _use_torch_allocator(device):
    # Descriptors made in the kernel need global scratch memory from the
    # host: Triton asks the allocator set here for it.
    def alloc(size, alignment, stream):
        return torch.empty(size, dtype=torch.int8, device=device)

    triton.set_allocator(alloc)


def desc_add_rows(x, bias):
    M, N = x.shape
    y = torch.empty_like(x)

    _use_torch_allocator(x.device)
    _desc_add_rows_kernel[(triton.cdiv(M, 16),)](x, bias, y, M, N, BLOCK_M=16, BLOCK_N=32)
    return y


@triton.jit
def _desc_batch_max_kernel(X, Out, M, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    # Out[m, n] = max over the batch of X[b, m, n]: each program reduces one
    # tile of one batch entry into Out through the descriptor (a TMA
    # reduction in Triton).
    b = tl.program_id(0)
    pid_m = tl.program_id(1)
    pid_n = tl.program_id(2)
    rows = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)[:, None]
    cols = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)[None, :]
    mask = (rows < M) & (cols < N)
    x = tl.load(X + b * M * N + rows * N + cols, mask=mask, other=float("-inf"))
    out_desc = tl.make_tensor_descriptor(Out, shape=[M, N], strides=[N, 1],
                                         block_shape=[BLOCK_M, BLOCK_N])
    out_desc.atomic_max([pid_m * BLOCK_M, pid_n * BLOCK_N], x.to(Out.dtype.element_ty))


@triton.jit
def _desc_padded_max_kernel(X, Out, M, N, stride_xb, stride_xm, BLOCK_M: tl.constexpr,
                            BLOCK_N: tl.constexpr):
    # Out[m, n] = max over the batch of X[b, m, n], X's rows padded to
    # stride_xm >= the column blocks' end: the block reads the padding too, and
    # only the descriptor's shape keeps it out of Out.
    b = tl.program_id(0)
    pid_m = tl.program_id(1)
    pid_n = tl.program_id(2)
    rows = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)[:, None]
    cols = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)[None, :]
    x = tl.load(X + b * stride_xb + rows * stride_xm + cols, mask=rows < M, other=float("-inf"))
    out_desc = tl.make_tensor_descriptor(Out, shape=[M, N], strides=[N, 1],
                                         block_shape=[BLOCK_M, BLOCK_N])
    out_desc.atomic_max([pid_m * BLOCK_M, pid_n * BLOCK_N], x.to(Out.dtype.element_ty))


def desc_padded_max(x_padded, n):
    B, M, _ = x_padded.shape
    out = torch.full((M, n), float("-inf"), dtype=x_padded.dtype, device=x_padded.device)

    _use_torch_allocator(x_padded.device)
    grid = (B, triton.cdiv(M, 16), triton.cdiv(n, 32))
    _desc_padded_max_kernel[grid](x_padded, out, M, n, x_padded.stride(0), x_padded.stride(1),
                                  BLOCK_M=16, BLOCK_N=32)
    return out


def desc_batch_max(x):
    B, M, N = x.shape
    out = torch.full((M, N), float("-inf"), dtype=x.dtype, device=x.device)

    _use_torch_allocator(x.device)
    grid = (B, triton.cdiv(M, 16), triton.cdiv(N, 32))
    _desc_batch_max_kernel[grid](x, out, M, N, BLOCK_M=16, BLOCK_N=32)
    return out


@triton.jit
def _nf4_lut_dequant_kernel(q_ptr, lut_ptr, scale_ptr, out_ptr, n, GROUP: tl.constexpr,
                            BLOCK: tl.constexpr):
    # 4-bit codes (two per byte) looked up in a 16-entry table held in
    # registers (tl.gather), scaled per group of GROUP values.
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    packed = tl.load(q_ptr + offs // 2, mask=mask, other=0)
    code = tl.where(offs % 2 == 0, packed & 0xF, packed >> 4).to(tl.int32)
    lut = tl.load(lut_ptr + tl.arange(0, 16))
    values = tl.gather(lut, code, axis=0)
    scale = tl.load(scale_ptr + offs // GROUP, mask=mask, other=0.0)
    tl.store(out_ptr + offs, values * scale, mask=mask)


def nf4_lut_dequant(q, lut, scale, n, group):
    out = torch.empty(n, dtype=torch.float32, device=q.device)
    _nf4_lut_dequant_kernel[(triton.cdiv(n, 256),)](q, lut, scale, out, n, GROUP=group,
                                                     BLOCK=256)
    return out


@triton.jit
def _gather_rows_kernel(x_ptr, idx_ptr, out_ptr, m, n, stride_x, stride_i,
                        BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    # out[i, j] = x[i, idx[i, j]] within one block of rows: a per-row
    # permutation applied in registers (torch.gather along dim 1).
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.arange(0, BLOCK_N)
    mask = (rows[:, None] < m) & (cols[None, :] < n)
    x = tl.load(x_ptr + rows[:, None] * stride_x + cols[None, :], mask=mask, other=0.0)
    idx = tl.load(idx_ptr + rows[:, None] * stride_i + cols[None, :], mask=mask, other=0)
    y = tl.gather(x, idx, axis=1)
    tl.store(out_ptr + rows[:, None] * n + cols[None, :], y, mask=mask)


def gather_rows(x, idx):
    m, n = x.shape
    out = torch.empty_like(x)
    block_n = triton.next_power_of_2(n)
    _gather_rows_kernel[(triton.cdiv(m, 8),)](x, idx, out, m, n, x.stride(0), idx.stride(0),
                                               BLOCK_M=8, BLOCK_N=block_n)
    return out


@triton.jit
def _gather_cols_kernel(x_ptr, idx_ptr, out_ptr, k, n, r,
                        BLOCK_K: tl.constexpr, BLOCK_R: tl.constexpr, BLOCK_N: tl.constexpr):
    # out[i, j] = x[idx[i, j], j]: rows picked per column (gather along
    # axis 0, an index block with fewer rows than the source).
    cols = tl.program_id(0) * BLOCK_N + tl.arange(0, BLOCK_N)
    src_rows = tl.arange(0, BLOCK_K)
    out_rows = tl.arange(0, BLOCK_R)
    x = tl.load(x_ptr + src_rows[:, None] * n + cols[None, :],
                mask=(src_rows[:, None] < k) & (cols[None, :] < n), other=0)
    omask = (out_rows[:, None] < r) & (cols[None, :] < n)
    idx = tl.load(idx_ptr + out_rows[:, None] * n + cols[None, :], mask=omask, other=0)
    y = tl.gather(x, idx, 0)
    tl.store(out_ptr + out_rows[:, None] * n + cols[None, :], y, mask=omask)


def gather_cols(x, idx):
    k, n = x.shape
    r = idx.shape[0]
    out = torch.empty((r, n), dtype=x.dtype, device=x.device)
    _gather_cols_kernel[(triton.cdiv(n, 32),)](x, idx, out, k, n, r,
                                                BLOCK_K=triton.next_power_of_2(k),
                                                BLOCK_R=triton.next_power_of_2(r), BLOCK_N=32)
    return out
