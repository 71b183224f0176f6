"""The launchers of the Triton kernel suite.

This file implements the three ways the suite runs a kernel, each a thin swap
of the launch object the host code indexes with `[grid]`:
- `triton-interp`: Triton's interpreter (TRITON_INTERPRET=1, set before
  triton is imported), CPU tensors, no swap;
- `triton`: Triton on a GPU, CUDA tensors, no swap;
- `mgp`: `mgp.jit(kernel)` replaces each kernel the case launches in the
  kernels module for the duration of the call; CPU tensors under
  MGP_INTERPRET=1 (mgp's interpreter), CUDA tensors otherwise.
plus `record`, used by the compile checks: it swaps in a recorder that notes
each launch's specialization (suite/specialize.py) and runs nothing.
"""

import contextlib
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))


def select_launcher_environment(name):
    """Sets what must be set before triton is imported."""
    if name == "triton-interp":
        os.environ["TRITON_INTERPRET"] = "1"
    elif "TRITON_INTERPRET" in os.environ:
        del os.environ["TRITON_INTERPRET"]


def is_decorator(obj):
    """Triton's launch decorators: @triton.autotune, @triton.heuristics."""
    return type(obj).__name__ in ("Autotuner", "Heuristics")


def decorator_chain(obj):
    """[outer decorators (Autotuner, Heuristics) ...], innermost JITFunction."""
    layers = []
    while is_decorator(obj):
        layers.append(obj)
        obj = obj.fn
    return layers, obj


def resolve_launch(obj, args, kwargs):
    """Triton's binding of one launch: the innermost JITFunction, the values
    of all its parameters (defaults and decorator-provided constexprs filled
    in: the first autotune config, every heuristic), and the launch options
    (num_warps, num_stages)."""
    import inspect
    layers, base = decorator_chain(obj)
    kwargs = dict(kwargs)
    names = list(base.arg_names)
    # Launch options; a kernel may also take one as a constexpr parameter
    # (the fused-softmax tutorial's num_stages): then it is both.
    options = {k: (kwargs[k] if k in names else kwargs.pop(k))
               for k in ("num_warps", "num_stages", "num_ctas") if k in kwargs}
    for layer in layers:
        if type(layer).__name__ == "Autotuner":
            config = layer.configs[0]
            kwargs.update(config.kwargs)
            options.setdefault("num_warps", config.num_warps)
            options.setdefault("num_stages", config.num_stages)
    bound = dict(zip(names, args))
    bound.update(kwargs)
    for layer in reversed(layers):
        if type(layer).__name__ == "Heuristics":
            for key, fn in layer.values.items():
                if key not in kwargs:
                    kwargs[key] = fn(dict(bound))
                    bound[key] = kwargs[key]
    signature = inspect.signature(base.fn)
    for name, param in signature.parameters.items():
        if name not in bound and param.default is not inspect.Parameter.empty:
            bound[name] = param.default
    missing = [n for n in names if n not in bound]
    assert not missing, f"{base.fn.__name__}: no value for {missing}"
    options.setdefault("num_warps", 4)
    options.setdefault("num_stages", 3)
    return base, [bound[n] for n in names], kwargs, options


class _DecoratedMgpKernel:
    """mgp.jit of an autotuned / heuristics kernel when mgp.jit does not take
    the decorator itself: the first config and the heuristics, as Triton's
    decorators would pass them, then mgp's launch."""

    def __init__(self, obj, jit):
        self.obj = obj
        _, base = decorator_chain(obj)
        self.kernel = jit(base)

    def __getitem__(self, grid):
        def launch(*args, **kwargs):
            base, values, _, options = resolve_launch(self.obj, args, kwargs)
            named = dict(zip(base.arg_names, values))
            named.update({k: v for k, v in options.items() if k not in named})
            return self.kernel[grid](**named)
        return launch


class Launcher:
    name = "?"
    device = "cpu"

    def unavailable(self):
        """None when usable, else why not."""
        return None

    @contextlib.contextmanager
    def swapped(self, case):
        yield

    def synchronize(self):
        pass


class TritonInterpLauncher(Launcher):
    """Triton's interpreter with the shims of suite/interp_shims.py."""
    name = "triton-interp"
    device = "cpu"

    def __init__(self):
        self.shimmed = False

    @contextlib.contextmanager
    def swapped(self, case):
        from . import interp_shims
        if not self.shimmed:
            interp_shims.install_libdevice()
            interp_shims.install_condition()
            self.shimmed = True
        interp_shims.install_autotune(getattr(case.module, k) for k in case.kernels)
        yield

    def unavailable(self):
        if os.environ.get("TRITON_INTERPRET") != "1":
            return "TRITON_INTERPRET=1 was not set before triton was imported"
        try:
            import triton  # noqa: F401
        except ImportError as error:
            return f"triton cannot be imported ({error})"
        return None


class TritonGpuLauncher(Launcher):
    name = "triton"
    device = "cuda"

    def unavailable(self):
        try:
            import torch
            import triton  # noqa: F401
        except ImportError as error:
            return f"torch/triton cannot be imported ({error})"
        if not torch.cuda.is_available():
            return "no CUDA GPU"
        return None

    def synchronize(self):
        import torch
        torch.cuda.synchronize()


class _Swapper(Launcher):
    """Replaces a case's kernels in its module with wrap(kernel)."""

    def wrap(self, name, obj):
        raise NotImplementedError

    @contextlib.contextmanager
    def swapped(self, case):
        saved = {name: getattr(case.module, name) for name in case.kernels}
        try:
            for name, obj in saved.items():
                setattr(case.module, name, self.wrap(name, obj))
            yield
        finally:
            for name, obj in saved.items():
                setattr(case.module, name, obj)


class MgpLauncher(_Swapper):
    name = "mgp"

    def __init__(self):
        self.interpret = os.environ.get("MGP_INTERPRET") == "1"
        # The key of Case.skip: the interpreter cannot run what only a GPU can.
        self.skip_key = "mgp-interp" if self.interpret else "mgp"
        self.device = "cpu" if self.interpret else "cuda"
        self.cache = {}
        self.error = None
        extra = os.environ.get("MGP_PYTHONPATH")
        for path in ([extra] if extra else []) + [os.path.join(ROOT, "python")]:
            if os.path.isdir(path) and path not in sys.path:
                sys.path.insert(0, path)
        try:
            import mgp
            self.mgp = mgp
            if not hasattr(mgp, "jit"):
                self.error = f"mgp ({mgp.__file__}) has no jit"
        except Exception as error:   # ImportError, or a broken package
            self.error = f"mgp cannot be imported ({type(error).__name__}: {error})"

    def unavailable(self):
        if self.error:
            return self.error
        if not self.interpret:
            import torch
            if not torch.cuda.is_available():
                return "no CUDA GPU (set MGP_INTERPRET=1 for mgp's interpreter)"
        return None

    def wrap(self, name, obj):
        key = id(obj)
        if key not in self.cache:
            layers, _ = decorator_chain(obj)
            if not layers:
                self.cache[key] = self.mgp.jit(obj)
            else:
                try:
                    self.cache[key] = self.mgp.jit(obj)
                except Exception:
                    self.cache[key] = _DecoratedMgpKernel(obj, self.mgp.jit)
        return self.cache[key]

    def synchronize(self):
        if not self.interpret:
            import torch
            torch.cuda.synchronize()


class RecordLauncher(_Swapper):
    """Notes every launch (suite/specialize.py) instead of running it."""
    name = "record"
    device = "cpu"

    def __init__(self):
        self.launches = []

    def wrap(self, name, obj):
        recorder = self

        class Recorded:
            def __getitem__(self, grid):
                def launch(*args, **kwargs):
                    base, values, _, options = resolve_launch(obj, args, kwargs)
                    recorder.launches.append((name, base, values, options))
                return launch
        return Recorded()


def make_launcher(name):
    if name == "triton-interp":
        return TritonInterpLauncher()
    if name == "triton":
        return TritonGpuLauncher()
    if name == "mgp":
        return MgpLauncher()
    if name == "record":
        return RecordLauncher()
    raise SystemExit(f"unknown launcher {name!r} (triton-interp, triton, mgp)")
