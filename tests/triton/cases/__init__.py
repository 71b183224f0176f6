"""The registered cases, one module per kernel family (importing this package
registers them all in suite.registry.REGISTRY)."""

from . import elementwise  # noqa: F401
from . import indexing  # noqa: F401
from . import reductions  # noqa: F401
from . import softmax  # noqa: F401
from . import norms  # noqa: F401
from . import activations  # noqa: F401
from . import losses  # noqa: F401
from . import rotary  # noqa: F401
from . import dropout  # noqa: F401
from . import attention  # noqa: F401
from . import matmul  # noqa: F401
from . import quant  # noqa: F401
from . import scans  # noqa: F401
from . import select  # noqa: F401
from . import inline_asm  # noqa: F401
from . import mxfp  # noqa: F401
from . import mapped  # noqa: F401
