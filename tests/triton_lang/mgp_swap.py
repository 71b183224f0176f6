"""pytest plugin: Triton's own language tests with ``triton.jit`` swapped
for ``mgp.jit`` (``pytest -p mgp_swap``, this folder on PYTHONPATH).

Loaded before the test modules are imported, it replaces ``triton.jit``
(also ``triton.runtime.jit.jit`` and ``triton.language.core.jit``) and
``triton.JITFunction`` by ``MgpKernel``: a Triton ``JITFunction`` (so its
``src``, ``_unsafe_update_src``, ``fn``, ``arg_names``, ``warmup`` and
``triton.autotune`` wrappers behave as the tests expect) whose launches run
``mgp.jit`` of itself: ``kernel[grid](...)`` compiles and runs through mgp,
on the GPU or, with ``MGP_INTERPRET=1``, on mgp's interpreter.

Where a test reaches what is Triton's implementation rather than its
language, the test is not applicable and is skipped with a reason that
starts with ``NA:`` (the runner counts these apart from Triton's own skips):

- ``compiled.asm[k]`` for ``k`` other than ``"ptx"`` (Triton's TTIR, TTGIR,
  LLVM IR, cubin, AMDGCN), ``compiled.metadata``, ``n_regs``, ``n_spills``;
  ``asm["ptx"]`` is mgp's PTX on the GPU (tests that look for Triton's
  instruction choices in it fail, listed as such);
- ``triton.compile(...)`` (Triton's compiler entry on its ``ASTSource`` or IR
  text);
- ``patch_kernel`` in the test modules is replaced by the branch Triton's
  tests take off the interpreter (a ``JITFunction`` whose ``src`` is
  replaced), because the interpreter branch ``exec``s the text, leaving a
  function without source, which a compiler cannot read.

With MGP_TT_NO_SWAP=1 nothing is swapped (the baseline: Triton itself on the
same tests; run_triton_tests.py --triton-baseline). Every report is appended as one JSON line to ``$MGP_TT_RESULTS`` (if set):
node id, outcome, phase, the first line of the error or the skip reason,
whether a kernel ran through mgp before the test ended, and seconds.
"""

import json
import os
import sys
import time
import zlib

import pytest

NA = "NA: "
_state = {"launches": 0}


def _na(reason):
    pytest.skip(NA + reason)


class CompiledProxy:
    """What a launch returns: Triton's CompiledKernel, as far as it is
    language rather than Triton's implementation."""

    def __init__(self, kernel):
        self._kernel = kernel
        self.asm = _Asm(kernel)
        self.name = getattr(kernel, "name", "")

    def __getattr__(self, name):
        if name in ("metadata", "n_regs", "n_spills", "packed_metadata",
                    "function", "module", "kernel", "src", "hash"):
            _na(f"reads Triton's compiled-kernel {name}")
        raise AttributeError(name)


class _Asm:
    def __init__(self, kernel):
        self._kernel = kernel

    def __getitem__(self, key):
        if key != "ptx":
            _na(f"reads Triton's asm[{key!r}]")
        try:
            return self._kernel.asm["ptx"]
        except (KeyError, AttributeError, TypeError):
            _na("reads asm['ptx'], which mgp's interpreter does not make")

    def __contains__(self, key):
        return key == "ptx"

    def keys(self):
        return ["ptx"]


def _triton_compile(*args, **kwargs):
    _na("calls triton.compile (Triton's compiler on its ASTSource or IR)")


def install():
    """Swaps triton.jit for mgp; returns the MgpKernel class."""
    import mgp
    import triton
    import triton.language.core as tlcore
    import triton.runtime.jit as rjit
    from triton.runtime import interpreter as _interp  # noqa: F401  (imports first)

    base = rjit.JITFunction

    class MgpKernel(base):
        """A triton.jit kernel whose launches run through mgp.jit."""

        def __init__(self, fn, **kwargs):
            super().__init__(fn, **kwargs)
            self._mgp = None
            self._mgp_src = None

        def mgp_kernel(self):
            if self._mgp is None or self._mgp_src is not self.src:
                self._mgp = mgp.jit(self)
                self._mgp_src = self.src
            return self._mgp

        def run(self, *args, grid, warmup, **kwargs):
            try:
                kernel = self.mgp_kernel().run(*args, grid=grid, warmup=warmup, **kwargs)
            except mgp.CompileError as error:
                raise compile_error(str(error)) from None
            if not warmup:
                _state["launches"] += 1
            return CompiledProxy(kernel)

    from triton.compiler.errors import CompilationError

    class MgpCompilationError(mgp.CompileError, CompilationError):
        """mgp's compile error as Triton's tests expect one: a
        triton.CompilationError (so a TritonError) that is also
        mgp.CompileError, with mgp's message."""

        def __init__(self, message):
            Exception.__init__(self, message)
            self.src, self.node, self.error_message = None, None, message
            self.message = message

        def __str__(self):
            return self.message

        def __reduce__(self):
            return type(self), (self.message,)

    def compile_error(message):
        return MgpCompilationError(message)

    def jit(fn=None, **kwargs):
        if fn is None:
            return lambda f: MgpKernel(f, **kwargs)
        return MgpKernel(fn, **kwargs)

    jit.__doc__ = "triton.jit swapped for mgp (tests/triton_lang/mgp_swap.py)"
    for module in (triton, rjit, tlcore):
        if hasattr(module, "jit"):
            module.jit = jit
    triton.JITFunction = MgpKernel
    rjit.JITFunction = MgpKernel
    import triton.runtime as rt
    rt.JITFunction = MgpKernel
    import triton.compiler as tc
    triton.compile = _triton_compile
    tc.compile = _triton_compile
    return MgpKernel


def _patch_kernel(template, to_replace):
    """Triton's tests' patch_kernel, the branch they take off the
    interpreter: a JITFunction (here MgpKernel) with its text replaced."""
    import triton
    kernel = triton.JITFunction(template.fn)
    src = kernel.src
    for key, value in to_replace.items():
        src = src.replace(key, value)
    kernel._unsafe_update_src(src)
    return kernel


def _provide_kstest():
    """test_random uses scipy.stats.kstest(x, "uniform", args=(0, 1)) for
    one statistic; where SciPy is not installed, this module provides that
    statistic (the Kolmogorov-Smirnov D of the uniform distribution,
    computed with NumPy) and nothing else."""
    try:
        import scipy.stats  # noqa: F401
        return
    except ImportError:
        pass
    import sys
    import types
    from collections import namedtuple

    import numpy as np
    result = namedtuple("KstestResult", "statistic pvalue")

    def kstest(rvs, cdf, args=(0, 1)):
        if cdf != "uniform":
            raise NotImplementedError(f"kstest stand-in: only 'uniform', not {cdf!r}")
        loc, scale = args
        x = np.sort((np.asarray(rvs, dtype=np.float64) - loc) / scale).clip(0, 1)
        n = len(x)
        upper = np.arange(1, n + 1) / n - x
        lower = x - np.arange(0, n) / n
        return result(float(max(upper.max(), lower.max())), float("nan"))

    scipy = types.ModuleType("scipy")
    stats = types.ModuleType("scipy.stats")
    stats.kstest = kstest
    scipy.stats = stats
    scipy.__mgp_stand_in__ = True
    sys.modules["scipy"] = scipy
    sys.modules["scipy.stats"] = stats


def swapping():
    """False for the baseline run (MGP_TT_NO_SWAP=1): Triton's own
    interpreter on the same tests, with the same reporting."""
    return os.environ.get("MGP_TT_NO_SWAP", "") in ("", "0")


def pytest_configure(config):
    _provide_kstest()
    if swapping():
        install()


def pytest_addoption(parser):
    parser.addoption("--mgp-shard", default="0/1",
                     help="I/N: run only the tests whose id hashes to I mod N")
    parser.addoption("--mgp-sample", type=int, default=1,
                     help="run one test in every N (by a hash of its id)")


def _bucket(nodeid, n):
    return zlib.crc32(nodeid.encode()) % n


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(session, config, items):
    shard, shards = (int(x) for x in config.getoption("--mgp-shard").split("/"))
    sample = config.getoption("--mgp-sample")
    if shards > 1 or sample > 1:
        kept = [i for i in items if _bucket(i.nodeid, sample) == 0
                and _bucket(i.nodeid + "#", shards) == shard]
        kept_ids = {id(i) for i in kept}
        config.hook.pytest_deselected(items=[i for i in items if id(i) not in kept_ids])
        items[:] = kept
    # every test module, also those imported by others (test_standard uses
    # test_core's helpers, which call test_core's patch_kernel)
    for name, module in list(sys.modules.items()) if swapping() else []:
        if name.rsplit(".", 1)[-1].startswith("test_") and hasattr(module, "patch_kernel"):
            module.patch_kernel = _patch_kernel


def pytest_collection_finish(session):
    path = os.environ.get("MGP_TT_COLLECTED")
    if path:
        with open(path, "a", encoding="utf-8") as f:
            f.writelines(i.nodeid + "\n" for i in session.items)


def pytest_runtest_setup(item):
    _state["launches"] = 0
    _state["start"] = time.monotonic()


def _first_line(report):
    if report.skipped:
        longrepr = report.longrepr
        if isinstance(longrepr, tuple) and len(longrepr) == 3:
            return str(longrepr[2]).removeprefix("Skipped: ")
        return str(longrepr or "")
    crash = getattr(report.longrepr, "reprcrash", None)
    if crash is not None:
        text = crash.message
    else:
        text = str(report.longrepr or "")
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if not lines:
        return ""
    # mgp's compile errors: "compiling kernel ...:" then "file:l:c: error: ..."
    for line in lines:
        if ": error: " in line:
            where, _, error = line.partition(": error: ")
            return (lines[0].split(":", 1)[0].rsplit(".", 1)[-1] + ": line "
                    + where.rsplit(".py:", 1)[-1] + ": error: " + error)
    if lines[0].endswith(":") and len(lines) > 1:  # AssertionError: then text
        return " ".join(lines[:3])
    return lines[0]


def pytest_runtest_logreport(report):
    path = os.environ.get("MGP_TT_RESULTS")
    if not path:
        return
    if report.when != "call" and report.passed:
        return
    record = {
        "id": report.nodeid, "when": report.when, "outcome": report.outcome,
        "xfail": hasattr(report, "wasxfail"), "message": _first_line(report)[:400],
        "launched": _state["launches"], "seconds": round(report.duration, 3),
    }
    with open(path, "a", encoding="utf-8") as f:
        f.write(json.dumps(record) + "\n")
