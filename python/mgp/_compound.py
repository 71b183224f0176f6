"""Compound arguments: tuples and host tensor descriptors.

Triton flattens a tuple passed to a kernel parameter into its elements, each
specialized like an argument of its own (a tensor is a pointer, an int a
scalar or the constexpr 1, None a constexpr), and the kernel indexes the
tuple (``t[0]``). A host ``TensorDescriptor`` (``triton.tools.
tensor_descriptor``: base tensor, shape, strides, block shape, padding)
arrives in the kernel as a descriptor it loads and stores blocks through
(``desc.load([i, j])``). mgp's signatures have neither, so a launch with
such arguments goes to a variant kernel over the flattened leaves,
``_mgp_tuple_<name>(t__0, t__1, d__2, d__3, ..., n)``, whose text calls the
kernel with the compounds rebuilt (``name((t__0, t__1),
tl.make_tensor_descriptor(d__2, (d__3, d__4), (d__5, d__6), (64, 64)), n)``);
mgp inlines the call. A descriptor's block shape and padding are part of the
variant's text, its base, shape and strides are arguments (specialized as
Triton specializes integers). On a GPU with TMA a descriptor whose view
allows it also passes its tensor map (``_tensor_map=d__7``, a 128-byte device
tensor, mgp/_tensor_map.py). One variant per structure of the compounds.
"""

from . import _source, _tensor_map


def is_descriptor(value):
    """Whether ``value`` is a host tensor descriptor (Triton's
    ``TensorDescriptor`` or any object with its fields)."""
    return type(value).__name__ == "TensorDescriptor" and all(
        hasattr(value, f) for f in ("base", "shape", "strides", "block_shape"))


class _Descriptor(tuple):
    """The structure of a descriptor argument: (rank, block shape, padding,
    whether it has a TMA tensor map, mgp/_tensor_map.py)."""


def _descriptor_structure(desc):
    rank = len(desc.shape)
    block = tuple(int(b) for b in desc.block_shape)
    padding = getattr(desc, "padding", "zero")
    if len(desc.strides) != rank or len(block) != rank:
        raise TypeError(f"tensor descriptor: shape {tuple(desc.shape)}, strides "
                        f"{tuple(desc.strides)} and block shape {block} differ in rank")
    if padding not in ("zero", "nan"):
        raise TypeError(f"tensor descriptor: padding must be 'zero' or 'nan', got {padding!r}")
    tma = _tensor_map.tensor_map(desc, block, padding) is not None
    return _Descriptor((rank, block, padding, tma))


def structure(value):
    """The nesting of a value: None for a leaf, a tuple of the elements'
    structures for a tuple, a _Descriptor for a tensor descriptor."""
    if isinstance(value, tuple):
        return tuple(structure(v) for v in value)
    if is_descriptor(value):
        return _descriptor_structure(value)
    return None


def flatten(value, shape):
    """The leaves of ``value``, whose structure is ``shape``."""
    if isinstance(shape, _Descriptor):
        rank, block, padding, tma = shape
        leaves = ([value.base] + [int(s) for s in value.shape] +
                  [int(s) for s in value.strides])
        if tma:
            leaves.append(_tensor_map.tensor_map(value, block, padding))
        return leaves
    if isinstance(shape, tuple):
        return [leaf for v, s in zip(value, shape) for leaf in flatten(v, s)]
    return [value]


def _names_and_expression(name, shape, names):
    """Parameter names for the leaves of ``shape`` (appended to ``names``)
    and the expression that rebuilds the compound from them."""
    if shape is None:
        leaf = f"{name}__{len(names)}"
        names.append(leaf)
        return leaf
    if isinstance(shape, _Descriptor):
        rank, block, padding, tma = shape
        base = _names_and_expression(name, None, names)
        dims = [_names_and_expression(name, None, names) for _ in range(rank)]
        strides = [_names_and_expression(name, None, names) for _ in range(rank)]
        tensor_map = (f", _tensor_map={_names_and_expression(name, None, names)}"
                      if tma else "")
        as_tuple = lambda items: "(" + "".join(f"{i}, " for i in items) + ")"
        return (f"{_source.TL}.make_tensor_descriptor({base}, {as_tuple(dims)}, "
                f"{as_tuple(strides)}, {as_tuple(block)}, padding_option={padding!r}"
                f"{tensor_map})")
    items = [_names_and_expression(name, s, names) for s in shape]
    return "(" + "".join(item + ", " for item in items) + ")"


def has_compounds(kernel, values):
    return any(isinstance(values[p.num], tuple) or is_descriptor(values[p.num])
               for p in kernel.params if not p.is_constexpr)


def variant(kernel, values):
    """The kernel over the flattened leaves of this launch's compound
    arguments (made once per structure) and the flattened argument values."""
    shapes = tuple(None if p.is_constexpr else structure(values[p.num])
                   for p in kernel.params)
    found = kernel._tuple_variants.get(shapes)
    if found is None:
        found = kernel._tuple_variants[shapes] = _make_variant(kernel, shapes)
    flat = []
    for p, shape in zip(kernel.params, shapes):
        flat += flatten(values[p.num], shape)
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
