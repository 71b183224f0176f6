#!/usr/bin/env python3
"""Compile time of the Triton kernel suite: mgp (mgpc + ptxas, and mgp's JIT in
process) against Triton.

For each kernel of tests/triton (its first specialization, the one its host
code launches first: suite/specialize.py), one after another on this machine:
  mgpc    the wall time of the `mgpc FILE -k KERNEL --signature SIG -D ...
          --num-warps W --arch ARCH -o K.ptx` process (no kernel cache:
          MGP_CACHE=off) plus `ptxas -arch=ARCH K.ptx`, i.e. source to cubin;
          by default the ptxas is Triton's own (the one inside Triton's
          figure), so that both compilers' output goes through the same
          assembler; --ptxas picks another (versions differ by ~2 ms a file)
  mgp JIT with --jit: what a Python program that launches the kernel waits
          for in a warm process, source to cubin: the kernel's text through
          mgp's C API (`mgp_kernel_compile`, as `mgp.jit` and `mgp.compile`
          call it; a numbered comment line in the kernel's text, so that no
          run is answered by the in-memory kernel cache) and its PTX
          through nvJitLink, the toolkit's in-process PTX compiler (the same
          ptxas as the driver's JIT that mgp's runtime calls on a GPU machine;
          this machine may have no driver)
  Triton  `triton.compile(ASTSource, target=GPUTarget("cuda", 90, 32),
          options={"num_warps": W})` in this process with an empty Triton
          cache (a fresh TRITON_CACHE_DIR per compile): source to cubin,
          Triton's bundled ptxas included, Python start-up and import not
          (one untimed compile warms Triton up first)
The best of --repeat runs of each is kept. Prints a markdown table (ms per
kernel, Triton / mgp: above 1, mgp compiles faster), the medians and the
geometric means of the ratios; --out writes it to a file. No GPU is needed.

    bench/compile_time.py --mgpc build/bin/mgpc [--ptxas PTXAS] [-k REGEX]
                          [--jit --mgp-library build/lib/libmgp.so
                           --nvjitlink libnvJitLink.so]
                          [--repeat 3] [--out compile-time.md]
"""

import argparse
import ctypes
import ctypes.util
import itertools
import datetime
import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SUITE = os.path.join(ROOT, "tests", "triton")


def time_mgp(spec, args, tmp):
    """Seconds from source to cubin through mgpc and ptxas, or an error."""
    ptx = os.path.join(tmp, "k.ptx")
    command = spec.mgpc_command(args.mgpc, ptx, arch=args.arch,
                                include=os.path.join(SUITE, "kernels"))
    env = dict(os.environ, MGP_CACHE="off")
    start = time.perf_counter()
    result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, env=env)
    if result.returncode != 0:
        return None, "mgpc: " + (result.stdout.strip().splitlines() or ["?"])[0]
    result = subprocess.run([args.ptxas, f"-arch={args.arch}", ptx, "-o",
                             os.path.join(tmp, "k.cubin")],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    seconds = time.perf_counter() - start
    if result.returncode != 0:
        return None, "ptxas: " + (result.stdout.strip().splitlines() or ["?"])[0]
    return seconds, ""


class NvJitLink:
    """PTX to cubin in this process (nvJitLink's C API through ctypes)."""

    INPUT_PTX = 2

    def __init__(self, path):
        self.lib = ctypes.CDLL(path)
        for name in ("nvJitLinkCreate", "nvJitLinkAddData", "nvJitLinkComplete",
                     "nvJitLinkGetLinkedCubinSize", "nvJitLinkGetLinkedCubin",
                     "nvJitLinkGetErrorLogSize", "nvJitLinkGetErrorLog",
                     "nvJitLinkDestroy"):
            getattr(self.lib, name).restype = ctypes.c_int

    def cubin(self, ptx, arch):
        """The cubin of PTX text ``ptx`` for ``arch``, or raises RuntimeError
        with nvJitLink's error log."""
        handle = ctypes.c_void_p()
        options = (ctypes.c_char_p * 1)(f"-arch={arch}".encode())
        self._check(self.lib.nvJitLinkCreate(ctypes.byref(handle), 1, options), None)
        try:
            data = ptx.encode()
            self._check(self.lib.nvJitLinkAddData(handle, self.INPUT_PTX, data,
                                                  ctypes.c_size_t(len(data)), b"k.ptx"), handle)
            self._check(self.lib.nvJitLinkComplete(handle), handle)
            size = ctypes.c_size_t()
            self._check(self.lib.nvJitLinkGetLinkedCubinSize(handle, ctypes.byref(size)), handle)
            image = ctypes.create_string_buffer(size.value)
            self._check(self.lib.nvJitLinkGetLinkedCubin(handle, image), handle)
            return image.raw
        finally:
            self.lib.nvJitLinkDestroy(ctypes.byref(handle))

    def _check(self, result, handle):
        if result == 0:
            return
        log = ""
        if handle is not None:
            size = ctypes.c_size_t()
            if self.lib.nvJitLinkGetErrorLogSize(handle, ctypes.byref(size)) == 0 and size.value:
                text = ctypes.create_string_buffer(size.value)
                self.lib.nvJitLinkGetErrorLog(handle, text)
                log = text.value.decode(errors="replace").strip()
        raise RuntimeError(f"nvJitLink error {result}" + (f": {log}" if log else ""))


def find_nvjitlink():
    """libnvJitLink from the CUDA toolkit (CUDA_HOME, /usr/local/cuda) or the
    loader's search path, or None."""
    for root in (os.environ.get("CUDA_HOME"), "/usr/local/cuda"):
        if root:
            for name in ("libnvJitLink.so", "libnvJitLink.so.13", "libnvJitLink.so.12"):
                path = os.path.join(root, "lib64", name)
                if os.path.exists(path):
                    return path
    return ctypes.util.find_library("nvJitLink")


_SERIAL = itertools.count()


def jit_request(spec):
    """(text, file, kernel name, signature) mgp's JIT compiles for this
    specialization, split as mgp.compile splits it (numbers in the
    signature, other constexprs baked into the text)."""
    import mgp
    from mgp.compiler import _signature_text
    kernel = mgp.jit(spec.fn.fn)
    kernel = getattr(kernel, "base_fn", kernel)
    types, constexprs = {}, {}
    for p in spec.params:
        if p.kind == "constexpr":
            constexprs[p.name] = p.value
        else:
            types[p.name] = ("*" if p.kind == "pointer" else "") + p.type + \
                (":16" if p.divisible16 and p.kind != "float" else "")
    signature, baked = _signature_text(kernel.arg_names, types, constexprs)
    text, name = kernel.baked_source(baked, lambda param: f"constexpr '{param}'") \
        if baked else (kernel.source(), kernel.__name__)
    return text, kernel._file, name, signature


def unique_text(text, name):
    """``text`` with a numbered comment line after the first line of kernel
    ``name``'s def: the same kernel, but a new cache key (the key covers the
    kernel's own text, runtime/CacheKey.h), so no run is a memory-cache hit."""
    lines = text.split("\n")
    for index, line in enumerate(lines):
        if line.startswith(f"def {name}("):
            lines.insert(index + 1, f"# compile_time.py run {next(_SERIAL)}")
            return "\n".join(lines)
    raise ValueError(f"no 'def {name}(' in the kernel's text")


def time_mgp_jit(spec, args, nvjitlink):
    """Seconds from source to cubin through mgp's C API and nvJitLink in this
    process, or an error."""
    import mgp
    try:
        text, file_name, name, signature = jit_request(spec)
        text = unique_text(text, name)
    except Exception as error:
        return None, f"mgp JIT: {type(error).__name__}: {error}"
    options = mgp.compiler.compile_options({"num_warps": spec.num_warps})
    options.arch = args.arch.encode()
    text = unique_text(text, name)
    start = time.perf_counter()
    try:
        kernel = mgp.CompiledKernel.compile(None, text, file_name, name, signature, options)
        nvjitlink.cubin(kernel.ptx, args.arch)
    except Exception as error:
        return None, f"mgp JIT: {str(error).strip().splitlines()[0]}"
    return time.perf_counter() - start, ""


def time_triton(spec, cache_root):
    """Seconds from source to cubin through triton.compile with an empty
    cache, or an error."""
    import triton
    from triton.backends.compiler import GPUTarget
    cache = tempfile.mkdtemp(dir=cache_root)
    os.environ["TRITON_CACHE_DIR"] = cache
    try:
        start = time.perf_counter()
        triton.compile(spec.ast_source(), target=GPUTarget("cuda", 90, 32),
                       options={"num_warps": spec.num_warps})
        return time.perf_counter() - start, ""
    except Exception as error:  # a kernel Triton refuses: reported, not timed
        return None, f"triton: {type(error).__name__}"
    finally:
        shutil.rmtree(cache, ignore_errors=True)


def best(fn, repeat):
    times, error = [], ""
    for _ in range(repeat):
        seconds, error = fn()
        if seconds is None:
            return None, error
        times.append(seconds)
    return min(times), ""


def geometric_mean(values):
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else float("nan")


def tritons_ptxas():
    """The ptxas Triton compiles with (its bundled one unless configured), or None."""
    try:
        from triton import knobs
        return knobs.nvidia.ptxas.path
    except (ImportError, AttributeError, RuntimeError):
        return None


def ptxas_version(ptxas):
    result = subprocess.run([ptxas, "--version"], capture_output=True, text=True)
    lines = result.stdout.strip().splitlines()
    return lines[-2] if len(lines) >= 2 else "?"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mgpc", required=True)
    parser.add_argument("--ptxas", help="the ptxas after mgpc (default: Triton's bundled one, "
                        "else ptxas on PATH)")
    parser.add_argument("--arch", default="sm_90a")
    parser.add_argument("-k", "--filter", default="")
    parser.add_argument("--repeat", type=int, default=3, help="runs per kernel and side (best kept)")
    parser.add_argument("--jit", action="store_true",
                        help="also time mgp's JIT in this process (C API + nvJitLink)")
    parser.add_argument("--mgp-library", help="libmgp.so for --jit (default: MGP_LIBRARY "
                        "or the installed package's)")
    parser.add_argument("--nvjitlink", help="libnvJitLink.so for --jit (default: the CUDA "
                        "toolkit's)")
    parser.add_argument("--out", help="also write the markdown here")
    args = parser.parse_args()
    if not args.ptxas:
        args.ptxas = tritons_ptxas() or "ptxas"
    for tool in (args.mgpc, args.ptxas):
        if not shutil.which(tool) and not os.path.exists(tool):
            print(f"compile_time.py: {tool} not found")
            return 2
    try:
        import triton  # noqa: F401
    except ImportError:
        print("compile_time.py: needs triton (pip install triton)")
        return 2
    nvjitlink = None
    if args.jit:
        path = args.nvjitlink or find_nvjitlink()
        if not path:
            print("compile_time.py: --jit needs libnvJitLink (the CUDA toolkit's; --nvjitlink PATH)")
            return 2
        nvjitlink = NvJitLink(path)
        if args.mgp_library:
            os.environ["MGP_LIBRARY"] = os.path.abspath(args.mgp_library)
        sys.path.insert(0, os.path.join(ROOT, "python"))
        os.environ["MGP_CACHE"] = "off"
        import mgp  # noqa: F401  (loads libmgp before the first timed compile)
    sys.path.insert(0, SUITE)
    os.environ.pop("TRITON_INTERPRET", None)
    os.environ.setdefault("TRITON_DEFAULT_FP_FUSION", "1")
    from run_suite import load_cases
    from suite.specialize import first_per_kernel, record_specs
    cases = load_cases(args.filter)
    specs, errors = record_specs(cases, all_shapes=False)
    first = first_per_kernel(specs)
    if not first:
        print(f"compile_time.py: no case of tests/triton matches -k {args.filter!r} "
              "(it selects cases by name, e.g. elementwise.add)")
        return 2
    rows = []
    times = {"mgpc": [], "jit": [], "triton": []}
    ratios = {"mgpc": [], "jit": []}
    with tempfile.TemporaryDirectory(prefix="mgp-compile-time-") as tmp:
        time_triton(first[0], tmp)  # Triton's one-time initialisation, untimed
        if nvjitlink:
            time_mgp_jit(first[0], args, nvjitlink)  # the same for mgp's library
        for spec in first:
            name = f"{os.path.relpath(spec.file, SUITE)}:{spec.fn_name}"
            measured, notes = {}, []
            sides = [("mgpc", lambda: time_mgp(spec, args, tmp))]
            if nvjitlink:
                sides.append(("jit", lambda: time_mgp_jit(spec, args, nvjitlink)))
            sides.append(("triton", lambda: time_triton(spec, tmp)))
            for side, fn in sides:
                measured[side], error = best(fn, args.repeat)
                if measured[side]:
                    times[side].append(measured[side])
                if error:
                    notes.append(error)
            cells = [name, f"w{spec.num_warps}"]
            cells += [f"{measured[side] * 1e3:.0f}" if measured[side] else "-"
                      for side, _ in sides]
            for side in ("mgpc", "jit"):
                if side not in measured:
                    continue
                ratio = measured["triton"] / measured[side] \
                    if measured[side] and measured["triton"] else None
                if ratio:
                    ratios[side].append(ratio)
                cells.append(f"{ratio:.2f}" if ratio else "-")
            cells.append("; ".join(notes))
            rows.append("| " + " | ".join(cells) + " |")
            print(rows[-1], flush=True)
    triton_version = __import__("triton").__version__
    header = ["kernel", "warps", "mgpc ms"] + (["mgp JIT ms"] if nvjitlink else []) + \
        ["Triton ms", "Triton/mgpc"] + (["Triton/JIT"] if nvjitlink else []) + ["note"]
    jit_text = ("; mgp JIT: mgp_kernel_compile in process (MGP_CACHE=off, no in-memory hit) + "
                "nvJitLink" if nvjitlink else "")
    text = [f"Compile time, source to cubin, {len(first)} kernels of tests/triton (first specialization "
            f"each), best of {args.repeat}, {datetime.date.today()}; mgpc: mgpc process + ptxas "
            f"-arch={args.arch} ({args.ptxas}, {ptxas_version(args.ptxas)}"
            f"{', the one Triton uses' if args.ptxas == tritons_ptxas() else ''})"
            f"{jit_text}; Triton {triton_version}: triton.compile in process, "
            "empty cache, its ptxas included. Ratio = Triton / mgp (above 1: mgp compiles faster).",
            "", "| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    text += rows
    summary = [f"Median mgpc {statistics.median(times['mgpc']) * 1e3:.0f} ms"]
    if nvjitlink:
        summary.append(f"mgp JIT {statistics.median(times['jit']) * 1e3:.0f} ms")
    summary.append(f"Triton {statistics.median(times['triton']) * 1e3:.0f} ms")
    means = [f"Triton/mgpc **{geometric_mean(ratios['mgpc']):.2f}** over "
             f"{len(ratios['mgpc'])} kernels timed on both sides"]
    if nvjitlink:
        means.append(f"Triton/JIT **{geometric_mean(ratios['jit']):.2f}** over "
                     f"{len(ratios['jit'])}")
        at_2x = sum(r >= 2 for r in ratios["jit"])
        means.append(f"{at_2x} kernels at least 2x faster in the JIT, "
                     f"{sum(r >= 2 for r in ratios['mgpc'])} as mgpc + ptxas")
    text += ["", ", ".join(summary) + "; geometric means: " + "; ".join(means) + "."]
    for case, shape, error in errors:
        text.append(f"(not recorded: {case} {shape}: {error})")
    print("\n".join(text[-1 - len(errors):]))
    if args.out:
        with open(args.out, "w") as f:
            f.write("\n".join(text) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
