"""The registered cases, one module per kernel family (importing this package
registers them all in suite.registry.REGISTRY)."""

from . import elementwise  # noqa: F401
