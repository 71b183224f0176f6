"""``@mgp.autotune``, ``@mgp.heuristics`` and ``mgp.Config``, with Triton's
semantics, and the conversion of ``triton.autotune`` / ``triton.heuristics``
objects.

An autotuned kernel benchmarks its configs once per key (the values of the
``key`` arguments and the dtypes of the tensor arguments), keeps the fastest
in memory and on disk (``<MGP_CACHE_DIR>/autotune/``, default
``~/.cache/mgp/autotune``; ``MGP_CACHE=off`` keeps it in memory only), and
launches it. ``reset_to_zero`` / ``restore_value`` arguments are zeroed /
restored around each benchmark run, as in Triton.
"""

import hashlib
import json
import os
import tempfile

from . import _lib, runtime


class Config:
    """A kernel configuration: meta-parameters plus num_warps/num_stages."""

    def __init__(self, kwargs, num_warps=4, num_stages=3, num_ctas=1,
                 maxnreg=None, pre_hook=None, ir_override=None):
        self.kwargs = dict(kwargs)
        self.num_warps = num_warps
        self.num_stages = num_stages
        self.num_ctas = num_ctas
        self.maxnreg = maxnreg
        self.pre_hook = pre_hook

    def all_kwargs(self):
        result = dict(self.kwargs)
        result["num_warps"] = self.num_warps
        result["num_stages"] = self.num_stages
        if self.num_ctas != 1:
            result["num_ctas"] = self.num_ctas
        if self.maxnreg is not None:
            result["maxnreg"] = self.maxnreg
        return result

    def describe(self):
        """A stable text of the config (the disk cache's identity)."""
        items = sorted((k, repr(v)) for k, v in self.kwargs.items())
        text = (f"{items}, num_warps={self.num_warps}, "
                f"num_stages={self.num_stages}, num_ctas={self.num_ctas}")
        return text if self.maxnreg is None else f"{text}, maxnreg={self.maxnreg}"

    def __repr__(self):
        parts = [f"{k}: {v}" for k, v in self.kwargs.items()]
        parts += [f"num_warps: {self.num_warps}", f"num_stages: {self.num_stages}"]
        return ", ".join(parts)


def _zero(obj):
    if hasattr(obj, "zero_"):
        obj.zero_()
    else:
        obj[...] = 0


def _clone(obj):
    return obj.clone() if hasattr(obj, "clone") else obj.copy()


def _restore(obj, saved):
    if hasattr(obj, "copy_"):
        obj.copy_(saved)
    else:
        obj[...] = saved


def _cache_dir():
    if os.environ.get("MGP_CACHE", "").lower() in ("off", "0", "false", "no"):
        return None
    base = os.environ.get("MGP_CACHE_DIR") or os.path.join(
        os.path.expanduser("~"), ".cache", "mgp")
    return os.path.join(base, "autotune")


class Autotuner:
    """A kernel launched with the fastest of ``configs`` per key."""

    def __init__(self, fn, arg_names, configs, key, reset_to_zero=None,
                 restore_value=None, pre_hook=None, post_hook=None,
                 prune_configs_by=None, warmup=25, rep=100, do_bench=None,
                 cache_results=True):
        self.fn = fn
        self.base_fn = getattr(fn, "base_fn", fn)
        self.arg_names = list(arg_names)
        self.configs = list(configs) or [Config({})]
        self.keys = list(key)
        self.reset_to_zero = list(reset_to_zero or [])
        self.restore_value = list(restore_value or [])
        self.user_pre_hook = pre_hook
        self.user_post_hook = post_hook
        prune = prune_configs_by or {}
        self.perf_model = prune.get("perf_model")
        self.configs_top_k = prune.get("top_k", 1.0)
        self.early_config_prune = prune.get("early_config_prune")
        self.warmup_ms = 25 if warmup is None else warmup
        self.rep_ms = 100 if rep is None else rep
        self._do_bench = do_bench
        self.cache_results = cache_results
        self.cache = {}
        self.best_config = None
        self.configs_timings = None
        self.bench_count = 0  # benchmark runs made (tests, reports)

    def __getitem__(self, grid):
        return lambda *args, **kwargs: self.run(*args, grid=grid, **kwargs)

    # -- keys --------------------------------------------------------------

    def _named(self, args, kwargs):
        named = dict(zip(self.arg_names, args))
        named.update((k, v) for k, v in kwargs.items() if k in self.arg_names)
        return named

    def _key(self, named):
        key = [named[k] for k in self.keys if k in named]
        key += [str(v.dtype) for v in named.values() if hasattr(v, "dtype")]
        return tuple(key)

    def prune_configs(self, named, kwargs):
        configs = self.configs
        if self.early_config_prune:
            configs = self.early_config_prune(configs, named, **kwargs)
            if not configs:
                raise ValueError("early_config_prune returned no config")
        if self.perf_model:
            top_k = self.configs_top_k
            if isinstance(top_k, float) and top_k <= 1.0:
                top_k = max(1, int(len(configs) * top_k))
            if len(configs) > top_k:
                estimates = {i: self.perf_model(**named, **kwargs, **c.all_kwargs())
                             for i, c in enumerate(configs)}
                order = sorted(estimates, key=estimates.get)[:top_k]
                configs = [configs[i] for i in order]
        return configs

    # -- benchmarking --------------------------------------------------------

    def _bench(self, args, kwargs, named, config, grid):
        conflicts = kwargs.keys() & config.kwargs.keys()
        if conflicts:
            raise ValueError(f"conflicting meta-parameters: {', '.join(sorted(conflicts))} "
                             "are given by the caller and by the autotuner")
        current = dict(kwargs, **config.all_kwargs())
        full = {**named, **current}

        def call():
            if config.pre_hook:
                config.pre_hook(full)
            if self.user_pre_hook:
                self.user_pre_hook(full)
            for name in self.reset_to_zero:
                if full.get(name) is not None:
                    _zero(full[name])
            saved = {n: _clone(full[n]) for n in self.restore_value
                     if full.get(n) is not None}
            try:
                self.fn.run(*args, grid=grid, **current)
            finally:
                for name, value in saved.items():
                    _restore(full[name], value)
                if self.user_post_hook:
                    self.user_post_hook(full, exception=None)
            self.bench_count += 1

        bench = self._do_bench or (lambda f: runtime.do_bench(
            f, warmup=self.warmup_ms, rep=self.rep_ms, return_mode="median"))
        try:
            result = bench(call)
        except _lib.CompileError:
            return float("inf")
        return result[0] if isinstance(result, (list, tuple)) else result

    def _disk_path(self, key, configs):
        directory = _cache_dir()
        if directory is None or any(c.pre_hook for c in configs):
            return None
        fn = self.base_fn
        if runtime.interpreting():
            target = "interpreter"
        else:
            ctx = runtime.context(runtime.current_device())
            target = f"{ctx.name} {ctx.arch}"
        text = "\n".join([_lib.version(), target, fn.__name__,
                          hashlib.sha256(fn.source().encode()).hexdigest(),
                          repr(key)] + [c.describe() for c in configs])
        digest = hashlib.sha256(text.encode()).hexdigest()
        return os.path.join(directory, f"{fn.__name__[:100]}-{digest[:32]}.json")

    def _read_disk(self, path, configs):
        try:
            with open(path, encoding="utf-8") as f:
                saved = json.load(f)
            index = saved["best"]
            if configs[index].describe() != saved["config"]:
                return None
            return configs[index], saved.get("timings")
        except (OSError, ValueError, KeyError, IndexError, TypeError):
            return None  # absent or damaged: benchmark again

    def _write_disk(self, path, configs, best, timings):
        try:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            fd, temp = tempfile.mkstemp(dir=os.path.dirname(path), suffix=".tmp")
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump({"best": best, "config": configs[best].describe(),
                           "timings": timings}, f)
            os.replace(temp, path)
        except OSError:
            pass  # an unwritable cache only costs a benchmark next time

    def _choose(self, key, args, kwargs, named, grid):
        configs = self.prune_configs(named, kwargs)
        if len(configs) == 1:
            return configs[0]
        path = self._disk_path(key, configs) if self.cache_results else None
        if path:
            found = self._read_disk(path, configs)
            if found:
                self.configs_timings = found[1]
                return found[0]
        timings = [self._bench(args, kwargs, named, c, grid) for c in configs]
        best = min(range(len(configs)), key=timings.__getitem__)
        for name in self.reset_to_zero:  # the launch starts from zeros too
            if named.get(name) is not None:
                _zero(named[name])
        self.configs_timings = timings
        if path:
            self._write_disk(path, configs, best, timings)
        return configs[best]

    # -- launching ------------------------------------------------------------

    def run(self, *args, grid, warmup=False, **kwargs):
        named = self._named(args, kwargs)
        if len(self.configs) > 1 or self.early_config_prune or self.perf_model:
            key = self._key(named)
            config = self.cache.get(key)
            if config is None:
                config = self.cache[key] = self._choose(key, args, kwargs,
                                                        named, grid)
        else:
            config = self.configs[0]
        self.best_config = config
        if config.pre_hook:
            config.pre_hook({**named, **kwargs, **config.all_kwargs()})
        return self.fn.run(*args, grid=grid, warmup=warmup,
                           **kwargs, **config.all_kwargs())

    def warmup(self, *args, grid=None, **kwargs):
        named = self._named(args, kwargs)
        return [self.fn.warmup(*args, grid=grid, **kwargs, **c.all_kwargs())
                for c in self.prune_configs(named, kwargs)]


class Heuristics:
    """Meta-parameters computed from the arguments (``values``: name ->
    function of the dict of arguments)."""

    def __init__(self, fn, arg_names, values):
        self.fn = fn
        self.base_fn = getattr(fn, "base_fn", fn)
        self.arg_names = list(arg_names)
        self.values = dict(values)

    def __getitem__(self, grid):
        return lambda *args, **kwargs: self.run(*args, grid=grid, **kwargs)

    def run(self, *args, grid, warmup=False, **kwargs):
        for name, compute in self.values.items():
            kwargs[name] = compute({**dict(zip(self.arg_names, args)), **kwargs})
        return self.fn.run(*args, grid=grid, warmup=warmup, **kwargs)

    def warmup(self, *args, grid=None, **kwargs):
        return self.run(*args, grid=grid, warmup=True, **kwargs)


def autotune(configs, key, prune_configs_by=None, reset_to_zero=None,
             restore_value=None, pre_hook=None, post_hook=None, warmup=None,
             rep=None, do_bench=None, cache_results=True, **_ignored):
    """``@mgp.autotune(configs=[mgp.Config(...)], key=["n"])`` above
    ``@mgp.jit`` (Triton's arguments; ``use_cuda_graph`` is ignored)."""
    def decorator(fn):
        from .jit import jit
        fn = jit(fn)
        return Autotuner(fn, fn.arg_names, configs, key, reset_to_zero,
                         restore_value, pre_hook, post_hook, prune_configs_by,
                         warmup, rep, do_bench, cache_results)
    return decorator


def heuristics(values):
    """``@mgp.heuristics({"BLOCK": lambda args: ...})`` above ``@mgp.jit``."""
    def decorator(fn):
        from .jit import jit
        fn = jit(fn)
        return Heuristics(fn, fn.arg_names, values)
    return decorator


def _config_from_triton(config):
    return Config(getattr(config, "kwargs", {}),
                  num_warps=getattr(config, "num_warps", 4),
                  num_stages=getattr(config, "num_stages", 3),
                  num_ctas=getattr(config, "num_ctas", 1) or 1,
                  maxnreg=getattr(config, "maxnreg", None),
                  pre_hook=getattr(config, "pre_hook", None))


def from_triton(obj, jit):
    """mgp's Autotuner / Heuristics for a ``triton.autotune`` /
    ``triton.heuristics`` object (the wrapped function converted with
    ``jit``), or None for anything else."""
    kind = type(obj).__name__
    module = type(obj).__module__ or ""
    if not module.startswith("triton"):
        return None
    if kind == "Autotuner":
        prune = {"perf_model": getattr(obj, "perf_model", None),
                 "top_k": getattr(obj, "configs_top_k", 1.0),
                 "early_config_prune": getattr(obj, "early_config_prune", None)}
        pre = obj.pre_hook if getattr(obj, "user_defined_pre_hook", False) else None
        post = obj.post_hook if getattr(obj, "user_defined_post_hook", False) else None
        inner = jit(obj.fn)
        return Autotuner(inner, inner.arg_names,
                         [_config_from_triton(c) for c in obj.configs],
                         list(getattr(obj, "keys", [])),
                         getattr(obj, "reset_to_zero", None),
                         getattr(obj, "restore_value", None), pre, post, prune,
                         getattr(obj, "num_warmups", None),
                         getattr(obj, "num_reps", None))
    if kind == "Heuristics":
        inner = jit(obj.fn)
        return Heuristics(inner, inner.arg_names, obj.values)
    return None
