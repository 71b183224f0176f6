"""Tuple arguments: Triton flattens a tuple passed to a kernel parameter
into its elements, each specialized like an argument of its own (a tensor
is a pointer, an int a scalar or the constexpr 1, None a constexpr), and
the kernel indexes the tuple (``t[0]``). mgp's signatures have no tuples, so
a launch with tuple arguments goes to a variant kernel over the flattened
elements, ``_mgp_tuple_<name>(t__0, t__1, n)``, whose text calls the kernel
with the tuples rebuilt (``name((t__0, t__1), n)``); mgp inlines the call.
One variant per nesting structure of the tuples.
"""

from . import _source


def structure(value):
    """The nesting of a value: None for a leaf, a tuple of the elements'
    structures for a tuple."""
    if isinstance(value, tuple):
        return tuple(structure(v) for v in value)
    return None


def flatten(value):
    if isinstance(value, tuple):
        return [leaf for v in value for leaf in flatten(v)]
    return [value]


def _names_and_expression(name, shape, names):
    """Parameter names for the leaves of ``shape`` (appended to ``names``)
    and the expression that rebuilds the tuple from them."""
    if shape is None:
        leaf = f"{name}__{len(names)}"
        names.append(leaf)
        return leaf
    items = [_names_and_expression(name, s, names) for s in shape]
    return "(" + "".join(item + ", " for item in items) + ")"


def has_tuples(kernel, values):
    return any(isinstance(values[p.num], tuple) for p in kernel.params
               if not p.is_constexpr)


def variant(kernel, values):
    """The kernel over the flattened elements of this launch's tuples
    (made once per structure) and the flattened argument values."""
    shapes = tuple(None if p.is_constexpr else structure(values[p.num])
                   for p in kernel.params)
    found = kernel._tuple_variants.get(shapes)
    if found is None:
        found = kernel._tuple_variants[shapes] = _make_variant(kernel, shapes)
    flat = []
    for p, shape in zip(kernel.params, shapes):
        flat += [values[p.num]] if shape is None else flatten(values[p.num])
    return found, flat


def _make_variant(kernel, shapes):
    from .jit import JITFunction
    header, call, dns, dnsa = [], [], [], []
    for p, shape in zip(kernel.params, shapes):
        if shape is None:
            header.append(p.name)
            call.append(f"{p.name}={p.name}")
            leaves = [p.name]
        else:
            leaves = []
            call.append(f"{p.name}={_names_and_expression(p.name, shape, leaves)}")
            header += leaves
        if p.do_not_specialize:
            dns += leaves
        if p.do_not_specialize_on_alignment:
            dnsa += leaves
    constexprs = {p.name for p in kernel.params if p.is_constexpr}
    name = f"_mgp_tuple_{kernel.__name__}"
    params = ", ".join(h + (f": {_source.TL}.constexpr" if h in constexprs else "")
                       for h in header)
    wrapper = f"@jit\ndef {name}({params}):\n    {kernel.__name__}({', '.join(call)})\n"
    namespace = {}
    py_params = ", ".join(h + (": 'constexpr'" if h in constexprs else "") for h in header)
    exec(f"def {name}({py_params}):\n    pass\n", namespace)
    fn = namespace[name]
    result = JITFunction(fn, do_not_specialize=dns, do_not_specialize_on_alignment=dnsa)
    result._file = kernel._file
    result._text_of = lambda baked: _source.kernel_text(
        kernel.fn, kernel._file, kernel.src, result.params, baked,
        extra=wrapper, name=name)
    return result
