"""Triton's random numbers in NumPy: Philox 4x32-10 keyed by the seed and
counted by the offset, as triton.language.random computes them (the reference
of the dropout cases; a kernel's mask must equal Triton's bit for bit)."""

import numpy as np

_ROUND_A, _ROUND_B = 0xD2511F53, 0xCD9E8D57
_KEY_A, _KEY_B = 0x9E3779B9, 0xBB67AE85
_M32 = 0xFFFFFFFF


def _mulhilo(a, b):
    prod = np.uint64(a) * b.astype(np.uint64)
    return (prod >> np.uint64(32)).astype(np.uint32), (prod & np.uint64(_M32)).astype(np.uint32)


def philox4x32(seed, offsets, rounds=10):
    """The four uint32 streams at int32 (or int64) offsets for a seed."""
    offsets = np.asarray(offsets, dtype=np.int64)
    c0 = (offsets & _M32).astype(np.uint32)
    c1 = ((offsets >> 32) & _M32).astype(np.uint32)
    c2 = np.zeros_like(c0)
    c3 = np.zeros_like(c0)
    k0 = np.uint32(seed & _M32)
    k1 = np.uint32((seed >> 32) & _M32)
    for _ in range(rounds):
        hi_b, lo_b = _mulhilo(_ROUND_B, c2)
        hi_a, lo_a = _mulhilo(_ROUND_A, c0)
        c0, c1, c2, c3 = hi_b ^ c1 ^ k0, lo_b, hi_a ^ c3 ^ k1, lo_a
        k0 = np.uint32((int(k0) + _KEY_A) & _M32)
        k1 = np.uint32((int(k1) + _KEY_B) & _M32)
    return c0, c1, c2, c3


def uniform(bits):
    """uint_to_uniform_float: the bits as int32, negatives folded with ~x,
    times 2**-31 in float32."""
    x = bits.view(np.int32)
    x = np.where(x < 0, ~x, x)
    return x.astype(np.float32) * np.float32(4.6566127342e-10)


def rand(seed, offsets):
    return uniform(philox4x32(seed, offsets)[0])


def rand4x(seed, offsets):
    return [uniform(s) for s in philox4x32(seed, offsets)]


def randn(seed, offsets):
    c0, c1, _, _ = philox4x32(seed, offsets)
    u1 = np.maximum(np.float32(1.0e-7), uniform(c0)).astype(np.float64)
    u2 = uniform(c1).astype(np.float64)
    return np.sqrt(-2.0 * np.log(u1)) * np.cos(6.283185307179586 * u2)
