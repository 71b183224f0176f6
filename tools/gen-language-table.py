#!/usr/bin/env python3
"""Prints the markdown table of docs/language.md ("Every name of
`triton.language`"): every name of the installed Triton's triton.language.__all__
with its status in mgp (kept by hand below). Fails listing any name the
statuses miss, so a newer Triton shows what to classify."""
import triton.language as tl
names = sorted(tl.__all__, key=str.lower)
S, L, N, X = "supported", "supported, with limits", "not yet", "never"
st = {}
def s(status, note, *ns):
    for n in ns: st[n] = (status, note)
s(S, "", "abs","arange","cdiv","ceil","cos","debug_barrier","div_rn","erf","exp","exp2","expand_dims","fdiv","floor","fma","full","load","log","log2","maximum","minimum","multiple_of","max_contiguous","num_programs","program_id","permute","reshape","rsqrt","sigmoid","sin","sqrt","sqrt_rn","static_assert","static_print","static_range","store","sum","trans","umulhi","view","where","zeros","zeros_like","xor_sum","reduce_or","softmax","swizzle2d","clamp","cumsum","cumprod","broadcast_to","broadcast","cast","constexpr","range","add","sub","mul","to_tensor","pointer_type","pi32_t","TRITON_MAX_TENSOR_NUMEL","math","max_constancy")
st["range"] = (S, "`num_stages`, `loop_unroll_factor`, `flatten`, `warp_specialize`, `disallow_acc_multi_buffer` accepted; mgp's pipeliner takes `num_stages` from the launch")
st["max_constancy"] = (S, "accepted; the hint is not used")
st["math"] = (S, "every core function, and any libdevice name (`tl.math.tanh`)")
st["extra"] = (S, "`tl.extra.cuda.libdevice` (every function of Triton's libdevice.py), `gdc_wait` / `gdc_launch_dependents` (no-ops: mgp does not use programmatic dependent launch)")
for n in ["int1","int8","int16","int32","int64","float16","bfloat16","float32","float64","float8e4nv","float8e5"]:
    st[n] = (S, "fp8: converts through fp16/fp32 (saturating, round to nearest even; PTX's cvt from sm_89 on, float8e5 in integer arithmetic with the same bits before); fp8 arithmetic computes in fp16; `dot` widens fp8 operands to fp16 (exact); float8e4nv needs sm_89 or newer (a located error before, as Triton rejects it there)" if n.startswith("float8") else "")
for n in ["uint8","uint16","uint32","uint64"]:
    st[n] = (S, "unsigned semantics as Triton's: logical `>>`, unsigned comparisons, `//`, `%`, min/max and conversions")
for n in ["float8e4b8","float8e5b16"]:
    st[n] = (X, "AMD fp8 formats: NVIDIA GPUs have none, and Triton\'s NVIDIA backend rejects them too (a located error names float8e4nv and float8e5)")
st["float8e4b15"] = (S, "Triton\'s pre-Hopper fp8 (exponent bias 15, at most 1.875, no infinities or NaN): bytes in memory, converted as Triton\'s CUDA backend converts it, in integer arithmetic on the bits (to fp16 exactly; from fp16 saturating to 1.75, NaN and infinities too, rounding half away from zero; fp32 becomes fp16 toward zero first, other types go through fp32); arithmetic computes in fp16, `dot` widens it to fp16; on every arch; host tensors pass as `triton.reinterpret(uint8_tensor, tl.float8e4b15)`")
st["dtype"] = (L, "dtype objects: comparisons, `element_ty`, `primitive_bitwidth`, `is_*()`, calling one converts (`tl.float32(x)`); `tl.dtype('fp16')` is not constructed")
st["dot"] = (L, 'float operands (fp32 as `input_precision` "tf32", "ieee", or the split-precision "tf32x3", "bf16x3", "bf16x6" in Triton\'s products and order; fp16, bf16, fp8 widened to fp16, fp64); integer operands (int8/int16/int32, signed or unsigned) accumulate in int32 with wraparound: two signed int8 blocks of tensor-core tiles (M % 16, N % 8, K % 32) on tensor cores (mma.sync m16n8k32, wgmma m64nNk32 on sm_90a), the others on CUDA cores; `out_dtype` is the result type of fp16 and fp8 dots (accumulated in fp32, converted once); as in Triton, integer dots give int32, fp32 and bf16 dots fp32 and fp64 dots fp64 whatever `out_dtype` says; 3-D operands `[B, M, K] @ [B, K, N]` are B 2-D dots (power-of-two dimensions)')
st["max"] = (L, "reduction (types narrower than 32 bits reduce in fp32 / int32, as in Triton); `tl.max(a, b)` of two blocks is `maximum`; bare `max(...)` in a kernel is `tl.maximum`")
st["min"] = (L, "as `max`")
for n in ["argmax","argmin"]: st[n] = (S, "ties go to the lower index")
st["associative_scan"] = (L, "`combine_fn` a @jit function; a reverse scan of a non-power-of-two axis is an error")
st["reduce"] = (L, "`combine_fn` a @jit function; a non-power-of-two axis is an error (no neutral element)")
for n in ["atomic_add","atomic_and","atomic_cas","atomic_max","atomic_min","atomic_or","atomic_xchg","atomic_xor"]:
    st[n] = (S, "masks, `sem`, `scope`, old values returned; float max/min through integer atomics on the bits")
for n in ["atomic_load","atomic_store","atomic_poll"]: st[n] = (N, "")
st["assume"] = (S, "evaluated; the hint is dropped")
st["device_assert"] = (S, "checked only in debug mode (`@triton.jit(debug=True)` or `mgpc --debug`), as Triton")
st["device_print"] = (S, "vprintf on the GPU, stderr on the interpreter; Python's `print` in a kernel is `device_print`")
st["advance"] = (S, "")
st["make_block_ptr"] = (S, "`load`/`store` with `boundary_check` and `padding_option`; ordinary masked loads")
st["make_tensor_descriptor"] = (L, 'made in the kernel or passed from the host (`TensorDescriptor` arguments, docs/python.md); `desc.load`/`desc.store` of a host descriptor on sm_90 and newer as TMA copies (`cp.async.bulk.tensor` into or out of shared memory, an mbarrier per load; not yet software-pipelined) when its view follows TMA\'s rules (16-byte aligned base and strides, block rows a multiple of 16 bytes; a block whose first column is not at a multiple of 16 bytes, and a stored block with a negative coordinate, take the masked path, tested at run time where the coordinates are not known), otherwise, and for in-kernel descriptors, as masked loads and stores with no alignment rule (Triton\'s TMA needs every stride but the last to be a multiple of 16 bytes and computes wrong results otherwise, an fp16 row of 44 elements; mgp takes any strides); `desc.atomic_add/min/max/and/or/xor` as masked relaxed atomics on Triton\'s element types, fp16/bf16 min/max as sm_90\'s vector atom (`atom.global.max.noftz.v2/v4/v8.f16`) on a thread\'s consecutive elements (when their alignment and masks are not known at compile time, a run-time check per group picks the vector atom for an aligned, whole group), else a compare-and-swap loop of PTX `max.f16`/`max.bf16` per element (NaN-avoiding: a NaN operand leaves the other value)')
for n in ["load_tensor_descriptor","store_tensor_descriptor"]: st[n] = (S, "")
st["tensor_descriptor"] = (L, 'host `TensorDescriptor` arguments become in-kernel descriptors (docs/python.md); not as an annotation or `mgpc --signature` type')
for n in ["rand","rand4x","randint","randint4x","randn","randn4x","philox","philox_impl","uint_to_uniform_float","pair_uniform_to_normal"]:
    st[n] = (S, "Philox-4x32-10 with Triton's bits (`randint` returns int32 with the uint32 bits)")
for n in ["join","split","interleave","flip","ravel"]:
    st[n] = (L, "power-of-two dimensions")
st["cat"] = (L, "`can_reorder=True` (as Triton), power-of-two dimensions")
st["histogram"] = (L, "1-D integer input, power-of-two `num_bins`; one-hot compare and sum (N x bins elements)")
st["sort"] = (L, "Triton's bitonic network: last dimension, power-of-two dimensions")
st["topk"] = (L, "Triton's bitonic top-k: last dimension, `k` a power of two")
st["bitonic_merge"] = (L, "last dimension, power-of-two dimensions")
st["map_elementwise"] = (S, "the `@jit` scalar function inlined into `mgp.map_elementwise` (an `if` or `while` in it branches per element on the GPU); `pack=` as Triton (the function takes and returns `pack` values per block, a function returning a tuple gives a tuple); not in Triton 3.6's interpreter")
for n in ["squeeze","unsqueeze","expect_zero"]:
    st[n] = (N, "")
st["condition"] = (S, "`while tl.condition(c, disable_licm=True):` is `while c:`; `disable_licm` (a constant) is accepted and not used: LLVM may still hoist invariant code out of the loop")
st["slice"] = (X, "the object a `:` of a subscript is in Triton's front end; the subscripts it serves (`x[:, None]`, `x[None, :]`) are supported")
st["tuple"] = (S, "`tl.tuple([a, b])` builds a tuple; tuples of constants and runtime values: `len`, indexing by a constant, unpacking, iteration in `static_range`; tuple kernel arguments through the Python door (docs/python.md)")
st["dot_scaled"] = (L, "2-D operands, or 3-D ones (a batch: `[B, M, K]` and `[B, K, N]`, scales `[B, rows, K / 32]`; Triton 3.6 compiles the 3-D form only without scales); Triton's decomposition for GPUs without scaled mma (what Triton 3.6 does on sm_90): each operand upcast to bf16 (fp16 when a format is fp16): e2m1 (two a byte, low nibble first, packed along K or, `k_pack=False`, along M / N), e4m3, e5m2, bf16, fp16; times its scale (uint8 e8m0 per 32 along K, or float8e4nv per 16), NaN where the scale is NaN unless `fast_math`; then a bf16/fp16 dot accumulating in fp32, converted to `out_dtype`. The e2m1 bytes and the scales are gathered by each thread straight into the layout the dot reads the operand in (no reshape or staging of the upcast tile); an MXFP4-weight matmul at 64x64x128 tiles takes 1.18-1.47x Triton's time on the H200 (docs/lowp-matmul-h200.md).")
st["gather"] = (L, "power-of-two dimensions; through shared memory on the GPU (Triton uses warp shuffles when the axis lies within a warp); an index out of range gives 0")
st["inline_asm_elementwise"] = (L, "GPU only (neither interpreter runs PTX); Triton's packing: elements narrower than 32 bits share a 32-bit register, `pack` elements of a thread per asm call (a thread with fewer runs the last call on zeros); the constraint count is checked against the registers")
st["PropagateNan"] = (S, '`tl.PropagateNan.NONE` / `ALL` for `propagate_nan=` of maximum, minimum and clamp (ALL: a NaN operand gives NaN)')
for n in ["block_type","tensor","void","constexpr_type"]:
    st[n] = (X, "a type or object of Triton's Python front end, not a kernel operation")
st["target_info"] = (S, "`is_cuda()`, `cuda_capability_geq(major, minor=0)`, `is_hip()`, `is_hip_cdna3()`, `is_hip_cdna4()` (also imported by name) are compile-time bools for the target compiled for; the CPU interpreter is no CUDA device (as Triton's interpreter without a GPU); `current_target()` returns a host object and is a located error")
st["const"] = (L, "as a parameter annotation (`x: tl.const`, or `*kfp32` in a signature): stores and atomics through the pointer, and through block pointers and tensor descriptors made from it, are located errors")
missing = [n for n in names if n not in st]
if missing:
    raise SystemExit("unclassified names: " + ", ".join(missing))
rows = ["| name | status | notes |", "|---|---|---|"]
for n in names:
    status, note = st[n]
    rows.append(f"| `{n}` | {status} | {note} |")
print("\n".join(rows))
