# Kernels of the C API tests (tests/capi/CApiTest.c, CApiGpuTest.c), written
# as Triton writes them; the host code below the kernels is never compiled.
import triton
import triton.language as tl

SCALE = 2.0


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x + y, mask=mask)


@triton.jit
def _scaled(x, alpha):
    return x * alpha * SCALE


@triton.jit
def axpy_kernel(x_ptr, out_ptr, alpha, n, BLOCK: tl.constexpr):
    # out = SCALE * alpha * x + out, through a helper and a module constant.
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    out = tl.load(out_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, _scaled(x, alpha) + out, mask=mask)


@triton.jit
def scalars_kernel(out_ptr, flag, big, wide, half_value, dbl):
    # One value per parameter type, written as int64 / fp64 for the host.
    tl.store(out_ptr + 0, flag.to(tl.int64))
    tl.store(out_ptr + 1, big)
    tl.store(out_ptr + 2, wide)
    tl.store(out_ptr + 3, (half_value.to(tl.float32) * 4.0).to(tl.int64))
    tl.store(out_ptr + 4, (dbl * 8.0).to(tl.int64))


if __name__ == "__main__":
    print("host code: never compiled by mgp")
