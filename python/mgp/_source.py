"""The text mgp compiles for a kernel, and its specialization wrappers.

mgp compiles source text, not Python objects. A kernel defined at the top
level of its file compiles from the whole file (helpers and module constants
included). Otherwise the file is extended:

- a kernel defined inside a function gets its own definition appended, after
  the constants and helper functions of its closure (``NAME = value`` lines
  and the helpers' definitions), so that it sees its file's helpers and
  constants as well as what it captured;
- a ``triton.jit`` kernel whose ``src`` was replaced (``_unsafe_update_src``,
  as Triton's tests do) gets that text appended, which shadows the file's
  definition as a later ``def`` does in Python.

Module-level constants that are ``tl.constexpr`` objects or dtypes (Triton's
kernels may read only such globals) take their values from the running
module, as Triton's code generator reads them: ``FLAG =
tl.constexpr(os.environ.get("X") == "1")`` becomes ``FLAG = True`` in the
text (the statement's other lines left blank, so positions in errors stay
right), which mgp could not evaluate from the text alone.

Constexpr arguments that mgp's signatures cannot carry (strings, ``None``,
dtypes, ``@jit`` functions, tuples of these) are baked into a wrapper kernel
appended to the text: ``_mgp_spec_k(x, n)`` calls ``k(x, n, MODE="relu")``,
which mgp inlines, so those parameters become compile-time constants.
"""

import ast
import inspect
import re
import sys
import textwrap

_DEF = re.compile(r"^def\s+\w+\s*\(", re.MULTILINE)
TL = _TL = "_mgp_tl"
_IMPORT = f"import triton.language as {_TL}\n"

# Triton's canonical dtype names -> the spelling mgp's front end reads.
_DTYPE_SPELLING = {
    "u1": "int1", "i8": "int8", "i16": "int16", "i32": "int32", "i64": "int64",
    "u8": "uint8", "u16": "uint16", "u32": "uint32", "u64": "uint64",
    "fp16": "float16", "bf16": "bfloat16", "fp32": "float32", "fp64": "float64",
    "fp8e4nv": "float8e4nv", "fp8e5": "float8e5", "fp8e4b15": "float8e4b15",
}


class Unspellable(TypeError):
    """A value that has no spelling in kernel source."""


def is_unspellable(value):
    try:
        spell(value, {})
    except Unspellable:
        return True
    return False


def def_text(fn, src=None):
    """The function's definition from ``def`` on, dedented, decorators
    dropped (``src`` when given: Triton's ``JITFunction.src``)."""
    if src is None:
        src = textwrap.dedent(inspect.getsource(fn))
    match = _DEF.search(src)
    return src[match.start():] if match else src


def read_file(path):
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except (OSError, TypeError):
        return None


def _source_file(fn):
    try:
        return inspect.getsourcefile(fn)
    except TypeError:
        return None


def is_top_level(fn):
    return "<locals>" not in getattr(fn, "__qualname__", "<locals>")


def underlying_function(obj):
    """The Python function of a jit object (mgp's or Triton's), or of a
    plain function; None for anything else."""
    while hasattr(obj, "fn") and not inspect.isfunction(obj):
        obj = obj.fn
    return obj if inspect.isfunction(obj) else None


def _triton_src(obj):
    """Triton's replaced ``src`` of a jit object, or None."""
    src = getattr(obj, "src", None)
    return src if isinstance(src, str) else None


def spell(value, helpers):
    """Source text of a compile-time value; helpers (jit functions) used by
    it are added to ``helpers`` (name -> object). Unspellable if none."""
    while type(value).__name__ == "constexpr" and hasattr(value, "value"):
        value = value.value
    if value is None or isinstance(value, (bool, int, float, str)):
        if isinstance(value, float) and value != value:
            return 'float("nan")'
        if isinstance(value, float) and value in (float("inf"), float("-inf")):
            return 'float("inf")' if value > 0 else 'float("-inf")'
        return repr(value)
    if isinstance(value, tuple):
        items = [spell(v, helpers) for v in value]
        return "(" + "".join(item + ", " for item in items) + ")"
    fn = underlying_function(value)
    if fn is not None:
        helpers[fn.__name__] = value
        return fn.__name__
    from ._types import canonical_dtype  # a dtype object
    try:
        name = _DTYPE_SPELLING[canonical_dtype(value)]
    except (KeyError, TypeError):
        raise Unspellable(f"{type(value).__name__} {value!r}") from None
    return f"{_TL}.{name}"


class SourceBuilder:
    """Assembles the text of one kernel: the file, then appended
    definitions (each helper and constant once)."""

    def __init__(self, file_name, module_globals=None):
        self.file_name = file_name
        self.file_text = read_file(file_name)
        self.module_globals = module_globals
        self.parts = []
        self.defined = set()

    def text(self, kernel_name):
        """The file (pruned to what the kernel and the appended parts reach)
        and the appended parts."""
        appended = _IMPORT + "\n".join(self.parts) if self.parts else ""
        roots = {kernel_name}
        try:
            roots |= _names(ast.parse(appended))
        except SyntaxError:
            pass
        base = prune(self.file_text, roots) if self.file_text is not None else ""
        if self.module_globals is not None and base:
            base, uses_tl = bake_globals(base, self.module_globals)
            if uses_tl and not appended:
                appended = _IMPORT
        return base + "\n\n" + appended if appended else base

    def _in_file(self, fn):
        return (self.file_text is not None and is_top_level(fn)
                and _source_file(fn) == self.file_name)

    def add_function(self, obj, decorate, src=None):
        """Appends the definition of ``obj`` (a jit object or function) with
        its closure unless the file already has it unchanged."""
        fn = underlying_function(obj)
        src = src if src is not None else _triton_src(obj)
        text = def_text(fn, src)
        if self._in_file(fn) and (src is None or text == def_text(fn)):
            return
        key = (fn.__name__, text)
        if key in self.defined:
            return
        self.defined.add(key)
        self.add_closure(fn)
        self.parts.append(("@jit\n" if decorate else "") + text)

    def add_closure(self, fn):
        """NAME = value lines and helper definitions for the closure of
        ``fn`` (what it captured from enclosing functions); values without a
        spelling are left out (a kernel that uses them fails to compile with
        an undefined name)."""
        try:
            nonlocals = inspect.getclosurevars(fn).nonlocals
        except (TypeError, ValueError):
            return
        for name, value in nonlocals.items():
            if underlying_function(value) is not None:
                self.add_function(value, decorate=False)
                continue
            helpers = {}
            try:
                text = spell(value, helpers)
            except Unspellable:
                continue
            for helper in helpers.values():
                self.add_function(helper, decorate=False)
            line = f"{name} = {text}"
            if line not in self.defined:
                self.defined.add(line)
                self.parts.append(line + "\n")

    def add_wrapper(self, kernel_name, params, baked):
        """A kernel ``_mgp_spec_<name>`` over the parameters not in ``baked``
        (name -> source text) that calls the kernel with the baked values;
        returns its name."""
        kept = [p for p in params if p.name not in baked]
        name = f"_mgp_spec_{kernel_name}"
        header = ", ".join(p.name + (f": {_TL}.constexpr" if p.is_constexpr else "")
                           for p in kept)
        args = ", ".join(f"{p.name}={baked.get(p.name, p.name)}" for p in params)
        self.parts.append(
            f"@jit\ndef {name}({header}):\n"
            f"    {kernel_name}({args})\n")
        return name


def _names(node):
    """Every name a piece of syntax mentions (loads, calls, attribute bases,
    decorators, defaults, annotations)."""
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


_analyses = {}


def _analyse(text):
    """(lines, top-level definitions: name -> [(first line, last line,
    names they mention)], names the other top-level statements mention) of
    a file's text, or None when Python cannot parse it; cached per text."""
    found = _analyses.get(text)
    if found is not None or text in _analyses:
        return found
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        _analyses[text] = None
        return None
    defs, base, assigns = {}, set(), []
    kinds = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
    for node in tree.body:
        if isinstance(node, kinds):
            first = min([node.lineno] + [d.lineno for d in node.decorator_list])
            defs.setdefault(node.name, []).append(
                (first, node.end_lineno, _names(node)))
        else:  # imports, constants and other statements stay
            base |= _names(node)
            target = _assigned_name(node)
            if target is not None:
                assigns.append((target, node.lineno, node.end_lineno))
    if len(_analyses) > 64:
        _analyses.clear()
    found = _analyses[text] = (text.splitlines(keepends=True), defs, base, assigns)
    return found


def _assigned_name(node):
    """NAME of a top-level ``NAME = value`` / ``NAME: T = value`` on lines of
    its own, else None."""
    if isinstance(node, ast.Assign) and len(node.targets) == 1:
        target = node.targets[0]
    elif isinstance(node, ast.AnnAssign) and node.value is not None:
        target = node.target
    else:
        return None
    return target.id if isinstance(target, ast.Name) else None


def _constexpr_global(value):
    """Whether a module global is one a Triton kernel reads as a compile-time
    value: a ``tl.constexpr`` object or a ``tl.dtype`` (Triton's or mgp's; not
    a string, a torch or a NumPy dtype, which kernels cannot read)."""
    if type(value).__name__ == "constexpr" and hasattr(value, "value"):
        return True
    from . import language
    if isinstance(value, language.dtype):
        return True
    triton_language = sys.modules.get("triton.language")
    return triton_language is not None and isinstance(
        value, getattr(triton_language, "dtype", ()))


def bake_globals(text, module_globals):
    """(``text`` with each top-level ``NAME = ...`` whose running value in
    ``module_globals`` is a constexpr or a dtype replaced by ``NAME = <that
    value>``, whether the replacement names mgp's triton.language alias)."""
    analysis = _analyse(text)
    if analysis is None:
        return text, False
    lines, _, _, assigns = analysis
    lines, uses_tl = list(lines), False
    for name, first, last in assigns:
        value = module_globals.get(name)
        if value is None or not _constexpr_global(value):
            continue
        helpers = {}
        try:
            spelled = spell(value, helpers)
        except Unspellable:
            continue
        if helpers:  # a constexpr holding a jit function: left to the text
            continue
        uses_tl |= spelled.startswith(_TL + ".")
        lines[first - 1:last] = [f"{name} = {spelled}\n"] + ["\n"] * (last - first)
    return "".join(lines), uses_tl


def prune(text, roots):
    """``text`` with the top-level functions and classes that nothing
    reachable from the names ``roots`` mentions blanked out (lines kept, so
    positions in errors stay right): a kernel's file often holds much host
    code (test functions) that the compiler would parse for nothing. The text
    as it is when Python cannot parse it."""
    analysis = _analyse(text)
    if analysis is None:
        return text
    lines, defs, base, _ = analysis
    keep, todo = set(), set(roots) | base
    while todo:
        name = todo.pop()
        if name in keep or name not in defs:
            continue
        keep.add(name)
        for _, _, names in defs[name]:
            todo |= names
    lines = list(lines)
    for name, spans in defs.items():
        if name not in keep:
            for first, last, _ in spans:
                lines[first - 1:last] = ["\n"] * (last - first + 1)
    return "".join(lines)


def kernel_text(fn, file_name, src=None, params=None, baked=None, extra=None,
                name=None):
    """(source text, kernel name) mgp compiles for kernel ``fn`` (with
    Triton's replaced ``src``, then ``extra``, a kernel ``name`` that calls
    it, and a wrapper for the ``baked`` constexprs, name -> value)."""
    function = underlying_function(fn)
    same_file = function is not None and _source_file(function) == file_name
    builder = SourceBuilder(file_name,
                            function.__globals__ if same_file else None)
    if builder.file_text is None and src is None:
        src = def_text(fn)
    builder.add_function(fn, decorate=True, src=src)
    if extra:
        builder.parts.append(extra)
    name = name or fn.__name__
    if baked:
        helpers = {}
        spelled = {k: spell(v, helpers) for k, v in baked.items()}
        for helper in helpers.values():
            builder.add_function(helper, decorate=False)
        name = builder.add_wrapper(name, params, spelled)
    return builder.text(name), name
